"""The scripted server through the real openai SDK: Chat Completions, the server itself, the CLI.

Every client is built with ``max_retries=0`` on purpose: the SDK retries
failed requests by default, which would hide a server error and slow the tests.
Hostile requests the SDK cannot produce go through ``http.client`` or a raw socket.
"""

from __future__ import annotations

import datetime as dt
import http.client
import json
import socket
import threading
from urllib.parse import urlsplit

import openai
import pytest

from react_course.calculator import calculate
from react_course.lessons.demo import WORKED_EXAMPLES
from react_course.scripted_api import MAX_BODY, serve
from react_course.scripted_api.demo import DATE_QUESTION
from react_course.scripted_api.models import Call, ChatTurn, ReactiveChatModel, ScriptedChatModel
from react_course.tools import Clock, Encyclopedia, Shop, SupportDesk, default_tools

EIFFEL = "How much taller is the Eiffel Tower than the Statue of Liberty?"
OLYMPICS = "What is 15% of the population of the city that hosted the 2024 Summer Olympics?"


def tool(name: str, **params: str) -> dict:
    properties = {p: {"type": t} for p, t in params.items()}
    return {"type": "function", "function": {"name": name, "description": f"The {name} tool.",
                                             "parameters": {"type": "object", "properties": properties,
                                                            "required": list(params)}}}


TOOLS = [tool("search", query="string"), tool("lookup", term="string"),
         tool("calculate", expression="string"), tool("get_order", order_id="integer"),
         tool("get_policy", topic="string"), tool("today")]


def functions() -> dict:
    book, desk = Encyclopedia(), SupportDesk()
    return {"search": book.search, "lookup": book.lookup, "calculate": calculate,
            "get_order": desk.get_order, "get_policy": desk.get_policy, "price": Shop().price,
            "today": Clock(dt.date(2024, 7, 26)).today}


def client(base_url: str) -> openai.OpenAI:
    """No retries (they would hide errors), and no proxy from the environment: 127.0.0.1 only."""
    return openai.OpenAI(base_url=base_url, api_key="scripted", max_retries=0, timeout=20,
                         http_client=openai.DefaultHttpxClient(trust_env=False))


@pytest.fixture(scope="module")
def demo_url():
    with serve() as base_url:
        yield base_url


def run_chat(api: openai.OpenAI, question: str, **options) -> tuple[list[dict], list]:
    """A minimal native loop over Chat Completions: the messages and the completions."""
    tools, messages, completions = functions(), [{"role": "user", "content": question}], []
    for _ in range(8):
        completion = api.chat.completions.create(model="react-course-demo", messages=messages,
                                                 tools=TOOLS, **options)
        completions.append(completion)
        message = completion.choices[0].message
        messages.append(message.model_dump(exclude_none=True))
        if not message.tool_calls:
            break
        for call in message.tool_calls:
            result = tools[call.function.name](**json.loads(call.function.arguments))
            messages.append({"role": "tool", "tool_call_id": call.id, "content": result})
    return messages, completions


# --- Chat Completions: a whole conversation --------------------------------------------------


def test_serve_yields_a_local_v1_url(demo_url):
    parts = urlsplit(demo_url)
    assert parts.scheme == "http" and parts.hostname == "127.0.0.1" and parts.path == "/v1"
    assert [m.id for m in client(demo_url).models.list()] == ["react-course-demo"]


def test_the_demo_solves_a_worked_example_with_parallel_calls(demo_url):
    _, completions = run_chat(client(demo_url), EIFFEL)
    first = completions[0].choices[0]
    assert first.finish_reason == "tool_calls"
    assert [c.function.name for c in first.message.tool_calls] == ["search", "search"]
    ids = [c.id for c in first.message.tool_calls]
    assert all(i.startswith("call_") for i in ids) and len(set(ids)) == 2
    last = completions[-1]
    assert last.choices[0].finish_reason == "stop" and "237 m" in last.choices[0].message.content
    assert last.id.startswith("chatcmpl-") and len(completions) == 3
    assert last.usage.total_tokens == last.usage.prompt_tokens + last.usage.completion_tokens
    assert completions[1].usage.prompt_tokens > completions[0].usage.prompt_tokens > 0


@pytest.mark.parametrize("question, needle, calls", [
    (DATE_QUESTION, "Friday, 26 July 2024", 1),
    (OLYMPICS, "About 315,000", 3),
    ("Order 88213 cost 480 plus a 25 delivery fee and arrived 62 minutes late. "
     "What should the customer be refunded in total?", "25 INR", 1),
])
def test_the_demo_answers_by_calling_tools(demo_url, question, needle, calls):
    messages, completions = run_chat(client(demo_url), question)
    assert needle in messages[-1]["content"]
    assert len(completions) == calls + 1


