"""Continuing a Responses conversation both ways, and reasoning effort, on the scripted server."""

from __future__ import annotations

import datetime as dt
import json

import openai
import pytest

import react_course as rc
from react_course.backends.conversation import (
    STATELESS,
    effort_options,
    next_request,
    output_items,
    request_size,
)
from react_course.lessons.effort import effort_model
from react_course.native import run_native
from react_course.schemas import declare
from react_course.scripted_api import serve

TODAY = dt.date(2024, 7, 26)


def two_turns(stateful: bool):
    """The date question through the SDK: the call, then the answer; both requests and responses."""
    tools = rc.default_tools(TODAY)
    declared = [declare(t, "responses") for t in tools]
    with serve(effort_model()) as url:
        client = openai.OpenAI(base_url=url, api_key="scripted", max_retries=0)
        items = [{"role": "user", "content": "What is today's date?"}]
        first = {"input": items} if stateful else {"input": items, **STATELESS}
        response = client.responses.create(model="m", tools=declared, **first)
        call = next(i for i in output_items(response) if i["type"] == "function_call")
        output = [{"type": "function_call_output", "call_id": call["call_id"],
                   "output": tools["today"].function()}]
        second = next_request(items, response, output, stateful=stateful)
        answer = client.responses.create(model="m", tools=declared, **second)
        stored = None
        try:
            client.responses.create(model="m", tools=declared, previous_response_id=answer.id, input="Thanks")
            stored = True
        except openai.NotFoundError:
            stored = False
    return first, response, second, answer, stored


def test_stateful_sends_only_the_new_items_and_the_server_keeps_the_rest() -> None:
    _, response, second, answer, stored = two_turns(stateful=True)
    assert second["previous_response_id"] == response.id and len(second["input"]) == 1
    assert "Friday, 26 July 2024" in answer.output_text and stored is True


def test_stateless_carries_the_encrypted_reasoning_and_nothing_is_kept() -> None:
    _, _, second, answer, stored = two_turns(stateful=False)
    reasoning = [i for i in second["input"] if i.get("type") == "reasoning"]
    assert reasoning and all(i.get("encrypted_content") for i in reasoning)
    assert second["store"] is False and "previous_response_id" not in second
    assert "Friday, 26 July 2024" in answer.output_text and stored is False


def test_the_stateless_request_is_larger_and_the_model_reads_the_same() -> None:
    _, _, kept, kept_answer, _ = two_turns(stateful=True)
    _, _, carried, carried_answer, _ = two_turns(stateful=False)
    assert request_size(carried) > request_size(kept)
    assert carried_answer.usage.input_tokens == kept_answer.usage.input_tokens


def test_more_effort_costs_more_reasoning_tokens() -> None:
    used = {}
    with serve(effort_model()) as url:
        client = openai.OpenAI(base_url=url, api_key="scripted", max_retries=0)
        for effort in ("low", "medium", "high"):
            run = run_native(client, rc.default_tools(TODAY), "What is today's date?", model="m",
                             protocol="responses", request_options=effort_options(effort))
            assert "26 July 2024" in run.answer
            used[effort] = run.usage.reasoning
    assert 0 < used["low"] < used["medium"] < used["high"]
    with pytest.raises(ValueError, match="effort"):
        effort_options("max")
    assert json.dumps(effort_options("high"))
