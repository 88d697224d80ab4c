"""What a failed model call means, in words a user can act on; and the key kept out of sight.

``explain(error, ...)`` turns whatever the ``openai`` SDK raised (or a reply
in the wrong shape) into one of the library's exceptions:

- a full context window (a 400 whose text says so) -> ``ContextWindowFull``,
  naming the three things that can be changed;
- a refusal that asking again cannot fix (400, 401, 403, 404, ...) ->
  ``ModelConfigError``, with advice that fits the status;
- a time-out, a rate limit, a server error, a dropped connection ->
  ``ModelError(retryable=True)``; but a 5xx that is the server's validation
  of the request (pydantic's "Input should be a valid string") will fail
  again, and is not retryable;
- a 429 whose code is ``insufficient_quota`` (out of credit, not too fast) ->
  ``ModelError(retryable=False)``, saying that waiting will not help;
- a server that does not speak the protocol (an HTML page, malformed JSON)
  -> ``ModelError`` with a plain message;
- a reply the native loop cannot read: no message in it (``first_choice``), or
  nothing said because the output budget ran out (``check_not_cut_off``).

Every message names the URL and passes through ``redact``, which removes the
configured key and anything that looks like one, whatever the server echoed.

What it leaves out: provider-specific error codes beyond the context window,
and parsing ``Retry-After`` (the provider waits a fixed short pause).
"""

from __future__ import annotations

import os
import re
from typing import Any

from ..errors import ContextWindowFull, ModelConfigError, ModelError, final_code

_SECRETS: set[str] = set()
_MIN_SECRET = 8  # shorter "keys" (such as "ollama") are placeholders, not secrets
_TOKEN = r"[^\s\"',;}\]]+"
_PATTERNS = (
    (re.compile(rf"(?i)\b(bearer\s+)(?!\[redacted\]){_TOKEN}"), r"\1[redacted]"),
    (re.compile(r"(?i)(api[-_]?key[\"']?\s*[:=]\s*[\"']?)[\w.\-]{6,}"), r"\1[redacted]"),
    (re.compile(r"\bsk-[A-Za-z0-9_\-]{6,}"), "sk-[redacted]"),
    (re.compile(r"(?i)\b(https?://)[^/\s:@]+:[^/\s@]+@"), r"\1[redacted]@"),
)

CONTEXT_FULL = re.compile(
    r"(?i)context (size|length|window)|context_length_exceeded|maximum context|n_ctx"
    r"|prompt is too long|too many tokens|input is too long|max_model_len|context overflow"
    r"|could not broadcast input array from shape"  # llama-cpp-python's 500 when its window fills mid-run
)
# A 5xx whose text is the server's validation of the request: the same request fails again.
REQUEST_REFUSED = re.compile(r"(?i)input should be a valid|validation error|field required")


def remember_secret(key: str | None) -> None:
    """Add a key to those ``redact`` removes (the environment's OPENAI_API_KEY always is)."""
    if key and len(key) >= _MIN_SECRET:
        _SECRETS.add(key)


def redact(text: object) -> str:
    """``text`` without any key: the configured ones, Bearer tokens, ``sk-...`` keys.

    >>> redact('{"authorization": "Bearer abc.DEF-123"} and sk-proj-0123456789')
    '{"authorization": "Bearer [redacted]"} and sk-[redacted]'
    >>> redact("http://me:hunter22@host:8080/v1")
    'http://[redacted]@host:8080/v1'
    """
    text = str(text)
    secrets = {*_SECRETS, os.environ.get("OPENAI_API_KEY") or ""}
    for secret in sorted((s for s in secrets if len(s) >= _MIN_SECRET), key=len, reverse=True):
        text = text.replace(secret, "[redacted]")
    for pattern, replacement in _PATTERNS:
        text = pattern.sub(replacement, text)
    return text


def excerpt(text: object, limit: int = 300) -> str:
    """A redacted, one-line excerpt of a server's text.

    >>> excerpt("Error code: 400 - bad\\n  request", 20)
    'bad request'
    """
    text = re.sub(r"^Error code: \d+ - ", "", redact(text))
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit] + "..."


def tagged(error: ModelError, cause: str) -> ModelError:
    """``error`` with ``.cause`` set: timeout, connection, protocol, empty, budget, status or other."""
    error.cause = cause
    return error


