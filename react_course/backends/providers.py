"""Real models, chosen by configuration, behind the same ``model(prompt, stop)``.

One setting switches the course from the scripted model to a real one::

    REACT_COURSE_MODEL=scripted                                  (the default)
    REACT_COURSE_MODEL=openai:gpt-5.6                            (needs OPENAI_API_KEY)
    REACT_COURSE_MODEL=ollama:qwen2.5:7b                         (a local Ollama server)
    REACT_COURSE_MODEL=openai-compatible:http://host:8000/v1:my-model
    REACT_COURSE_MODEL=openai-compatible-completions:http://host:8000/v1:my-base-model

A ``-completions`` kind sends the text prompt as it is to ``/v1/completions``
instead of wrapping it in a chat message: the mode for base models (no chat
template) and servers without one. ``OPENAI_BASE_URL`` and ``OPENAI_API_KEY``
are read as usual. Two more settings bound each call: ``REACT_COURSE_TIMEOUT``
(seconds per call, default 30) and ``REACT_COURSE_MAX_TOKENS`` (output budget
per call, default 400, ample for one ReAct step).

Habits worth copying: the client is created on the first call, never at import
time; every wait is bounded (a time-out per call, and after a time-out the next
call waits for the server to be free: ``retry.wait_for_server``); a failed call
is not retried here, because a run's budget retries it as a step of its own
(``retry.py``: the one retry path; ``max_retries=1`` asks for one retry, never
after a time-out, for a caller outside a run); every failure is one of the
library's exceptions with a message that names the URL and says what to change;
and the key is never shown (``redact``). A completions call of the text loop
ends its prompt with ``Thought:`` (``prompts.cue_for``). What it leaves out:
streaming, native tool calls (lesson 07) and providers that do not speak the
OpenAI protocol.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Sequence
from typing import Any

from ..errors import ContextWindowFull, ModelConfigError, ModelError
from ..prompts import cue_for
from ..retry import is_call_failure, wait_for_server
from ..stops import api_stops, cut_at_end_of_turn, cut_at_stop, strip_reasoning
from .api_errors import explain, redact, remember_secret, tagged
from .model_settings import (
    DEFAULT_MAX_TOKENS,
    DEFAULT_TIMEOUT,
    ENV_VAR,
    MAX_TOKENS_VAR,
    OLLAMA_URL,
    OPENAI_URL,
    REASONING_TOKENS,
    TIMEOUT_VAR,
    ModelSpec,
    effective_url,
    parse_model_spec,
    per_call_timeout,
    setting,
)

__all__ = ["ENV_VAR", "OLLAMA_URL", "OPENAI_URL", "ContextWindowFull", "ModelConfigError",
           "ModelError", "ModelSpec", "OpenAIChatModel", "OpenAICompletionModel", "course_model",
           "effective_url", "parse_model_spec", "per_call_timeout", "real_model", "redact", "setting",
           "uses_real_model"]

RETRY_PAUSE = 1.0  # seconds before the one retry


class OpenAIChatModel:
    """Any Chat Completions endpoint as ``model(prompt, stop, timeout=None) -> str``.

    The prompt goes as one user message; the stop sequences go to the API
    (at most four) and are applied again to the reply, since some servers and
    reasoning models ignore them. A reasoning model's ``<think>`` block is
    dropped before that cut. A call (a retry included, if ``max_retries`` asks for one) waits at most
    ``self.timeout`` seconds; ``timeout=`` (keyword) lowers that for one call,
    for a caller with less time left (a loop near its time limit).

    Servers differ in what they accept: reasoning models reject ``max_tokens``
    (they want ``max_completion_tokens``, and get ``REASONING_TOKENS`` more, as
    their thinking counts against it), a set ``temperature`` and ``stop``. When
    a server answers 400 naming one of these, the model drops or renames it,
    asks again, and remembers.
    """

    endpoint = "chat"

    def __init__(self, model: str, *, base_url: str | None = None, api_key: str | None = None,
                 client: Any = None, temperature: float | None = 0.0,
                 max_tokens: int | None = None, timeout: float | None = None,
                 max_retries: int = 0) -> None:
        self.model, self.base_url = model, base_url
        self.temperature = temperature
        self.max_tokens = max_tokens or setting(MAX_TOKENS_VAR, DEFAULT_MAX_TOKENS, int)
        self.timeout = timeout or setting(TIMEOUT_VAR, DEFAULT_TIMEOUT)
        self.max_retries = max_retries  # retries here, for a caller outside a run; the SDK's are off
        self._api_key = api_key
        remember_secret(api_key)
        self._client = client
        self.last_usage: Any = None
        self.token_parameter = "max_tokens"
        self.send_stops = True
        self.call_budget = self.max_tokens  # this call's output budget (a summary asks for less)
        self.gave_up_after: float | None = None  # seconds, when our last call timed out

    @property
    def url(self) -> str:
        return effective_url(self.base_url)

    @property
    def client(self) -> Any:
        if self._client is None:
            # imported here: slow to import, and only real models need it. An address that
            # ``scripted_api.serve`` made in a browser tab (no sockets there) is served in-process.
            from ..scripted_api.in_process import openai_client

            key = self._api_key or os.environ.get("OPENAI_API_KEY")
            if not key and self.base_url is None and not os.environ.get("OPENAI_BASE_URL"):
                raise ModelConfigError(
                    "OPENAI_API_KEY is not set. Set it in your shell (never in a notebook cell), "
                    "or use REACT_COURSE_MODEL=scripted.")
            self._client = openai_client(self.url, api_key=key or "not-needed",
                                         timeout=self.timeout, max_retries=0)
        return self._client

    def __call__(self, prompt: str, stop: Sequence[str] | None = None, *,
                 timeout: float | None = None, max_tokens: int | None = None) -> str:
        """The reply; ``timeout`` and ``max_tokens`` lower this call's wait and output budget."""
        budget, self.call_budget = self.call_budget, min(max_tokens or self.max_tokens, self.max_tokens)
        try:
            text = strip_reasoning(cut_at_end_of_turn(self._send(prompt, stop, timeout))).lstrip()
        finally:
            self.call_budget = budget
        return cut_at_stop(text, stop)

    def _send(self, prompt: str, stop: Sequence[str] | None, timeout: float | None) -> str:
        """One call: adapt to what the server accepts, retry once after a quick failure."""
        limit = self.timeout if timeout is None else min(self.timeout, max(timeout, 0.1))
        if self.gave_up_after is not None:  # the server may still be working on that call
            waited = wait_for_server(self.client, limit, self.url, self.gave_up_after)
            self.gave_up_after = None
            limit = max(limit - waited, 0.1) if timeout is not None else limit
        deadline = time.monotonic() + limit
        retries, adaptations = self.max_retries, 3
        while True:
            left = max(deadline - time.monotonic(), 0.1)
            try:
                return self._read(self._request(prompt, stop, left))
            except Exception as raw:
                if not is_call_failure(raw):
                    raise  # a bug in the program, not a failed call
                if adaptations and self._adapt(raw):
                    adaptations -= 1
                    continue
                error = self._explain(raw, left)
                timed_out = type(raw).__name__ == "APITimeoutError"
                self.gave_up_after = left if timed_out else None
                if not (error.retryable and retries and not timed_out
                        and deadline - time.monotonic() > 2 * RETRY_PAUSE):
                    raise error from None  # the SDK's error may hold the key: not chained
                retries -= 1
                time.sleep(RETRY_PAUSE)

    def _request(self, prompt: str, stop: Sequence[str] | None, timeout: float) -> Any:
        return self.client.chat.completions.create(
            model=self.model, messages=[{"role": "user", "content": prompt}],
            timeout=timeout, **self._options(stop))

    def _read(self, response: Any) -> str:
        """The reply's text, or a ModelError naming what the server sent instead."""
        choice = self._choice(response)
        message = getattr(choice, "message", None)
        return self._checked(choice, _as_text(getattr(message, "content", None)))

    def _choice(self, response: Any) -> Any:
        if isinstance(response, str | bytes):
            what = "a web page (HTML)" if "<html" in str(response)[:500].lower() else "plain text"
            raise tagged(ModelError(
                f"{self.url} answered with {what}, not the API's JSON. Check the base URL: it "
                "should be the model server's API, usually ending in /v1, not a web page or a "
                "proxy's login.", retryable=False), "protocol")
        choices = getattr(response, "choices", None)
        if not choices:
            raise tagged(ModelError(
                f"{self.url} answered with no choices (an empty reply list), so there is no text "
                "to read; the server's log may say why.", retryable=True), "empty")
        self.last_usage = getattr(response, "usage", None)
        return choices[0]

    def _checked(self, choice: Any, text: str) -> str:
        if getattr(choice, "finish_reason", None) == "length" and not strip_reasoning(text).strip():
            raise tagged(ModelError(
                f"the model at {self.url} used its whole output budget of {self.max_tokens} "
                "tokens before writing a reply (a reasoning model spends them thinking). Raise "
                f"{MAX_TOKENS_VAR}.", retryable=False), "budget")
        return text

    def _options(self, stop: Sequence[str] | None) -> dict[str, Any]:
        reasoning = self.token_parameter == "max_completion_tokens"
        options: dict[str, Any] = {
            self.token_parameter: self.call_budget + REASONING_TOKENS * reasoning}
        if self.temperature is not None:
            options["temperature"] = self.temperature
        if self.send_stops and api_stops(stop):
            options["stop"] = api_stops(stop)
        return options

    def _adapt(self, error: Exception) -> bool:
        """Change what we send when a server says it does not support a parameter."""
        if getattr(error, "status_code", None) != 400:
            return False
        text = str(error).lower()
        if "max_tokens" in text and self.token_parameter == "max_tokens":
            self.token_parameter = "max_completion_tokens"
        elif "temperature" in text and self.temperature is not None:
            self.temperature = None
        elif re.search(r"\bstop\b", text) and self.send_stops:
            self.send_stops = False  # the client-side cut still applies
        else:
            return False
        return True

    def _explain(self, error: Exception, timeout: float) -> ModelError:
        return explain(error, self.url, model=self.model, max_tokens=self.max_tokens,
                       timeout=timeout, endpoint=self.endpoint)

    def __repr__(self) -> str:  # never shows the key
        where = f", base_url={self.base_url!r}" if self.base_url else ""
        return f"{type(self).__name__}({self.model!r}{where})"