@pytest.mark.parametrize("question", [*WORKED_EXAMPLES, DATE_QUESTION])
def test_the_demo_solves_every_worked_example_with_the_courses_own_schemas(demo_url, question):
    api, tools = client(demo_url), functions()
    messages = [{"role": "user", "content": question}]
    for _ in range(8):
        message = api.chat.completions.create(model="m", messages=messages,
                                              tools=default_tools().schemas()).choices[0].message
        messages.append(message.model_dump(exclude_none=True))
        for call in message.tool_calls or ():
            result = tools[call.function.name](**json.loads(call.function.arguments))
            messages.append({"role": "tool", "tool_call_id": call.id, "content": result})
        if not message.tool_calls:
            break
    assert not messages[-1].get("tool_calls") and "I could not" not in messages[-1]["content"]


def test_parallel_tool_calls_false_gives_one_call_a_turn(demo_url):
    _, completions = run_chat(client(demo_url), EIFFEL, parallel_tool_calls=False)
    assert [len(c.choices[0].message.tool_calls or ()) for c in completions] == [1, 1, 1, 0]


def test_tool_choice_none_forces_text_and_required_forces_a_call(demo_url):
    api = client(demo_url)
    ask = [{"role": "user", "content": EIFFEL}]
    none = api.chat.completions.create(model="m", messages=ask, tools=TOOLS, tool_choice="none")
    assert none.choices[0].message.tool_calls is None and none.choices[0].finish_reason == "stop"
    assert none.choices[0].message.content
    required = api.chat.completions.create(model="m", messages=ask, tools=TOOLS, tool_choice="required")
    assert required.choices[0].message.tool_calls


def test_a_named_tool_choice_keeps_only_that_tool():
    model = ScriptedChatModel([ChatTurn("", (Call("search", {"query": "x"}), Call("calculate", {})))])
    with serve(model) as url:
        reply = client(url).chat.completions.create(
            model="m", messages=[{"role": "user", "content": "q"}], tools=TOOLS,
            tool_choice={"type": "function", "function": {"name": "calculate"}})
    assert [c.function.name for c in reply.choices[0].message.tool_calls] == ["calculate"]


def test_a_required_call_the_script_lacks_is_a_server_error():
    with serve(ScriptedChatModel(["just text"])) as url:
        with pytest.raises(openai.InternalServerError, match="tool_choice"):
            client(url).chat.completions.create(model="m", messages=[{"role": "user", "content": "q"}],
                                                tools=TOOLS, tool_choice="required")


def test_stop_sequences_cut_the_text_and_max_tokens_gives_length():
    model = ScriptedChatModel(["Thought: go\nObservation: invented", "one two three four five six"])
    with serve(model) as url:
        api = client(url)
        cut = api.chat.completions.create(model="m", messages=[{"role": "user", "content": "q"}],
                                          stop=["\nObservation"])
        short = api.chat.completions.create(model="m", messages=[{"role": "user", "content": "q"}],
                                            max_completion_tokens=3)
    assert cut.choices[0].message.content == "Thought: go" and cut.choices[0].finish_reason == "stop"
    assert short.choices[0].message.content == "one two three"
    assert short.choices[0].finish_reason == "length" and short.usage.completion_tokens == 3


def test_a_call_cut_by_max_tokens_carries_broken_json():
    model = ScriptedChatModel([ChatTurn.calling("search", query="the tallest tower in the city of Paris")])
    with serve(model) as url:
        reply = client(url).chat.completions.create(
            model="m", messages=[{"role": "user", "content": "q"}], tools=TOOLS, max_tokens=6)
    arguments = reply.choices[0].message.tool_calls[0].function.arguments
    assert reply.choices[0].finish_reason == "length"
    with pytest.raises(ValueError):
        json.loads(arguments)


def test_the_model_records_every_request_and_a_reactive_model_reads_results():
    model = ReactiveChatModel([(r"330 m", "330 m."),
                               (r"tall", ChatTurn.calling("search", query="Eiffel Tower"))])
    with serve(model) as url:
        messages, _ = run_chat(client(url), "How tall is the Eiffel Tower?")
    assert messages[-1]["content"] == "330 m."
    assert [r.protocol for r in model.requests] == ["chat", "chat"]
    assert model.requests[1].tool_results[0].startswith("[Eiffel Tower]")
    assert model.requests[0].body["tools"] == TOOLS


