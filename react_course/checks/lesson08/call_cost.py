"""08.call_cost as a spec: one call's price, with cached input, hidden reasoning and unknown prices.

The key is the library's ``rc.cost.cost`` of the call's ``Usage``. A price crosses as
plain data (its three rates and its ``reasoning`` flag); ``observe`` makes the ``Price``
the student's function is handed. The generated prices mix every rate form the
statement meets: cents, tenths of a cent, 0 (known, and free) and ``None``, on
reasoning models and others, with cached and hidden tokens from none to all. Most
faults are known by how far off the cost is: exactly one part billed again or left out.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from ...context_cost.cost import Price, cost
from ...record import Usage
from ..generated import Draw
from ..spec import GENERATED, Example, Fault, Rule, Spec, define

PART, CACHED = "`cached_tokens` are part of `input_tokens`", "bill them once, at the cached price"
OUTPUT, ONCE = "are part of `output_tokens`", "bill them once, as output, and not a second time"
ENOUGH = "one known price is enough for a call that needs only it"
DECIMAL, NO_FLOAT = "money is a `Decimal`, never a `float`", "build no float on the way"
EXACT = "No `int()` or `round()`: the result is exact"
UNKNOWN = "makes the cost `None`, never a guess"
NOT_NEEDED = "a `None` price that is not needed (no cached tokens) does not"
ZERO, PER_MILLION = "or `None` when nobody knows it", "in dollars per million tokens"
RATES = ("input", "cached_input", "output")


def price(model: str, rates: str, reasoning: bool = False) -> dict[str, Any]:
    """A price as plain data: ``price("m", "2.50 1.25 -")`` (``-`` is unknown)."""
    values = [None if r == "-" else Decimal(r) for r in rates.split()]
    return {"model": model, **dict(zip(RATES, values, strict=True)), "reasoning": reasoning}


def key(input_tokens: int, cached_tokens: int, output_tokens: int, reasoning_tokens: int,
        price: Price) -> Decimal | None:
    """The library's ``rc.cost.cost`` of this call's usage."""
    return cost(Usage(input_tokens, output_tokens, cached_tokens, reasoning_tokens), price)


def observe(function: Any, args: tuple) -> Any:
    *tokens, p = args
    made = Price(p["model"], "2025-06-01", *(p[r] for r in RATES), reasoning=p["reasoning"])
    return function(*tokens, made)


def _parts(args: tuple) -> list[tuple[int, Decimal | None]]:
    i, c, o, _, p = args
    return [(i - c, p["input"]), (c, p["cached_input"]), (o, p["output"])]


def _refused(*rates: str) -> Any:
    """None came back, yet every part with tokens has a price, and one of ``rates`` is None unneeded."""
    def found(args: tuple, expected: Any, got: Any) -> bool:
        unneeded = {r for (t, v), r in zip(_parts(args), RATES, strict=True) if v is None and not t}
        return got is None and expected is not None and bool(unneeded & set(rates))
    return found


def _off_by(*amounts: Any) -> Any:
    """``got`` is the cost plus one of ``amounts(args, price)`` (tokens times a rate, in millions)."""
    def found(args: tuple, expected: Any, got: Any) -> bool:
        if not isinstance(got, Decimal) or expected is None or got == expected:
            return False
        offs = [amount(args, args[4]) for amount in amounts]
        return any(off is not None and got - expected == off / 10**6 for off in offs)
    return found


def _near(args: tuple, expected: Any, got: Any) -> bool:
    return isinstance(got, Decimal) and bool(expected) and got != expected and \
        abs(got - expected) <= expected / 10**12


def _rounded(args: tuple, expected: Any, got: Any) -> bool:
    return isinstance(got, Decimal) and expected is not None and got != expected and \
        abs(got - expected) < Decimal(10) ** got.as_tuple().exponent


FAULTS = (
    Fault(ZERO, "A price of 0 is known (that part is free): test `rate is None`, not `not rate`.",
          found=lambda a, want, got: got is None and want is not None
          and any(t and r == 0 for t, r in _parts(a))),
    Fault(NOT_NEEDED, "No token is billed at the cached price here, so its being None does not matter: check "
                      "a price only when its part has tokens.", found=_refused("cached_input")),
    Fault(ENOUGH, "Only the parts with tokens need a price: a None price whose part has no tokens does not "
                  "make the cost unknown.", found=_refused("input", "output")),
    Fault(UNKNOWN, "A part with tokens has a None price: the cost is unknown, so return None, never a guess "
                   "(not 0, not another price).",
          found=lambda a, want, got: want is None and got is not None),
    Fault(DECIMAL, "Money is a Decimal: ints times Decimal prices, divided by 1_000_000.",
          found=lambda a, want, got: isinstance(got, float)),
    Fault(PER_MILLION, "Prices are per million tokens: divide by 1_000_000.",
          found=lambda a, want, got: isinstance(got, Decimal) and bool(want) and got == want * 10**6),
    Fault(NO_FLOAT, "Right but for its last digits, as a float on the way makes it: keep ints and Decimals "
                    "only.", found=_near),
    Fault(ONCE, "price.reasoning says the model reasons, but its hidden tokens are already among "
                "output_tokens: bill output_tokens once at the output price, nothing more.",
          found=_off_by(lambda a, p: a[3] * p["output"] if p["reasoning"] else None)),
    Fault(OUTPUT, "reasoning_tokens are inside output_tokens for every model, whatever price.reasoning says: "
                  "bill output_tokens at the output price, no more and no less.",
          found=_off_by(lambda a, p: a[3] * p["output"], lambda a, p: -a[3] * p["output"],
                        lambda a, p: -(a[2] - a[3]) * p["output"])),
    Fault(PART, "The cached tokens are part of input_tokens: bill (input - cached) at price.input, not all "
                "of input_tokens.", found=_off_by(lambda a, p: a[1] * p["input"])),
    Fault(CACHED, "Bill the cached tokens at price.cached_input, not at the input price.",
          found=_off_by(lambda a, p: a[1] * (p["input"] - p["cached_input"]))),
    Fault(EXACT, "Right but rounded: no int(), round() or quantize() on the way.", found=_rounded),
)

GPT_4O, MINI = price("gpt-4o", "2.50 1.25 10.00"), price("gpt-4o-mini", "0.15 0.075 0.60")
NO_CACHE, INPUT_ONLY = price("a-local-server", "0.20 - 0.80"), price("an-embedding-model", "0.02 - -")
NO_OUTPUT, FREE_CACHE = price("a-new-model", "1.00 0.50 -"), price("a-free-cache", "3.00 0 15.00")
REASONER = price("a-reasoning-model", "2.00 0.50 8.00", reasoning=True)

EXAMPLES = tuple(Example(name, args, hint) for name, args, hint in (
    ("no cache", (12_000, 0, 400, 0, GPT_4O), "12,000 input tokens at $2.50 per million, 400 output at $10."),
    ("half the input cached", (12_000, 6_000, 400, 0, GPT_4O),
     "The 6,000 cached tokens are inside the 12,000: 6,000 at $2.50 and 6,000 at $1.25."),
    ("all the input cached", (8_000, 8_000, 0, 0, MINI),
     "Every input token came from the cache: all of them at the cached price, once."),
    ("a reasoning model's hidden tokens", (5_000, 0, 3_000, 2_700, GPT_4O),
     "The 3,000 output tokens include the 2,700 hidden ones: bill 3,000 at the output price, once."),
    ("a reasoning model bills its hidden tokens once", (4_000, 1_000, 2_500, 2_000, REASONER),
     "price.reasoning says the model reasons; its 2,000 hidden tokens are already among the 2,500 "
     "output tokens: bill 2,500 at the output price, once."),
    ("the cost is a Decimal", (1_000, 0, 100, 0, MINI), "Keep every step a Decimal: int * Decimal / int."),
    ("no float on the way", (1_234, 0, 567, 0, MINI),
     "0.15 as a float is not 0.15; Decimal(str(a float)) keeps the float's error. Multiply the int token "
     "counts by the Decimal prices."),
    ("a tenth of a cent, exactly", (40_000, 0, 0, 0, GPT_4O), "0.1 is exact as a Decimal, never as a float."),
    ("an unknown output price", (2_000, 0, 100, 0, NO_OUTPUT),
     "The output price is None: the cost is unknown, not zero."),
    ("an unknown cached price, cached tokens", (2_000, 1_000, 100, 0, NO_CACHE),
     "1,000 tokens need the cached price, which is None."),
    ("an unknown cached price, nothing cached", (2_000, 0, 100, 0, NO_CACHE),
     "No token is billed at the cached price, so its being unknown does not matter."),
    ("input only, the other prices unknown", (2_000, 0, 0, 0, INPUT_ONLY),
     "Only the input price is needed here, and it is known: check each price only when its part has tokens."),
    ("a free cache is known", (10_000, 9_000, 200, 0, FREE_CACHE),
     "A cached price of 0 is known: the cached tokens cost nothing, and the cost is not None."),
))
HIDDEN = tuple(Example(name, args, "Each part once at its own price; hidden tokens are inside the output.")
               for name, args in (
    ("hidden case: a reasoning model, half cached", (9_000, 4_500, 6_000, 5_000, REASONER)),
    ("hidden case: one token", (1, 0, 0, 0, price("tiny", "0.0001 - -"))),
    ("hidden case: an unknown input price", (100, 100, 10, 0, price("cache-only", "- 0.50 2.00")))))

RATE_FORMS = (Decimal("2.50"), Decimal("1.25"), Decimal("0.075"), Decimal("0.1"), Decimal("0"),
              Decimal("4.40"), Decimal("15"), Decimal("0.0001"), None)


def _tokens(draw: Draw, most: int) -> int:
    return min(most, draw.pick((0, 1, 3, 999, 1_000, 1_234, 40_000, 999_999, 10**9)))


def _inputs(draw: Draw) -> tuple:
    rates = {"model": "generated", **{r: draw.pick(RATE_FORMS) for r in RATES}, "reasoning": draw.boolean()}
    input_tokens, output_tokens = _tokens(draw, 10**9), _tokens(draw, 10**9)
    return input_tokens, _tokens(draw, input_tokens), output_tokens, _tokens(draw, output_tokens), rates


def _show(args: tuple) -> str:
    *tokens, p = args
    rates = ", ".join(f"{r}={p[r]}" for r in RATES)
    return f"call_cost({', '.join(f'{t:_}' for t in tokens)}, Price({rates}, reasoning={p['reasoning']}))"


def _needed_unknown(args: tuple) -> bool:
    return any(t and r is None for t, r in _parts(args))


RULES = (
    Rule(PER_MILLION, ("no cache", GENERATED)),
    Rule(PART, ("no cache", "half the input cached", "all the input cached"),
         edge=lambda a: a[1] == a[0] > 0),
    Rule(CACHED, ("half the input cached", "all the input cached", GENERATED),
         edge=lambda a: 0 < a[1] < a[0]),
    Rule(OUTPUT, ("a reasoning model's hidden tokens", GENERATED), edge=lambda a: a[3] == a[2] > 0),
    Rule(ONCE, ("a reasoning model's hidden tokens", "a reasoning model bills its hidden tokens once",
                GENERATED), edge=lambda a: a[4]["reasoning"] and a[3] > 0),
    Rule(ZERO, ("a free cache is known", GENERATED), edge=lambda a: any(t and r == 0 for t, r in _parts(a))),
    Rule(ENOUGH, ("input only, the other prices unknown", GENERATED),
         edge=lambda a: not _needed_unknown(a) and a[4]["output"] is None),
    Rule(DECIMAL, ("the cost is a Decimal", "a tenth of a cent, exactly", GENERATED)),
    Rule(NO_FLOAT, ("no float on the way",)),
    Rule(EXACT, ("no float on the way", GENERATED),
         edge=lambda a: a[0] == 1 and a[4]["input"] == Decimal("0.0001")),
    Rule(UNKNOWN, ("an unknown output price", "an unknown cached price, cached tokens", GENERATED),
         edge=_needed_unknown),
    Rule(NOT_NEEDED, ("an unknown cached price, nothing cached",),
         edge=lambda a: a[1] == 0 and a[4]["cached_input"] is None and not _needed_unknown(a)),
)

SPEC = define(Spec(
    "08.call_cost", "one call's price, with cached input and hidden reasoning", "call_cost", key,
    EXAMPLES, _inputs, RULES, faults=FAULTS, hidden=HIDDEN, observe=observe, show=_show,
    hints=("Three parts: (input - cached) at price.input, cached at price.cached_input, output at "
           "price.output (the reasoning tokens are inside it); prices are per million tokens.",
           "Multiply ints by Decimals and divide by 1_000_000: every step stays a Decimal.",
           "Check each part that has tokens for a None price (`is None`) before you multiply."),
    generated_hint="Each part at its own price, a price needed only when its part has tokens; reasoning "
                   "tokens are already in output_tokens; ints times Decimals, no float, no int() or "
                   "round()."))
__all__ = ["SPEC", "price"]
