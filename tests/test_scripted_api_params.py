"""Every request parameter the openai SDK can send, and each shape the issue probed, answered as the API does.

The first test reads the SDK's own request types: when a new SDK version adds a
parameter that ``scripted_api.params`` neither uses, ignores nor refuses by name,
it fails, naming the parameter. The others are the probes of the wire: what real
clients send (pydantic-ai, smolagents, the Agents SDK), and what the API refuses.
"""

from __future__ import annotations

import http.client
import json
import socket
from urllib.parse import urlsplit

import openai
import pytest
from test_scripted_api import EIFFEL, TOOLS, client, raw

from react_course.course.cli import main as cli_main
from react_course.scripted_api import params, serve
from react_course.scripted_api.demo import DATE_QUESTION

RESPONSES_TOOLS = [{"type": "function", **t["function"]} for t in TOOLS]
ASK = [{"role": "user", "content": EIFFEL}]


@pytest.fixture(scope="module")
def demo_url():
    with serve() as base_url:
        yield base_url


def sdk_parameters(protocol: str) -> set[str]:
    from openai.types import completion_create_params
    from openai.types.chat import completion_create_params as chat_params
    from openai.types.responses import response_create_params

    base = {"chat": chat_params.CompletionCreateParamsBase,
            "responses": response_create_params.ResponseCreateParamsBase,
            "completions": completion_create_params.CompletionCreateParamsBase}[protocol]
    return set(base.__annotations__) | {"stream"}


@pytest.mark.parametrize("protocol", ["chat", "responses", "completions"])
def test_every_parameter_of_the_sdk_is_used_ignored_or_refused_by_name(protocol):
    unplaced = sdk_parameters(protocol) - params.accepted(protocol)
    assert not unplaced, (f"openai {openai.__version__} sends {sorted(unplaced)} on {protocol}: add each to "
                          "a table in react_course/scripted_api/params.py")


def post(base_url: str, path: str, body: dict) -> tuple[int, dict]:
    return raw(base_url, "POST", path, json.dumps(body).encode(), {"Content-Type": "application/json"})


CHAT = {"model": "m", "messages": ASK}
RESPONSES = {"model": "m", "input": EIFFEL}


@pytest.mark.parametrize("path, extra", [
    ("/v1/chat/completions", {"prompt_cache_retention": "24h"}),
    ("/v1/chat/completions", {"prompt_cache_options": {"mode": "implicit"}}),
    ("/v1/chat/completions", {"prediction": {"type": "content", "content": "x"}}),
    ("/v1/chat/completions", {"moderation": {"model": "omni-moderation-latest"}}),
    ("/v1/chat/completions", {"n": 1, "logprobs": False, "modalities": ["text"], "seed": 7, "user": "u"}),
    ("/v1/chat/completions", {"store": True, "metadata": {"lesson": "12"}}),
    ("/v1/responses", {"top_logprobs": 0, "prompt_cache_retention": "in_memory"}),
    ("/v1/responses", {"prompt_cache_options": {"mode": "implicit"}, "background": False}),
    ("/v1/responses", {"context_management": [{"type": "compaction", "compact_threshold": 1000}]}),
    ("/v1/responses", {"conversation": None, "prompt": None, "safety_identifier": "s"}),
])
def test_todays_parameters_are_accepted(demo_url, path, extra):
    status, payload = post(demo_url, path, {**(CHAT if "chat" in path else RESPONSES), **extra})
    assert status == 200, payload


@pytest.mark.parametrize("path, extra, param", [
    ("/v1/chat/completions", {"n": 2}, "n"),
    ("/v1/chat/completions", {"logprobs": True}, "logprobs"),
    ("/v1/chat/completions", {"top_logprobs": 3}, "top_logprobs"),
    ("/v1/chat/completions", {"audio": {"voice": "alloy", "format": "wav"}}, "audio"),
    ("/v1/chat/completions", {"modalities": ["text", "audio"]}, "modalities"),
    ("/v1/chat/completions", {"web_search_options": {}}, "web_search_options"),
    ("/v1/chat/completions", {"functions": [{"name": "search"}]}, "functions"),
    ("/v1/chat/completions", {"function_call": "auto"}, "function_call"),
    ("/v1/responses", {"top_logprobs": 3}, "top_logprobs"),
    ("/v1/responses", {"include": ["message.output_text.logprobs"]}, "include"),
    ("/v1/responses", {"conversation": "conv_1"}, "conversation"),
    ("/v1/responses", {"prompt": {"id": "pmpt_1"}}, "prompt"),
    ("/v1/responses", {"background": True}, "background"),
    ("/v1/completions", {"n": 3}, "n"),
])
def test_features_the_scripted_model_lacks_are_refused_by_name(demo_url, path, extra, param):
    base = CHAT if "chat" in path else RESPONSES if "responses" in path else {"model": "m", "prompt": "x"}
    status, payload = post(demo_url, path, {**base, **extra})
    assert status == 400 and payload["error"]["param"] == param
    error = payload["error"]
    assert error["code"] == "unsupported_parameter" and "does not support" in error["message"]


