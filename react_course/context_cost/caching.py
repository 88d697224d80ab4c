"""Prompt caching as a property of each model: its minimum, its blocks, its read and write prices.

Every model's rules are a row of the price table (``data/prices.json``, read
by ``price_table.py``), with the page they were read from and the date:

- the **minimum**: a prompt shorter than this is not cached at all, and pays
  the full input price (OpenAI: 1,024 tokens; Claude Opus 4.5: 4,096);
- the **block**: the cached prefix is counted in whole blocks (OpenAI's
  128-token steps, on models before GPT-5.6 only; 1 elsewhere);
- the **read** multiplier of the input price for a cached token (0.5 or 0.25
  on OpenAI's 2025 rows; Anthropic 0.1 on Opus 4.5, 0.05 on Opus 5.5);
- the **write** multiplier per lifetime: ``auto`` for a cache the provider
  fills by itself (1 before GPT-5.6, 1.25 from it), ``5m`` and ``1h`` for
  Anthropic's ``cache_control`` marks (1.25 and 2).

``run_cost(calls, price, scheme)`` prices a run's calls (each call's input,
the prefix it shares with the one before, its output) with no cache
(``"none"``) or under one of the model's lifetimes. A rule that was not read
(a minimum, a price) makes the cost ``None``: not known, never a guess.

What it leaves out: expiry in time (every call is assumed to come within the
cache's lifetime), where a provider looks back for a hit (a hit is the
prefix shared with the previous call), Anthropic's four-breakpoint limit and
OpenAI's explicit breakpoints.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from ..tokens import count_tokens
from .cost import PER_MILLION, Price, shared_prefix_tokens
from .price_table import write_price


def split_call(prompt: int, shared: int, price: Price, scheme: str = "none") -> tuple[int, int, int]:
    """(plain, written, read) input tokens of one call of ``prompt`` tokens, ``shared`` repeating the last.

    A prompt under the model's minimum is all plain: nothing is read and
    nothing written. Above it, the cache serves the shared prefix (in whole
    blocks where the model has them) and the rest is written, as an agent
    loop that marks its newest message does.

    >>> from react_course.context_cost.cost import prices
    >>> opus, gpt4o = prices()["claude-opus-4-5"], prices()["gpt-4o"]
    >>> split_call(3_000, 2_500, opus, "5m"), split_call(5_000, 4_500, opus, "5m")
    ((3000, 0, 0), (0, 500, 4500))
    >>> split_call(3_000, 2_500, gpt4o, "auto")  # 2,500 shared: 19 blocks of 128
    (0, 568, 2432)
    """
    if scheme == "none":
        return prompt, 0, 0
    rule = price.cache
    if rule is None or scheme not in rule.writes:
        known = ", ".join(["none", *(rule.writes if rule else ())])
        raise ValueError(f"scheme for {price.model} must be one of {known}, got {scheme!r}")
    if rule.minimum is None:
        raise LookupError(f"{price.model}'s minimum cacheable prompt is not in the price table")
    if prompt < rule.minimum:
        return prompt, 0, 0
    read = rule.served(shared)
    return 0, prompt - read, read


def call_cost(prompt: int, shared: int, output: int, price: Price, scheme: str = "none") -> Decimal | None:
    """Dollars for one call, or None when a price or rule it needs is not known.

    >>> from react_course.context_cost.cost import prices
    >>> call_cost(2_000, 1_500, 0, prices()["gpt-4o"], "auto")  # 1,408 read at half price
    Decimal('0.00324')
    >>> call_cost(2_000, 1_500, 0, prices()["gpt-5.6"], "auto") is None  # its prices were not read
    True
    """
    try:
        plain, written, read = split_call(prompt, shared, price, scheme)
    except LookupError:
        return None
    write = write_price(price, scheme) if written else None
    parts = [(plain, price.input), (written, write), (read, price.cached_input), (output, price.output)]
    if any(tokens and rate is None for tokens, rate in parts):
        return None
    return sum((tokens * rate for tokens, rate in parts if tokens), Decimal(0)) / PER_MILLION


def run_cost(calls: Sequence[tuple[int, int, int]], price: Price, scheme: str = "none") -> Decimal | None:
    """Dollars for a run's ``calls``, each ``(input tokens, shared with the last call, output)``.

    Under Claude Opus 4.5's 4,096-token minimum, a run of 3,000 to 4,000-token
    prompts is never cached, so caching costs what no cache costs:

    >>> from react_course.context_cost.cost import prices
    >>> opus = prices()["claude-opus-4-5"]
    >>> calls = [(3_000, 0, 100), (3_500, 3_000, 100), (4_000, 3_500, 100)]
    >>> [str(run_cost(calls, opus, s)) for s in ("none", "5m", "1h")]
    ['0.0600', '0.0600', '0.0600']
    >>> longer = [(5_000, 0, 100), (5_500, 5_000, 100), (6_000, 5_500, 100)]
    >>> [str(run_cost(longer, opus, s)) for s in ("none", "5m", "1h")]
    ['0.0900', '0.050250', '0.07275']
    """
    costs = [call_cost(p, s, o, price, scheme) for p, s, o in calls]
    return None if None in costs else sum(costs, Decimal(0))  # type: ignore[arg-type]


def calls_of(model_calls: Sequence[object]) -> list[tuple[int, int, int]]:
    """``run_cost``'s calls from a text model's recorded calls (``.prompt`` and ``.reply``).

    >>> from react_course.models import ModelCall
    >>> calls_of([ModelCall("Question: q\\n", None, "a"), ModelCall("Question: q\\nmore", None, "b")])
    [(4, 0, 1), (5, 4, 1)]
    """
    calls, previous = [], ""
    for call in model_calls:
        prompt, reply = call.prompt, call.reply  # type: ignore[attr-defined]
        calls.append((count_tokens(prompt), shared_prefix_tokens(previous, prompt), count_tokens(reply)))
        previous = prompt
    return calls
