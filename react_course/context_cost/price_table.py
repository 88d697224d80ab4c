"""The one price table: each model's dated prices and prompt-cache rules, read from ``data/prices.json``.

A row holds what was read off a provider's page on one day, with the page
named: the input and output prices per million tokens, and the cache rules
(``CacheRule``): the shortest prompt cached at all, the step the cached prefix
is counted in, what a cached read and a cache write cost as multiples of the
input price, and how long a prefix is kept. Whatever was not read is ``None``,
and every figure that needs it is ``None`` too ("not known"), never a guess.

``check_table`` is the maintainer's step (``python -m
react_course.course.prices --check``): it says what is wrong with the file in
words, and which rows are old enough to read again. The figures themselves
can only be refreshed by a person reading the providers' pages; nothing here
fetches them.

What it leaves out: batch and long-context prices, currencies other than
dollars, and per-region prices.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from ..tools.data import load_json

STALE_DAYS = 365  # a row older than this is listed for reading again


@dataclass(frozen=True)
class CacheRule:
    """A model's prompt cache: minimum, block, read and write multipliers of the input price.

    >>> rule = CacheRule(minimum=1_024, block=128, read=Decimal("0.5"), writes={"auto": Decimal(1)})
    >>> rule.served(1_023), rule.served(1_897), CacheRule(4_096).served(5_000)
    (0, 1792, 5000)
    """

    minimum: int | None  # tokens; None: not known
    block: int = 1  # the cached prefix is counted in whole blocks of this many tokens
    read: Decimal | None = None  # a cached token costs input price x read
    writes: dict[str, Decimal | None] = field(default_factory=dict, hash=False)  # lifetime -> x
    retention: str | None = None
    source: str = ""
    as_of: str = ""

    def served(self, shared: int) -> int:
        """Tokens the cache serves when ``shared`` tokens repeat a cached prompt (minimum known)."""
        if self.minimum is None:
            raise ValueError("this model's minimum cacheable prompt is not known")
        return 0 if shared < self.minimum else shared // self.block * self.block


@dataclass(frozen=True)
class Price:
    """US dollars per million tokens for one model, as published on ``as_of``; None = unknown."""

    model: str
    as_of: str
    input: Decimal | None
    cached_input: Decimal | None
    output: Decimal | None
    reasoning: bool = False  # a reasoning model: hidden reasoning tokens are billed as output
    cache: CacheRule | None = None
    source: str = ""
    provider: str = ""


def _money(value: Any) -> Decimal | None:
    return None if value is None else Decimal(str(value))


def _times(rate: Decimal | None, multiplier: Decimal | None) -> Decimal | None:
    """``rate`` x ``multiplier`` with no trailing zeros past the cents (2.50 x 0.5 is 1.25)."""
    if rate is None or multiplier is None:
        return None
    product = (rate * multiplier).normalize()
    return product.quantize(Decimal("0.01")) if product.as_tuple().exponent > -2 else product


def _rule(cache: dict[str, Any] | None) -> CacheRule | None:
    if cache is None:
        return None
    writes = {ttl: _money(m) for ttl, m in cache.get("writes", {}).items()}
    return CacheRule(cache.get("minimum"), cache.get("block", 1), _money(cache.get("read")), writes,
                     cache.get("retention"), cache.get("source", ""), cache.get("as_of", ""))


def price_from_row(row: dict[str, Any]) -> Price:
    """One row of the table as a ``Price``; the cached price is the input price times ``read``.

    >>> price_from_row({"model": "m", "as_of": "2026-12-01", "input": "4.00", "output": "20.00",
    ...                 "cache": {"minimum": None, "read": "0.05"}}).cached_input
    Decimal('0.20')
    """
    rule, rate = _rule(row.get("cache")), _money(row.get("input"))
    return Price(row["model"], row["as_of"], rate, _times(rate, rule.read if rule else None),
                 _money(row.get("output")), row.get("reasoning", False), rule, row.get("source", ""),
                 row.get("provider", ""))


def load_table() -> dict[str, Price]:
    """Every row of ``data/prices.json``, by model name."""
    return {row["model"]: price_from_row(row) for row in load_json("prices.json")["models"]}


def write_price(price: Price, lifetime: str) -> Decimal | None:
    """Dollars per million tokens written to ``price``'s cache for ``lifetime``; None if not known.

    >>> write_price(load_table()["claude-opus-4-5"], "1h")
    Decimal('10.00')
    """
    if price.cache is None or lifetime not in price.cache.writes:
        known = ", ".join(price.cache.writes) if price.cache else "none"
        raise ValueError(f"{price.model} has no cache lifetime {lifetime!r}; it has: {known}")
    return _times(price.input, price.cache.writes[lifetime])


def check_table(rows: list[dict[str, Any]], today: date) -> tuple[list[str], list[str]]:
    """(problems, rows to read again) for the table's rows; no problems means the file is usable.

    >>> check_table([{"model": "m", "as_of": "2026-01-05", "source": "a page", "input": 2.5}],
    ...             date(2026, 12, 1))[0]
    ['m: input is 2.5, not a number of dollars (write it as a string, e.g. "2.50", or null)']
    """
    problems, stale, seen = [], [], set()
    for row in rows:
        name = row.get("model") or "a row without a model name"
        problems += [f"{name}: {p}" for p in _row_problems(row)]
        if name in seen:
            problems.append(f"{name}: two rows for one model; keep one, with the newest date")
        seen.add(name)
        try:
            age = (today - date.fromisoformat(row.get("as_of", ""))).days
        except (TypeError, ValueError):
            continue
        if age > STALE_DAYS:
            stale.append(f"{name}: read {row['as_of']}, {age} days ago; read {row.get('source')!r} again")
    return problems, stale


def _row_problems(row: dict[str, Any]) -> list[str]:
    problems = []
    try:
        date.fromisoformat(row.get("as_of", ""))
    except (TypeError, ValueError):
        problems.append(f"as_of is {row.get('as_of')!r}; write the day it was read as YYYY-MM-DD")
    if not row.get("source"):
        problems.append("no source: say which page the figures were read from")
    cache = row.get("cache") or {}
    values = [(k, row.get(k)) for k in ("input", "output")] + [("cache read", cache.get("read"))]
    values += [(f"cache write {k}", v) for k, v in cache.get("writes", {}).items()]
    for key, value in values:
        problems += _money_problem(key, value)
    if cache and not cache.get("source"):
        problems.append("cache rules without a source")
    if cache.get("minimum") is not None and not isinstance(cache["minimum"], int):
        problems.append(f"cache minimum is {cache['minimum']!r}; write a whole number of tokens or null")
    return problems


def _money_problem(key: str, value: Any) -> list[str]:
    if value is None:
        return []
    try:
        ok = isinstance(value, str) and Decimal(value) >= 0
    except InvalidOperation:
        ok = False
    return [] if ok else [f"{key} is {value!r}, not a number of dollars "
                          f"(write it as a string, e.g. \"2.50\", or null)"]


def check_report(text: str, today: date) -> tuple[bool, str]:
    """(usable, report) for the text of a price file: what ``--check`` prints."""
    try:
        rows = json.loads(text)["models"]
    except (ValueError, KeyError, TypeError) as error:
        return False, f"prices.json cannot be read as the price table: {error}"
    problems, stale = check_table(rows, today)
    lines = [f"{len(rows)} rows; {len(problems)} problems; {len(stale)} rows older than {STALE_DAYS} days"]
    lines += [f"problem: {p}" for p in problems] + [f"old: {s}" for s in stale]
    return not problems, "\n".join(lines)

