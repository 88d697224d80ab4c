"""04.run_tool as a spec: run a tool by its exact name; every failure becomes an observation.

The key is the library's ``ToolRegistry.run``, which agrees with the statement on every
text but one that is a JSON object or ``name="..."`` (it unwraps those, for a tool of one
parameter, as the lesson says): the generated texts leave those out. The arguments are plain data: each
tool as what it returns, ``("raises", type, message)``, or ``("runs", behaviour)``
for one of a few tools that read their input; ``observe`` builds sample tools that
record which of them ran, so a check can tell a tool run by a guessed name (the
wrong tool, perhaps a harmful one) from an unknown name reported back to the model.
The observation is judged on what the statement fixes, not compared word for word.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ...tools.registry import ToolRegistry
from ..generated import Draw
from ..plain import Opaque, Raised
from ..spec import GENERATED, Example, Fault, Rule, Spec, define
from ..values import describe


class Oddity(Exception):
    """An exception the student cannot have listed: run_tool must catch Exception itself."""


ERRORS = {kind.__name__: kind for kind in (ValueError, KeyError, ZeroDivisionError, RuntimeError, Oddity)}
BEHAVIOURS = {"price": lambda t: "A pen costs 2." if t == "pen" else "?", "double": lambda t: 2 * int(t),
              "whole number": lambda t: str(int(t)), "share": lambda t: str(100 // int(t))}
# Any of these, as whole words, says that nothing came back (the library writes "returned no result").
NOTHING_WORDS = ("nothing", "no result", "no value", "no data", "no output", "empty", "returned no")


def _tool(name: str, does: Any, ran: list[str]) -> Callable[[str], Any]:
    def tool(query: str) -> Any:  # called with the text as its one argument, not by a keyword
        ran.append(name)
        if isinstance(does, tuple) and does[0] == "raises":
            raise ERRORS[does[1]](*does[2:])  # ("raises", "Oddity"): a bare exception, no message
        return BEHAVIOURS[does[1]](query) if isinstance(does, tuple) else does
    return tool


def key(tools: dict, name: str, text: str) -> str:
    return ToolRegistry(tools, strict=False).run(name, text)


def observe(function: Any, args: tuple) -> dict[str, Any]:
    specs, name, text = args
    ran: list[str] = []
    try:
        got = function({n: _tool(n, does, ran) for n, does in specs.items()}, name, text)
    except NotImplementedError:
        raise
    except Exception as error:  # the student's error is what came back, with the tools it ran
        got = Raised.of(error)
    plain = got is None or isinstance(got, str | int | float | Raised | list | dict)
    return {"observation": got if plain else Opaque(describe(got)), "tools run": ran}


def _empty(result: Any) -> bool:
    return result is None or (isinstance(result, list | dict) and not result) or (
        isinstance(result, str) and not result.strip())


def _says_nothing(observation: str) -> bool:
    return any(re.search(rf"\b{word}\b", observation.lower()) for word in NOTHING_WORDS)


def compare(args: tuple, expected: Any, got: dict) -> bool | str:
    specs, name, text = args
    observation, ran = got["observation"], got["tools run"]
    if not isinstance(observation, str) or not observation.strip():
        return "run_tool must always return text for the model to read, and never blank text"
    if name not in specs:
        if ran:
            return f"it ran {ran[0]!r} for the unknown name {name!r}: run only a tool named exactly"
        missing = [n for n in specs if n not in observation]
        return (name in observation and not missing) or (
            f"say that {name!r} is unknown and list every real tool ({', '.join(specs)})")
    outcome = _outcome(specs[name], text)
    if outcome[0] == "raised":
        _, kind, message = outcome
        rest = observation
        for said in (kind, message, name):
            rest = rest.replace(said, " ") if said else rest
        return (kind in observation and message in observation and len(re.findall(r"[A-Za-z]{2,}", rest)) >= 4
                ) or f"give the exception's type ({kind}), its message ({message}) and what to change"
    result = outcome[1]
    if _empty(result):
        return (_says_nothing(observation) and name in observation) or (
            f"say in words that {name} returned nothing, with one of: {', '.join(NOTHING_WORDS)}")
    if observation != str(result) and _says_nothing(observation):
        return (f"the tool returned {result!r}, a real result, but the observation says nothing came back: "
                f"`if not result` is true for {result!r} too")
    return observation == str(result) or f"expected exactly {str(result)!r}, str(result)"


def _outcome(does: Any, text: str) -> tuple:
    """What a sample tool does on ``text``: ("result", value) or ("raised", type name, message)."""
    try:
        return ("result", _tool("", does, [])(text))
    except Exception as error:
        return ("raised", type(error).__name__, str(error))


CALL = "runs `tools[name](text)`"
ALWAYS = "always returns text for the model to read"
NEVER = "it never raises"
STR = "the result as text: `str(result)`"
UNKNOWN = "`name` is not in `tools`"
EXACT = "Run only a tool whose name matches"
LOWER = "Do not lower-case the name or look for the closest one"
ERROR = "the exception's type, its message and a suggestion of what to change"
EMPTY = "it returned `None`, blank text, or an empty list or dict"
WORDS = "name the tool, and use one of the words"
FALSY = "A result such as `0` or `False` is a result"


def _seen(test: Callable[[dict, str, Any, Any, list], bool]) -> Callable[[tuple, Any, Any], bool]:
    """A fault read from (the tools, the name called, the tool's result, the observation, the tools run)."""
    return lambda args, want, got: bool(test(args[0], args[1], _result(*args), got["observation"],
                                             got["tools run"]))


def _result(specs: dict, name: str, text: str) -> Any:
    """The tool's result on ``text`` ("unknown" for an unknown name, "raised" when it raised)."""
    if name not in specs:
        return "unknown"
    outcome = _outcome(specs[name], text)
    return outcome[1] if outcome[0] == "result" else "raised"


FAULTS = (
    Fault(CALL, "Run the tool on every call, as tools[name](text): the text as its one positional argument "
                "(a tool's parameter can have any name), nothing kept from an earlier call.",
          _seen(lambda s, n, x, o, r: n in s and not r)),
    Fault(NEVER, "run_tool never raises: catch Exception around the call (a tool can raise anything), and "
                 "answer an unknown name with text.", _seen(lambda s, n, x, o, r: isinstance(o, Raised))),
    Fault(LOWER, "Look the name up exactly (`name in tools`): a name in another case is a slip the model "
                 "must see, not one to correct for it.",
          _seen(lambda s, n, x, o, r: n not in s and r and r[0].lower() == n.lower())),
    Fault(EXACT, "Run only a tool whose name matches exactly: the closest name can be another tool (refund "
                 "is closest to refund_order, which pays money out).",
          _seen(lambda s, n, x, o, r: n not in s and r)),
    Fault(UNKNOWN, "Return e.g. \"Unknown tool 'get_price'. Available tools: price, calculate.\": the "
                   "unknown name and ', '.join(tools).", _seen(lambda s, n, x, o, r: n not in s)),
    Fault(ERROR, "Report the exception as f\"{name} failed with {type(error).__name__}: {error}. Check the "
                 "input against the tool description.\"",
          _seen(lambda s, n, x, o, r: x == "raised")),
    Fault(EMPTY, "None, blank text, [] and {} are no answer: say in words that the tool returned nothing "
                 "(str({}) is '{}', which reads as 'all is well').",
          _seen(lambda s, n, x, o, r: _empty(x) and (
              not isinstance(o, str) or o.strip() in ("", "[]", "{}", "None")
              or (n in o and not _says_nothing(o))))),
    Fault(WORDS, "Name the tool and use one of the words the statement lists, e.g. \"get_order returned "
                 "nothing for '88219'.\"", _seen(lambda s, n, x, o, r: _empty(x))),
    Fault(FALSY, "0 and False are results: test `result is None`, blank text and empty containers, not "
                 "`if not result`.",
          _seen(lambda s, n, x, o, r: type(x) in (int, float, bool) and not x and isinstance(o, str)
                and _says_nothing(o))),
    Fault(STR, "Return str(result) exactly as it is: no strip(), no change of case, nothing added, nothing "
               "remembered from an earlier call.",
          _seen(lambda s, n, x, o, r: x not in ("unknown", "raised") and not _empty(x) and isinstance(o, str)
                and o != str(x) and not _says_nothing(o))),
)


def _call(name: str, tools: dict, called: str, text: str, hint: str) -> Example:
    return Example(name, (tools, called, text), hint)


SHOP = {"price": ("runs", "price"), "calculate": "16"}
POLICY = {"get_policy": "[late delivery] The fee is refunded.", "refund_order": "Refund issued."}
EXAMPLES = (
    _call("runs the named tool", SHOP, "price", "pen", "Call tools[name](text) and return its result."),
    _call("a result that is not text becomes text", {"double": ("runs", "double")}, "double", "21",
          "Return str(result): an observation is always text."),
    _call("unknown name: say so and list the real tools", SHOP, "get_price", "pen",
          "Return e.g. \"Unknown tool 'get_price'. Available tools: price, calculate.\""),
    _call("a name in the wrong case is not run", SHOP, "Price", "pen", "Look the name up exactly."),
    _call("the closest name is a different, harmful tool", POLICY, "refund", "late delivery",
          "'refund' is closest to 'refund_order', which pays money out: run only exact names."),
    _call("an exception becomes an observation", {"price": ("raises", "KeyError", "pens")}, "price", "pens",
          "Catch Exception and return e.g. \"price failed with KeyError: 'pens'. Check the input ...\""),
    _call("bad input raised inside the tool", {"get_order": ("runs", "whole number")}, "get_order",
          "eighty-eight", "Report type(error).__name__ and str(error), then what to change."),
    _call("a tool that returns None", {"get_order": None}, "get_order", "88219",
          "Return e.g. \"get_order returned nothing for '88219'.\", never None or ''."),
    _call("a tool that returns blank text", {"get_order": "  "}, "get_order", "88219",
          "A blank string is no answer either: check `not str(result).strip()`."),
    _call("any exception becomes an observation (ZeroDivisionError)", {"share": ("runs", "share")}, "share",
          "0",
          "run_tool never raises: catch Exception, not a list of the errors you thought of."),
    _call("a tool that returns an empty dict (the lesson's order 88219)", {"get_order": {}}, "get_order",
          "88219", "str({}) is '{}', which reads as 'all is well': check for an empty container first."),
    _call("a tool that returns 0: a result, not nothing", {"count_late": 0}, "count_late", "orders today",
          "0 is an answer: `if not result` treats it as nothing."),
    _call("a tool that returns False: a result, not nothing", {"is_late": False}, "is_late", "88213",
          "False is an answer too: compare with `result is None`, not `not result`."),
    _call("a tool that returns an empty list", {"find_orders": []}, "find_orders", "customer 7",
          "An empty list is no answer either: str([]) is '[]'."),
)
HIDDEN = (
    _call("hidden case 1", {"größe": ("raises", "Oddity", "kaputt"), "price": "x"}, "größe", "M",
          "Catch Exception."),
    _call("hidden case 2", {"lookup": [], "today": "Monday"}, "Lookup", "", "Exact names only."),
    _call("hidden case 3", {"count": 0.0, "today": "Monday"}, "count", "x", "0.0 is a result."),
)

RESULTS = ("A pen costs 2.", 0, False, 42, 3.5, "0", "  ", "", None, [], {}, [0], {"id": 7}, "Zürich ✓",
           ("raises", "ValueError", "bad literal"), ("raises", "KeyError", "pens"),
           ("raises", "Oddity", "the tool broke"), ("raises", "ZeroDivisionError", "z"),
           ("raises", "RuntimeError", "ünïcode fault"), ("raises", "Oddity"), ("runs", "double"),
           ("runs", "price"),
           " 0.5 kg\n", "pen: 2 EUR")
NAMES = ("price", "get_order", "refund_order", "calculate", "größe")


def inputs(draw: Draw) -> tuple:
    names = list(dict.fromkeys(draw.pick(NAMES) for _ in range(1 + draw.below(3))))
    tools = {name: draw.pick(RESULTS) for name in names}
    called = draw.pick((names[0], names[-1], names[0].upper(), names[0][:-1], "get_price", f"{names[0]} "))
    # Not a JSON object nor name="...": the library's run unwraps those for a tool of one parameter
    # (the lesson says so), where the statement passes the text on as it is.
    return tools, called, draw.pick(("pen", "", "88219", "東京", "{item: pen}", "21", " pen "))


def _known(args: tuple) -> Any:
    return args[0].get(args[1], "unknown")


RULES = (
    Rule(CALL, ("runs the named tool", GENERATED), edge=lambda a: a[1] in a[0] and a[2] == "21"),
    Rule(ALWAYS, ("a result that is not text becomes text", "runs the named tool", GENERATED),
         edge=lambda a: a[1] in a[0] and not isinstance(_known(a), str | tuple)),
    Rule(NEVER, ("any exception becomes an observation (ZeroDivisionError)",
                 "an exception becomes an observation", "unknown name: say so and list the real tools",
                 GENERATED),
         edge=lambda a: _known(a) == ("raises", "Oddity")),
    Rule(STR, ("a result that is not text becomes text", "a tool that returns 0: a result, not nothing",
               GENERATED), edge=lambda a: a[1] in a[0] and _known(a) == " 0.5 kg\n"),
    Rule(UNKNOWN, ("unknown name: say so and list the real tools", GENERATED),
         edge=lambda a: a[1] not in a[0]),
    Rule(EXACT, ("a name in the wrong case is not run", "the closest name is a different, harmful tool",
                 GENERATED),
         edge=lambda a: a[1] not in a[0] and any(n.startswith(a[1].strip()) for n in a[0])),
    Rule(LOWER, ("a name in the wrong case is not run", "the closest name is a different, harmful tool",
                 GENERATED),
         edge=lambda a: a[1] not in a[0] and any(n.lower() == a[1].lower() for n in a[0])),
    Rule(ERROR, ("an exception becomes an observation", "bad input raised inside the tool", GENERATED),
         edge=lambda a: isinstance(_known(a), tuple) and _known(a)[0] == "raises"),
    Rule(EMPTY, ("a tool that returns None", "a tool that returns blank text",
                 "a tool that returns an empty list",
                 "a tool that returns an empty dict (the lesson's order 88219)", GENERATED),
         edge=lambda a: a[1] in a[0] and _known(a) == {}),
    Rule(WORDS, ("a tool that returns None", GENERATED), edge=lambda a: a[1] in a[0] and _known(a) is None),
    Rule(FALSY, ("a tool that returns 0: a result, not nothing",
                 "a tool that returns False: a result, not nothing",
                 GENERATED), edge=lambda a: a[1] in a[0] and _known(a) is False),
)


def _show(args: tuple) -> str:
    tools = ", ".join(f"{n!r}: a tool that {_does(d)}" for n, d in args[0].items())
    return f"run_tool({{{tools}}}, {args[1]!r}, {args[2]!r})"


def _does(does: Any) -> str:
    if isinstance(does, tuple):
        if does[0] == "raises":
            return f"raises {does[1]}({', '.join(map(repr, does[2:]))})"
        return f"computes {does[1]}"
    return f"returns {does!r}"


def _show_value(got: Any) -> str:
    if not isinstance(got, dict) or "tools run" not in got:
        return describe(got)
    ran = ", ".join(dict.fromkeys(got["tools run"])) or "none"
    return f"returned {describe(got['observation'], 240)} (tools run: {ran})"


SPEC = define(Spec(
    "04.run_tool", "run a tool by exact name; every failure becomes an observation", "run_tool", key,
    EXAMPLES, inputs, RULES, faults=FAULTS, hidden=HIDDEN, observe=observe, compare=compare, show=_show,
    show_value=_show_value, hints=(
        "Start with `if name not in tools:` and return a text that lists ', '.join(tools). "
        "Never look for a similar name: not lower-casing, not difflib.",
        "Wrap only the call in try/except Exception as error, and use type(error).__name__ and "
        "str(error) in the text you return.",
        "After the call, if the result is None, blank text or an empty list or dict, say in words "
        "that the tool returned nothing (name the tool); otherwise return str(result). Not "
        "`if not result`: 0 and False are results.",
    ),
    generated_hint="Exact names only; catch Exception (a tool can raise anything); say 'nothing' for None, "
                   "blank text, [] and {}; any other result, 0 and False too, is str(result)."))
__all__ = ["SPEC", "key"]
