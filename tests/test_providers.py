"""Real-model configuration and failures: a fake client, and the real SDK against local stubs.

Every stub listens on 127.0.0.1 (tests/stub_servers.py) and misbehaves the way
a real server was seen to. Each failure must come back as one of the
library's exceptions, name the URL, say what to change, and never show the key.
"""

from __future__ import annotations

import logging
import os
import traceback
from types import SimpleNamespace

import pytest
import stub_servers as stub
from stub_servers import KEY, MODEL, StubServer

from react_course.backends import providers
from react_course.backends.providers import (
    DEFAULT_MAX_TOKENS,
    DEFAULT_TIMEOUT,
    OpenAIChatModel,
    OpenAICompletionModel,
    course_model,
    parse_model_spec,
    real_model,
    redact,
    uses_real_model,
)
from react_course.errors import ContextWindowFull, ModelConfigError, ModelError
from react_course.models import ReactiveModel

REPLY = "Thought: t\nAction: search\nAction Input: x"


@pytest.fixture(autouse=True)
def _no_settings_from_the_shell(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(providers, "RETRY_PAUSE", 0.05)  # the one retry, without the wait
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "REACT_COURSE_TIMEOUT",
                 "REACT_COURSE_MAX_TOKENS", "REACT_COURSE_MODEL"):
        monkeypatch.delenv(name, raising=False)


class FakeCompletions:
    def __init__(self, content: str) -> None:
        self.content, self.requests = content, []

    def create(self, **request: object) -> SimpleNamespace:
        self.requests.append(request)
        message = SimpleNamespace(content=self.content)
        return SimpleNamespace(choices=[SimpleNamespace(message=message, finish_reason="stop")],
                               usage=SimpleNamespace(prompt_tokens=10, completion_tokens=3))


def fake_client(content: str) -> SimpleNamespace:
    return SimpleNamespace(chat=SimpleNamespace(completions=FakeCompletions(content)))


def model_for(server: StubServer, kind: type = OpenAIChatModel, **options: object) -> OpenAIChatModel:
    return kind(MODEL, base_url=server.url, api_key=KEY, **{"timeout": 5.0, **options})


def shown(error: BaseException) -> str:
    """Everything a user could see of an error: its text, repr and printed traceback."""
    return f"{error}\n{error!r}\n{''.join(traceback.format_exception(error))}"


# --- settings ---------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("setting", "kind", "name", "url", "endpoint"),
    [
        (None, "scripted", "", None, "chat"),
        ("", "scripted", "", None, "chat"),
        ("scripted", "scripted", "", None, "chat"),
        ("openai:gpt-4o-mini", "openai", "gpt-4o-mini", None, "chat"),
        ("ollama:qwen2.5:7b", "ollama", "qwen2.5:7b", "http://localhost:11434/v1", "chat"),
        ("openai-compatible:http://127.0.0.1:8080/v1:llama3", "openai-compatible", "llama3",
         "http://127.0.0.1:8080/v1", "chat"),
        ("openai-compatible:http://gpu-box:8000/v1:qwen2.5:7b", "openai-compatible", "qwen2.5:7b",
         "http://gpu-box:8000/v1", "chat"),
        ("openai-compatible-completions:http://127.0.0.1:8080/v1:base", "openai-compatible",
         "base", "http://127.0.0.1:8080/v1", "completions"),
        ("ollama-completions:llama3.2:1b-text", "ollama", "llama3.2:1b-text",
         "http://localhost:11434/v1", "completions"),
        ("openai-completions:davinci-002", "openai", "davinci-002", None, "completions"),
    ],
)
def test_model_settings(setting, kind, name, url, endpoint) -> None:
    spec = parse_model_spec(setting)
    assert (spec.kind, spec.name, spec.base_url, spec.endpoint) == (kind, name, url, endpoint)


@pytest.mark.parametrize("setting", ["gpt-4o", "openai:", "anthropic:claude", "openai-compatible:x",
                                     "scripted-completions:x"])
