"""Local model servers (llama.cpp and friends): what they do to both loops, reproduced in stubs.

Each test stands for one behaviour met with llama-cpp-python: a per-call
time-out the native loop must honour, an assistant turn whose content must be
a string, tools dropped unless ``tool_choice`` is sent, no ``/v1/responses``,
a full context window reported as a 500, end-of-turn markers left in the
text, and a model that writes the same unreadable reply again and again.
The stubs are in ``stub_servers.py`` (127.0.0.1 only). No wall-clock
thresholds: the time-outs are read from what the loops recorded.
"""

from __future__ import annotations

import json

import pytest
import stub_servers as stub
from stub_servers import KEY, MODEL, StubServer

from react_course.errors import ModelConfigError
from react_course.loop import run_react
from react_course.models import ScriptedModel
from react_course.native import lesson_client, run_native
from react_course.providers import OpenAIChatModel, OpenAICompletionModel
from react_course.scripted_api import serve
from react_course.scripted_api.models import Call, ChatTurn, ScriptedChatModel
from react_course.tools import ToolRegistry

openai = pytest.importorskip("openai")

QUESTION = "What is 6 times 7?"
SIX_BY_SEVEN = '{"expression": "6*7"}'


def calculate(expression: str) -> str:
    """Evaluate an arithmetic expression. Example input: 6*7"""
    return "42" if expression.replace(" ", "") == "6*7" else "unknown"


TOOLS = ToolRegistry([calculate])


def client(server: StubServer) -> openai.OpenAI:
    return openai.OpenAI(base_url=server.url, api_key=KEY, max_retries=0)


def text_model(server: StubServer, completions: bool = False) -> OpenAIChatModel:
    kind = OpenAICompletionModel if completions else OpenAIChatModel
    return kind(MODEL, base_url=server.url, api_key=KEY, max_retries=0)


def chat_bodies(server: StubServer) -> list[dict]:
    return [r.body for r in server.calls]


# ----------------------------------------------------------------- the per-call time-out


def test_a_native_call_waits_the_per_call_time_out_not_the_runs(monkeypatch) -> None:
    monkeypatch.setenv("REACT_COURSE_TIMEOUT", "1")
    tools = stub.calling_tools("calculate", SIX_BY_SEVEN, "42")
    with StubServer(stub.then_fail(tools, 1, stub.hanging)) as server:
        result = run_native(client(server), TOOLS, QUESTION, model=MODEL, max_seconds=120,
                            max_model_errors=2)
    assert result.end_reason == "error"
    failed = [s.observations[0].text for s in result.steps if s.model_failed]
    assert len(failed) == 2 and all("within 1 s" in text for text in failed), failed


def test_the_text_loop_waits_the_per_call_time_out_too(monkeypatch) -> None:
    monkeypatch.setenv("REACT_COURSE_TIMEOUT", "1")
    first = "Thought: multiply\nAction: calculate\nAction Input: 6*7"
    with StubServer(stub.then_fail(stub.answering([first]), 1, stub.hanging)) as server:
        result = run_react(QUESTION, text_model(server), TOOLS, max_seconds=120, max_model_errors=2)
    assert result.end_reason == "error"
    assert all("within 1 s" in s.observations[0].text for s in result.steps if s.model_failed)


def test_a_clients_own_shorter_time_out_is_kept() -> None:
    tools = stub.calling_tools("calculate", SIX_BY_SEVEN, "42")
    with StubServer(stub.then_fail(tools, 1, stub.hanging)) as server:
        quick = openai.OpenAI(base_url=server.url, api_key=KEY, max_retries=0, timeout=0.5)
        result = run_native(quick, TOOLS, QUESTION, model=MODEL, max_model_errors=1)
    assert result.end_reason == "error" and "within 0.5 s" in result.steps[-1].observations[0].text


# ------------------------------------------------------ content as a string, tools kept


def test_the_assistant_turn_goes_back_with_string_content() -> None:
    behaviour = stub.demanding_string_content(stub.calling_tools("calculate", SIX_BY_SEVEN, "42"))
    with StubServer(behaviour) as server:
        result = run_native(client(server), TOOLS, QUESTION, model=MODEL)
        second = chat_bodies(server)[1]["messages"]
    assert result.end_reason == "final_answer" and result.answer == "42"
    assert second[1]["role"] == "assistant" and second[1]["content"] == ""


