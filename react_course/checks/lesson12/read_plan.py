"""12.read_plan as a spec: a planner's reply read as ``tool: input`` lines.

The key is the library's ``structure.read_plan`` (the lesson calls it the library's
version; its ``PLAN_LINE`` is the statement's line, so the two cannot drift apart).
The generator writes plans line by line from the statement's space: a tool of the
allowed characters or not (a hyphen, a leading digit, an accented letter, a space
inside), either case, a number and a dot of one or more digits or a look-alike
(``2)``, bullets, ``1.2.``), spaces and tabs around the tool and the colon, inputs
holding colons or nothing, prose, and limits of 0 and more.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

from ...lessons.structure import read_plan
from ..generated import Draw
from ..plain import Raised
from ..spec import GENERATED, Example, Fault, Rule, Spec, define

TOOLS = ("search", "calculate", "get_order2", "_lookup", "Search", "GET_ORDER", "x")
NOT_TOOLS = ("search-web", "2nd", "café", "get order", "9")
INPUTS = ("SpaceX", "330 - 93", "88213", "Note: late", "", "  padded  ", "a\tb")
NUMBERS = ("", "1. ", "2.", "10. ", "12.\t", "007. ")
NOT_NUMBERS = ("2) ", "- ", "* ", "• ", "1.2. ", "a. ", "٣. ", "1٠. ")
SPACES = ("", " ", "  ", "\t")
PROSE = ("First I look things up.", "", "  ", "Then compare the two heights.", "The plan:")


def _line(draw: Draw) -> str:
    kind = draw.below(4)
    if kind == 3:
        return draw.pick(PROSE)
    number = draw.pick(NOT_NUMBERS if kind == 1 else NUMBERS)
    tool = draw.pick(NOT_TOOLS if kind == 2 else TOOLS)
    return f"{draw.pick(SPACES)}{number}{tool}{draw.pick(SPACES)}:{draw.pick(SPACES)}{draw.pick(INPUTS)}"


def _has(pattern: str) -> Callable[[tuple], bool]:
    return lambda args: any(re.match(pattern, line) for line in args[0].splitlines())


ONE = "Each line of the form `tool: input` is one call"
LOOK_ALIKES = r"\s*(?:[0-9]+\)|[-*•]|1\.2\.|a\.)"
TWO_DIGITS = r"\s*[0-9]{2,}\."
NOT_A_TOOL = r"\s*(?:[0-9]+\.\s*)?(?:search-web|2nd|café|get order|9)\s*:"
CASED = r"\s*(?:[0-9]+\.\s*)?(?:Search|GET_ORDER|_lookup)\s*:"
SPACE_BEFORE = r"[^:]*\w[ \t]+:"
TWO_COLONS = r"[^:]*:.*:"
OTHER_DIGITS = r"\s*(?=\d*[^\x00-\x7f])\d+\."  # a number with digits that are not ASCII ones: '٣.'

RULES = (
    Rule(ONE, ("two calls", GENERATED), edge=lambda a: len(read_plan(a[0], 99)) >= 2),
    Rule("in the order the lines come", ("two calls",)),
    Rule("starting with a letter or an underscore", ("the characters of a tool", GENERATED),
         edge=_has(NOT_A_TOOL)),
    Rule("either case", ("the characters of a tool", GENERATED), edge=_has(CASED)),
    Rule("spaces around the tool and the input are stripped", ("spaces around the tool and the colon",
                                                               GENERATED), edge=_has(r".*:\s*\S.*\s$")),
    Rule("before the colon too", ("spaces around the tool and the colon", GENERATED),
         edge=_has(SPACE_BEFORE)),
    Rule("An input may be empty", ("an empty input",), edge=_has(r"\s*\w+\s*:\s*$")),
    Rule("may start with a number", ("numbered lines",), edge=_has(OTHER_DIGITS)),  # "ASCII digits"
    Rule("`10.` too", ("a number of two digits", GENERATED), edge=_has(TWO_DIGITS)),
    Rule("`2)` and bullets", ("a parenthesis or a bullet is not a number and a dot", GENERATED),
         edge=_has(LOOK_ALIKES)),
    Rule("Any other line", ("prose between the calls",), edge=_has(r"[^:]*$")),
    Rule("Only the first colon splits", ("a colon inside the input", GENERATED), edge=_has(TWO_COLONS)),
    Rule("At most `limit` calls", ("a plan longer than the limit", "a limit of 0: no calls", GENERATED),
         edge=lambda a: a[1] == 0 and bool(read_plan(a[0], 9))),
)


def _reader(number: str = r"[0-9]+\.", tool: str = r"[A-Za-z_][A-Za-z0-9_]*", before: str = r"\s*",
            rest: str = r"(.*?)\s*") -> Callable[[str, int], list[tuple[str, str]]]:
    """A read_plan that reads one part of a line another way: a known mistake, for a fault's ``like``."""
    line = re.compile(rf"^\s*(?:{number}\s*)?({tool}){before}:\s*{rest}$")
    return lambda text, limit: [m.groups() for m in map(line.match, text.splitlines()) if m][:max(0, limit)]


