"""Real models, chosen by configuration, behind the same ``model(prompt, stop)``.

One setting switches the course from the scripted model to a real one::

    REACT_COURSE_MODEL=scripted                                  (the default)
    REACT_COURSE_MODEL=openai:gpt-4o-mini                        (needs OPENAI_API_KEY)
    REACT_COURSE_MODEL=ollama:qwen2.5:7b                         (a local Ollama server)
    REACT_COURSE_MODEL=openai-compatible:http://host:8000/v1:my-model

``OPENAI_BASE_URL`` and ``OPENAI_API_KEY`` are read by the ``openai`` SDK as
usual. Switching provider is configuration, never code.

Two habits worth copying: the client is created on the first call, never at
import time (a missing key is then a clear message in the cell that needs
it, not a KeyError before the lesson starts); and the key is never printed:
not in ``repr``, not in errors, not in traces.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .errors import ModelConfigError
from .stops import api_stops, cut_at_stop, strip_reasoning

ENV_VAR = "REACT_COURSE_MODEL"
OLLAMA_URL = "http://localhost:11434/v1"


@dataclass(frozen=True)
class ModelSpec:
    """A parsed model setting: which kind, which model name, which server."""

    kind: str  # scripted, openai, ollama, openai-compatible
    name: str = ""
    base_url: str | None = None

    def __str__(self) -> str:
        where = f" at {self.base_url}" if self.base_url else ""
        return f"{self.kind}:{self.name}{where}" if self.name else self.kind


def parse_model_spec(spec: str | None) -> ModelSpec:
    """Read a model setting.

    >>> parse_model_spec("openai:gpt-4o-mini")
    ModelSpec(kind='openai', name='gpt-4o-mini', base_url=None)
    >>> parse_model_spec("ollama:qwen2.5:7b").base_url
    'http://localhost:11434/v1'
    >>> parse_model_spec("openai-compatible:http://127.0.0.1:8080/v1:llama3")
    ModelSpec(kind='openai-compatible', name='llama3', base_url='http://127.0.0.1:8080/v1')
    """
    spec = (spec or "").strip()
    if spec in ("", "scripted"):
        return ModelSpec("scripted")
    kind, _, rest = spec.partition(":")
    if kind == "openai" and rest:
        return ModelSpec("openai", rest)
    if kind == "ollama" and rest:
        return ModelSpec("ollama", rest, OLLAMA_URL)
    if kind == "openai-compatible":
        match = re.fullmatch(r"(https?://[^/\s]+/[^:\s]*):(.+)", rest)
        if match:
            return ModelSpec("openai-compatible", match[2], match[1].rstrip("/"))
    raise ModelConfigError(
        f"cannot read the model setting {spec!r}. Use one of: scripted, openai:MODEL, "
        "ollama:MODEL, openai-compatible:http://HOST:PORT/v1:MODEL"
    )


class OpenAIChatModel:
    """Any Chat Completions endpoint as ``model(prompt, stop) -> str``.

    The prompt goes as one user message; the stop sequences go to the API
    (at most four) and are applied again to the reply, since some servers and
    reasoning models ignore them. A reasoning model's ``<think>`` block is
    dropped before that cut.

    Servers differ in what they accept: reasoning models reject ``max_tokens``
    (they want ``max_completion_tokens``), a set ``temperature`` and ``stop``.
    When a server answers 400 naming one of these, the model drops or renames
    it and asks again, and remembers. Any other refusal (a bad key, an unknown
    model, a bad request) is a ``ModelConfigError``: retrying cannot fix it.
    """

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        client: Any = None,
        temperature: float | None = 0.0,
        max_tokens: int = 1024,  # room for a reasoning model's thinking as well as the reply
        timeout: float = 60.0,
        max_retries: int = 2,
    ) -> None:
        self.model, self.base_url = model, base_url
        self.temperature, self.max_tokens = temperature, max_tokens
        self.timeout, self.max_retries = timeout, max_retries
        self._api_key = api_key
        self._client = client
        self.last_usage: Any = None
        self.token_parameter = "max_tokens"
        self.send_stops = True

    @property
    def client(self) -> Any:
        if self._client is None:
            import openai  # imported here: slow to import, and only real models need it

            key = self._api_key or os.environ.get("OPENAI_API_KEY")
            if not key and self.base_url is None:
                raise ModelConfigError(
                    "OPENAI_API_KEY is not set. Set it in your shell (never in a notebook cell), "
                    "or use REACT_COURSE_MODEL=scripted."
                )
            self._client = openai.OpenAI(
                api_key=key or "not-needed", base_url=self.base_url,
                timeout=self.timeout, max_retries=self.max_retries,
            )
        return self._client

    def __call__(self, prompt: str, stop: Sequence[str] | None = None) -> str:
        messages = [{"role": "user", "content": prompt}]
        for _ in range(4):  # at most one change for each of the three parameters, then a last try
            try:
                response = self.client.chat.completions.create(
                    model=self.model, messages=messages, **self._options(stop))
                break
            except Exception as error:
                if self._adapt(error):
                    continue
                explained = _explained(error)
                if explained is error:
                    raise
                raise explained from error
        self.last_usage = response.usage
        return cut_at_stop(strip_reasoning(response.choices[0].message.content or "").lstrip(), stop)

    def _options(self, stop: Sequence[str] | None) -> dict[str, Any]:
        options: dict[str, Any] = {self.token_parameter: self.max_tokens}
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

    def __repr__(self) -> str:  # never shows the key
        where = f", base_url={self.base_url!r}" if self.base_url else ""
        return f"OpenAIChatModel({self.model!r}{where})"


def _explained(error: Exception) -> Exception:
    """A refusal that retrying cannot fix becomes a ModelConfigError saying what to check."""
    status = getattr(error, "status_code", None)
    advice = {
        400: "the server rejected the request; check the model name and that it supports chat",
        401: "the key was refused; check OPENAI_API_KEY (or the server's key)",
        403: "this key may not use this model",
        404: "no such model or endpoint; check the model name and that the base URL ends in /v1",
    }.get(status)
    if advice is None:
        return error  # rate limits, time-outs, server errors: worth retrying
    return ModelConfigError(f"{advice} ({status}: {str(error)[:300]})")


def real_model(spec: str | ModelSpec) -> OpenAIChatModel:
    """The real model a setting names (not the scripted one: the caller supplies that)."""
    spec = spec if isinstance(spec, ModelSpec) else parse_model_spec(spec)
    if spec.kind == "scripted":
        raise ModelConfigError("'scripted' names no real model; pass your scripted model instead.")
    if spec.kind == "ollama":
        return OpenAIChatModel(spec.name, base_url=spec.base_url, api_key="ollama")
    return OpenAIChatModel(spec.name, base_url=spec.base_url or os.environ.get("OPENAI_BASE_URL"))


def course_model(scripted: Any = None) -> Any:
    """The model a notebook should use: ``scripted`` unless REACT_COURSE_MODEL names a real one.

    ``scripted`` defaults to the course's demo model, which solves the worked examples.
    """
    spec = parse_model_spec(os.environ.get(ENV_VAR))
    if spec.kind != "scripted":
        return real_model(spec)
    if scripted is not None:
        return scripted
    from .demo import demo_model

    return demo_model()


def uses_real_model() -> bool:
    """True when REACT_COURSE_MODEL names a real model (notebooks then skip exact checks)."""
    return parse_model_spec(os.environ.get(ENV_VAR)).kind != "scripted"
