"""Real-model configuration, with a fake client: no network, no key printed."""

from __future__ import annotations

import os
from contextlib import contextmanager
from types import SimpleNamespace

import pytest

from react_course.models import ReactiveModel
from react_course.providers import (
    ModelConfigError,
    OpenAIChatModel,
    course_model,
    parse_model_spec,
    real_model,
    uses_real_model,
)


class FakeCompletions:
    def __init__(self, content: str) -> None:
        self.content, self.requests = content, []

    def create(self, **request: object) -> SimpleNamespace:
        self.requests.append(request)
        message = SimpleNamespace(content=self.content)
        return SimpleNamespace(choices=[SimpleNamespace(message=message)],
                               usage=SimpleNamespace(prompt_tokens=10, completion_tokens=3))


def fake_client(content: str) -> SimpleNamespace:
    return SimpleNamespace(chat=SimpleNamespace(completions=FakeCompletions(content)))


@pytest.mark.parametrize(
    ("setting", "kind", "name", "url"),
    [
        (None, "scripted", "", None),
        ("", "scripted", "", None),
        ("scripted", "scripted", "", None),
        ("openai:gpt-4o-mini", "openai", "gpt-4o-mini", None),
        ("ollama:qwen2.5:7b", "ollama", "qwen2.5:7b", "http://localhost:11434/v1"),
        ("openai-compatible:http://127.0.0.1:8080/v1:llama3", "openai-compatible", "llama3",
         "http://127.0.0.1:8080/v1"),
        ("openai-compatible:http://gpu-box:8000/v1:qwen2.5:7b", "openai-compatible", "qwen2.5:7b",
         "http://gpu-box:8000/v1"),
    ],
)
def test_model_settings(setting: str | None, kind: str, name: str, url: str | None) -> None:
    spec = parse_model_spec(setting)
    assert (spec.kind, spec.name, spec.base_url) == (kind, name, url)


@pytest.mark.parametrize("setting", ["gpt-4o", "openai:", "anthropic:claude", "openai-compatible:x"])
def test_bad_settings_say_what_is_accepted(setting: str) -> None:
    with pytest.raises(ModelConfigError, match="openai-compatible:http://HOST:PORT/v1:MODEL"):
        parse_model_spec(setting)


def test_adapter_sends_stops_and_cuts_the_reply() -> None:
    client = fake_client("Action: search\nAction Input: x\nObservation: invented")
    model = OpenAIChatModel("m", client=client)
    reply = model("prompt", ["\nObservation", "###", "END", "STOP", "\nQuestion"])
    assert reply == "Action: search\nAction Input: x"
    request = client.chat.completions.requests[0]
    assert request["stop"] == ["\nObservation", "###", "END", "STOP"]  # the API takes at most four
    assert request["messages"] == [{"role": "user", "content": "prompt"}]
    assert request["temperature"] == 0.0
    assert model.last_usage.prompt_tokens == 10


