"""Prompt caching per model: each model's minimum, blocks, read and write prices, from the table."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

import react_course as rc
from react_course.context_cost.caching import call_cost, calls_of, run_cost, split_call
from react_course.context_cost.context import Compressor, ExtractiveSummariser
from react_course.context_cost.cost import CACHE_BLOCK, CACHE_MINIMUM, cache_served, prices
from react_course.context_cost.price_table import write_price
from react_course.lessons.long_tasks import TASKS, task_model, task_tools

TABLE = prices()
CACHED_MODELS = [name for name, price in TABLE.items() if price.cache and price.cache.minimum]


@given(st.integers(min_value=0, max_value=200_000))
def test_openai_before_gpt_5_6_serves_whole_blocks_past_the_minimum(shared: int) -> None:
    cached = cache_served(shared)
    assert cached == TABLE["gpt-4o"].cache.served(shared)
    assert 0 <= cached <= shared
    if shared < CACHE_MINIMUM:
        assert cached == 0
    else:
        assert (cached - CACHE_MINIMUM) % CACHE_BLOCK == 0 and shared - cached < CACHE_BLOCK


@pytest.mark.parametrize("model", CACHED_MODELS)
@given(prompt=st.integers(0, 20_000), fraction=st.floats(0, 1))
def test_a_prompt_under_its_models_minimum_gets_no_discount(model: str, prompt: int, fraction: float) -> None:
    price, shared = TABLE[model], int(prompt * fraction)
    scheme = next(iter(price.cache.writes))
    plain, written, read = split_call(prompt, shared, price, scheme)
    assert plain + written + read == prompt
    if prompt < price.cache.minimum:
        assert (plain, written, read) == (prompt, 0, 0)
        assert call_cost(prompt, shared, 0, price, scheme) == call_cost(prompt, shared, 0, price, "none")
    elif shared < price.cache.minimum:
        assert (plain, written, read) == (0, prompt, 0)  # cacheable, but nothing to read yet: written
    else:
        assert plain == 0 and read % price.cache.block == 0 and shared - read < price.cache.block


def test_block_rounding_only_where_the_model_has_it() -> None:
    assert TABLE["gpt-4o"].cache.block == 128 and TABLE["gpt-4.1-mini"].cache.block == 128
    assert TABLE["gpt-5.6"].cache.block == 1 and TABLE["claude-opus-4-5"].cache.block == 1
    assert split_call(3_000, 2_500, TABLE["gpt-4o"], "auto") == (0, 568, 2_432)  # 19 blocks of 128
    assert split_call(3_000, 2_500, TABLE["gpt-5.6"], "auto") == (0, 500, 2_500)  # every shared token
    assert split_call(5_000, 4_500, TABLE["claude-opus-4-5"], "5m") == (0, 500, 4_500)


def test_claude_opus_4_5_caches_nothing_under_4096_tokens() -> None:
    opus = TABLE["claude-opus-4-5"]
    assert opus.cache.minimum == 4_096
    assert split_call(4_095, 4_000, opus, "5m") == (4_095, 0, 0)
    assert split_call(4_096, 4_000, opus, "5m") == (0, 4_096, 0)  # written; shared is under the minimum
    assert split_call(5_000, 4_096, opus, "5m") == (0, 904, 4_096)


def test_write_and_read_multipliers_are_as_read_from_the_pages() -> None:
    opus, opus55 = TABLE["claude-opus-4-5"], TABLE["claude-opus-5-5"]
    assert (opus.input, opus.output, opus.cached_input) == (Decimal("5.00"), Decimal("25.00"),
                                                            Decimal("0.50"))
    assert write_price(opus, "5m") == Decimal("6.25") and write_price(opus, "1h") == Decimal("10.00")
    assert (opus55.input, opus55.output, opus55.cached_input) == (Decimal("4.00"), Decimal("20.00"),
                                                                   Decimal("0.20"))
    assert opus55.cache.read == Decimal("0.05") and opus.cache.read == Decimal("0.1")
    assert TABLE["gpt-5.6"].cache.writes == {"auto": Decimal("1.25")}
    assert all(TABLE[m].cache.writes == {"auto": 1} for m in ("gpt-4o", "gpt-4o-mini", "o4-mini"))


def test_a_rule_or_price_nobody_read_makes_the_cost_unknown() -> None:
    calls = [(5_000, 0, 10), (5_500, 5_000, 10)]
    assert run_cost(calls, TABLE["claude-opus-5-5"], "5m") is None  # its minimum was not read
    assert run_cost(calls, TABLE["claude-opus-5-5"]) == Decimal("0.0424")  # 10,500 in at $4, 20 out at $20
    assert run_cost(calls, TABLE["gpt-5.6"], "auto") is None  # its prices were not read
    assert run_cost(calls, TABLE["gpt-5.6"]) is None


def test_a_first_call_costs_more_with_a_priced_write_and_the_next_ones_less() -> None:
    opus = TABLE["claude-opus-4-5"]
    first, second = [(5_000, 0, 0)], [(5_000, 0, 0), (5_500, 5_000, 0)]
    assert run_cost(first, opus, "5m") > run_cost(first, opus, "none")
    assert run_cost(second, opus, "5m") < run_cost(second, opus, "none")
    with pytest.raises(ValueError, match="scheme for claude-opus-4-5 must be one of none, 5m, 1h"):
        run_cost(first, opus, "auto")


def _dollars(history, model: str, scheme: str) -> Decimal:
    total = Decimal(0)
    for task in TASKS:
        scripted = task_model(task)
        fresh = history() if history else None
        rc.run_react(task.question, scripted, task_tools(), max_steps=20, history=fresh)
        total += run_cost(calls_of(scripted.calls), TABLE[model], scheme)
        if fresh is not None:
            total += run_cost([(fresh.usage.input, 0, fresh.usage.output)], TABLE[model])
    return total


def _compress() -> Compressor:
    return Compressor(ExtractiveSummariser(), threshold=400, keep_last=1)


def test_on_opus_4_5_the_minimum_turns_the_lesson_08_conclusion_round() -> None:
    opus = "claude-opus-4-5"
    # every prompt of the long tasks is under 4,096 tokens: caching changes nothing, compression pays
    assert _dollars(None, opus, "5m") == _dollars(None, opus, "none") == Decimal("0.354620")
    assert _dollars(_compress, opus, "5m") == _dollars(_compress, opus, "none")
    assert _dollars(_compress, opus, "none") < _dollars(None, opus, "none")


def test_on_gpt_4o_the_cache_serves_the_whole_history_and_compression_still_pays() -> None:
    assert _dollars(None, "gpt-4o", "auto") < _dollars(None, "gpt-4o", "none")
    assert _dollars(_compress, "gpt-4o", "auto") < _dollars(None, "gpt-4o", "auto")