def test_a_refused_request_shape_is_not_retried() -> None:
    def refusing(request: stub.Request) -> stub.Reply:
        return stub.error_reply(500, stub.LLAMA_CPP_PYTHON_NULL_CONTENT, request)

    with StubServer(refusing) as server:
        result = run_native(client(server), TOOLS, QUESTION, model=MODEL)
        calls = len(server.calls)
    assert result.end_reason == "error" and calls == 1
    said = result.steps[0].observations[0].text
    assert "could not read the request" in said and "asking again will not help" in said


def test_tool_choice_is_sent_so_that_the_tools_reach_the_model() -> None:
    behaviour = stub.dropping_tools_without_choice(stub.calling_tools("calculate", SIX_BY_SEVEN, "42"))
    with StubServer(behaviour) as server:
        result = run_native(client(server), TOOLS, QUESTION, model=MODEL)
        choices = [body.get("tool_choice") for body in chat_bodies(server)]
    assert [c.name for c in result.tool_calls] == ["calculate"] and result.answer == "42"
    assert choices == ["auto", "auto"]


def test_the_step_limit_call_still_sends_tool_choice_none() -> None:
    behaviour = stub.calling_tools("calculate", '{"expression": "1+1"}', "2")
    with StubServer(behaviour) as server:
        run_native(client(server), TOOLS, QUESTION, model=MODEL, max_steps=1)
        choices = [body.get("tool_choice") for body in chat_bodies(server)]
    assert choices == ["auto", "none"]


# -------------------------------------------------------------- no /v1/responses


def test_a_server_without_the_responses_api_is_told_to_use_chat() -> None:
    with StubServer(stub.calling_tools("calculate", SIX_BY_SEVEN, "42")) as server:
        with pytest.raises(ModelConfigError) as raised:
            run_native(client(server), TOOLS, QUESTION, model=MODEL, protocol="responses")
    said = str(raised.value)
    assert "has no Responses API" in said and 'protocol="chat"' in said
    assert "Check the model name" not in said and KEY not in said


def test_a_missing_model_on_the_responses_api_is_still_about_the_model() -> None:
    from react_course.api_errors import explain

    error = openai.NotFoundError(f"Error code: 404 - The model '{MODEL}' does not exist",
                                 response=_response(404), body=None)
    said = str(explain(error, "http://127.0.0.1:1/v1", model=MODEL, endpoint="responses"))
    assert "Check the model name" in said and "no Responses API" not in said


def _response(status: int):
    httpx = pytest.importorskip("httpx2")
    return httpx.Response(status, request=httpx.Request("POST", "http://127.0.0.1:1/v1/responses"))


# --------------------------------------------------------- a full context as a 500


def test_a_full_context_reported_as_a_500_ends_the_text_run_with_the_advice() -> None:
    first = "Thought: multiply\nAction: calculate\nAction Input: 6*7"
    with StubServer(stub.then_fail(stub.answering([first]), 1, stub.context_full_500)) as server:
        result = run_react(QUESTION, text_model(server, completions=True), TOOLS)
        calls = len(server.calls)
    assert result.end_reason == "error" and calls == 2  # not retried: it cannot pass
    said = result.steps[-1].observations[0].text
    assert "context window" in said and "--ctx-size" in said and "REACT_COURSE_MAX_TOKENS" in said


def test_a_full_context_reported_as_a_500_ends_the_native_run_with_the_advice() -> None:
    tools = stub.calling_tools("calculate", SIX_BY_SEVEN, "42")
    with StubServer(stub.then_fail(tools, 1, stub.context_full_500)) as server:
        result = run_native(client(server), TOOLS, QUESTION, model=MODEL)
        calls = len(server.calls)
    assert result.end_reason == "error" and calls == 2
    assert "ContextWindowFull" in result.steps[-1].observations[0].text
    assert "--ctx-size" in result.steps[-1].observations[0].text


# ---------------------------------------------------------------- end-of-turn markers

MARKERS = ["<|im_end|>", "<|eot_id|>", "<|end|>", "</s>"]


