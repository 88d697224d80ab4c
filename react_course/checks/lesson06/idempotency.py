"""Check 06.idempotency: one key per side effect, the same on every retry."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from .. import exercise
from ..framework import Case, Shown
from ..generated import Comparison, Draw
from ..lesson05.faults import Diagnosed, Fault
from .restart import first_then_retry

GENERATED = "agrees with the answer key on generated inputs"
RULES = {
    "the same for the same run, tool and arguments": ("a retry gets the same key", GENERATED),
    "whatever the order of the arguments' keys": ("the order of the keys does not matter", GENERATED),
    "must not change on retry": ("a retry a moment later gets the same key", "a retry gets the same key",
                                 GENERATED),
    "different for a different run, tool or arguments": (
        "another amount, another key", "another run, another key", "another tool, another key",
        "the same value under another name, another key", GENERATED),
    "`25` and `\"25\"` are different arguments": ("a number is not its text", GENERATED),
    "a `Decimal` amount": ("a Decimal amount and mixed keys", GENERATED),
    "Two `Decimal`s that are equal": ("2.5 and 2.50 are one amount", "-0 and 0 are one amount", GENERATED),
    "whatever their number of digits": ("amounts that differ in the 30th digit", GENERATED),
    "lists and dicts of these": ("a Decimal inside a list", GENERATED),
    "a non-empty text": ("the key is text",),
    "Python's `hash()` of a text": ("the key does not come from hash()", GENERATED),
}


class _NoHash(str):
    """A text whose hash() fails: Python salts the hash of a text differently in every process."""

    __slots__ = ()

    def __hash__(self) -> int:
        raise TypeError("hash() was called on the run id or the tool name; Python salts the hash of a "
                        "text differently in every process, so a retry after a restart gets another key")

REFUND = {"order_id": 88213, "amount": 25}


def _same(key: Callable, a: tuple, b: tuple, want_same: bool, pause: float = 0.0) -> Callable[[], Any]:
    def run() -> Any:
        first = key(*a)
        if pause:
            time.sleep(pause)
        return first, key(*b)

    return run


def _test(want_same: bool) -> Callable[[Any], bool | str]:
    def test(got: Any) -> bool | str:
        first, second = got
        if not isinstance(first, str) or not first:
            return f"the key must be a non-empty text, got {first!r}"
        if want_same:
            return first == second or f"two calls gave different keys: {first!r} and {second!r}"
        return first != second or f"two different actions got the same key {first!r}"
    return test


@exercise(
    "06.idempotency",
    "an idempotency key per side effect that a retry cannot change",
    hints=(
        "Build the key only from run_id, tool and arguments: no time, no counter, no random part.",
        "json.dumps(arguments, sort_keys=True) gives the same text whatever the order of the keys.",
        "Hash the text (hashlib.sha256(text.encode()).hexdigest()) to get a short, fixed-size key.",
    ),
    rules=RULES,
)
def idempotency_cases(key: Callable):
    def case(name: str, a: tuple, b: tuple, same: bool, hint: str, pause: float = 0.0) -> Case:
        return Case(name, _same(key, a, b, same, pause), test=_test(same),
                    given=f"idempotency_key{a} then idempotency_key{b}", hint=hint)

    base = ("run-7", "refund", REFUND)
    yield case("the key is text", base, base, True, "Return a str.")
    yield case("a retry gets the same key", base, ("run-7", "refund", dict(REFUND)), True,
               "A retry sends the same action: the key must be the same.")
    yield case("a retry a moment later gets the same key", base, base, True,
               "Time must not be part of the key: a retry after a time-out comes later.", pause=0.02)
    yield case("the order of the keys does not matter", base,
               ("run-7", "refund", {"amount": 25, "order_id": 88213}), True,
               "Sort the keys before you turn the arguments into text.")
    yield case("another amount, another key", base, ("run-7", "refund", {**REFUND, "amount": 480}), False,
               "A different refund is a different action.")
    yield case("the same value under another name, another key", base,
               ("run-7", "refund", {"order_id": 88213, "fee": 25}), False,
               "The names of the arguments are part of the action: keep keys and values.")
    yield Case("the key does not come from hash()",
               _same(key, (_NoHash("run-7"), _NoHash("refund"), REFUND), base, True), test=_test(True),
               given=f"idempotency_key{base} then again", hint=(
                   "hash() changes from one run of Python to the next: hash a canonical text with "
                   "hashlib instead, or use the text itself."))
    yield case("another run, another key", base, ("run-8", "refund", REFUND), False,
               "The same refund in another run is another request: include run_id.")
    yield case("another tool, another key", base, ("run-7", "cancel_order", REFUND), False,
               "Include the tool's name.")
    yield case("a number is not its text", base, ("run-7", "refund", {"order_id": 88213, "amount": "25"}),
               False, "Keep each value's type in the key: 25 and '25' are different arguments.")
    yield case("a Decimal amount and mixed keys", ("run-7", "refund", {"amount": Decimal("25.50"), 1: "x"}),
               ("run-7", "refund", {1: "x", "amount": Decimal("25.50")}), True,
               "json.dumps cannot write a Decimal, and sort_keys cannot sort 1 and 'amount' together: "
               "write each part as text yourself.")
    yield case("2.5 and 2.50 are one amount", ("run-7", "refund", {"amount": Decimal("2.5")}),
               ("run-7", "refund", {"amount": Decimal("2.50")}), True,
               "Equal Decimals are the same amount: str(Decimal('2.50')) is '2.50'; write a form that "
               "equal amounts share.")
    yield case("-0 and 0 are one amount", ("run-7", "refund", {"amount": Decimal("-0")}),
               ("run-7", "refund", {"amount": Decimal("0.00")}), True,
               "Decimal('-0') == Decimal('0'), but normalize() keeps the sign: zero needs one form.")
    thirty = Decimal("1." + "0" * 28 + "1")
    yield case("amounts that differ in the 30th digit", ("run-7", "refund", {"amount": thirty}),
               ("run-7", "refund", {"amount": Decimal(1)}), False,
               "Different amounts, different keys, at any number of digits: normalize() and float() "
               "round to 28 and 17 digits.")
    yield case("a Decimal inside a list", ("run-7", "refund", {"amounts": [Decimal("2.5"), "x"]}),
               ("run-7", "refund", {"amounts": [Decimal("2.50"), "x"]}), True,
               "A Decimal may sit inside a list or a dict: write every value the same way, at any depth.")
    yield COMPARISON.case(key)


def amount(value: Decimal) -> str:
    """One text for equal amounts (2.5 and 2.50, -0 and 0), exact at any number of digits.

    >>> amount(Decimal("2.50")), amount(Decimal("-0.00")), amount(Decimal("1E+2")) == amount(Decimal(100))
    ('25E-1', '0', True)
    """
    if not value.is_finite():
        return str(value)
    sign, digits, exponent = value.as_tuple()
    text = "".join(map(str, digits))
    kept = text.rstrip("0")
    return f"{'-' if sign else ''}{kept}E{int(exponent) + len(text) - len(kept)}" if kept else "0"


def canonical(value: Any) -> str:
    """A text that two values share only when they are equal and of the same types all the way down.

    >>> canonical({"amount": 25}) != canonical({"amount": "25"})
    True
    >>> canonical({1: "a", "b": Decimal("2.50")}) == canonical({"b": Decimal("2.5"), 1: "a"})
    True
    """
    if isinstance(value, dict):
        return "{" + ",".join(sorted(f"{canonical(k)}:{canonical(v)}" for k, v in value.items())) + "}"
    if isinstance(value, list | tuple):
        return "[" + ",".join(canonical(item) for item in value) + "]"
    if isinstance(value, Decimal):
        return f"Decimal({amount(value)})"
    kind = next((t for t in (bool, int, float, str) if isinstance(value, t)), type(value))
    return f"{kind.__name__}({kind.__repr__(value)})"


def key(run_id: str, tool: str, arguments: dict) -> str:
    """The answer key: a hash of the canonical text of run, tool and arguments."""
    return hashlib.sha256(canonical([run_id, tool, arguments]).encode()).hexdigest()[:16]


SAME, OTHER = Shown("the same key for both calls"), Shown("two different keys")


def same_action(a: tuple, b: tuple) -> Shown:
    """Do two calls (run_id, tool, arguments) describe the same action? Then they share a key."""
    return SAME if canonical(list(a)) == canonical(list(b)) else OTHER


VALUES = (25, "25", Decimal("25.50"), "25.50", None, "None", True, "true", 0, "", "Zürich ✓",
          [1, 2], [2, 1], {"a": 1}, "a|b", 88213, -1, 10**30, Decimal("-0"), Decimal("1E+1"),
          Decimal("1." + "0" * 28 + "1"), [Decimal("2.5"), "x"], {"n": Decimal("0.10")}, "a,b", "b:c",
          ["a", "b"], ["a,b"], "[1, 2]", '"quoted"', "back\\slash")
# Pairs that look alike: equal amounts written differently (one action), and different actions
# that a text without escapes or types would write the same way.
LOOKALIKES = (
    ({"x": Decimal("2.5")}, {"x": Decimal("2.50")}), ({"x": [Decimal("-0")]}, {"x": [Decimal("0.00")]}),
    ({"x": Decimal("1E+1")}, {"x": Decimal("10")}),
    ({"x": {"y": Decimal("7")}}, {"x": {"y": Decimal("7.0")}}),
    ({"x": Decimal("1." + "0" * 28 + "1")}, {"x": Decimal("1")}), ({"x": ["a", "b"]}, {"x": ["a,b"]}),
    ({"a": "b:c"}, {"a:b": "c"}), ({"x": [["a"], "b"]}, {"x": ["a", ["b"]]}),
    ({"x": "[1, 2]"}, {"x": [1, 2]}), ({"x": "a", "y": "b"}, {"x": "a,y:b"}), ({1: "x"}, {"1": "x"}),
    ({"x": None}, {"x": "None"}),
)
NAMES = ("order_id", "amount", "note", "a", "b", "ab", 1, "1", "", "ключ")


def _arguments(draw: Draw) -> dict:
    return {draw.pick(NAMES): draw.pick(VALUES) for _ in range(draw.below(4))}


def _changed(draw: Draw, action: tuple) -> tuple:
    """The same action rebuilt (its keys in another order), or one that differs in one clear way."""
    run_id, tool, arguments = action
    how = draw.below(7)
    if how == 0:
        return run_id, tool, dict(reversed(list(arguments.items())))
    if how == 1:  # the boundary between run id and tool moved: needs a separator
        return run_id + tool[:1], tool[1:], arguments
    if how == 2:
        return draw.pick(("run-7", "run-8", "run-7 ")), tool, arguments
    if how == 3:
        return run_id, draw.pick(("refund", "cancel_order", "Refund")), arguments
    changed = dict(arguments)
    name = draw.pick(NAMES)
    if how == 4:
        changed.pop(name, None)
    else:
        changed[name] = draw.pick(VALUES)
    return run_id, tool, changed


def _inputs(draw: Draw) -> tuple:
    run_id, tool = draw.pick(("run-7", "r", "运行-1")), draw.pick(("refund", "efund", "send_email"))
    if draw.below(4) == 3:  # a look-alike pair, either way round
        pair = draw.pick(LOOKALIKES)
        first, second = pair if draw.boolean() else pair[::-1]
        return (run_id, tool, first), (run_id, tool, second)
    first = (run_id, tool, _arguments(draw))
    return first, _changed(draw, first)


def _compare(pair: tuple, same: Shown, got: Any) -> bool | str:
    first, second = got
    if not isinstance(first, str) or not first or not isinstance(second, str):
        return f"the key must be a non-empty text, got {first!r}"
    if same == SAME:
        return first == second or "the same action (rebuilt, as after a restart) got another key"
    return first != second or "two different actions got the same key"


def _decimals(value: Any) -> list[Decimal]:
    if isinstance(value, dict):
        return [d for k, v in value.items() for d in (*_decimals(k), *_decimals(v))]
    if isinstance(value, list | tuple):
        return [d for item in value for d in _decimals(item)]
    return [value] if isinstance(value, Decimal) else []


def _amounts(pair: tuple) -> list[Decimal]:
    return _decimals(pair[0][2]) + _decimals(pair[1][2])


FAULTS = (
    Fault("Two `Decimal`s that are equal", "equal amounts written differently",
          lambda pair, same, got: same == SAME and bool(_amounts(pair)),
          "Equal Decimals (2.5 and 2.50, -0 and 0, 1E+1 and 10) are one amount: give them one form "
          "(strip the trailing zeros of the digits yourself; normalize() keeps -0's sign)."),
    Fault("whatever their number of digits", "amounts that differ far down",
          lambda pair, same, got: same == OTHER and any(len(d.as_tuple().digits) > 17
                                                        for d in _amounts(pair)),
          "Different amounts need different keys at any number of digits: float() keeps 17 and "
          "normalize() 28."),
    Fault("different for a different run, tool or arguments", "two actions written alike",
          lambda pair, same, got: same == OTHER,
          "Two different actions came out as one text: mark each value's type and escape texts "
          "(repr or json.dumps of each text) so that no text can look like a list, a dict or a "
          "delimiter."),
    Fault("whatever the order of the arguments' keys", "one action rebuilt",
          lambda pair, same, got: same == SAME,
          "The same action, rebuilt (its keys in another order, after a restart), got another key: "
          "sort the items, and use no hash()."),
)

COMPARISON = Diagnosed(Comparison(
    "06.idempotency", same_action, _inputs, _compare,
    lambda pair: f"idempotency_key{pair[0]!r}, then after a restart idempotency_key{pair[1]!r}",
    call=first_then_retry,
    hint="Write every part into one text that keeps the types (25 is not '25', 1 is not '1') and "
         "the boundaries between parts; no hash(), which changes when Python restarts."), FAULTS,
    raised="idempotency_key must not raise on any arguments the statement allows: a Decimal inside "
           "a list or a dict, keys that are texts and whole numbers together.")
