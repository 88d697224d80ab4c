"""Check 06.provenance: every id in a tool call must come from the question or an observation."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import Any

from .. import exercise
from ..framework import Case
from ..generated import Comparison, Draw, call_text
from ..lesson05.faults import Diagnosed, Fault

GENERATED = "agrees with the answer key on generated inputs"
RULES = {
    "ids are runs of three or more digits": ("a quantity of 2 is not an id", "a three-digit id is checked"),
    "ASCII digits": ("other scripts' digits are not ids", GENERATED),
    "whatever key of a JSON object it sits under": ("an id under any key", GENERATED),
    "as a whole number": ("8821 is not 88213", "88213 is not 8821"),
    "in the question or in an observation": ("an id from the question", "an id from an observation",
                                             "an id from an earlier observation", GENERATED),
    "every id in the arguments": ("the second id is invented", GENERATED),
    "Return `None` when every id was seen": (
        "an id from the question", "an id from an observation", "a quantity of 2 is not an id"),
    "names each id that was never seen": ("88219 was never seen", "the second id is invented",
                                          "two invented ids, both named"),
}

QUESTION = "Was my order 88213 delivered late? I want a refund."
OBSERVATION = ("Order 88213: status delivered; promised 18:00; delivered 19:02 (62 minutes late); "
               "item price 480 INR; delivery fee 25 INR.")
POLICY = "Late-delivery policy: the delivery fee is refunded when an order is 30 or more minutes late."


def _case(check_ids: Callable, name: str, arguments: str, seen: Sequence[str], missing: Sequence[str],
          hint: str) -> Case:
    def test(got: Any) -> bool | str:
        if not missing:
            return got is None or f"every id was seen: expected None, got {got!r}"
        if not isinstance(got, str) or not got.strip():
            return f"expected a refusal text naming {list(missing)}, got {got!r}"
        absent = [m for m in missing if m not in got]
        return not absent or f"the refusal should name {absent}: {got!r}"

    shown = [s[:40] + ("..." if len(s) > 40 else "") for s in seen]
    return Case(name, lambda: check_ids(arguments, list(seen)), test=test,
                given=f"check_ids({arguments!r}, {shown})", hint=hint)


@exercise(
    "06.provenance",
    "refuse an id that never appeared in the question or an observation",
    hints=(
        "Find the ids with re.findall(r'\\d{3,}', text) in the arguments and in each seen text.",
        "Compare whole tokens (sets of the ids found), never `id in text`: '8821' is in '88213'.",
        "Collect every missing id, then name them all in one refusal.",
    ),
    rules=RULES,
)
def provenance_cases(check_ids: Callable):
    yield _case(check_ids, "an id from the question", "88213", [QUESTION], [],
                "88213 is in the question: return None.")
    yield _case(check_ids, "an id from an observation", '{"order_id": 88213}', ["Refund?", OBSERVATION], [],
                "88213 came back from get_order: return None.")
    yield _case(check_ids, "88219 was never seen", "88219", [QUESTION, OBSERVATION], ["88219"],
                "No text of this run says 88219: refuse, and name it.")
    yield _case(check_ids, "8821 is not 88213", "8821", [QUESTION, OBSERVATION], ["8821"],
                "'8821' in '... 88213 ...' is True for strings: compare whole numbers.")
    yield _case(check_ids, "88213 is not 8821", "88213", ["Order 8821 was delivered."], ["88213"],
                "A longer number is not seen because a shorter one was.")
    yield _case(check_ids, "the second id is invented", "88213, 88250", [QUESTION, OBSERVATION], ["88250"],
                "Check every id in the arguments, not only the first.")
    yield _case(check_ids, "two invented ids, both named", "88219 and 88250", [QUESTION, OBSERVATION],
                ["88219", "88250"], "Name every unseen id, not only the first one you find.")
    yield _case(check_ids, "a three-digit id is checked", '{"order_id": 88213, "item_id": 731}',
                [QUESTION, OBSERVATION], ["731"], "Three digits are enough for an id: \\d{3,}.")
    yield _case(check_ids, "an id from an earlier observation", "88213",
                ["Refund my last order, please.", OBSERVATION, POLICY], [],
                "Every observation of the run counts, not only the latest one.")
    yield _case(check_ids, "a quantity of 2 is not an id", '{"order_id": 88213, "quantity": 2}',
                [QUESTION], [], "Only runs of three or more digits are ids.")
    yield _case(check_ids, "other scripts' digits are not ids", '{"order_id": 88213, "note": "٣٣٣"}',
                [QUESTION], [], "\\d matches any script's digits; ids are ASCII: [0-9]{3,}.")
    yield _case(check_ids, "an id under any key", '{"order": 88219, "customer_id": 4417}', ["4417"],
                ["88219"], "Look at the whole text, not only at keys that end in _id.")
    yield COMPARISON.case(check_ids)


ID = re.compile(r"[0-9]{3,}")  # ASCII digits only: "٣٣٣" (Arabic-Indic digits) is not an id


def key(arguments: str, seen: Sequence[str]) -> str | None:
    """The answer key: whole runs of three or more ASCII digits, compared as sets."""
    known = {found for text in seen for found in ID.findall(text)}
    missing = list(dict.fromkeys(i for i in ID.findall(arguments) if i not in known))
    if not missing:
        return None
    return f"Refused: {', '.join(missing)} never appeared in the question or an observation."


IDS = ("88213", "8821", "88219", "480", "731", "4417", "12", "2", "٣٣٣٣", "８８２１３", "88213٣")
NAMES = ("order_id", "order", "ref", "customer", "amount", "quantity", "items", "note")


def _value(draw: Draw) -> Any:
    number = draw.pick(IDS)
    return draw.pick((number, f"#{number}", int(number) if number.isascii() else number,
                      [number, draw.pick(IDS)], {"id": number}))


def _arguments(draw: Draw) -> str:
    if draw.boolean():
        pieces = draw.many(lambda d: d.pick((*IDS, "order", "and", ",", "x")), 4)
        return draw.pick((" ", ", ", "")).join(pieces)
    names = draw.many(lambda d: d.pick(NAMES), 3)
    return json.dumps({name: _value(draw) for name in names}, ensure_ascii=draw.boolean())


def _seen_text(draw: Draw) -> str:
    pieces = draw.many(lambda d: d.pick((*IDS, "Order", "late", "₹25.50", "19:02", "A88219B")), 4)
    return " ".join(pieces)


def _inputs(draw: Draw) -> tuple:
    return _arguments(draw), draw.many(_seen_text, 3)


def _compare(args: tuple, expected: str | None, got: Any) -> bool | str:
    if expected is None:
        return got is None or "every id was seen: expected None"
    if not isinstance(got, str) or not got.strip():
        return "expected a refusal text"
    named = set(ID.findall(got))
    absent = [i for i in ID.findall(expected) if i not in named and i in ID.findall(args[0])]
    return not absent or f"the refusal should name {absent} (as whole numbers)"


def _has(pattern: str, where: int = 0) -> Callable[[tuple, Any, Any], bool]:
    def found(args: tuple, expected: Any, got: Any) -> bool:
        texts = [args[0]] if where == 0 else list(args[1])
        return any(re.search(pattern, text) for text in texts)
    return found


FAULTS = (
    Fault("ASCII digits", "digits of another script", _has(r"[^\x00-\x7f]", 0),
          "Only ASCII digits make an id: [0-9]{3,}, not \\d, which also matches ٣ and ８."),
    Fault("as a whole number", "an id inside a longer number", _has(r"[0-9]{3,}", 1),
          "Compare whole ids: collect the ids of each text with the same pattern and look each "
          "argument id up among them; never `id in text` (8821 is inside 88213)."),
    Fault("whatever key of a JSON object it sits under", "an id under a key or in a list",
          _has(r"^\{", 0), "Read the ids from the whole arguments text, whatever key or list they sit in."),
    Fault("names each id that was never seen", "the refusal",
          lambda args, expected, got: expected is not None,
          "Name every unseen id in the refusal, as whole numbers; return None only when all were seen."),
)

COMPARISON = Diagnosed(Comparison(
    "06.provenance", key, _inputs, _compare, call_text("check_ids"),
    hint="Find every id in the whole arguments text, whatever key it sits under, as whole runs of "
         "ASCII digits ([0-9]{3,}, not \\d, which also matches other scripts' digits)."), FAULTS,
    raised="check_ids must not raise on any text: plain text and JSON alike.")