def _like(rule: str, says: str, *readers: Callable[..., object]) -> tuple[Fault, ...]:
    return tuple(Fault(rule, says, like=reader) for reader in readers)


def _calls(args: tuple, pattern: str, drop: str = "") -> Counter:
    """The calls the key reads on the lines matching ``pattern`` (with ``drop`` cut from their start)."""
    return Counter(call for line in args[0].splitlines() if re.match(pattern, line)
                   for call in read_plan(re.sub(drop, "", line, count=1), 1))


def _extra(args: tuple, want: list, got: list, pattern: str = "", drop: str = "") -> bool:
    """Did the student read a call the key does not (from the lines ``pattern`` matches, if given)?"""
    extra = Counter(map(tuple, got)) - Counter(want)
    return bool(extra & _calls(args, pattern, drop)) if pattern else bool(extra)


def _missing(pattern: str) -> Callable[[tuple, list, list], bool]:
    return lambda args, want, got: bool(_calls(args, pattern) - Counter(map(tuple, got)))


def _tools(holds: Callable[[str], bool], of: str = "got") -> Callable[[tuple, list, list], bool]:
    def found(args: tuple, want: list, got: list) -> bool:
        extra, missing = Counter(map(tuple, got)) - Counter(want), Counter(want) - Counter(map(tuple, got))
        return any(holds(tool) for tool, _ in (extra if of == "got" else missing))
    return found


TOOL = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
NUMBER_SAYS = ("Only a number and a dot may come before the tool: a line starting '2)', '- ' or '* ' is not "
               "of the form tool: input, so it is skipped.")
DIGITS_SAYS = ("A number is one or more digits: '10.' and '007.' start a call as '2.' does ([0-9]+, not one "
               "digit).")
ASCII_SAYS = "A number is ASCII digits ([0-9], not \\d, which matches other scripts' digits too) and a dot."
TOOL_SAYS = ("A tool is ASCII letters, digits and underscores, starting with a letter or an underscore: "
             "'search-web', '2nd' and 'café' are not tools, so their lines are skipped.")
PROSE_SAYS = "A line of prose is not a call, even with a colon in it: a tool name is one word."
CASE_SAYS = "'Search', 'GET_ORDER' and '_lookup' are tools: keep each tool exactly as written."
SPACE_SAYS = "Spaces around the tool are stripped, before the colon too: 'search : x' is ('search', 'x')."
COLON_SAYS = "Split at the first colon only: the input keeps its own colons."
STRIP_SAYS = "Strip the spaces (tabs too) around the tool and the input, and keep those inside it."

FAULTS = (
    Fault(ONE, "read_plan must not raise on any text: a line that is not a call is skipped.",
          found=lambda args, want, got: isinstance(got, Raised)),
    Fault(ONE, "Return each call as a (tool, input) tuple, in a list.",
          found=lambda args, want, got: type(got) is not list or any(type(c) is not tuple for c in got)),
    Fault("At most `limit` calls", "Keep only the first `limit` calls; a limit of 0 means no calls at all "
          "(not 'no limit').", found=lambda args, want, got: len(got) > args[1]),
    Fault("in the order the lines come", "Keep the calls in the order of their lines.",
          found=lambda args, want, got: got != want and sorted(got) == sorted(want)),
    *_like("`2)` and bullets", NUMBER_SAYS, _reader(number=r"[0-9]+[.)]"),
           _reader(number=r"(?:[0-9]+\.|[-*•])")),
    *_like("`10.` too", DIGITS_SAYS, _reader(number=r"[0-9]\.")),
    *_like("may start with a number", ASCII_SAYS, _reader(number=r"\d+\.")),
    *_like("starting with a letter or an underscore", TOOL_SAYS, _reader(tool=r"[A-Za-z_][\w-]*"),
           _reader(tool=r"[A-Za-z0-9_]+"), _reader(tool=r"[^\W\d]\w*")),
    *_like("either case", CASE_SAYS, _reader(tool=r"[a-z_][a-z0-9_]*"),
           _reader(tool=r"[A-Za-z][A-Za-z0-9_]*")),
    *_like("before the colon too", SPACE_SAYS, _reader(before="")),
    Fault("`2)` and bullets", NUMBER_SAYS, found=lambda args, want, got: _extra(
        args, want, got, LOOK_ALIKES, r"^\s*(?:[0-9]+\)|[-*•]|1\.2\.|a\.)\s*")),
    Fault("may start with a number", ASCII_SAYS,
          found=lambda args, want, got: _extra(args, want, got, OTHER_DIGITS, r"^\s*\d+\.\s*")),
    Fault("Any other line", PROSE_SAYS, found=_tools(lambda tool: bool(re.search(r"\s", tool)))),
    Fault("starting with a letter or an underscore", TOOL_SAYS,
          found=_tools(lambda tool: not TOOL.fullmatch(tool))),
    Fault("either case", CASE_SAYS, found=_tools(lambda tool: tool != tool.lower() or tool.startswith("_"),
                                                 of="want")),
    Fault("either case", CASE_SAYS, found=lambda args, want, got: [c[0].lower() for c in got] == [
        c[0].lower() for c in want] and [c[1] for c in got] == [c[1] for c in want]),
    Fault("`10.` too", DIGITS_SAYS, found=_missing(TWO_DIGITS)),
    Fault("may start with a number", "Planners number their steps: a number and a dot before the tool are "
          "skipped, and the line is a call.", found=_missing(r"\s*[0-9]+\.")),
    Fault("before the colon too", SPACE_SAYS, found=_missing(SPACE_BEFORE)),
    Fault("Only the first colon splits", COLON_SAYS, found=lambda args, want, got: [c[0] for c in got] == [
        c[0] for c in want] and any(":" in w[1] and g[1] != w[1] for g, w in zip(got, want, strict=True))),
    Fault("spaces around the tool and the input are stripped", STRIP_SAYS, found=lambda args, want, got: [
        c[0] for c in got] == [c[0] for c in want] and [c[1].strip() for c in got] == [c[1] for c in want]),
    Fault("spaces around the tool and the input are stripped", STRIP_SAYS, found=_missing(r"\s+\S|.*\S\s+$")),
    Fault("An input may be empty", "A tool and a colon with nothing after is a call with the input ''.",
          found=lambda args, want, got: any(c[1] == "" for c in Counter(want) - Counter(map(tuple, got)))),
    Fault(ONE, "Every line of the form tool: input is one call, each line once: no call from an earlier "
          "plan, none left out.", found=lambda args, want, got: True),
)


