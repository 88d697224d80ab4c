"""Prices, money and the closed forms of a growing history, against brute force and measured runs."""

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

import react_course as rc
from react_course.context_cost.cost import (
    Price,
    cache_served,
    compressed_run_usages,
    cost,
    input_tokens,
    lines_read,
    price_of,
    prices,
    run_usages,
    shared_prefix_tokens,
    total_input_tokens,
    total_lines_read,
)
from react_course.record import Usage
from react_course.tokens import count_tokens

GPT_4O = Price("gpt-4o", "2025-06-01", Decimal("2.50"), Decimal("1.25"), Decimal("10.00"))


@given(st.integers(1, 200), st.integers(0, 5_000), st.integers(0, 5_000))
def test_closed_forms_equal_brute_force_sums(n, prompt, per_step):
    assert total_input_tokens(n, prompt, per_step) == sum(input_tokens(k, prompt, per_step)
                                                          for k in range(1, n + 1))
    assert total_lines_read(n) == sum(lines_read(k) for k in range(1, n + 1))
    assert sum(u.input for u in run_usages(n, prompt, per_step)) == total_input_tokens(n, prompt, per_step)


def test_the_worked_figures():
    assert lines_read(6) == 21 and lines_read(4) == 13  # the slipped shop run, a perfect run
    assert total_lines_read(6) - total_lines_read(4) == 66 - 28
    assert total_input_tokens(15, prompt=1_000, per_step=1_000) == 120_000
    assert 1_000 * 15**2 // 2 == 112_500  # the N^2/2 rule drops the linear term


def test_prices_are_dated_decimal_data():
    table = prices()
    row = table["gpt-4o"]
    assert (row.model, row.as_of, row.input, row.cached_input, row.output) == (
        GPT_4O.model, GPT_4O.as_of, GPT_4O.input, GPT_4O.cached_input, GPT_4O.output)
    for price in table.values():
        assert price.as_of and price.source
        assert all(p is None or isinstance(p, Decimal) for p in (price.input, price.output))
    assert price_of("gpt-4o-2024-08-06") == row
    assert price_of("a-model-nobody-priced") is None


def test_cost_bills_cached_input_once_at_the_cached_price():
    usage = Usage(input=1_000_000, output=0, cached_input=400_000)
    assert cost(usage, GPT_4O) == Decimal("0.6") * Decimal("2.50") + Decimal("0.4") * Decimal("1.25")
    assert cost(Usage(1_000_000, 0), GPT_4O) == Decimal("2.50")


def test_reasoning_is_billed_as_output_and_money_is_exact():
    usage = Usage(input=0, output=3_000, reasoning=2_500)  # 500 visible + 2,500 hidden
    assert cost(usage, GPT_4O) == Decimal("0.03")
    assert isinstance(cost(Usage(3, 1), GPT_4O), Decimal)
    assert sum([cost(Usage(40_000, 0), GPT_4O)] * 3) == Decimal("0.3")  # floats give 0.30000000000000004


def test_an_unknown_price_gives_an_unknown_cost():
    no_cache_price = Price("m", "2025-01-01", Decimal(1), None, Decimal(2))
    assert cost(Usage(10, 10), None) is None
    assert cost(Usage(10, 10, cached_input=5), no_cache_price) is None
    assert cost(Usage(10, 10), no_cache_price) == Decimal("0.00003")


def test_cached_tokens_of_each_call_are_the_previous_prompt():
    calls = run_usages(4, prompt=300, per_step=100, output=50, reasoning=20, cache_hit_rate=0.5,
                       cache_minimum=0, cache_block=1)
    assert [u.input for u in calls] == [300, 400, 500, 600]
    assert [u.cached_input for u in calls] == [0, 150, 200, 250]
    assert all(u.output == 70 and u.reasoning == 20 for u in calls)


def test_the_cache_serves_nothing_under_its_minimum_then_whole_blocks():
    assert [cache_served(n) for n in (0, 1_023, 1_024, 1_151, 1_152, 5_000)] == [
        0, 0, 1_024, 1_024, 1_152, 4_992]
    calls = run_usages(6, prompt=900, per_step=100, cache_hit_rate=1)
    assert [u.cached_input for u in calls] == [0, 0, 0, 1_024, 1_152, 1_280]  # shared: 900, 1,000, ...
    short = run_usages(5, prompt=300, per_step=100, cache_hit_rate=1)
    assert all(u.cached_input == 0 for u in short)  # every prompt under 1,024 tokens


def locate(item: str) -> str:
    """Say which aisle an item is in.
    Example input: 3
    """
    return f"Item {item.strip()} is in aisle {int(item) % 7 + 1}."


def test_closed_form_matches_a_measured_run_exactly():
    n = 8  # seven look-ups of the same shape, then the answer
    replies = [f"Thought: I need item {k}.\nAction: locate\nAction Input: {k}" for k in range(1, n)]
    model = rc.ScriptedModel([*replies, "Thought: I now know the answer\nFinal Answer: done"])
    run = rc.run_react("Where are items 1 to 7?", model, {"locate": locate})
    assert run.succeeded and len(model.calls) == n
    measured = [count_tokens(call.prompt) for call in model.calls]
    prompt, per_step = measured[0], measured[1] - measured[0]
    assert measured == [input_tokens(k, prompt, per_step) for k in range(1, n + 1)]
    assert sum(measured) == total_input_tokens(n, prompt, per_step)


@pytest.mark.parametrize("k", [1, 2, 6])
def test_lines_read_matches_the_slipped_run(k):
    model = rc.ScriptedModel([
        "Thought: t\nAction: get_price\nAction Input: notebook",
        "Thought: t\nAction: price\nAction Input: notebooks",
        "Thought: t\nAction: price\nAction Input: notebook",
        "Thought: t\nAction: price\nAction Input: pen",
        "Thought: t\nAction: calculate\nAction Input: 3 * 4 + 2 * 2",
        "Thought: I now know the answer\nFinal Answer: 16",
    ])
    rc.run_react("What do 3 notebooks and 2 pens cost?", model, rc.shop_tools())
    scratchpad = model.calls[k - 1].prompt.split("Now the real question.\n")[1]
    assert len(scratchpad.splitlines()) == lines_read(k)


def test_a_compressed_run_without_a_fold_is_the_plain_run():
    plain = run_usages(12, prompt=300, per_step=190, output=30, cache_hit_rate=1)
    calls, summaries = compressed_run_usages(12, 300, 190, threshold=10**9, keep_last=2, note=25, output=30,
                                             cache_hit_rate=1)
    assert calls == plain and summaries == Usage()
    folded, summaries = compressed_run_usages(12, 300, 190, threshold=600, keep_last=2, note=25)
    assert sum(u.input for u in folded) < sum(u.input for u in plain) and summaries.input > 0


def test_the_shared_prefix_ends_at_a_line():
    assert shared_prefix_tokens("", "Question: q") == 0
    assert shared_prefix_tokens("a\nb\n", "a\nb\nc") == count_tokens("a\nb\n")
    same = shared_prefix_tokens("Question: q\nThought: x", "Question: q\nThought: y")
    assert same == count_tokens("Question: q\n")