def test_bad_settings_say_what_is_accepted(setting: str) -> None:
    with pytest.raises(ModelConfigError, match="openai-compatible:http://HOST:PORT/v1:MODEL"):
        parse_model_spec(setting)


def test_the_effective_base_url_is_known_for_every_kind(monkeypatch) -> None:
    assert parse_model_spec("openai:gpt-4o-mini").url == "https://api.openai.com/v1"
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9999/v1/")
    assert parse_model_spec("openai:gpt-4o-mini").url == "http://127.0.0.1:9999/v1"
    assert real_model("openai:gpt-4o-mini").url == "http://127.0.0.1:9999/v1"


def test_time_out_and_output_budget_defaults_and_settings(monkeypatch) -> None:
    model = OpenAIChatModel("m")
    assert (model.timeout, model.max_tokens) == (DEFAULT_TIMEOUT, DEFAULT_MAX_TOKENS) == (30.0, 400)
    assert model.max_retries == 0  # the run's budget retries (one retry path)
    monkeypatch.setenv("REACT_COURSE_TIMEOUT", "120")
    monkeypatch.setenv("REACT_COURSE_MAX_TOKENS", "1000")
    assert (OpenAIChatModel("m").timeout, OpenAIChatModel("m").max_tokens) == (120.0, 1000)
    monkeypatch.setenv("REACT_COURSE_TIMEOUT", "soon")
    with pytest.raises(ModelConfigError, match="REACT_COURSE_TIMEOUT='soon' is not a positive"):
        OpenAIChatModel("m")


# --- the adapter, with a fake client ----------------------------------------------------------

def test_adapter_sends_stops_and_cuts_the_reply() -> None:
    client = fake_client("Action: search\nAction Input: x\nObservation: invented")
    model = OpenAIChatModel("m", client=client)
    reply = model("prompt", ["\nObservation", "###", "END", "STOP", "\nQuestion"])
    assert reply == "Action: search\nAction Input: x"
    request = client.chat.completions.requests[0]
    assert request["stop"] == ["\nObservation", "###", "END", "STOP"]  # the API takes at most four
    assert request["messages"] == [{"role": "user", "content": "prompt"}]
    assert request["temperature"] == 0.0 and request["max_tokens"] == 400
    assert model.last_usage.prompt_tokens == 10


def test_client_is_created_lazily_and_a_missing_key_is_explained() -> None:
    model = OpenAIChatModel("gpt-4o-mini")
    assert model._client is None  # nothing built at construction time
    with pytest.raises(ModelConfigError, match="OPENAI_API_KEY is not set"):
        model("hi")


def test_key_never_appears_in_repr() -> None:
    model = OpenAIChatModel("gpt-4o-mini", api_key=KEY, base_url="http://x/v1")
    assert KEY not in repr(model)
    assert repr(model) == "OpenAIChatModel('gpt-4o-mini', base_url='http://x/v1')"
    assert repr(OpenAICompletionModel("b")) == "OpenAICompletionModel('b')"


def test_course_model_is_scripted_by_default_and_switches_by_setting(monkeypatch) -> None:
    assert isinstance(course_model(), ReactiveModel)
    mine = ReactiveModel(respond=lambda pad: "x")
    assert course_model(mine) is mine and not uses_real_model()
    monkeypatch.setenv("REACT_COURSE_MODEL", "ollama:qwen2.5:7b")
    model = course_model(mine)
    assert isinstance(model, OpenAIChatModel) and uses_real_model()
    assert model.base_url == "http://localhost:11434/v1"
    monkeypatch.setenv("REACT_COURSE_MODEL", "openai-compatible-completions:http://h:1/v1:base")
    assert isinstance(course_model(mine), OpenAICompletionModel)
    with pytest.raises(ModelConfigError):
        real_model("scripted")