@pytest.mark.parametrize("path, body, param", [
    ("/v1/chat/completions", {**CHAT, "response_format": {"type": "json_object"}}, "messages"),
    ("/v1/chat/completions", {**CHAT, "metadata": {"a": "b"}}, "metadata"),
    ("/v1/chat/completions", {**CHAT, "stream_options": {"include_usage": True}}, "stream_options"),
    ("/v1/responses", {**RESPONSES, "stream_options": {"include_obfuscation": False}}, "stream_options"),
    ("/v1/chat/completions", {**CHAT, "invented": 1}, "invented"),
    ("/v1/responses", {**RESPONSES, "invented": 1}, "invented"),
])
def test_validation_as_strict_as_the_apis(demo_url, path, body, param):
    status, payload = post(demo_url, path, body)
    assert status == 400 and payload["error"]["param"] == param


def test_json_object_works_once_the_messages_mention_json(demo_url):
    reply = client(demo_url).chat.completions.create(
        model="m", response_format={"type": "json_object"},
        messages=[{"role": "user", "content": EIFFEL + " JSON"}])
    assert isinstance(json.loads(reply.choices[0].message.content), dict)


def test_allowed_tools_restrict_the_calls_on_both_protocols(demo_url):
    api = client(demo_url)
    only_today = {"type": "allowed_tools", "allowed_tools": {
        "mode": "required", "tools": [{"type": "function", "function": {"name": "today"}}]}}
    chat = api.chat.completions.create(model="m", messages=[{"role": "user", "content": DATE_QUESTION}],
                                       tools=TOOLS, tool_choice=only_today)
    assert [c.function.name for c in chat.choices[0].message.tool_calls] == ["today"]
    no_search = {"type": "allowed_tools", "mode": "auto",
                 "tools": [{"type": "function", "name": "calculate"}]}
    response = api.responses.create(model="m", input=EIFFEL, tools=RESPONSES_TOOLS, tool_choice=no_search)
    assert response.output_text.startswith("I need the search tool") and response.tool_choice.mode == "auto"


def test_only_offered_tools_are_called(demo_url):
    clock = [{"type": "function", "function": {"name": "get_current_date", "description": "The date.",
                                               "parameters": {"type": "object", "properties": {}}}}]
    reply = client(demo_url).chat.completions.create(
        model="m", messages=[{"role": "user", "content": DATE_QUESTION}], tools=clock)
    message = reply.choices[0].message
    assert not message.tool_calls and "today" in message.content and "get_current_date" in message.content


def test_a_call_sent_back_without_its_item_id_needs_no_reasoning(demo_url):
    api = client(demo_url)
    first = api.responses.create(model="m", input=DATE_QUESTION, tools=RESPONSES_TOOLS, store=False)
    call = next(o for o in first.output if o.type == "function_call")
    items = [{"role": "user", "content": DATE_QUESTION},
             {"type": "function_call", "call_id": call.call_id, "name": call.name,
              "arguments": call.arguments},
             {"type": "function_call_output", "call_id": call.call_id,
              "output": "Today is Friday, 26 July 2024."}]
    answer = api.responses.create(model="m", input=items, tools=RESPONSES_TOOLS, store=False)
    assert answer.output_text == "Today is Friday, 26 July 2024."
    with pytest.raises(openai.BadRequestError, match="required 'reasoning' item"):  # with its id: refused
        api.responses.create(model="m", input=[items[0], {**items[1], "id": call.id}, items[2]],
                             tools=RESPONSES_TOOLS, store=False)


def test_streamed_reasoning_sends_its_summary_in_the_apis_order(demo_url):
    stream = client(demo_url).responses.create(model="m", input=DATE_QUESTION, tools=RESPONSES_TOOLS,
                                               stream=True, reasoning={"effort": "low", "summary": "auto"})
    events = list(stream)
    kinds = [e.type for e in events if "reasoning" in e.type or e.type.startswith("response.output_item")]
    assert kinds[:6] == ["response.output_item.added", "response.reasoning_summary_part.added",
                         "response.reasoning_summary_text.delta", "response.reasoning_summary_text.delta",
                         "response.reasoning_summary_text.delta", "response.reasoning_summary_text.delta"]
    done = next(e for e in events if e.type == "response.reasoning_summary_text.done")
    assert done.text == "I need today's date; the clock tool knows it."
    assert [e.sequence_number for e in events] == list(range(len(events)))
    assert events[-1].response.reasoning.effort == "low" and events[-1].response.reasoning.summary == "auto"


