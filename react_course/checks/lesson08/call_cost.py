"""Check 08.call_cost: one call's price with cached input, hidden reasoning and unknown prices."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

from ...cost import Price
from .. import exercise
from ..framework import Case
from ..generated import Comparison, Draw
from ..lesson05.faults import Diagnosed, Fault

GENERATED = "agrees with the answer key on generated inputs"
RULES = {
    "`cached_tokens` are part of `input_tokens`": (
        "no cache", "half the input cached", "all the input cached"),
    "bill them once, at the cached price": ("half the input cached", "all the input cached"),
    "are part of `output_tokens`": ("a reasoning model's hidden tokens", GENERATED),
    "bill them once, as output, and not a second time": (
        "a reasoning model's hidden tokens", "a reasoning model bills its hidden tokens once", GENERATED),
    "one known price is enough for a call that needs only it": (
        "input only, the other prices unknown", GENERATED),
    "money is a `Decimal`, never a `float`": ("the cost is a Decimal", "cents add up exactly", GENERATED),
    "build no float on the way": ("no float on the way",),
    "No `int()` or `round()`: the result is exact": ("no float on the way", GENERATED),
    "makes the cost `None`, never a guess": (
        "an unknown output price", "an unknown cached price, cached tokens", GENERATED),
    "a `None` price that is not needed (no cached tokens) does not": (
        "an unknown cached price, nothing cached",),
}

GPT_4O = Price("gpt-4o", "2025-06-01", Decimal("2.50"), Decimal("1.25"), Decimal("10.00"))
MINI = Price("gpt-4o-mini", "2025-06-01", Decimal("0.15"), Decimal("0.075"), Decimal("0.60"))
NO_CACHE = Price("a-local-server", "2025-06-01", Decimal("0.20"), None, Decimal("0.80"))
INPUT_ONLY = Price("an-embedding-model", "2025-06-01", Decimal("0.02"), None, None)
NO_OUTPUT = Price("a-new-model", "2025-06-01", Decimal("1.00"), Decimal("0.50"), None)
REASONER = Price("a-reasoning-model", "2025-06-01", Decimal("2.00"), Decimal("0.50"), Decimal("8.00"),
                 reasoning=True)


def reference(input_tokens: int, cached_tokens: int, output_tokens: int, reasoning_tokens: int,
              price: Price) -> Decimal | None:
    """The answer key: cached tokens inside the input, reasoning tokens inside the output."""
    parts = [(input_tokens - cached_tokens, price.input), (cached_tokens, price.cached_input),
             (output_tokens, price.output)]
    if any(tokens and rate is None for tokens, rate in parts):
        return None
    return sum((tokens * rate for tokens, rate in parts if tokens), Decimal(0)) / 1_000_000


def _exact(expected: Decimal | None) -> Callable[[Any], bool | str]:
    def test(got: Any) -> bool | str:
        if expected is None:
            return got is None or f"a price this call needs is unknown: return None, not {got!r}"
        if isinstance(got, float):
            return f"money is a Decimal; {got!r} is a float"
        if isinstance(got, Decimal) and got != expected and abs(got - expected) < Decimal("1e-12"):
            return (f"expected Decimal('{expected}'); {got!r} is off in its last digits, as a float on "
                    "the way makes it: keep ints and Decimals only")
        return (isinstance(got, Decimal) and got == expected) or f"expected Decimal('{expected}')"
    return test


def _case(function: Callable, name: str, args: tuple, hint: str) -> Case:
    *tokens, price = args
    given = f"call_cost({', '.join(f'{t:,}' for t in tokens)}, {price.model} price)"
    return Case(name, lambda: function(*args), test=_exact(reference(*args)), given=given, hint=hint)


@exercise(
    "08.call_cost",
    "one call's price, with cached input and hidden reasoning",
    hints=(
        "Three parts: (input - cached) at price.input, cached at price.cached_input, "
        "output at price.output (the reasoning tokens are inside it); prices are per million tokens.",
        "Multiply ints by Decimals and divide by 1_000_000: every step stays a Decimal.",
        "Check each part that has tokens for a None price before you multiply.",
    ),
    rules=RULES,
)
def call_cost_cases(call_cost: Callable):
    yield _case(call_cost, "no cache", (12_000, 0, 400, 0, GPT_4O),
                "12,000 input tokens at $2.50 per million, 400 output at $10.")
    yield _case(call_cost, "half the input cached", (12_000, 6_000, 400, 0, GPT_4O),
                "The 6,000 cached tokens are inside the 12,000: 6,000 at $2.50 and 6,000 at $1.25.")
    yield _case(call_cost, "all the input cached", (8_000, 8_000, 0, 0, MINI),
                "Every input token came from the cache: all of them at the cached price, once.")
    yield _case(call_cost, "a reasoning model's hidden tokens", (5_000, 0, 3_000, 2_700, GPT_4O),
                "The 3,000 output tokens include the 2,700 hidden ones: bill 3,000 at the output price, "
                "once.")
    yield _case(call_cost, "a reasoning model bills its hidden tokens once",
                (4_000, 1_000, 2_500, 2_000, REASONER),
                "price.reasoning says the model reasons; its 2,000 hidden tokens are already among the "
                "2,500 output tokens: bill 2,500 at the output price, once.")
    yield _case(call_cost, "the cost is a Decimal", (1_000, 0, 100, 0, MINI),
                "Keep every step a Decimal: int * Decimal / int is a Decimal.")
    yield _case(call_cost, "no float on the way", (1_234, 0, 567, 0, MINI),
                "0.15 as a float is not 0.15; Decimal(str(a float)) keeps the float's error. "
                "Multiply the int token counts by the Decimal prices.")
    yield Case("cents add up exactly", lambda: sum([call_cost(40_000, 0, 0, 0, GPT_4O)] * 3, Decimal(0)),
               test=_exact(Decimal("0.3")), given="3 calls of call_cost(40,000, 0, 0, 0, gpt-4o price)",
               hint="0.1 + 0.1 + 0.1 is not 0.3 in floats; it is in Decimals.")
    yield _case(call_cost, "an unknown output price", (2_000, 0, 100, 0, NO_OUTPUT),
                "The output price is None: the cost is unknown, not zero.")
    yield _case(call_cost, "an unknown cached price, cached tokens", (2_000, 1_000, 100, 0, NO_CACHE),
                "1,000 tokens need the cached price, which is None.")
    yield _case(call_cost, "an unknown cached price, nothing cached", (2_000, 0, 100, 0, NO_CACHE),
                "No token is billed at the cached price, so its being unknown does not matter.")
    yield _case(call_cost, "input only, the other prices unknown", (2_000, 0, 0, 0, INPUT_ONLY),
                "Only the input price is needed here, and it is known: check each price only when its "
                "part has tokens.")
    yield COMPARISON.case(call_cost)


RATES = (Decimal("2.50"), Decimal("1.25"), Decimal("0.075"), Decimal("0.1"), Decimal("0"),
         Decimal("4.40"), Decimal("15"), Decimal("0.0001"), None)


def _tokens(draw: Draw, most: int) -> int:
    return min(most, draw.pick((0, 1, 3, 999, 1_000, 1_234, 40_000, 999_999, 10**9)))


def _inputs(draw: Draw) -> tuple:
    price = Price("generated", "2025-06-01", draw.pick(RATES), draw.pick(RATES), draw.pick(RATES),
                  reasoning=draw.boolean())
    input_tokens, output_tokens = _tokens(draw, 10**9), _tokens(draw, 10**9)
    return (input_tokens, _tokens(draw, input_tokens), output_tokens, _tokens(draw, output_tokens), price)


def _show(args: tuple) -> str:
    *tokens, price = args
    rates = (f"Price(input={price.input}, cached_input={price.cached_input}, output={price.output}, "
             f"reasoning={price.reasoning})")
    return f"call_cost({', '.join(map(str, tokens))}, {rates})"


def _larger(args: tuple, expected: Any, got: Any) -> bool:
    return expected is not None and isinstance(got, Decimal) and args[3] > 0 and got > expected


FAULTS = (
    Fault("makes the cost `None`, never a guess", "an unknown price",
          lambda args, expected, got: (expected is None) != (got is None),
          "Return None exactly when a part with tokens has a None price; a None price whose part has "
          "no tokens does not matter."),
    Fault("money is a `Decimal`, never a `float`", "a float", lambda args, e, got: isinstance(got, float),
          "Money is a Decimal: ints times Decimal prices, divided by 1_000_000."),
    Fault("bill them once, as output, and not a second time", "hidden tokens billed twice", _larger,
          "The reasoning tokens are already among output_tokens, for a reasoning model too "
          "(price.reasoning): bill output_tokens once at the output price, nothing more."),
    Fault("No `int()` or `round()`: the result is exact", "a cost cut short",
          lambda args, expected, got: isinstance(got, Decimal) and got < expected,
          "Less than the exact cost: no int(), round() or quantize() on the way."),
)

def _per_token(args: tuple, expected: Any, got: Any) -> bool:
    return isinstance(got, Decimal) and bool(expected) and got == expected * 1_000_000


def _float_sized(args: tuple, expected: Any, got: Any) -> bool:
    return isinstance(got, Decimal) and expected is not None and got != expected and \
        abs(got - expected) <= abs(expected) * Decimal("1e-12")


FAULTS += (
    Fault("money is a `Decimal`, never a `float`", "prices per token", _per_token,
          "Prices are per million tokens: divide by 1_000_000."),
    Fault("build no float on the way", "a float on the way", _float_sized,
          "Right but for its last digits, as a float on the way makes it: keep ints and Decimals only."),
    Fault("bill them once, at the cached price", "cached tokens",
          lambda args, expected, got: args[1] > 0,
          "The cached tokens are part of input_tokens: bill (input - cached) at price.input and "
          "cached at price.cached_input, each once."),
)

COMPARISON = Diagnosed(Comparison(
    "08.call_cost", reference, _inputs, lambda args, expected, got: _exact(expected)(got), _show,
    hint="Each part at its own price, a price needed only when its part has tokens; reasoning tokens "
         "are already in output_tokens; ints times Decimals, no float, no int() or round()."), FAULTS)
