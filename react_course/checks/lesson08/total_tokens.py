"""Check 08.total_tokens: the input tokens that n calls of a text run send, exactly.

Each case is one (n, prompt, per_step); the expected value is the brute-force
sum of the calls, so the checker does not depend on the closed form it checks
(the one long run uses Gauss's pairing instead, to stay fast: its total is past
2**53, where a float in the formula, even rounded back to an int, is off).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import exercise
from ..framework import Case
from ..generated import Comparison, Draw, call_text, same_value
from ..lesson05.faults import Diagnosed, Fault

GENERATED = "agrees with the answer key on generated inputs"
RULES = {
    "is sent on every call": (
        "the fixed prompt on each of 10 calls", "15 steps of 1,000 after a 1,000 prompt"),
    "call 1 reads no steps": ("one call reads the prompt only", "two calls"),
    "call k also resends the k − 1 earlier steps": (
        "ten calls of 850-token steps", "15 steps of 1,000, no fixed prompt", "200 calls"),
    "Return a whole number (an `int`)": ("the answer is an int", GENERATED),
    "exact: not the N²/2 rule of thumb, and no rounding": (
        "two million calls, exactly", "15 steps of 1,000, no fixed prompt", "a total of 42 digits",
        GENERATED),
    "`n` is 0 or more": ("no calls send nothing", GENERATED),
}


def brute_force(n: int, prompt: int, per_step: int) -> int:
    return sum(prompt + (k - 1) * per_step for k in range(1, n + 1))


def _case(function: Callable, name: str, n: int, prompt: int, per_step: int, hint: str) -> Case:
    return Case(name, lambda: function(n, prompt, per_step), expected=brute_force(n, prompt, per_step),
                given=f"total_input_tokens(n={n}, prompt={prompt}, per_step={per_step})", hint=hint)


def _is_int(got: Any) -> bool | str:
    if isinstance(got, int) and not isinstance(got, bool):
        return True
    return f"a token count is a whole number: return an int, not {type(got).__name__} ({got!r})"


@exercise(
    "08.total_tokens",
    "the input tokens of a whole run, exactly",
    hints=(
        "Write out the calls: call 1 reads prompt, call 2 reads prompt + per_step, call 3 reads "
        "prompt + 2 * per_step. Add them up.",
        "The steps part is per_step * (0 + 1 + ... + (n - 1)) = per_step * n * (n - 1) / 2.",
        "n * (n - 1) is always even: use // 2 and the result stays an int.",
    ),
    rules=RULES,
)
def total_tokens_cases(total_input_tokens: Callable):
    yield _case(total_input_tokens, "one call reads the prompt only", 1, 300, 500,
                "A single call has no earlier steps to resend.")
    yield _case(total_input_tokens, "two calls", 2, 300, 500,
                "Call 2 resends the one step before it: 300 + (300 + 500).")
    yield _case(total_input_tokens, "the fixed prompt on each of 10 calls", 10, 300, 0,
                "The instructions, tools and question go out with every call, not once.")
    yield _case(total_input_tokens, "ten calls of 850-token steps", 10, 300, 850,
                "Call k reads 300 + (k - 1) * 850; add k = 1 to 10.")
    yield _case(total_input_tokens, "15 steps of 1,000, no fixed prompt", 15, 0, 1_000,
                "The N squared / 2 rule of thumb gives 112,500; the exact sum is smaller here.")
    yield _case(total_input_tokens, "15 steps of 1,000 after a 1,000 prompt", 15, 1_000, 1_000,
                "With a 1,000-token prompt the total is 1,000 * (1 + 2 + ... + 15).")
    yield _case(total_input_tokens, "200 calls", 200, 450, 180,
                "A long run shows the difference between linear and quadratic growth.")
    n, prompt, per_step = 1_999_999, 300, 4_505
    exact = n * prompt + per_step * (n * (n - 1) // 2)
    yield Case("two million calls, exactly", lambda: total_input_tokens(n, prompt, per_step), expected=exact,
               given=f"total_input_tokens(n={n}, prompt={prompt}, per_step={per_step})",
               hint="Past 2**53 a float cannot hold every whole number: int(x / 2) is already rounded. "
                    "Keep to ints: n * (n - 1) // 2.")
    yield Case("a total of 42 digits", lambda: total_input_tokens(10**15, 10**12, 10**12),
               expected=key(10**15, 10**12, 10**12),
               given="total_input_tokens(n=10**15, prompt=10**12, per_step=10**12)",
               hint="A Decimal keeps 28 digits and a float 17: int() of either is already rounded. "
                    "Keep to ints: n * (n - 1) // 2.")
    yield Case("the answer is an int", lambda: total_input_tokens(12, 300, 190), test=_is_int,
               given="total_input_tokens(n=12, prompt=300, per_step=190)",
               hint="Dividing with / gives a float even when the result is whole; use //.")
    yield _case(total_input_tokens, "no calls send nothing", 0, 300, 500, "Zero calls send 0 tokens.")
    yield COMPARISON.case(total_input_tokens)


def key(n: int, prompt: int, per_step: int) -> int:
    """The answer key, in ints only: the prompt n times, plus per_step * (0 + 1 + ... + (n - 1))."""
    return n * prompt + per_step * (n * (n - 1) // 2)


def _size(draw: Draw, big: int) -> int:
    """A count: small, at the edges, or very large (past a float's 17 digits and a Decimal's 28)."""
    return draw.pick((0, 1, 2, 3, 7, 850, 1_000, 4_505, 123_457, big, big + 1, 10**15 + 3, 10**21 + 9))


def _inputs(draw: Draw) -> tuple:
    return _size(draw, 10**9 + 7), _size(draw, 10**6 + 3), _size(draw, 10**5 + 1)


def _close(args: tuple, expected: Any, got: Any) -> bool:
    return isinstance(got, int | float) and not isinstance(got, bool) and got != expected and \
        abs(got - expected) <= abs(expected) * 1e-15 + 1


FAULTS = (
    Fault("Return a whole number (an `int`)", "not an int", lambda args, e, got: type(got) is not int,
          "Return an int: / gives a float even when the result is whole; use //."),
    Fault("exact: not the N²/2 rule of thumb, and no rounding", "a total rounded far down", _close,
          "Right but for its last digits: a float keeps 17 digits and a Decimal 28, so int() of either "
          "is already rounded. Keep to ints: n * prompt + per_step * (n * (n - 1) // 2)."),
    Fault("`n` is 0 or more", "no calls", lambda args, e, got: args[0] == 0,
          "0 calls send 0 tokens."),
)

COMPARISON = Diagnosed(Comparison(
    "08.total_tokens", key, _inputs, lambda args, expected, got: same_value(expected, got),
    call_text("total_input_tokens"),
    hint="Ints all the way: n * (n - 1) is even, so // 2 is exact; a float on the way is off past 2**53."),
    FAULTS)
