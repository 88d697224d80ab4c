"""Local model servers (llama.cpp and friends): what they do to both loops, reproduced in stubs.

Each test stands for one behaviour met with llama-cpp-python: a per-call
time-out the native loop must honour, an assistant turn whose content must be
a string, tools dropped unless ``tool_choice`` is sent, no ``/v1/responses``,
a full context window reported as a 500, end-of-turn markers left in the
text, and a model that writes the same unreadable reply again and again.
And what one small model on one laptop adds: a server that serves one
request at a time and keeps working on a call its client gave up on (the
next call waits for it to be free, or the run says why it stops), empty
native replies (said to the model, a repeat when they recur), calls a chat
template wrote as text (read as calls), a completions prompt that needs its
``Thought:`` cue, a reply that starts a new question, and a refused response
format. The stubs are in ``stub_servers.py`` (127.0.0.1 only). No wall-clock
thresholds: the time-outs are read from what the loops recorded, and a slow
reply is one the stub holds until the client gives up.
"""

from __future__ import annotations

import json

import pytest
import stub_servers as stub
from stub_servers import KEY, MODEL, StubServer

from react_course.backends.providers import OpenAIChatModel, OpenAICompletionModel
from react_course.errors import ModelConfigError
from react_course.loop import run_react
from react_course.models import ScriptedModel
from react_course.native import lesson_client, run_native
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
    monkeypatch.setenv("REACT_COURSE_TIMEOUT", "3")  # 1 s: a loaded machine's first answer came late
    tools = stub.calling_tools("calculate", SIX_BY_SEVEN, "42")
    with StubServer(stub.then_fail(tools, 1, stub.hanging)) as server:
        result = run_native(client(server), TOOLS, QUESTION, model=MODEL, max_seconds=120,
                            max_model_errors=2)
    assert result.end_reason == "error"
    failed = [s.observations[0].text for s in result.steps if s.model_failed]
    # The second failure is the call's own time-out again, or, when the stub's /v1/models answer
    # is slower than the three seconds the run waits for it (a loaded machine), the busy-server
    # message about the call abandoned after 3 s: both say the per-call limit, never the run's.
    waited = ("within 3 s", "gave up on after 3 s")
    # (a loaded machine may end the run after one failure: every failure names the call's limit)
    assert failed and "within 3 s" in failed[0], failed
    unnamed = [text for text in failed if not any(said in text for said in waited)]
    assert not unnamed, "a failure that does not name the call's 3 s limit:\n" + "\n".join(unnamed)


def test_the_text_loop_waits_the_per_call_time_out_too(monkeypatch) -> None:
    monkeypatch.setenv("REACT_COURSE_TIMEOUT", "3")  # 1 s: a loaded machine's first answer came late
    first = "Thought: multiply\nAction: calculate\nAction Input: 6*7"
    with StubServer(stub.then_fail(stub.answering([first]), 1, stub.hanging)) as server:
        result = run_react(QUESTION, text_model(server), TOOLS, max_seconds=120, max_model_errors=2)
    assert result.end_reason == "error"
    failed = [s.observations[0].text for s in result.steps if s.model_failed]
    # as in the native run, a loaded machine may turn a later time-out into the busy-server message
    # and its first answer may come after the 3 s too: what holds is that every failure names the call's limit
    waited = ("within 3 s", "gave up on after 3 s")
    assert failed and all(any(said in text for said in waited) for text in failed), failed


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
    from react_course.backends.api_errors import explain

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


# ------------------------------------- one request at a time: time-outs that do not pile up


def test_after_a_time_out_the_text_loop_waits_for_the_server_then_goes_on(monkeypatch) -> None:
    monkeypatch.setenv("REACT_COURSE_TIMEOUT", "1")
    with StubServer(stub.slow_first(stub.answering(["Thought: easy\nFinal Answer: 42"])),
                    one_at_a_time=True) as server:
        result = run_react(QUESTION, text_model(server), TOOLS, max_seconds=120)
        seen = [(r.method, r.path.rsplit("/", 1)[-1]) for r in server.requests]
    assert result.end_reason == "final_answer" and result.answer == "42"
    assert "within 1 s" in result.steps[0].observation
    # the model list waited for the abandoned work; the next call came only after it
    assert seen == [("POST", "completions"), ("GET", "models"), ("POST", "completions")]


def test_after_a_time_out_the_native_loop_waits_for_the_server_then_goes_on(monkeypatch) -> None:
    monkeypatch.setenv("REACT_COURSE_TIMEOUT", "1")
    tools = stub.calling_tools("calculate", SIX_BY_SEVEN, "42")
    with StubServer(stub.slow_first(tools), one_at_a_time=True) as server:
        result = run_native(client(server), TOOLS, QUESTION, model=MODEL, max_seconds=120)
        seen = [r.method for r in server.requests]
    assert result.end_reason == "final_answer" and result.answer == "42"
    assert seen == ["POST", "GET", "POST", "POST"]