def test_client_is_created_lazily_and_a_missing_key_is_explained(monkeypatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    model = OpenAIChatModel("gpt-4o-mini")
    assert model._client is None  # nothing built at construction time
    with pytest.raises(ModelConfigError, match="OPENAI_API_KEY is not set"):
        model("hi")


def test_key_never_appears_in_repr() -> None:
    model = OpenAIChatModel("gpt-4o-mini", api_key="sk-secret-123", base_url="http://x/v1")
    assert "sk-secret" not in repr(model) and "sk-secret" not in str(vars(model).get("model"))
    assert repr(model) == "OpenAIChatModel('gpt-4o-mini', base_url='http://x/v1')"


def test_course_model_is_scripted_by_default_and_switches_by_setting(monkeypatch) -> None:
    monkeypatch.delenv("REACT_COURSE_MODEL", raising=False)
    assert isinstance(course_model(), ReactiveModel)
    mine = ReactiveModel(respond=lambda pad: "x")
    assert course_model(mine) is mine and not uses_real_model()
    monkeypatch.setenv("REACT_COURSE_MODEL", "ollama:qwen2.5:7b")
    model = course_model(mine)
    assert isinstance(model, OpenAIChatModel) and uses_real_model()
    assert model.base_url == "http://localhost:11434/v1"
    with pytest.raises(ModelConfigError):
        real_model("scripted")


@pytest.mark.real_model
def test_a_real_model_answers_a_worked_example() -> None:
    from react_course import WORKED_EXAMPLES, default_tools, run_react

    assert os.environ.get("REACT_COURSE_MODEL")
    result = run_react(WORKED_EXAMPLES[4], course_model(), default_tools())
    assert result.end_reason == "final_answer" and "16" in result.answer


REPLY = "Thought: t\nAction: search\nAction Input: x"


@contextmanager
def chat_server(refuse=lambda body: None, content: str = REPLY):
    """A tiny Chat Completions server on 127.0.0.1; ``refuse(body)`` may return (status, message)."""
    import json
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    seen: list[dict] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            seen.append({"path": self.path, "auth": self.headers.get("Authorization"), **body})
            refusal = refuse(body)
            status, reply = (200, {
                "id": "c1", "object": "chat.completion", "created": 0, "model": body["model"],
                "choices": [{"index": 0, "finish_reason": "stop", "message": {
                    "role": "assistant", "content": content}}],
                "usage": {"prompt_tokens": 5, "completion_tokens": 4, "total_tokens": 9},
            }) if refusal is None else (refusal[0], {"error": {"message": refusal[1], "type": "x"}})
            data = json.dumps(reply).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/v1", seen
    finally:
        server.shutdown()


def test_adapter_through_the_real_sdk_against_a_local_server() -> None:
    """The real ``openai`` client, over HTTP on 127.0.0.1: what the SDK sends, and reads back."""
    with chat_server() as (url, seen):
        model = OpenAIChatModel("local-model", base_url=url, api_key="sk-test", max_retries=0)
        assert model("Question: q", ["\nObservation"]) == REPLY
    request = seen[0]
    assert request["path"] == "/v1/chat/completions"
    assert request["model"] == "local-model" and request["stop"] == ["\nObservation"]
    assert request["auth"] == "Bearer sk-test"
    assert model.last_usage.total_tokens == 9


def test_a_reasoning_model_server_is_met_halfway() -> None:
    """Servers that refuse max_tokens, temperature and stop get what they accept, once asked."""

    def refuse(body: dict):
        for name in ("max_tokens", "temperature", "stop"):
            if name in body:
                return 400, f"Unsupported parameter: '{name}' is not supported with this model."
        return None

    thinking = "<think>I might search.\nObservation: guess</think>\n" + REPLY + "\nObservation: made up"
    with chat_server(refuse, thinking) as (url, seen):
        model = OpenAIChatModel("o-model", base_url=url, api_key="k", max_retries=0)
        assert model("q", ["\nObservation"]) == REPLY
        assert model("q", ["\nObservation"]) == REPLY  # remembered: one request this time
    assert len(seen) == 5
    assert "max_completion_tokens" in seen[-1] and "temperature" not in seen[-1]


@pytest.mark.parametrize(("status", "says"), [(401, "key was refused"), (404, "no such model"),
                                              (400, "check the model name")])
def test_refusals_that_retrying_cannot_fix_are_configuration_errors(status: int, says: str) -> None:
    with chat_server(lambda body: (status, "nope")) as (url, seen):
        model = OpenAIChatModel("m", base_url=url, api_key="k", max_retries=0)
        with pytest.raises(ModelConfigError, match=says):
            model("q", None)
    assert len(seen) == 1


def test_a_server_error_is_left_for_the_loop_to_retry() -> None:
    import openai

    with chat_server(lambda body: (500, "overloaded")) as (url, _):
        with pytest.raises(openai.InternalServerError):
            OpenAIChatModel("m", base_url=url, api_key="k", max_retries=0)("q", None)