@pytest.mark.parametrize("marker", MARKERS)
def test_end_of_turn_markers_are_not_read_as_tool_input_or_answer_text(marker: str) -> None:
    replies = [f"Thought: multiply\nAction: calculate\nAction Input: 6*7{marker}\n<|im_start|>user",
               f"Thought: done\nFinal Answer: 42{marker}"]
    with StubServer(stub.answering(replies)) as server:
        result = run_react(QUESTION, text_model(server), TOOLS)
    assert result.steps[0].calls[0].arguments == "6*7" and result.answer == "42"


@pytest.mark.parametrize("marker", MARKERS)
def test_end_of_turn_markers_are_dropped_from_native_calls_and_answers(marker: str) -> None:
    behaviour = stub.calling_tools("calculate", SIX_BY_SEVEN + marker, f"42{marker}\nuser: thanks")
    with StubServer(behaviour) as server:
        result = run_native(client(server), TOOLS, QUESTION, model=MODEL)
    assert result.steps[0].calls[0].arguments == {"expression": "6*7"}
    assert result.steps[0].observations[0].text == "42" and result.answer == "42"


# --------------------------------------------------- the same unreadable reply, again


def test_the_same_unreadable_reply_nine_times_ends_as_repeating() -> None:
    model = ScriptedModel(["I am not sure what to do here."] * 9)
    result = run_react(QUESTION, model, TOOLS, max_steps=8)
    assert result.end_reason == "repeating" and len(result.steps) == 4
    assert "same as your reply in step 1" in result.steps[1].observations[0].text


def test_different_unreadable_replies_are_not_repeats() -> None:
    model = ScriptedModel([f"I am not sure ({n})." for n in range(9)])
    assert run_react(QUESTION, model, TOOLS, max_steps=8).end_reason == "step_limit"


def test_the_same_unreadable_tool_call_nine_times_ends_as_repeating() -> None:
    broken = ChatTurn("", (Call("calculate", '{"expression": "6*7"'),))  # not valid JSON
    with serve(ScriptedChatModel([broken] * 9)) as url:
        scripted = openai.OpenAI(base_url=url, api_key="scripted", max_retries=0)
        result = run_native(scripted, TOOLS, QUESTION, model="m", max_steps=8)
    assert result.end_reason == "repeating" and len(result.steps) == 4
    assert result.steps[1].observations[0].error == "repeat"


# ------------------------------------------------------- lesson 07's client, or the demo


def test_the_lesson_client_is_the_real_one_when_the_server_answers(monkeypatch) -> None:
    with StubServer(stub.calling_tools("calculate", SIX_BY_SEVEN, "42")) as server, serve() as demo:
        monkeypatch.setenv("REACT_COURSE_MODEL", f"openai-compatible:{server.url}:{MODEL}")
        api, model, which = lesson_client(demo)
        assert model == MODEL and str(api.base_url).startswith(server.url) and "(real)" in which


def test_the_lesson_client_falls_back_for_a_completions_setting(monkeypatch) -> None:
    with StubServer(stub.answering(["x"])) as server, serve() as demo:
        monkeypatch.setenv("REACT_COURSE_MODEL", f"openai-compatible-completions:{server.url}:{MODEL}")
        api, model, which = lesson_client(demo)
        reply = api.chat.completions.create(model=model, messages=[{"role": "user", "content": "hi"}])
    assert model == "scripted" and reply.choices[0].message is not None
    assert "completions endpoint" in which and "scripted chat model instead" in which


def test_the_lesson_client_falls_back_for_a_server_that_is_down(monkeypatch) -> None:
    monkeypatch.setenv("REACT_COURSE_MODEL", "openai-compatible:http://127.0.0.1:9/v1:m")
    with serve() as demo:
        _, model, which = lesson_client(demo)
    assert model == "scripted" and "could not talk to http://127.0.0.1:9/v1" in which
    assert "start your server" in which


def test_the_lesson_client_is_the_demo_by_default(monkeypatch) -> None:
    monkeypatch.delenv("REACT_COURSE_MODEL", raising=False)
    with serve() as demo:
        _, model, which = lesson_client(demo)
    assert model == "scripted" and which == "scripted (served on 127.0.0.1)"


def test_stub_bodies_are_json() -> None:
    """The stub's tool-call reply is what the SDK reads: content null, one call with an id."""
    reply = stub.tool_call_reply(stub.Request("POST", "/v1/chat/completions", {}, {}, 3), "calculate", "{}")
    message = json.loads(reply.body)["choices"][0]["message"]
    assert message["content"] is None and message["tool_calls"][0]["id"] == "call_3"