@pytest.mark.real_model
def test_a_real_model_answers_a_worked_example() -> None:
    from react_course import WORKED_EXAMPLES, default_tools, run_react

    assert os.environ.get("REACT_COURSE_MODEL")
    result = run_react(WORKED_EXAMPLES[4], course_model(), default_tools())
    assert result.end_reason == "final_answer" and "16" in result.answer


# --- the real SDK against stub servers --------------------------------------------------------

def test_chat_through_the_real_sdk() -> None:
    with StubServer(stub.answering([REPLY + "\nObservation: invented"])) as server:
        model = model_for(server)
        assert model("Question: q", ["\nObservation"]) == REPLY
    request = server.calls[0]
    assert request.path == "/v1/chat/completions"
    assert request.body["model"] == MODEL and request.body["stop"] == ["\nObservation"]
    assert request.body["max_tokens"] == 400
    assert request.headers["authorization"] == f"Bearer {KEY}"
    assert model.last_usage.total_tokens == 60


def test_completion_mode_sends_the_text_prompt_to_the_completions_endpoint() -> None:
    """A base model continues the ReAct prompt; the same stops and cut apply."""
    from react_course import WORKED_EXAMPLES, default_tools, run_react

    steps = [" I need the price of a notebook.\nAction: price\nAction Input: notebook\n"
             "Observation: made up", "Thought: I now know.\nFinal Answer: 4"]
    with StubServer(stub.answering(steps)) as server:
        model = real_model(f"openai-compatible-completions:{server.url}:{MODEL}")
        result = run_react(WORKED_EXAMPLES[4], model, default_tools())
    assert isinstance(model, OpenAICompletionModel)
    assert [c.path for c in server.calls] == ["/v1/completions"] * 2
    first = server.calls[0].body
    assert "messages" not in first and first["prompt"].endswith(f"Question: {WORKED_EXAMPLES[4]}\nThought:")
    assert first["stop"][0] == "\nObservation" and first["max_tokens"] == 400
    assert result.end_reason == "final_answer" and result.answer == "4"
    assert result.steps[0].observation == "A notebook costs 4."  # the invented one was cut


def test_a_reasoning_model_server_is_met_halfway() -> None:
    """Servers that refuse max_tokens, temperature and stop get what they accept, once asked."""

    def refuse(request):
        for name in ("max_tokens", "temperature", "stop"):
            if name in request.body:
                return stub.error_reply(400, f"Unsupported parameter: '{name}' is not supported "
                                             "with this model.")
        return stub.model_reply(request, thinking)

    thinking = "<think>I might search.\nObservation: guess</think>\n" + REPLY + "\nObservation: x"
    with StubServer(refuse) as server:
        model = model_for(server)
        assert model("q", ["\nObservation"]) == REPLY
        assert model("q", ["\nObservation"]) == REPLY  # remembered: one request this time
    assert len(server.calls) == 5
    last = server.calls[-1].body
    assert last["max_completion_tokens"] == 2400 and "temperature" not in last


@pytest.mark.parametrize(("status", "says"), [
    (401, "refused the key. Check OPENAI_API_KEY"),
    (403, f"does not let this key use the model '{MODEL}'"),
    (404, f"has no model '{MODEL}' or no such endpoint. Check the model name"),
    (400, "rejected the request. Check the model name"),
])
def test_refusals_that_retrying_cannot_fix_are_configuration_errors(status: int, says: str) -> None:
    with StubServer(lambda request: stub.error_reply(status, "nope")) as server:
        with pytest.raises(ModelConfigError, match=says) as caught:
            model_for(server)("q", None)
    assert server.url in str(caught.value) and f"({status}: nope)" in str(caught.value)
    assert caught.value.status == status and not caught.value.retryable
    assert len(server.calls) == 1


@pytest.mark.parametrize("said", [stub.LLAMA_CPP_CONTEXT_FULL, stub.OPENAI_CONTEXT_FULL,
                                  "Input is too long: 5000 tokens > max_model_len 4096"])
