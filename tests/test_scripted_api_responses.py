"""The scripted server's Responses protocol through the real openai SDK (``max_retries=0`` on purpose)."""

from __future__ import annotations

import json
import threading

import openai
import pytest
from test_scripted_api import EIFFEL, OLYMPICS, TOOLS, client, functions, raw

from react_course.scripted_api import serve
from react_course.scripted_api.demo import DATE_QUESTION, NO_DATE
from react_course.scripted_api.models import ChatTurn, ReactiveChatModel, ScriptedChatModel

RESPONSES_TOOLS = [{"type": "function", **t["function"]} for t in TOOLS]


@pytest.fixture(scope="module")
def demo_url():
    with serve() as base_url:
        yield base_url


def run_items(api: openai.OpenAI, question: str, **options) -> tuple[list[dict], list]:
    """A minimal stateless native loop over Responses: every item is passed back each time."""
    tools, items, responses = functions(), [{"role": "user", "content": question}], []
    for _ in range(8):
        response = api.responses.create(model="m", input=items, tools=RESPONSES_TOOLS, store=False,
                                        **options)
        responses.append(response)
        items += [item.model_dump(exclude_none=True) for item in response.output]
        calls = [item for item in response.output if item.type == "function_call"]
        if not calls:
            break
        items += [{"type": "function_call_output", "call_id": c.call_id,
                   "output": tools[c.name](**json.loads(c.arguments))} for c in calls]
    return items, responses


def outputs(response, tools=None) -> list[dict]:
    tools = tools or functions()
    return [{"type": "function_call_output", "call_id": c.call_id,
             "output": tools[c.name](**json.loads(c.arguments))}
            for c in response.output if c.type == "function_call"]


def test_a_full_run_passing_every_item_back(demo_url):
    items, responses = run_items(client(demo_url), EIFFEL)
    first = responses[0]
    assert [o.type for o in first.output] == ["reasoning", "function_call", "function_call"]
    assert first.output[0].id.startswith("rs_") and first.output[1].call_id.startswith("call_")
    assert first.output[0].summary[0].text.startswith("These do not depend")
    assert first.usage.output_tokens_details.reasoning_tokens > 0
    assert first.id.startswith("resp_") and first.status == "completed"
    assert "237 m" in responses[-1].output_text and len(responses) == 3
    outputs_ = [i for i in items if i.get("type") == "function_call_output"]
    assert len(outputs_) == 3


def test_previous_response_id_continues_a_kept_conversation(demo_url):
    api = client(demo_url)
    response = api.responses.create(model="m", input=OLYMPICS, tools=RESPONSES_TOOLS,
                                    instructions="Use the tools.")
    tools, steps = functions(), 1
    while any(o.type == "function_call" for o in response.output):
        response = api.responses.create(model="m", previous_response_id=response.id, tools=RESPONSES_TOOLS,
                                        input=outputs(response, tools))
        steps += 1
    assert "1,830,000" in response.output_text and steps == 4
    assert response.previous_response_id and api.responses.retrieve(response.id).id == response.id


def test_the_date_question_needs_the_clock(demo_url):
    _, responses = run_items(client(demo_url), DATE_QUESTION)
    assert responses[0].output[1].name == "today" and "26 July 2024" in responses[-1].output_text


def test_parallel_tool_calls_false_and_tool_choice(demo_url):
    api = client(demo_url)
    _, responses = run_items(api, EIFFEL, parallel_tool_calls=False)
    assert [sum(o.type == "function_call" for o in r.output) for r in responses] == [1, 1, 1, 0]
    none = api.responses.create(model="m", input=EIFFEL, tools=RESPONSES_TOOLS, tool_choice="none")
    assert [o.type for o in none.output] == ["reasoning", "message"] and none.output_text
    required = api.responses.create(model="m", input=EIFFEL, tools=RESPONSES_TOOLS, tool_choice="required")
    assert any(o.type == "function_call" for o in required.output)
    named = api.responses.create(model="m", input=EIFFEL, tools=RESPONSES_TOOLS,
                                 tool_choice={"type": "function", "name": "search"})
    assert {o.name for o in named.output if o.type == "function_call"} == {"search"}


def test_max_output_tokens_makes_the_response_incomplete():
    with serve(ScriptedChatModel([" ".join(["word"] * 40)])) as url:
        response = client(url).responses.create(model="m", input="q", max_output_tokens=16)
    assert response.status == "incomplete" and response.incomplete_details.reason == "max_output_tokens"
    assert response.usage.output_tokens == 16


