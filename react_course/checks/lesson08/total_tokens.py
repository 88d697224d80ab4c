"""08.total_tokens as a spec: the input tokens that n calls of a text run send, exactly.

The key is the library's ``rc.cost.total_input_tokens`` (ints only). The generated
counts reach every edge the statement names: no calls, one call, no fixed prompt or
no step, and totals past a float's 17 digits and a Decimal's 28, where any rounding
on the way (``/``, ``int(x / 2)``, a Decimal) is off in the last digits. Every
formula answers a huge ``n`` at once; a loop over the calls never finishes it.
"""

from __future__ import annotations

from ...context_cost.cost import total_input_tokens
from ..generated import Draw
from ..plain import Raised
from ..spec import GENERATED, Example, Fault, Rule, Spec, define

EVERY_CALL = "is sent on every call"
EARLIER = "call k also resends the k − 1 earlier steps"
INT = "Return a whole number (an `int`)"
EXACT = "exact: not the N²/2 rule of thumb, and no rounding"
LARGE = "any of the three may be very large"


def _digits(args: tuple) -> int:
    return len(str(total_input_tokens(*args)))


RULES = (
    Rule(EVERY_CALL, ("the fixed prompt on each of 10 calls", "15 steps of 1,000 after a 1,000 prompt"),
         edge=lambda a: a[0] > 1 and a[1] > 0 and a[2] == 0),
    Rule("call 1 reads no steps", ("one call reads the prompt only", "two calls"), edge=lambda a: a[0] == 1),
    Rule(EARLIER, ("ten calls of 850-token steps", "15 steps of 1,000, no fixed prompt", "200 calls"),
         edge=lambda a: a[0] > 2 and a[1] == 0 and a[2] > 0),
    Rule(INT, ("the answer is an int", GENERATED)),
    Rule(EXACT, ("two million calls, exactly", "15 steps of 1,000, no fixed prompt", "a total of 42 digits",
                 GENERATED), edge=lambda a: _digits(a) > 17),
    Rule(LARGE, ("a total of 42 digits", GENERATED), edge=lambda a: _digits(a) > 28),
    Rule("`n` is 0 or more", ("no calls send nothing", GENERATED), edge=lambda a: a[0] == 0),
)


def _close(args: tuple, expected: int, got: object) -> bool:
    return isinstance(got, int | float) and not isinstance(got, bool) and got != expected and \
        abs(got - expected) <= abs(expected) * 1e-15 + 1


FAULTS = (
    Fault(INT, "Return an int: / gives a float even when the result is whole; use //.",
          found=lambda args, want, got: type(got) is not int and not isinstance(got, Raised)),
    Fault(EXACT, "Right but for its last digits: a float keeps 17 digits and a Decimal 28, so int() of "
                 "either is already rounded. Keep to ints: n * prompt + per_step * (n * (n - 1) // 2).",
          found=_close),
    Fault("`n` is 0 or more", "0 calls send 0 tokens.", found=lambda args, want, got: args[0] == 0),
    Fault("call 1 reads no steps", "Call k resends k - 1 steps, not k: call 1 reads the prompt only.",
          like=lambda n, p, s: n * p + s * n * (n + 1) // 2),
    Fault(EVERY_CALL, "The fixed prompt goes out with every call: n * prompt, not prompt once.",
          found=lambda args, want, got: args[0] > 1 and args[1] > 0 and got in (
              want - args[0] * args[1], want - (args[0] - 1) * args[1])),
)


def _ex(name: str, n: int, prompt: int, per_step: int, hint: str) -> Example:
    return Example(name, (n, prompt, per_step), hint)


EXAMPLES = (
    _ex("one call reads the prompt only", 1, 300, 500, "A single call has no earlier steps to resend."),
    _ex("two calls", 2, 300, 500, "Call 2 resends the one step before it: 300 + (300 + 500)."),
    _ex("the fixed prompt on each of 10 calls", 10, 300, 0,
        "The instructions, tools and question go out with every call, not once."),
    _ex("ten calls of 850-token steps", 10, 300, 850, "Call k reads 300 + (k - 1) * 850; add k = 1 to 10."),
    _ex("15 steps of 1,000, no fixed prompt", 15, 0, 1_000,
        "The N squared / 2 rule of thumb gives 112,500; the exact sum is smaller here."),
    _ex("15 steps of 1,000 after a 1,000 prompt", 15, 1_000, 1_000,
        "With a 1,000-token prompt the total is 1,000 * (1 + 2 + ... + 15)."),
    _ex("200 calls", 200, 450, 180, "A long run shows the difference between linear and quadratic growth."),
    _ex("two million calls, exactly", 1_999_999, 300, 4_505,
        "Past 2**53 a float cannot hold every whole number: int(x / 2) is already rounded. "
        "Keep to ints: n * (n - 1) // 2."),
    _ex("a total of 42 digits", 10**15, 10**12, 10**12,
        "A Decimal keeps 28 digits and a float 17: int() of either is already rounded, and a loop over "
        "10**15 calls never ends. Keep to ints: n * (n - 1) // 2."),
    _ex("the answer is an int", 12, 300, 190, "Dividing with / gives a float even when the result is whole; "
        "use //."),
    _ex("no calls send nothing", 0, 300, 500, "Zero calls send 0 tokens."),
)

HIDDEN = (
    _ex("hidden case: a long run", 123_457, 2_048, 333, "Ints all the way: n * (n - 1) // 2."),
    _ex("hidden case: 40 digits", 10**13 + 7, 10**14 + 1, 10**14 + 3, "Ints all the way: no float, no "
        "Decimal."),
    _ex("hidden case: no steps", 7, 1_000, 0, "The prompt goes out with every call."),
)


def _size(draw: Draw, big: int) -> int:
    """A count: small, at the edges, or very large (past a float's 17 digits and a Decimal's 28)."""
    return draw.pick((0, 1, 2, 3, 7, 850, 1_000, 4_505, 123_457, big, big + 1, 10**15 + 3, 10**21 + 9))


def _inputs(draw: Draw) -> tuple:
    return _size(draw, 10**9 + 7), _size(draw, 10**6 + 3), _size(draw, 10**5 + 1)


SPEC = define(Spec(
    "08.total_tokens", "the input tokens of a whole run, exactly", "total_input_tokens", total_input_tokens,
    EXAMPLES, _inputs, RULES, faults=FAULTS, hidden=HIDDEN,
    hints=("Write out the calls: call 1 reads prompt, call 2 reads prompt + per_step, call 3 reads "
           "prompt + 2 * per_step. Add them up.",
           "The steps part is per_step * (0 + 1 + ... + (n - 1)) = per_step * n * (n - 1) / 2.",
           "n * (n - 1) is always even: use // 2 and the result stays an int."),
    generated_hint="Ints all the way: n * (n - 1) is even, so // 2 is exact; a float on the way is off "
                   "past 2**53."))
__all__ = ["SPEC"]