def explain(error: BaseException, url: str, *, model: str = "", max_tokens: int | None = None,
            timeout: float | None = None, endpoint: str = "chat") -> ModelError:
    """The library's exception for a failed call to ``url``, saying what to change."""
    if isinstance(error, ModelError):
        kind = type(error) if type(error) in (ModelError, ModelConfigError, ContextWindowFull) \
            else ModelConfigError if isinstance(error, ModelConfigError) else ModelError
        again = kind(redact(error), status=error.status, retryable=error.retryable,
                     retry_after=error.retry_after, code=error.code)
        return tagged(again, error.cause)
    import openai  # only real models get here

    if isinstance(error, openai.APITimeoutError):
        waited = f" within {round(timeout, 1):g} s" if timeout else ""
        return tagged(ModelError(
            f"no reply from {url}{waited}. If the server is up but slow (a large local model), "
            "give it longer: set REACT_COURSE_TIMEOUT to more seconds in the shell that starts "
            "Jupyter; otherwise check that the server is running.", retryable=True), "timeout")
    if isinstance(error, openai.APIConnectionError):
        why = excerpt(error.__cause__ or error, 160)
        return tagged(ModelError(f"could not talk to {url} ({why}). Check that the server is "
                                 "running and the URL's host, port and /v1 ending.",
                                 retryable=True), "connection")
    if isinstance(error, openai.APIStatusError):
        if error.status_code == 429 and final_code(error):
            return tagged(ModelError(
                f"{url} refused the call: this key's account has no quota left (429 "
                f"{final_code(error)}: {excerpt(error, 160)}). Waiting will not help: add credit or "
                "raise the spending limit in the provider's billing settings, or use another key.",
                status=429, retryable=False, code=final_code(error)), "status")
        refusal = _refusal(error.status_code, excerpt(error, 160), url, model, max_tokens, endpoint)
        refusal.retry_after = error.response.headers.get("retry-after")  # kept: the retry waits it out
        return tagged(refusal, "status")
    if isinstance(error, ValueError | openai.APIResponseValidationError):
        return tagged(ModelError(
            f"{url} sent a reply that is not the API's JSON ({excerpt(error, 120)}). Check that "
            "the URL points at an OpenAI-compatible API, usually ending in /v1.", retryable=True),
            "protocol")
    return tagged(ModelError(f"the call to {url} failed: {type(error).__name__}: {excerpt(error)}",
                             retryable=False), "other")


def context_full(url: str, said: str, max_tokens: int | None, status: int | None = 400
                 ) -> ContextWindowFull:
    budget = f", now {max_tokens}" if max_tokens else ""
    return ContextWindowFull(
        f"the prompt no longer fits the model's context window at {url} (the server said: "
        f"{said}). Change one of: the server's context size (llama.cpp --ctx-size, Ollama "
        f"num_ctx, vLLM --max-model-len); the output budget per call (REACT_COURSE_MAX_TOKENS"
        f"{budget}); or how much of each observation the loop keeps (run_react's "
        "max_observation_chars) and the number of steps.", status=status)


def _refusal(status: int, said: str, url: str, model: str, max_tokens: int | None,
             endpoint: str) -> ModelError:
    if CONTEXT_FULL.search(said) or status == 413:
        return context_full(url, said, max_tokens, status)
    if status >= 500 and REQUEST_REFUSED.search(said):
        return ModelError(f"{url} could not read the request ({status}: {said}); asking again will not "
                          "help. The server refuses part of what was sent: please report it with this "
                          "message.", status=status, retryable=False)
    if status in (408, 409, 429) or status >= 500:
        what = "is rate-limiting this key; wait a little" if status == 429 else "had a problem"
        return ModelError(f"{url} {what} ({status}: {said}); the call may pass if tried again.",
                          status=status, retryable=True)
    named = f" {model!r}" if model else ""
    if status == 404 and endpoint == "responses" and "model" not in said.lower():
        return ModelConfigError(f"{url} has no Responses API (/v1/responses): many local servers speak "
                                "only Chat Completions. Use protocol=\"chat\" with this server "
                                f"({status}: {said}).", status=status)
    advice = {
        401: "refused the key. Check OPENAI_API_KEY in the shell that starts Jupyter (a local "
             "server needs the key it was started with, or none)",
        403: f"does not let this key use the model{named}. Check the key's project and "
             "permissions, or choose another model",
        404: f"has no model{named} or no such endpoint. Check the model name (react-course "
             "doctor --ping lists the server's models) and that the base URL ends in /v1"
             + ("; a server without /v1/completions needs the chat setting" if
                endpoint == "completions" else ""),
    }.get(status, f"rejected the request. Check the model name{named} and that the server "
                  f"supports the {endpoint} endpoint with these options")
    return ModelConfigError(f"{url} {advice} ({status}: {said}).", status=status)


def first_choice(response: Any, client: Any) -> Any:
    """The reply's first choice, or a ModelError saying what the server sent instead."""
    choices = getattr(response, "choices", None)
    if not choices or getattr(choices[0], "message", None) is None:
        raise ModelError(f"{getattr(client, 'base_url', 'the server')} answered without a message "
                         f"(got {type(response).__name__}); check that the URL is an OpenAI-compatible "
                         "API ending in /v1.", retryable=True)
    return choices[0]


def check_not_cut_off(finish_reason: Any, client: Any, budget: int) -> None:
    """An empty reply cut by the output budget (a reasoning model thinking) raises; others are the model's."""
    if finish_reason in ("length", "max_output_tokens"):
        raise ModelError(f"the model at {getattr(client, 'base_url', '')} used its whole output budget "
                         f"({budget} tokens) before replying; a reasoning model spends them thinking. "
                         "Raise REACT_COURSE_MAX_TOKENS.", retryable=False)