def test_streaming_events_build_the_same_response(demo_url):
    api = client(demo_url)
    with api.responses.stream(model="m", input=EIFFEL, tools=RESPONSES_TOOLS) as stream:
        kinds = [event.type for event in stream]
        final = stream.get_final_response()
    assert kinds[0] == "response.created" and kinds[-1] == "response.completed"
    assert "response.function_call_arguments.delta" in kinds
    assert [json.loads(o.arguments) for o in final.output if o.type == "function_call"] == [
        {"query": "Eiffel Tower"}, {"query": "Statue of Liberty"}]
    text = "".join(e.delta for e in api.responses.create(model="m", input=DATE_QUESTION, stream=True)
                   if e.type == "response.output_text.delta")
    assert text == NO_DATE  # no tools offered: it cannot call the clock


def test_structured_output_with_a_schema(demo_url):
    from pydantic import BaseModel

    class Answer(BaseModel):
        answer: str
        metres: float

    items, _ = run_items(client(demo_url), EIFFEL)
    parsed = client(demo_url).responses.parse(model="m", input=items[:-1], text_format=Answer)
    assert parsed.output_parsed.metres == 330 and "237 m" in parsed.output_parsed.answer


def test_the_model_sees_the_items_as_messages():
    model = ReactiveChatModel([(r"330 m", "330 m."),
                               (r"tall", ChatTurn.calling("search", query="Eiffel Tower"))])
    with serve(model) as url:
        _, responses = run_items(client(url), "How tall is the Eiffel Tower?", instructions="Be brief.")
    assert responses[-1].output_text == "330 m."
    last = model.requests[-1]
    assert last.protocol == "responses" and [m["role"] for m in last.messages] == [
        "system", "user", "assistant", "tool"]
    assert last.tool_names[0] == "search" and last.tool_results[0].startswith("[Eiffel Tower]")


# --- errors -----------------------------------------------------------------------------------


def test_a_dropped_reasoning_item_is_refused(demo_url):
    api = client(demo_url)
    first = api.responses.create(model="m", input=EIFFEL, tools=RESPONSES_TOOLS, store=False)
    items = [{"role": "user", "content": EIFFEL}]
    items += [o.model_dump(exclude_none=True) for o in first.output if o.type != "reasoning"]
    items += outputs(first)
    with pytest.raises(openai.BadRequestError, match="required 'reasoning' item"):
        api.responses.create(model="m", input=items, tools=RESPONSES_TOOLS, store=False)


@pytest.mark.parametrize("options, param", [
    ({"extra_body": {"stop": ["\nObservation"]}}, "stop"),
    ({"tools": TOOLS}, "tools[0].name"),  # the Chat Completions tool shape
    ({"input": [{"type": "function_call_output", "call_id": "call_none", "output": "x"}]}, "input"),
    ({"input": [{"type": "function_call", "call_id": "c", "name": "search", "arguments": "{}"}]}, "input"),
    ({"input": 42}, "input"),
    ({"input": [{"type": "image"}]}, "input[0].type"),
    ({"max_output_tokens": 4}, "max_output_tokens"),
    ({"tool_choice": {"type": "function", "name": "fly"}, "tools": RESPONSES_TOOLS}, "tool_choice"),
    ({"text": {"format": {"type": "json_schema", "schema": {}}}}, "text.format.name"),
])
def test_malformed_requests_raise_bad_request(demo_url, options, param):
    request = {"model": "m", "input": "q", **options}
    with pytest.raises(openai.BadRequestError) as caught:
        client(demo_url).responses.create(**request)
    assert caught.value.body["param"] == param


def test_an_unknown_previous_response_is_a_404(demo_url):
    with pytest.raises(openai.NotFoundError) as caught:
        client(demo_url).responses.create(model="m", input="q", previous_response_id="resp_nothing")
    assert caught.value.body["code"] == "previous_response_not_found"
    kept_not = client(demo_url).responses.create(model="m", input="q", store=False)
    with pytest.raises(openai.NotFoundError):
        client(demo_url).responses.create(model="m", input="q", previous_response_id=kept_not.id)
    assert raw(demo_url, "GET", "/v1/responses/resp_nothing")[0] == 404


def test_eight_responses_at_once(demo_url):
    api, answers, errors = client(demo_url), [], []

    def ask() -> None:
        try:
            answers.append(run_items(api, EIFFEL)[1][-1].output_text)
        except Exception as error:
            errors.append(error)

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert not errors and len(answers) == 8 and all("237 m" in a for a in answers)
