"""06.provenance as a spec: every id in a tool call must come from the question or an observation.

The key is here, not the library's: ``safety.check_provenance`` (the loops' check) also
counts codes such as ``AB-1234`` as ids, takes any script's digits (``\\d``) and reads a
number glued to letters as no id, which the statement does not. The generated inputs are
plain text and JSON arguments (ids under any key, in lists, after ``#``), seen texts with
ids glued to letters, digits of other scripts (``٣``, ``８``, ``²``), ids inside longer
ids, and ids of up to ten digits.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from ..generated import Draw
from ..spec import GENERATED, Example, Fault, Rule, Spec, define

ID = re.compile(r"[0-9]{3,}")  # ASCII digits only: "٣٣٣" (Arabic-Indic digits) is not an id


def key(arguments: str, seen: Sequence[str]) -> str | None:
    """The answer key: whole runs of three or more ASCII digits, compared as sets."""
    known = {found for text in seen for found in ID.findall(text)}
    missing = list(dict.fromkeys(i for i in ID.findall(arguments) if i not in known))
    if not missing:
        return None
    return f"Refused: {', '.join(missing)} never appeared in the question or an observation."


def compare(args: tuple, expected: str | None, got: Any) -> bool | str:
    """None when every id was seen; else any non-empty text naming each unseen id as a whole number."""
    if expected is None:
        return got is None or "every id was seen: expected None"
    if not isinstance(got, str) or not got.strip():
        return "expected a refusal text"
    absent = [i for i in ID.findall(expected) if i not in ID.findall(got)]
    return not absent or f"the refusal should name {absent} (as whole numbers)"


def _with(pattern: str):
    """A wrong solution: ids found with ``pattern`` instead of whole runs of ASCII digits."""
    def wrong(arguments: str, seen: Sequence[str]) -> str | None:
        known = {i for text in seen for i in re.findall(pattern, text)}
        missing = [i for i in re.findall(pattern, arguments) if i not in known]
        return f"Refused: {', '.join(missing)}" if missing else None
    return wrong


def _substring(arguments: str, seen: Sequence[str]) -> str | None:
    missing = [i for i in ID.findall(arguments) if not any(i in text for text in seen)]
    return f"Refused: {', '.join(missing)}" if missing else None


def _under_id_keys(arguments: str, seen: Sequence[str]) -> str | None:
    try:
        values = json.loads(arguments)
    except ValueError:
        return key(arguments, seen)
    if not isinstance(values, dict):
        return key(arguments, seen)
    return key(" ".join(str(v) for k, v in values.items() if k.endswith("_id")), seen)


def _as_numbers(arguments: str, seen: Sequence[str]) -> str | None:
    """A wrong solution: ids compared as numbers, so 088213 passes for 88213."""
    known = {int(i) for text in seen for i in ID.findall(text)}
    missing = [i for i in ID.findall(arguments) if int(i) not in known]
    return f"Refused: {', '.join(missing)}" if missing else None


def _nowhere(args: tuple, expected: Any, got: Any) -> bool:
    """None though no text of this call holds a digit at all: the ids came from somewhere else."""
    return got is None and expected is not None and not any(re.search("[0-9]", text) for text in args[1])


def _words(arguments: str, seen: Sequence[str]) -> str | None:
    """A wrong solution: ids are the words of the arguments that are all digits."""
    return key(" ".join(word for word in arguments.split() if word.isascii() and word.isdigit()), seen)


EVERY = "every id in the arguments"
WHOLE = "as a whole number"
SEEN = "in the question or in an observation"
NAMES = "names each id that was never seen"
RUNS = "ids are runs of three or more digits"
DIGITS = "compared digit for digit"
FAULTS = (
    Fault("ASCII digits", "Only ASCII digits make an id: [0-9]{3,}, not \\d, which also matches ٣ and ８.",
          like=_with(r"\d{3,}")),
    Fault(RUNS, "A run of one or two digits is not an id: [0-9]{3,}.", like=_with(r"[0-9]+")),
    Fault(RUNS, "Three digits are enough for an id: [0-9]{3,}.", like=_with(r"[0-9]{4,}")),
    Fault(RUNS, "An id may be longer than five digits: [0-9]{3,}, with no upper bound.",
          like=_with(r"[0-9]{3,5}")),
    Fault(DIGITS, "Compare ids as texts of digits, not as numbers: 088213 is not 88213.", like=_as_numbers),
    Fault(WHOLE, "Compare whole ids: collect the ids of each text with the same pattern and look each "
          "argument id up among them; never `id in text` (8821 is inside 88213).", like=_substring),
    Fault(WHOLE, "An id glued to letters (A88219B) is still a run of digits: find runs with [0-9]{3,}, "
          "without \\b around them.", like=_with(r"\b[0-9]{3,}\b")),
    Fault(SEEN, "Only the texts of this call count: this id appears in none of them (a set kept between "
          "calls, such as a default argument, remembers ids from other runs).", found=_nowhere),
    Fault("whatever key of a JSON object it sits under", "Read the ids from the whole arguments text, "
          "whatever key or list they sit in.", like=_under_id_keys),
    Fault("whatever key of a JSON object it sits under", "Find the ids with a pattern, not by splitting "
          "at spaces: in JSON a number sits next to commas, colons and braces.", like=_words),
    Fault(WHOLE, "Look for ids in each seen text on its own: texts run together ('...88213' + '4417...') "
          "make one longer number.", like=lambda a, s: key(a, ["".join(s)])),
    Fault(EVERY, "Check every id in the arguments, not only the first.",
          like=lambda a, s: key((ID.findall(a) or [""])[0], s)),
    Fault(SEEN, "The question is seen too, and so is every observation, not only the latest.",
          like=lambda a, s: key(a, s[1:])),
    Fault(SEEN, "Every observation counts, not only the question and the latest one.",
          like=lambda a, s: key(a, [s[0], s[-1]] if s else [])),
    Fault("ASCII digits", "Only the ASCII digits 0 to 9 make an id: str.isdigit() and \\d also take ٣, ８ "
          "and ².", found=lambda args, want, got: any(c.isdigit() and not c.isascii()
                                                         for c in args[0] + "".join(args[1]))),
    Fault("Return `None` when every id was seen", "Return None itself when every id was seen, not False "
          "or an empty text.", found=lambda args, want, got: want is None and got is not None),
    Fault(NAMES, "Name every unseen id in the refusal, as whole numbers; return None only when all were "
          "seen.", found=lambda args, want, got: want is not None),
)

QUESTION = "Was my order 88213 delivered late? I want a refund."
OBSERVATION = ("Order 88213: status delivered; promised 18:00; delivered 19:02 (62 minutes late); "
               "item price 480 INR; delivery fee 25 INR.")
POLICY = "Late-delivery policy: the delivery fee is refunded when an order is 30 or more minutes late."
BOTH = [QUESTION, OBSERVATION]
EXAMPLES = (
    Example("an id from the question", ("88213", [QUESTION]), "88213 is in the question: return None."),
    Example("an id from an observation", ('{"order_id": 88213}', ["Refund?", OBSERVATION]),
            "88213 came back from get_order: return None."),
    Example("88219 was never seen", ("88219", BOTH), "No text of this run says 88219: refuse, and name it."),
    Example("8821 is not 88213", ("8821", BOTH), "'8821' in '... 88213 ...' is True for strings: compare "
            "whole numbers."),
    Example("088213 is not 88213", ("088213", BOTH), "Compare the digits as written, not int() of them."),
    Example("88213 is not 8821", ("88213", ["Order 8821 was delivered."]),
            "A longer number is not seen because a shorter one was."),
    Example("the second id is invented", ("88213, 88250", BOTH), "Check every id in the arguments."),
    Example("two invented ids, both named", ("88219 and 88250", BOTH),
            "Name every unseen id, not only the first one you find."),
    Example("a three-digit id is checked", ('{"order_id": 88213, "item_id": 731}', BOTH),
            "Three digits are enough for an id: [0-9]{3,}."),
    Example("an id from an earlier observation", ("88213", ["Refund my last order, please.", OBSERVATION,
                                                             POLICY]),
            "Every observation of the run counts, not only the latest one."),
    Example("a quantity of 2 is not an id", ('{"order_id": 88213, "quantity": 2}', [QUESTION]),
            "Only runs of three or more digits are ids."),
    Example("other scripts' digits are not ids", ('{"order_id": 88213, "note": "٣٣٣"}', [QUESTION]),
            "\\d matches any script's digits; ids are ASCII: [0-9]{3,}."),
    Example("an id under any key", ('{"order": 88219, "customer_id": 4417}', ["4417"]),
            "Look at the whole text, not only at keys that end in _id."),
    Example("an id seen in another call is not seen in this one", ("4417", ["No order was given."]),
            "Only this call's texts count: keep no set of ids between calls (not in a default argument)."),
)
HIDDEN = (
    Example("hidden: an id glued to letters was seen", ("88219", ["Ticket A88219B was opened."]),
            "A run of digits is an id wherever it sits."),
    Example("hidden: a ten-digit id", ('{"ref": 1234567890}', ["ref 123456789"]),
            "An id can be longer than five digits."),
    Example("hidden: an id in a list", ('{"items": [731, 88213]}', [QUESTION]), "Ids in a list count too."),
    Example("hidden: no ids at all", ("refund it", []), "No id in the arguments: nothing to refuse."),
)


def _inside_another(args: tuple) -> bool:
    known = {i for text in args[1] for i in ID.findall(text)}
    return any(i not in known and any(i in k or k in i for k in known) for i in ID.findall(args[0]))


RULES = (
    Rule(RUNS, ("a quantity of 2 is not an id", "a three-digit id is checked"),
         edge=lambda a: bool(re.search(r"(?<![0-9])[0-9]{3}(?![0-9])", a[0]))
         and bool(re.search(r"(?<![0-9])[0-9]{2}(?![0-9])", a[0]))),
    Rule("ASCII digits", ("other scripts' digits are not ids", GENERATED),
         edge=lambda a: bool(re.search(r"(?![0-9])\d{3}|[²³¹]{3}", a[0]))),
    Rule("whatever key of a JSON object it sits under", ("an id under any key", GENERATED),
         edge=lambda a: a[0].startswith("{") and any(k in a[0] for k in ('"order"', '"ref"', '"items"'))),
    Rule(WHOLE, ("8821 is not 88213", "88213 is not 8821"), edge=_inside_another),
    Rule(DIGITS, ("088213 is not 88213", GENERATED),
         edge=lambda a: any(i.startswith("0") for i in ID.findall(a[0] + " ".join(a[1])))),
    Rule(SEEN, ("an id from the question", "an id from an observation", "an id from an earlier observation",
                "an id seen in another call is not seen in this one", GENERATED),
         edge=lambda a: len(a[1]) >= 3 and key(*a) is None and key(a[0], [a[1][0], a[1][-1]]) is not None),
    Rule(EVERY, ("the second id is invented", GENERATED),
         edge=lambda a: len(ID.findall(a[0])) >= 2 and key(ID.findall(a[0])[0], a[1]) is None
         and key(*a) is not None),
    Rule("Return `None` when every id was seen", ("an id from the question", "an id from an observation",
                                                  "a quantity of 2 is not an id"),
         edge=lambda a: bool(ID.findall(a[0])) and key(*a) is None),
    Rule(NAMES, ("88219 was never seen", "the second id is invented", "two invented ids, both named"),
         edge=lambda a: len(ID.findall(key(*a) or "")) >= 2),
)

IDS = ("88213", "088213", "0731", "8821", "88219", "480", "731", "4417", "12", "2", "1234567890", "123456789",
       "٣٣٣٣", "８８２１３", "88213٣", "²³⁴")
KEYS = ("order_id", "order", "ref", "customer", "amount", "quantity", "items", "note")


def _value(draw: Draw) -> Any:
    number = draw.pick(IDS)
    return draw.pick((number, f"#{number}", int(number) if number.isascii() else number,
                      [number, draw.pick(IDS)], {"id": number}))


def _arguments(draw: Draw) -> str:
    if draw.boolean():
        pieces = draw.many(lambda d: d.pick((*IDS, "order", "and", ",", "x", "A88219B")), 4)
        return draw.pick((" ", ", ", "")).join(pieces)
    names = draw.many(lambda d: d.pick(KEYS), 3)
    return json.dumps({name: _value(draw) for name in names}, ensure_ascii=draw.boolean())


def _seen_text(draw: Draw) -> str:
    pieces = draw.many(lambda d: d.pick((*IDS, "Order", "late", "₹25.50", "19:02", "A88219B")), 4)
    return " ".join(pieces)


SPEC = define(Spec(
    "06.provenance", "refuse an id that never appeared in the question or an observation", "check_ids", key,
    EXAMPLES, lambda draw: (_arguments(draw), draw.many(_seen_text, 4)), RULES, faults=FAULTS,
    hidden=HIDDEN, compare=compare,
    hints=(
        "Find the ids with re.findall(r'[0-9]{3,}', text) in the arguments and in each seen text.",
        "Compare whole tokens (sets of the ids found), never `id in text`: '8821' is in '88213'.",
        "Collect every missing id, then name them all in one refusal.",
    ),
    generated_hint="Find every id in the whole arguments text, whatever key it sits under, as whole runs "
                   "of ASCII digits ([0-9]{3,}, not \\d, which also matches other scripts' digits)."))
__all__ = ["SPEC", "key"]
