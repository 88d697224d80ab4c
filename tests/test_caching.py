"""Prompt caching as providers bill it: OpenAI's automatic blocks, Anthropic's priced writes."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

import react_course as rc
from react_course.caching import cache_writes, calls_of, run_cost
from react_course.context import Compressor, ExtractiveSummariser
from react_course.cost import CACHE_BLOCK, CACHE_MINIMUM, cache_served, prices
from react_course.lessons.long_tasks import TASKS, task_model, task_tools
from react_course.tools.data import load_json


@given(st.integers(min_value=0, max_value=200_000))
def test_openai_serves_whole_blocks_past_the_minimum(shared: int) -> None:
    cached = cache_served(shared)
    assert 0 <= cached <= shared
    if shared < CACHE_MINIMUM:
        assert cached == 0
    else:
        assert (cached - CACHE_MINIMUM) % CACHE_BLOCK == 0 and shared - cached < CACHE_BLOCK


def test_anthropics_write_premiums_and_read_discount_are_as_published() -> None:
    opus = prices()["claude-opus-4-5"]
    writes = cache_writes("claude-opus-4-5")
    assert writes["5m"] == opus.input * Decimal("1.25") and writes["1h"] == opus.input * 2
    assert opus.cached_input == opus.input / 10


def test_every_new_price_entry_says_where_it_was_read() -> None:
    for row in load_json("prices.json")["prices"]:
        if row["as_of"] >= "2026-01-01":
            assert row.get("source")


def test_a_first_call_costs_more_with_an_explicit_cache_and_the_next_ones_less() -> None:
    opus = prices()["claude-opus-4-5"]
    first, second = [(4_000, 0, 0)], [(4_000, 0, 0), (4_500, 4_000, 0)]
    assert run_cost(first, opus, "anthropic-5m") > run_cost(first, opus, "none")
    assert run_cost(second, opus, "anthropic-5m") < run_cost(second, opus, "none")
    with pytest.raises(ValueError, match="scheme"):
        run_cost(first, opus, "gemini")


def _dollars(history, model: str, scheme: str) -> Decimal:
    total = Decimal(0)
    for task in TASKS:
        scripted = task_model(task)
        fresh = history() if history else None
        rc.run_react(task.question, scripted, task_tools(), max_steps=20, history=fresh)
        total += run_cost(calls_of(scripted.calls), prices()[model], scheme)
        if fresh is not None:
            total += run_cost([(fresh.usage.input, 0, fresh.usage.output)], prices()[model])
    return total


def test_with_todays_cache_discount_compression_can_cost_more_than_it_saves() -> None:
    def compress() -> Compressor:
        return Compressor(ExtractiveSummariser(), threshold=400, keep_last=1)

    opus = "claude-opus-4-5"
    # without a cache, compressing saves money; with reads at a tenth, the lost prefix costs more
    assert _dollars(compress, opus, "none") < _dollars(None, opus, "none")
    assert _dollars(compress, opus, "anthropic-5m") > _dollars(None, opus, "anthropic-5m")