def test_a_full_context_window_is_named_with_what_to_change(said: str) -> None:
    with StubServer(lambda request: stub.error_reply(400, said)) as server:
        with pytest.raises(ContextWindowFull) as caught:
            model_for(server)("q", None)
    text = str(caught.value)
    assert not isinstance(caught.value, ModelConfigError) and not caught.value.retryable
    for needed in (server.url, "--ctx-size", "REACT_COURSE_MAX_TOKENS, now 400",
                   "max_observation_chars", said[:30]):
        assert needed in text
    assert len(server.calls) == 1


@pytest.mark.parametrize(("status", "kind"), [(500, ModelError), (401, ModelConfigError),
                                              (429, ModelError)])
def test_an_echoed_key_never_shows(status: int, kind: type, caplog, monkeypatch) -> None:
    caplog.set_level(logging.DEBUG)
    monkeypatch.setenv("OPENAI_API_KEY", KEY)  # the key from the environment, not an argument
    with StubServer(stub.echoing_error(status)) as server:
        model = OpenAIChatModel(MODEL, base_url=server.url, timeout=5.0, max_retries=1)
        with pytest.raises(kind) as caught:
            model("q", None)
    assert KEY in str(server.calls[0].body) or KEY in str(server.calls[0].headers)
    assert KEY not in shown(caught.value)
    assert "upstream refused for Authorization: Bearer [redacted] (request" in str(caught.value)
    assert KEY not in caplog.text
    assert caught.value.status == status
    retried = caught.value.retryable
    assert len(server.calls) == (2 if retried else 1)  # at most one retry, only when it may pass


def test_a_model_of_the_course_setting_leaves_retries_to_the_run() -> None:
    """One retry path: the run's budget retries a failed call as a step; the model does not."""
    with StubServer(stub.echoing_error(503)) as server:
        model = OpenAIChatModel(MODEL, base_url=server.url, timeout=5.0)
        with pytest.raises(ModelError):
            model("q", None)
    assert len(server.calls) == 1


@pytest.mark.parametrize(("behaviour", "says"), [
    (stub.html_page, "answered with a web page (HTML), not the API's JSON"),
    (stub.empty_choices, "answered with no choices"),
    (stub.malformed_json, "sent a reply that is not the API's JSON"),
    (stub.dropped, "could not talk to"),
])
def test_a_server_that_does_not_speak_the_protocol_gets_a_plain_message(behaviour, says) -> None:
    with StubServer(behaviour) as server:
        with pytest.raises(ModelError) as caught:
            model_for(server)("q", None)
    message = str(caught.value)
    assert says in message and server.url in message
    assert not isinstance(caught.value, AttributeError | IndexError | ModelConfigError)


def test_a_server_that_never_answers_is_given_up_on_without_a_retry() -> None:
    with StubServer(stub.hanging) as server:
        model = model_for(server, timeout=30.0)
        with pytest.raises(ModelError) as caught:
            model("q", None, timeout=0.5)  # the caller's remaining time caps the call
    assert f"no reply from {server.url} within 0.5 s" in str(caught.value)
    assert "REACT_COURSE_TIMEOUT" in str(caught.value) and caught.value.retryable
    assert len(server.calls) == 1  # a time-out is not retried: it would double the wait


def test_a_server_error_is_retried_once_then_passes() -> None:
    def loading_then_ready(request):
        if request.number == 1:
            return stub.error_reply(503, "loading model")
        return stub.model_reply(request, REPLY)

    with StubServer(loading_then_ready) as server:
        model = model_for(server)
        model.max_retries = 1  # outside a run, a caller may ask for the one retry
        assert model("q", None) == REPLY
    assert len(server.calls) == 2


def test_an_empty_reply_cut_by_the_output_budget_says_so() -> None:
    with StubServer(lambda r: stub.model_reply(r, "<think>long thoughts", "length")) as server:
        with pytest.raises(ModelError, match="used its whole output budget of 400 tokens"):
            model_for(server)("q", None)


