"""Prompt caching as two providers bill it: automatic (OpenAI) and explicit (Anthropic).

``cost.py`` prices a cached token at one rate, with OpenAI's minimum and
block size (``cost.cache_served``). Anthropic's rules differ, and they decide
what a long run pays:

- **OpenAI, automatic.** Nothing to ask for: a prompt of 1,024 tokens or
  more has its repeated prefix cached, and hits come in steps of 128 tokens
  (``cost.cache_served``). ``prompt_cache_key`` (a stable name per conversation
  or task) helps requests that share a prefix reach the same cache. Writing
  costs nothing extra on models before the GPT-5.6 family; from GPT-5.6 on a
  write costs 1.25 times the input rate (not modelled here). Source: OpenAI's prompt-caching guide
  (developers.openai.com/api/docs/guides/prompt-caching), stored copy read 2026-12-01.
- **Anthropic, explicit.** A ``cache_control: {"type": "ephemeral"}`` mark on
  a block caches the prompt up to it, for 5 minutes by default or an hour
  with ``"ttl": "1h"``. Writing costs more than plain input (1.25 times for
  5 minutes, 2 times for an hour, as the prices in ``data/prices.json`` show);
  reading costs a tenth. Source: Anthropic's pricing page
  (platform.claude.com/docs/en/about-claude/pricing), stored copy read 2026-12-01.

``run_cost(calls, price, scheme)`` prices a run's calls (each call's input, the
prefix it shares with the one before, its output) under ``"none"``,
``"openai"``, ``"anthropic-5m"`` or ``"anthropic-1h"``, so that lesson 08 can
weigh compression against today's discounts as well as the older table.

What it leaves out: expiry in time (every call is assumed to come within the
cache's lifetime), Anthropic's minimum cacheable length (it varies by model),
the four-breakpoint limit, and cache writes on the first call of a new key.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from .cost import PER_MILLION, Price, cache_served, shared_prefix_tokens
from .tokens import count_tokens
from .tools.data import load_json

SCHEMES = ("none", "openai", "anthropic-5m", "anthropic-1h")


def cache_writes(model: str) -> dict[str, Decimal]:
    """Anthropic's cache-write prices for ``model`` ({"5m": ..., "1h": ...}), from prices.json.

    >>> cache_writes("claude-opus-4-5")
    {'5m': Decimal('6.25'), '1h': Decimal('10.00')}
    """
    row = next(r for r in load_json("prices.json")["prices"] if r["model"] == model)
    return {ttl: Decimal(row[f"cache_write_{ttl}"]) for ttl in ("5m", "1h")}


def call_cost(prompt: int, shared: int, output: int, price: Price, scheme: str,
              write: Decimal | None = None) -> Decimal:
    """Dollars for one call of ``prompt`` input tokens, ``shared`` of them repeating the last call.

    Under Anthropic's scheme the whole prompt is marked for caching, as an agent
    loop does (the mark on the newest message): the shared prefix is read, the rest
    written at ``write`` (the cache-write price). Under OpenAI's, the part the
    cache serves is read at the cached price and the rest is plain input.

    >>> from react_course.cost import prices
    >>> call_cost(2_000, 1_500, 0, prices()["gpt-4o"], "openai")
    Decimal('0.00324')
    """
    if scheme not in SCHEMES:
        raise ValueError(f"scheme must be one of {', '.join(SCHEMES)}, got {scheme!r}")
    cached = {"none": 0, "openai": cache_served(shared)}.get(scheme, shared)
    fresh_rate = write if scheme.startswith("anthropic") and write is not None else price.input
    total = (prompt - cached) * fresh_rate + cached * price.cached_input + output * price.output
    return total / PER_MILLION


def run_cost(calls: Sequence[tuple[int, int, int]], price: Price, scheme: str = "none") -> Decimal:
    """Dollars for a run's ``calls``, each ``(input tokens, shared with the last call, output)``.

    >>> from react_course.cost import prices
    >>> opus = prices()["claude-opus-4-5"]
    >>> calls = [(3_000, 0, 100), (3_500, 3_000, 100), (4_000, 3_500, 100)]
    >>> [str(run_cost(calls, opus, s)) for s in ("none", "anthropic-5m", "anthropic-1h")]
    ['0.0600', '0.035750', '0.05075']
    """
    write = cache_writes(price.model)[scheme.split("-")[1]] if scheme.startswith("anthropic") else None
    return sum((call_cost(p, s, o, price, scheme, write) for p, s, o in calls), Decimal(0))


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
