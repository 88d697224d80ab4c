"""What a run costs: dated prices, money as Decimal, and the closed forms of a growing history.

A text ReAct run sends its whole history on every call. With a fixed part P
(instructions, tool list, question) and s tokens added by each step (the
reply and its observation), call k reads

    P + (k - 1) s  tokens,          and N calls read  N P + s N (N - 1) / 2

in total: linear per call, quadratic over the run. The scratchpad's lines
follow the same rule: 1 + 4 (k - 1) for call k (the question, then four lines
per earlier step: Thought, Action, Action Input, Observation).

Prices live in ``data/prices.json`` (read by ``price_table.py``), per million
tokens, each with the date it was read and its source. Money is ``Decimal``
(floats cannot hold 0.1 exactly); a price that is not known is ``None`` and so
is any cost that needs it: never a guess.
Cached input is *part of* input (billed at the cached price instead of the
full one, never twice); a reasoning model's hidden reasoning is *part of*
output and billed as output.

The closed forms below cache by OpenAI's rule for models before GPT-5.6 (its
prompt-caching guide, read 2026-12-01): no prompt under ``CACHE_MINIMUM``
(1,024) tokens is cached at all, and a longer one is served in blocks of
``CACHE_BLOCK`` (128) tokens, so the cached part is the shared prefix rounded
down to a whole block (``cache_served``). Each model's own rule is in the price
table (``Price.cache``), and ``caching.run_cost`` applies it.

What it leaves out: per-request fees, batch and flex discounts, long-context
surcharges, the cache's expiry and the routing that can miss it
(``cache_hit_rate`` stands for those), and currencies other than US dollars.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from ..record import Usage
from ..tokens import count_tokens
from .price_table import Price, load_table  # Price is defined there and used from here too

PER_MILLION = Decimal(1_000_000)
CACHE_MINIMUM = 1_024  # tokens: OpenAI never reads a shorter prompt from the cache
CACHE_BLOCK = 128  # tokens: before GPT-5.6 its cache serves whole blocks of the shared prefix


def prices() -> dict[str, Price]:
    """Every bundled price, by model name (``price_table.py`` reads the file).

    >>> prices()["gpt-4o"].input, prices()["gpt-4o"].as_of, prices()["gpt-4o"].cached_input
    (Decimal('2.50'), '2025-06-01', Decimal('1.25'))
    """
    return load_table()


def price_of(model: str) -> Price | None:
    """The price of ``model`` (a provider prefix and a date suffix are ignored), or None.

    >>> price_of("openai:gpt-4o-mini-2024-07-18").output
    Decimal('0.60')
    >>> price_of("ollama:qwen2.5:7b") is None
    True
    """
    name = model.split(":", 1)[1] if model.split(":", 1)[0] in ("openai", "azure") else model
    return prices().get(re.sub(r"-\d{4}-\d{2}-\d{2}$", "", name))


def cost(usage: Any, price: Price | None) -> Decimal | None:
    """Dollars for ``usage`` (a record.Usage) at ``price``; None when a price it needs is unknown.

    Cached input is part of input: (input - cached) at the input price, cached
    at the cached price. Output already includes any reasoning tokens.

    >>> cost(Usage(input=10_000, output=500, cached_input=8_000), prices()["gpt-4o"])
    Decimal('0.02')
    """
    if price is None:
        return None
    parts = [(usage.input - usage.cached_input, price.input), (usage.cached_input, price.cached_input),
             (usage.output, price.output)]
    if any(tokens and rate is None for tokens, rate in parts):
        return None
    return sum((tokens * rate for tokens, rate in parts if tokens), Decimal(0)) / PER_MILLION


def cache_served(shared: int, minimum: int = CACHE_MINIMUM, block: int = CACHE_BLOCK) -> int:
    """Tokens a prompt cache serves when ``shared`` tokens repeat the previous prompt.

    Nothing below the minimum; above it, whole blocks only.

    >>> cache_served(1_023), cache_served(1_024), cache_served(1_897), cache_served(1_897, 0, 1)
    (0, 1024, 1792, 1897)
    """
    return 0 if shared < minimum else shared // block * block


def money(amount: Decimal | None, places: int = 4) -> str:
    """A dollar amount for people; 'unknown' for None.

    >>> money(Decimal("0.0225")), money(Decimal("12.5"), 2), money(None)
    ('$0.0225', '$12.50', 'unknown')
    """
    return "unknown" if amount is None else f"${amount:,.{places}f}"


def lines_read(k: int) -> int:
    """Scratchpad lines that call ``k`` reads: the question, then 4 per earlier step.

    >>> lines_read(1), lines_read(6)
    (1, 21)
    """
    return 1 + 4 * (k - 1)


def total_lines_read(n: int) -> int:
    """Lines read by calls 1..n altogether: n + 2 n (n - 1).

    >>> total_lines_read(6), sum(lines_read(k) for k in range(1, 7))
    (66, 66)
    """
    return n + 2 * n * (n - 1)


def input_tokens(k: int, prompt: int, per_step: int) -> int:
    """Input tokens of call ``k``: the fixed prompt plus every earlier step.

    >>> input_tokens(10, prompt=300, per_step=850)
    7950
    """
    return prompt + (k - 1) * per_step


def total_input_tokens(n: int, prompt: int, per_step: int) -> int:
    """Input tokens of calls 1..n: n P + s n (n - 1) / 2 (exact; n (n - 1) is even).

    >>> total_input_tokens(15, prompt=1_000, per_step=1_000)
    120000
    """
    return n * prompt + per_step * n * (n - 1) // 2


def run_usages(n: int, prompt: int, per_step: int, *, output: int = 0, reasoning: int = 0,
               cache_hit_rate: float | Decimal = 0, cache_minimum: int = CACHE_MINIMUM,
               cache_block: int = CACHE_BLOCK) -> list[Usage]:
    """The Usage of each of ``n`` calls of a run whose history only grows.

    Call k's prompt begins with call k-1's whole prompt, so that much of it may
    be read from the provider's cache: what ``cache_served`` allows of it, on the
    fraction ``cache_hit_rate`` of calls that find the cache warm (as an average).
    ``output`` counts the visible reply, ``reasoning`` the hidden tokens on top of
    it (both billed as output).

    >>> run_usages(2, prompt=300, per_step=100, output=40, cache_hit_rate=1)[1]  # under 1,024
    Usage(input=400, output=40, cached_input=0, reasoning=0)
    >>> run_usages(2, prompt=1_100, per_step=100, cache_hit_rate=1)[1]  # 1,100 shared: 8 blocks
    Usage(input=1200, output=0, cached_input=1024, reasoning=0)
    """
    rate = Decimal(str(cache_hit_rate))
    calls = []
    for k in range(1, n + 1):
        shared = input_tokens(k - 1, prompt, per_step) if k > 1 else 0
        cached = int(rate * cache_served(shared, cache_minimum, cache_block))
        calls.append(Usage(input_tokens(k, prompt, per_step), output + reasoning, cached, reasoning))
    return calls


def shared_prefix_tokens(previous: str, prompt: str, encoding: str = "o200k_base") -> int:
    """Tokens at the start of ``prompt`` that repeat ``previous``: what a prompt cache can serve.

    Counted up to the last line break both share, so that the count ends on a
    token boundary. This is the most a cache could serve; ``cache_served`` says
    how much of it a provider does (nothing under its minimum, then whole blocks).

    >>> shared_prefix_tokens("Question: q\\nThought: a", "Question: q\\nThought: b")
    4
    """
    same = 0  # characters the two prompts share from the start
    for a, b in zip(previous, prompt, strict=False):
        if a != b:
            break
        same += 1
    last_full_line = prompt.rfind("\n", 0, same) + 1  # a cache hit ends at a whole line here
    return count_tokens(prompt[:last_full_line], encoding)


def compressed_run_usages(n: int, prompt: int, per_step: int, *, threshold: int, keep_last: int,
                          note: int, output: int = 0, cache_hit_rate: float | Decimal = 0,
                          template: int = 100, cache_minimum: int = CACHE_MINIMUM,
                          cache_block: int = CACHE_BLOCK) -> tuple[list[Usage], Usage]:
    """The calls of a run compressed as ``context.Compressor`` does, and the summaries' cost.

    Past ``threshold`` tokens of verbatim steps, every step but the last ``keep_last``
    becomes a note of ``note`` tokens, appended to the earlier notes. A cache
    can serve the previous prompt while nothing was folded, and only the fixed
    prompt and the old notes on the call right after a fold, each as
    ``cache_served`` allows. Returns the agent's Usage per call and the
    summariser's total (``template`` tokens of instructions per summary, the
    folded steps in, their notes out). Below, the cache's minimum and blocks are
    switched off (0 and 1) to show the folding alone:

    >>> calls, summaries = compressed_run_usages(6, 300, 100, threshold=250, keep_last=1, note=20,
    ...                                          cache_hit_rate=1, cache_minimum=0, cache_block=1)
    >>> [u.input for u in calls], [u.cached_input for u in calls]
    ([300, 400, 500, 440, 540, 480], [0, 300, 400, 300, 440, 340])
    >>> summaries
    Usage(input=600, output=80, cached_input=0, reasoning=0)
    """
    rate, calls, summaries = Decimal(str(cache_hit_rate)), [], Usage()
    notes = live = previous = 0  # tokens of notes so far; steps still verbatim; the last prompt
    for _ in range(n):
        cacheable = previous
        if live * per_step > threshold and live > keep_last:
            folded = live - keep_last
            summaries += Usage(template + folded * per_step, folded * note)
            cacheable, notes, live = prompt + notes, notes + folded * note, keep_last
        previous = prompt + notes + live * per_step
        calls.append(Usage(previous, output,
                           int(rate * cache_served(cacheable, cache_minimum, cache_block))))
        live += 1
    return calls, summaries