def test_redact_removes_configured_keys_and_anything_like_one(monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "plain-looking-secret-value")
    text = redact("key plain-looking-secret-value; Authorization: Bearer abc; x-api-key: zzz123")
    assert text == "key [redacted]; Authorization: Bearer [redacted]; x-api-key: [redacted]"
    assert redact("ollama and sk-") == "ollama and sk-"  # placeholders and prose stay


# --- whole runs against stub servers: a reason and a trace, never a traceback or the key ------

GOOD_STEP = "Thought: I need the price of a notebook.\nAction: price\nAction Input: notebook"
FAILURES = {
    "context full (400)": stub.context_full,
    "server error echoing the key (500)": stub.echoing_error(500),
    "refused key echoed (401)": stub.echoing_error(401),
    "HTML page": stub.html_page,
    "empty choices": stub.empty_choices,
    "malformed JSON": stub.malformed_json,
    "dropped connection": stub.dropped,
}


def everything_shown(result) -> str:
    return "\n".join([result.answer, result.detail, result.render(), result.render(authors=True),
                      result.to_json(), repr(result), str(result.to_messages())])


def run_against(server: StubServer, max_seconds: float = 20.0):
    import time

    from react_course import default_tools, run_react

    model = real_model(f"openai-compatible:{server.url}:{MODEL}")
    began = time.monotonic()
    result = run_react("What do 3 notebooks and 2 pens cost?", model, default_tools(),
                       max_seconds=max_seconds)
    return result, time.monotonic() - began


@pytest.mark.parametrize("failure", FAILURES, ids=list(FAILURES))
def test_a_failure_mid_run_ends_the_run_with_its_reason_and_trace(failure: str, monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    with StubServer(stub.then_fail(stub.answering([GOOD_STEP]), 1, FAILURES[failure])) as server:
        result, seconds = run_against(server)
    assert result.end_reason == "error" and result.detail
    assert result.steps[0].observation == "A notebook costs 4."  # the first step is kept
    failed = [s for s in result.steps if s.error == "model_error"]
    assert failed and server.url in failed[-1].observation
    assert "Could not finish" in result.answer and "price[notebook]" in result.answer
    assert KEY not in everything_shown(result)
    assert seconds < 20.0 + 10  # within the run's time limit, with room for a loaded machine


@pytest.mark.parametrize("failure", [f for f in FAILURES if "401" not in f])
def test_a_failure_from_the_first_call_is_recorded_too(failure: str, monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    with StubServer(FAILURES[failure]) as server:
        result, _ = run_against(server)
    assert result.end_reason == "error" and result.steps and result.steps[0].error == "model_error"
    assert KEY not in everything_shown(result)


def test_a_refused_key_before_any_call_worked_is_raised_without_the_key(monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    with StubServer(stub.echoing_error(401)) as server:
        with pytest.raises(ModelConfigError, match="refused the key") as caught:
            run_against(server)
    assert KEY not in shown(caught.value)


def test_a_server_that_never_answers_ends_at_the_run_time_limit(monkeypatch) -> None:
    with StubServer(stub.then_fail(stub.answering([GOOD_STEP]), 1, stub.hanging)) as server:
        result, seconds = run_against(server, max_seconds=2.0)
    assert result.end_reason == "time_limit" and "2 s" in result.detail
    assert result.steps[0].observation == "A notebook costs 4."
    assert len(server.calls) == 2  # the hanging call was not retried
    assert seconds < 2.0 + 10  # not the model's 30 s time-out, let alone the server's silence


def test_a_server_without_the_completions_endpoint_is_told_to_use_chat() -> None:
    with StubServer(lambda request: stub.error_reply(404, "Not Found")) as server:
        with pytest.raises(ModelConfigError, match="without /v1/completions needs the chat setting"):
            model_for(server, OpenAICompletionModel)("Question: q", ["\nObservation"])
    assert server.calls[0].path == "/v1/completions"