def test_streaming_sends_deltas_and_done(demo_url):
    api = client(demo_url)
    stream = api.chat.completions.create(model="m", messages=[{"role": "user", "content": EIFFEL}],
                                         tools=TOOLS, stream=True, stream_options={"include_usage": True})
    chunks = list(stream)
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert text == ""  # streamed, calls come without narration: clients take a turn's first text as final
    assert all(c.usage is None for c in chunks[:-1]) and "usage" in chunks[0].model_dump(exclude_unset=True)
    calls: dict[int, dict] = {}
    for c in chunks:
        for d in (c.choices[0].delta.tool_calls or ()) if c.choices else ():
            entry = calls.setdefault(d.index, {"id": d.id, "name": d.function.name, "arguments": ""})
            entry["arguments"] += d.function.arguments or ""
    assert [json.loads(c["arguments"]) for c in calls.values()] == [{"query": "Eiffel Tower"},
                                                                     {"query": "Statue of Liberty"}]
    assert all(c["id"].startswith("call_") for c in calls.values())
    assert [c.choices[0].finish_reason for c in chunks if c.choices][-1] == "tool_calls"
    assert chunks[-1].usage.completion_tokens > 0


def test_structured_output_follows_the_json_schema(demo_url):
    from pydantic import BaseModel

    class Answer(BaseModel):
        answer: str
        metres: float

    messages, _ = run_chat(client(demo_url), EIFFEL)
    parsed = client(demo_url).chat.completions.parse(model="m", messages=messages[:-1],
                                                     response_format=Answer)
    answer = parsed.choices[0].message.parsed
    assert isinstance(answer, Answer) and answer.metres == 330 and "237 m" in answer.answer


# --- errors in the API's shape ---------------------------------------------------------------


@pytest.mark.parametrize("change, status, param", [
    ({"messages": "hello"}, 400, "messages"),
    ({"messages": []}, 400, "messages"),
    ({"messages": [{"content": "no role"}]}, 400, "messages[0].role"),
    ({"tools": [{"type": "function", "function": {"parameters": {}}}]}, 400, "tools[0].function.name"),
    ({"stop": ["a", "b", "c", "d", "e"]}, 400, "stop"),
    ({"temperature": "hot"}, 400, "temperature"),
    ({"max_tokens": 0}, 400, "max_tokens"),
    ({"tool_choice": "sometimes", "tools": TOOLS}, 400, "tool_choice"),
    ({"messages": [{"role": "user", "content": "q"},
                   {"role": "tool", "tool_call_id": "call_x", "content": "r"}]}, 400, "messages[1].role"),
])
def test_malformed_requests_raise_the_sdks_usual_error(demo_url, change, status, param):
    request = {"model": "m", "messages": [{"role": "user", "content": "q"}], **change}
    with pytest.raises(openai.BadRequestError) as caught:
        client(demo_url).chat.completions.create(**request)
    assert caught.value.status_code == status
    assert caught.value.body["param"] == param and caught.value.body["type"] == "invalid_request_error"


def test_a_call_left_unanswered_is_refused(demo_url):
    messages, _ = run_chat(client(demo_url), EIFFEL)
    del messages[2]  # the first call's result
    with pytest.raises(openai.BadRequestError, match="did not have response messages"):
        client(demo_url).chat.completions.create(model="m", messages=messages, tools=TOOLS)