class OpenAICompletionModel(OpenAIChatModel):
    """The text prompt, as it is, through ``/v1/completions``: for base models.

    A base model has no chat template: wrapped in a chat message, the ReAct
    prompt is often echoed back. Sent as plain text to continue, it is what
    such a model does best (the text ReAct prompt is a completion prompt).
    """

    endpoint = "completions"

    def _request(self, prompt: str, stop: Sequence[str] | None, timeout: float) -> Any:
        cue = cue_for(prompt, stop)
        return self.client.completions.create(model=self.model, timeout=timeout, **self._options(stop),
                                              prompt=f"{prompt.rstrip()}\n{cue}" if cue else prompt)

    def __call__(self, prompt: str, stop: Sequence[str] | None = None, *,
                 timeout: float | None = None, max_tokens: int | None = None) -> str:
        """The reply; after a cue (``prompts.cue_for``) it starts with the cue (an empty one stays empty)."""
        reply = super().__call__(prompt, stop, timeout=timeout, max_tokens=max_tokens)
        cue = cue_for(prompt, stop)
        return f"{cue} {reply}" if cue and reply.strip() and not reply.startswith(cue) else reply

    def _read(self, response: Any) -> str:
        choice = self._choice(response)
        return self._checked(choice, _as_text(getattr(choice, "text", None)))