@pytest.mark.parametrize("loop", ["text", "native"])
def test_a_server_still_busy_after_a_time_out_ends_the_run_saying_why(monkeypatch, loop: str) -> None:
    monkeypatch.setenv("REACT_COURSE_TIMEOUT", "1")
    behaviour = stub.slow_first(stub.calling_tools("calculate", SIX_BY_SEVEN, "42"), 99)
    with StubServer(behaviour, one_at_a_time=True, finishing=False) as server:
        if loop == "text":
            result = run_react(QUESTION, text_model(server), TOOLS, max_seconds=120)
        else:
            result = run_native(client(server), TOOLS, QUESTION, model=MODEL, max_seconds=120)
        posts = len(server.calls)
    assert result.end_reason == "error" and posts == 1  # no second request queued behind the first
    said = result.steps[-1].observation
    assert "still working on the call this run gave up on" in said and "REACT_COURSE_TIMEOUT" in said
    assert "asking again cannot help" in result.detail


def test_without_the_wait_a_retry_queues_behind_the_abandoned_request(monkeypatch) -> None:
    """What the stub reproduces: a plain retry on a one-request server times out too."""
    with StubServer(stub.slow_first(stub.answering(["Final Answer: 42"])), one_at_a_time=True) as server:
        quick = openai.OpenAI(base_url=server.url, api_key=KEY, max_retries=0, timeout=0.5)
        for _ in range(2):
            with pytest.raises(openai.APITimeoutError):
                quick.completions.create(model=MODEL, prompt="Question: q")


# --------------------------------------------------------------- empty native replies


def test_an_empty_native_reply_is_said_to_the_model_and_its_repeats_end_the_run() -> None:
    with StubServer(stub.answering([""])) as server:
        result = run_native(client(server), TOOLS, QUESTION, model=MODEL, max_steps=8)
        bodies = chat_bodies(server)
    assert result.end_reason == "repeating" and len(result.steps) == 4
    assert [s.error for s in result.steps] == ["parse_error"] * 4
    assert "Your reply was empty" in result.steps[0].observation
    assert "same as your reply in step 1" in result.steps[1].observation
    told = bodies[1]["messages"][-1]
    assert told["role"] == "user" and "Your reply was empty" in told["content"]
    assert bodies[0]["messages"] != bodies[1]["messages"]  # never the same request again


def test_an_empty_native_reply_then_a_good_one_goes_on() -> None:
    replies = iter(["", None])

    def behaviour(request: stub.Request) -> stub.Reply:
        if next(replies, None) == "":
            return stub.model_reply(request, "")
        return stub.calling_tools("calculate", SIX_BY_SEVEN, "42")(request)

    with StubServer(behaviour) as server:
        result = run_native(client(server), TOOLS, QUESTION, model=MODEL)
    assert result.end_reason == "final_answer" and result.answer == "42"


# ----------------------------------------------------- calls a chat template wrote as text


def test_a_text_form_call_is_run_as_a_call_not_taken_as_the_answer() -> None:
    def behaviour(request: stub.Request) -> stub.Reply:
        messages = request.body["messages"]
        if any(m.get("role") == "tool" for m in messages):
            return stub.model_reply(request, "6 times 7 is 42.")
        return stub.model_reply(request, f"functions.calculate:\n{SIX_BY_SEVEN}")

    with StubServer(behaviour) as server:
        result = run_native(client(server), TOOLS, QUESTION, model=MODEL)
        second = chat_bodies(server)[1]["messages"]
    assert result.end_reason == "final_answer" and result.answer == "6 times 7 is 42."
    assert result.steps[0].calls[0].name == "calculate" and result.steps[0].observations[0].text == "42"
    sent_back = second[-2]  # the call goes back in the API's shape, linked to its result
    assert sent_back["tool_calls"][0]["function"]["name"] == "calculate"
    assert second[-1] == {"role": "tool", "tool_call_id": sent_back["tool_calls"][0]["id"], "content": "42"}


def test_a_text_form_call_to_an_unknown_tool_is_answered_as_one() -> None:
    """Lesson 07's ``functions.today:`` where no such tool exists: an observation, not the answer."""
    with StubServer(stub.answering(["functions.today:", "I cannot tell."])) as server:
        result = run_native(client(server), TOOLS, QUESTION, model=MODEL)
    assert result.steps[0].answer is None and result.steps[0].observations[0].error == "unknown_tool"
    assert result.answer == "I cannot tell."


# ------------------------------------------------ the completions prompt and a new question


def test_the_completions_prompt_ends_with_the_cue_and_a_new_question_is_cut() -> None:
    replies = [" I know this one.\nFinal Answer: 42\nNow the real question.\nQuestion: What is 2+2?"]
    with StubServer(stub.answering(replies)) as server:
        result = run_react(QUESTION, text_model(server, completions=True), TOOLS)
        prompt = server.calls[0].body["prompt"]
    assert prompt.endswith(f"Question: {QUESTION}\nThought:")
    assert result.answer == "42" and result.steps[0].thought == "I know this one."
    assert result.steps[0].cut.startswith("Now the real question.")


# ------------------------------------------------------------ a refused response format


def test_a_refused_response_format_ends_the_run_as_an_error_that_says_so() -> None:
    """Lesson 06's structured answer on llama-cpp-python: the server's 500, as the run's ending."""
    behaviour = stub.refusing_response_format(stub.calling_tools("calculate", SIX_BY_SEVEN, "42"))
    options = {"response_format": {"type": "json_schema", "json_schema": {"name": "a", "schema": {}}}}
    with StubServer(behaviour) as server:
        result = run_native(client(server), TOOLS, QUESTION, model=MODEL, request_options=options)
        plain = run_native(client(server), TOOLS, QUESTION, model=MODEL)
    assert result.end_reason == "error" and "500" in result.detail and "grammar" in result.detail
    assert plain.end_reason == "final_answer"
