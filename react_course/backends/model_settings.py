"""Model settings: which model ``REACT_COURSE_MODEL`` names, and the numbers that bound a call.

The forms of the setting (``providers.py`` shows them all) are
``KIND:MODEL`` for ``openai`` and ``ollama``, and
``openai-compatible:URL:MODEL`` for any other server; ``-completions`` after
the kind selects the completions endpoint, for base models. ``setting`` reads
a positive number from the environment (``REACT_COURSE_TIMEOUT``,
``REACT_COURSE_MAX_TOKENS``) and says what to write when it cannot;
``per_call_timeout`` is the longest one call may wait, in both loops.

What it leaves out: settings files; the environment is the one place.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Any

from ..errors import ModelConfigError
from .api_errors import redact

ENV_VAR = "REACT_COURSE_MODEL"
OLLAMA_URL = "http://localhost:11434/v1"
OPENAI_URL = "https://api.openai.com/v1"
KINDS = ("openai", "ollama", "openai-compatible")
TIMEOUT_VAR, MAX_TOKENS_VAR = "REACT_COURSE_TIMEOUT", "REACT_COURSE_MAX_TOKENS"
DEFAULT_TIMEOUT = 30.0  # seconds one call may wait
DEFAULT_MAX_TOKENS = 400  # output tokens per call, in both loops: one step needs far fewer
REASONING_TOKENS = 2_000  # extra output budget once a server shows it is a reasoning model


@dataclass(frozen=True)
class ModelSpec:
    """A parsed model setting: which kind, which model name, which server, which endpoint."""

    kind: str  # scripted, openai, ollama, openai-compatible
    name: str = ""
    base_url: str | None = None
    endpoint: str = "chat"  # chat (/chat/completions) or completions (/completions)

    def __str__(self) -> str:
        kind = f"{self.kind}-completions" if self.endpoint == "completions" else self.kind
        where = f" at {self.base_url}" if self.base_url else ""
        return f"{kind}:{self.name}{where}" if self.name else kind

    @property
    def url(self) -> str:
        """The base URL the calls go to (for ``openai:``, OPENAI_BASE_URL or OpenAI's own)."""
        return effective_url(self.base_url)


def effective_url(base_url: str | None) -> str:
    """Where calls go when ``base_url`` is given, or else OPENAI_BASE_URL, or else OpenAI.

    >>> effective_url("http://127.0.0.1:8080/v1/")
    'http://127.0.0.1:8080/v1'
    """
    return (base_url or os.environ.get("OPENAI_BASE_URL") or OPENAI_URL).rstrip("/")


def parse_model_spec(spec: str | None) -> ModelSpec:
    """Read a model setting. Add ``-completions`` to the kind for a base model.

    >>> parse_model_spec("openai:gpt-4o-mini")
    ModelSpec(kind='openai', name='gpt-4o-mini', base_url=None, endpoint='chat')
    >>> parse_model_spec("ollama:qwen2.5:7b").base_url
    'http://localhost:11434/v1'
    >>> parse_model_spec("openai-compatible:http://127.0.0.1:8080/v1:llama3")
    ModelSpec(kind='openai-compatible', name='llama3', base_url='http://127.0.0.1:8080/v1', endpoint='chat')
    >>> str(parse_model_spec("openai-compatible-completions:http://127.0.0.1:8080/v1:base"))
    'openai-compatible-completions:base at http://127.0.0.1:8080/v1'
    """
    spec = (spec or "").strip()
    if spec in ("", "scripted"):
        return ModelSpec("scripted")
    kind, _, rest = spec.partition(":")
    endpoint = "completions" if kind.endswith("-completions") else "chat"
    kind = kind.removesuffix("-completions")
    if kind == "openai" and rest:
        return ModelSpec("openai", rest, None, endpoint)
    if kind == "ollama" and rest:
        return ModelSpec("ollama", rest, OLLAMA_URL, endpoint)
    if kind == "openai-compatible":
        match = re.fullmatch(r"(https?://[^/\s]+/[^:\s]*):(.+)", rest)
        if match:
            return ModelSpec("openai-compatible", match[2], match[1].rstrip("/"), endpoint)
    raise ModelConfigError(
        f"cannot read the model setting {redact(spec)!r}. Use one of: scripted, openai:MODEL, "
        "ollama:MODEL, openai-compatible:http://HOST:PORT/v1:MODEL (add -completions to the kind, "
        "as in openai-compatible-completions:..., for a base model)"
    )


def setting(name: str, default: float, kind: type = float) -> Any:
    """A positive number from the environment, or ``default``; a bad value says what to write.

    >>> setting("REACT_COURSE_NO_SUCH_SETTING", 30.0)
    30.0
    """
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    try:
        value = kind(text)
    except ValueError:
        value = 0
    if value <= 0:
        what = "whole number" if kind is int else "number"
        raise ModelConfigError(f"{name}={text!r} is not a positive {what}; "
                               f"write e.g. {name}={kind(default)}, or unset it.")
    return value


def per_call_timeout(client: Any = None) -> float:
    """The longest one call may wait: REACT_COURSE_TIMEOUT, or ``client``'s own time-out if shorter.

    Both loops use it, so that a server that hangs costs one call's wait, not
    the run's whole remaining time.

    >>> class Client: timeout = 5.0
    >>> per_call_timeout(Client()), per_call_timeout(None)
    (5.0, 30.0)
    """
    limit = setting(TIMEOUT_VAR, DEFAULT_TIMEOUT)
    own = getattr(client, "timeout", None)  # the SDK's default is an httpx Timeout object: not a cap
    return min(limit, float(own)) if isinstance(own, int | float) and own > 0 else limit