def _plan(name: str, text: str, limit: int, hint: str) -> Example:
    return Example(name, (text, limit), hint)


EXAMPLES = (
    _plan("two calls", "search: Eiffel Tower\nsearch: Statue of Liberty", 6,
          "One call per line, in order, as (tool, input) tuples."),
    _plan("numbered lines", "1. price: pen\n2.  price: ruler", 6, "Planners number their steps: skip the "
          "number and dot."),
    _plan("a number of two digits", "9. search: a\n10. search: b\n11.calculate: 2 + 3", 6,
          "A number is one or more digits: '10.' starts a call as '9.' does."),
    _plan("a parenthesis or a bullet is not a number and a dot", "1) search: a\n- search: b\n* search: c\n"
          "search: d", 6, "Only a number and a dot may come before the tool; '1)', '- ' and '* ' lines are "
          "skipped."),
    _plan("the characters of a tool", "search-web: a\n2nd: b\ncafé: c\nget_order2: 88213\n_lookup: x\n"
          "Search: Tesla", 6, "ASCII letters of either case, digits and underscores, not starting with a "
          "digit: a hyphen or an accented letter makes a line that is not a call."),
    _plan("spaces around the tool and the colon", " search : SpaceX \n\tcalculate\t:\t2 + 3\t", 6,
          "Strip the spaces around the tool (before the colon too) and around the input."),
    _plan("an empty input", "search:\nsearch: x", 6, "A tool and a colon with nothing after: input ''."),
    _plan("prose between the calls", "I will look both up.\nsearch: SpaceX\n\nThen the other one:\n search: "
          "Tesla ", 6, "A line of prose is not a call, even if it ends with a colon: a tool name is one "
          "word."),
    _plan("a colon inside the input", "search: Note: the 30-minute rule", 6,
          "The input is everything after the first colon, colons included."),
    _plan("a plan longer than the limit", "\n".join(f"search: page {i}" for i in range(5)), 2,
          "Keep the first `limit` calls: the plan must leave the loop some steps."),
    _plan("a limit of 0: no calls", "search: a\nsearch: b", 0, "A limit of 0 allows no calls: return [], not "
          "every call."),
)
HIDDEN = (
    _plan("hidden: a numbered plan of twelve", "\n".join(f"{n}. calculate: {n} * 2" for n in range(1, 13)),
          11, "Every number of digits and a dot starts a call; keep the first `limit`."),
    _plan("hidden: look-alikes and tabs", "3)\tsearch: x\n\t04.\tGET_ORDER\t:\t: 7 :\n-search: y\nnote-to: z",
          6, "Only a number and a dot, a tool of the allowed characters, the first colon."),
)

SPEC = define(Spec(
    "12.read_plan", "a planner's reply read as tool: input lines", "read_plan", read_plan, EXAMPLES,
    lambda draw: ("\n".join(draw.many(_line, 7)), draw.pick((6, 0, 1, 2, 3))), RULES, faults=FAULTS,
    hidden=HIDDEN,
    hints=("Match each line against a pattern: an optional number and a dot, a tool name, a colon, the rest.",
           "Split at the first colon only, strip the spaces around both parts, and stop at `limit` calls."),
    generated_hint="Compare your calls with the expected ones line by line: which line did you read "
                   "differently, and which rule of the statement says how to read it?"))
__all__ = ["SPEC"]
