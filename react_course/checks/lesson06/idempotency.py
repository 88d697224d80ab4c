"""Check 06.idempotency: one key per side effect, the same on every retry."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from .. import exercise
from ..framework import Case

RULES = {
    "the same for the same run, tool and arguments": ("a retry gets the same key",),
    "whatever the order of the arguments' keys": ("the order of the keys does not matter",),
    "must not change on retry": ("a retry a moment later gets the same key", "a retry gets the same key"),
    "different for a different run, tool or arguments": (
        "another amount, another key", "another run, another key", "another tool, another key",
        "the same value under another name, another key"),
    "a non-empty text": ("the key is text",),
    "Python's `hash()` of a text": ("the key does not come from hash()",),
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