def _as_text(content: Any) -> str:
    """A reply's content as text: some servers send a list of parts instead of a string.

    >>> _as_text([{"type": "text", "text": "Thought: "}, {"type": "text", "text": "x"}])
    'Thought: x'
    >>> _as_text(None)
    ''
    """
    if isinstance(content, list):
        return "".join(str(p.get("text", "")) if isinstance(p, dict) else str(getattr(p, "text", p))
                       for p in content)
    return content if isinstance(content, str) else "" if content is None else str(content)


def real_model(spec: str | ModelSpec) -> OpenAIChatModel:
    """The real model a setting names (not the scripted one: the caller supplies that)."""
    spec = spec if isinstance(spec, ModelSpec) else parse_model_spec(spec)
    if spec.kind == "scripted":
        raise ModelConfigError("'scripted' names no real model; pass your scripted model instead.")
    kind = OpenAICompletionModel if spec.endpoint == "completions" else OpenAIChatModel
    if spec.kind == "ollama":
        return kind(spec.name, base_url=spec.base_url, api_key="ollama")
    return kind(spec.name, base_url=spec.base_url or os.environ.get("OPENAI_BASE_URL"))


def course_model(scripted: Any = None) -> Any:
    """The model a notebook should use: ``scripted`` unless REACT_COURSE_MODEL names a real one.

    ``scripted`` defaults to the course's demo model, which solves the worked examples.
    """
    spec = parse_model_spec(os.environ.get(ENV_VAR))
    if spec.kind != "scripted":
        return real_model(spec)
    if scripted is not None:
        return scripted
    from ..lessons.demo import demo_model

    return demo_model()


def uses_real_model() -> bool:
    """True when REACT_COURSE_MODEL names a real model (notebooks then skip exact checks)."""
    return parse_model_spec(os.environ.get(ENV_VAR)).kind != "scripted"
