"""Compressing a Responses history: reasoning items and calls keep what they need.

The history is a real one: items as the scripted server returned them through
the ``openai`` SDK (reasoning items, ``function_call`` items with their ``fc_``
ids), and the compressed list is sent back to the same server, which refuses a
call without its reasoning item or an output without its call, as the API does.
"""

from __future__ import annotations

import contextlib
import json

import openai
import pytest

import react_course as rc
from react_course.context_cost.context import (
    SUMMARY_HEADER,
    ExtractiveSummariser,
    compress_messages,
    tool_pairs_intact,
)
from react_course.context_cost.items import item_turns, items_intact
from react_course.schemas import declare
from react_course.scripted_api import serve
from react_course.scripted_api.models import ChatTurn, ScriptedChatModel

ITEMS = ["pen", "notebook", "stapler", "pencil", "eraser"]


def responses_history(stack) -> tuple[list[dict], openai.OpenAI, list[dict]]:
    """Five lookups with reasoning, as the Responses API returns them, ready to send again."""
    turns = [ChatTurn.calling("price", reasoning=f"I need the price of the {name}.", item=name)
             for name in ITEMS]
    model = ScriptedChatModel([*turns, "The five items cost what the tool said.", "Done."])
    tools = rc.shop_tools()
    declared = [declare(tool, "responses") for tool in tools]
    url = stack.enter_context(serve(model))
    client = openai.OpenAI(base_url=url, api_key="scripted", max_retries=0)
    items: list[dict] = [{"role": "system", "content": "Answer with the tools."},
                         {"role": "user", "content": "What do the five items cost?"}]
    for _ in ITEMS:
        response = client.responses.create(model="m", input=items, tools=declared)
        output = [item.model_dump(mode="json", exclude_none=True) for item in response.output]
        items += output
        for item in output:
            if item["type"] == "function_call":
                result = tools["price"].function(**json.loads(item["arguments"]))
                items.append({"type": "function_call_output", "call_id": item["call_id"], "output": result})
    return items, client, declared


@pytest.fixture
def history():
    """The history, a client of its server and the tools' declarations; the server stops after the test."""
    with contextlib.ExitStack() as stack:
        yield responses_history(stack)


def test_each_turn_holds_its_reasoning_call_and_output(history) -> None:
    items, _, _ = history
    turns = item_turns(items[2:])
    unit = ["reasoning", "function_call", "function_call_output"]
    assert [[i["type"] for i in t] for t in turns] == [unit] * 5
    assert items_intact(items) is None and tool_pairs_intact(items)


@pytest.mark.parametrize("keep_last", [0, 1, 2, 4])
def test_the_compressed_history_is_accepted_by_the_server(history, keep_last: int) -> None:
    items, client, declared = history
    shorter, usage = compress_messages(items, ExtractiveSummariser(), keep_last=keep_last)
    assert items_intact(shorter) is None
    assert shorter[:2] == items[:2] and shorter[2]["content"].startswith(SUMMARY_HEADER)
    assert len(shorter) == 3 + 3 * keep_last and usage.input > 0
    # the summary kept the facts of the turns it replaced
    assert "price[" in shorter[2]["content"] and "pen" in shorter[2]["content"]
    reply = client.responses.create(model="m", input=shorter, tools=declared)  # a 400 would raise
    assert reply.output


def test_cutting_between_a_reasoning_item_and_its_call_is_refused(history) -> None:
    items, client, declared = history
    broken = items[:2] + items[3:]  # the first reasoning item dropped, its call kept
    with pytest.raises(openai.BadRequestError, match="reasoning"):
        client.responses.create(model="m", input=broken, tools=declared)
    assert items_intact(items[:2] + items[2:3] + items[5:6]) is not None  # reasoning followed by an output


def test_an_output_without_its_call_is_caught(history) -> None:
    items, _, _ = history
    assert "no function_call" in items_intact([*items[:2], items[4]])
    assert "no output" in items_intact(items[:-1])