def test_smolagents_conventions_observation_text_and_a_required_final_answer(demo_url):
    final = {"type": "function", "function": {"name": "final_answer", "description": "The answer.",
                                              "parameters": {"type": "object", "properties": {
                                                  "answer": {"type": "string"}}, "required": ["answer"]}}}
    called = ("Calling tools:\n[{'id': 'call_1', 'type': 'function', 'function': {'name': 'today', "
              "'arguments': {}}}]")
    messages = [{"role": "system", "content": "You are an agent."},
                {"role": "user", "content": [{"type": "text", "text": f"New task:\n{DATE_QUESTION}"}]},
                {"role": "assistant", "content": [{"type": "text", "text": called}]},
                {"role": "user", "content": [{"type": "text",
                                              "text": "Observation:\nToday is Friday, 26 July 2024."}]}]
    reply = client(demo_url).chat.completions.create(model="m", messages=messages, tools=[*TOOLS, final],
                                                     tool_choice="required", stop=["Observation:"])
    call = reply.choices[0].message.tool_calls[0]
    assert call.function.name == "final_answer"
    assert json.loads(call.function.arguments) == {"answer": "Today is Friday, 26 July 2024."}


def test_a_chunked_body_is_read(demo_url):
    parts = urlsplit(demo_url)
    body = json.dumps({"model": "m", "messages": [{"role": "user", "content": DATE_QUESTION}]}).encode()
    pieces = [body[i:i + 20] for i in range(0, len(body), 20)]
    chunked = b"".join(b"%x\r\n%s\r\n" % (len(piece), piece) for piece in pieces)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    conn.putrequest("POST", "/v1/chat/completions")
    conn.putheader("Transfer-Encoding", "chunked")
    conn.putheader("Content-Type", "application/json")
    conn.endheaders()
    conn.send(chunked + b"0\r\n\r\n")
    response = conn.getresponse()
    assert response.status == 200 and json.loads(response.read())["object"] == "chat.completion"
    conn.close()


def test_a_page_on_this_machine_may_call_it_and_others_may_not(demo_url):
    parts = urlsplit(demo_url)
    for origin, status in (("http://127.0.0.1:5500", 204), ("http://localhost:8888", 204),
                           ("https://example.com", 403)):
        conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
        conn.request("OPTIONS", "/v1/chat/completions", headers={
            "Origin": origin, "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization, content-type"})
        response = conn.getresponse()
        response.read()
        allowed = response.getheader("Access-Control-Allow-Origin")
        assert response.status == status and allowed == (origin if status == 204 else None)
        conn.close()


def test_text_completions_answer_a_react_prompt_in_the_text_format(demo_url):
    from react_course.prompts import build_prompt
    from react_course.tools import default_tools

    tools = default_tools()
    prompt = build_prompt(EIFFEL, tools.describe(), tools.names)
    reply = client(demo_url).completions.create(model="m", prompt=prompt, max_tokens=100,
                                                stop=["\nObservation"])
    assert reply.choices[0].text.startswith("Thought: I need the height of the Eiffel Tower.")
    assert "Action: search" in reply.choices[0].text and reply.choices[0].finish_reason == "stop"
    short = client(demo_url).completions.create(model="m", prompt=prompt)  # the API's default: 16 tokens
    assert short.choices[0].finish_reason == "length" and short.usage.completion_tokens <= 16


@pytest.mark.parametrize("kind", ["openai-compatible", "openai-compatible-completions"])
def test_the_text_loop_runs_against_the_server_through_the_setting(demo_url, kind):
    from react_course.backends.providers import real_model
    from react_course.loop import run_react
    from react_course.tools import default_tools

    model = real_model(f"{kind}:{demo_url}:react-course-demo")
    result = run_react(EIFFEL, model, default_tools())
    assert result.end_reason == "final_answer" and "237 m" in result.answer and len(result.steps) == 4


def test_a_taken_port_is_a_message_not_a_traceback(capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert cli_main(["serve-model", "--port", str(port)]) == 2
    message = capsys.readouterr().err
    assert f"port {port}" in message and "--port 0" in message and "Traceback" not in message