def raw(base_url: str, method: str, path: str, body: bytes | None = None, headers=None):
    parts = urlsplit(base_url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    conn.request(method, path, body=body, headers=headers or {})
    response = conn.getresponse()
    payload = json.loads(response.read())
    conn.close()
    return response.status, payload


@pytest.mark.parametrize("body, status", [
    (b'{"model": "m", "messages": [', 400), (b"[1, 2]", 400), (b'"text"', 400), (b"\xff\xfe", 400),
    (b"", 400),
])
def test_bodies_that_are_not_json_objects_get_api_errors(demo_url, body, status):
    got, payload = raw(demo_url, "POST", "/v1/chat/completions", body,
                       {"Content-Type": "application/json"})
    assert got == status and set(payload["error"]) == {"message", "type", "param", "code"}


def test_an_unknown_path_is_a_404_in_the_api_shape(demo_url):
    assert raw(demo_url, "POST", "/v1/embeddings", b"{}")[0] == 404
    assert raw(demo_url, "GET", "/v1/nothing")[1]["error"]["code"] == "unknown_url"
    with pytest.raises(openai.NotFoundError):
        client(demo_url).embeddings.create(model="m", input="x")


def _port(base_url: str) -> int:
    return urlsplit(base_url).port


def read_reply(sock: socket.socket) -> str:
    """One HTTP reply from a raw socket: the head, then as many bytes as its Content-Length says."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(next(line.split(b":")[1] for line in head.split(b"\r\n")
                      if line.lower().startswith(b"content-length")))
    while len(body) < length:
        body += sock.recv(65536)
    return (head + b"\r\n\r\n" + body).decode()


def test_a_huge_body_is_refused_from_its_length_without_reading_it(demo_url):
    with socket.create_connection(("127.0.0.1", _port(demo_url)), timeout=10) as sock:
        sock.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: %d\r\n\r\n{\"model\"" % (30 * 1024 * 1024))
        reply = read_reply(sock)
    assert reply.startswith("HTTP/1.1 413") and "request_too_large" in reply
    assert raw(demo_url, "GET", "/v1/models")[0] == 200


def test_a_huge_body_through_the_sdk_gets_an_api_error(demo_url):
    with pytest.raises(openai.APIStatusError) as caught:
        client(demo_url).chat.completions.create(
            model="m", messages=[{"role": "user", "content": "x" * (MAX_BODY * 3)}])
    assert caught.value.status_code == 413


def test_a_connection_dropped_mid_body_leaves_the_server_serving(demo_url):
    for _ in range(3):
        with socket.create_connection(("127.0.0.1", _port(demo_url)), timeout=10) as sock:
            sock.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n"
                         b'{"model": "m", "mess')
    reply = client(demo_url).chat.completions.create(model="m", messages=[{"role": "user",
                                                                           "content": DATE_QUESTION}])
    assert reply.choices[0].message.content


def test_eight_requests_at_once(demo_url):
    api, results, errors = client(demo_url), [], []

    def ask() -> None:
        try:
            results.append(run_chat(api, EIFFEL)[0][-1]["content"])
        except Exception as error:
            errors.append(error)

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert not errors and len(results) == 8 and all("237 m" in r for r in results)


def test_a_script_that_runs_out_is_a_500_and_the_server_goes_on():
    with serve(ScriptedChatModel(["only one"])) as url:
        api = client(url)
        ask = {"model": "m", "messages": [{"role": "user", "content": "q"}]}
        assert api.chat.completions.create(**ask).choices[0].message.content == "only one"
        with pytest.raises(openai.InternalServerError, match="ScriptExhausted"):
            api.chat.completions.create(**ask)
        assert [m.id for m in api.models.list()] == ["scripted-chat"]


def test_the_server_stops_when_the_block_ends():
    with serve() as url:
        pass
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", _port(url)), timeout=2).close()


def test_the_serve_model_command_serves_until_stopped():
    import subprocess
    import sys

    process = subprocess.Popen([sys.executable, "-m", "react_course", "serve-model", "--port", "0"],
                               stdout=subprocess.PIPE, text=True)
    try:
        lines = [process.stdout.readline()]
        while not lines[-1].startswith("Stop with Ctrl-C") and len(lines) < 60:
            lines.append(process.stdout.readline())
        base_url = lines[0].split(" at ")[1].strip()
        assert base_url.startswith("http://127.0.0.1:") and base_url.endswith("/v1")
        shown = "".join(lines)
        assert all(q in shown for q in (*WORKED_EXAMPLES, DATE_QUESTION)) and "get_policy" in shown
        assert f"REACT_COURSE_MODEL=openai-compatible-completions:{base_url}:react-course-demo" in shown
        assert f'OpenAI(base_url="{base_url}"' in shown
        assert [m.id for m in client(base_url).models.list()] == ["react-course-demo"]
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_a_plain_function_is_a_chat_model_and_a_text_model_is_refused():
    from react_course.models import ScriptedModel

    with serve(lambda request: f"You said: {request.question}") as url:
        reply = client(url).chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}])
    assert reply.choices[0].message.content == "You said: hi"
    with pytest.raises(TypeError, match="needs a chat model"), serve(ScriptedModel(["Final Answer: x"])):
        pass


def test_a_model_can_reject_parameters_as_reasoning_models_do():
    from react_course.scripted_api.demo import demo_chat_model

    with serve(demo_chat_model(rejects={"temperature", "stop"})) as url:
        api = client(url)
        ask = {"model": "m", "messages": [{"role": "user", "content": DATE_QUESTION}]}
        with pytest.raises(openai.BadRequestError) as caught:
            api.chat.completions.create(**ask, temperature=0)
        assert caught.value.body["code"] == "unsupported_parameter"
        assert caught.value.body["param"] == "temperature"
        with pytest.raises(openai.BadRequestError, match="'stop' is not supported"):
            api.chat.completions.create(**ask, stop=["\nObservation"])
        with pytest.raises(openai.BadRequestError, match="'temperature' is not supported"):
            api.responses.create(model="m", input="q", temperature=0.5)
        assert api.chat.completions.create(**ask).choices[0].message.content
