"""The model part of ``react-course doctor``: the setting, and with ``--ping`` one real request.

A ping says what it contacts (the effective base URL) and for how long, and
gives up within ``PING_SECONDS``: first the server's model list (where it has
one: is the model name listed?), then one tiny request. Each failure gets the
advice that fits it: a missing key is not "check the server", and a server
that listed its models but is slow to reply is not "still loading".

A base model (a ``-completions`` setting) is asked to complete a one-line
question, with a reply budget of ``PING_TOKENS`` and a stop at the line's end:
left to the lessons' budget and no stop, it writes on for hundreds of tokens.

What it leaves out: measuring speed or quality; the lessons do that.
"""

from __future__ import annotations

import os

from ..backends.api_errors import redact
from ..backends.providers import (
    DEFAULT_MAX_TOKENS,
    DEFAULT_TIMEOUT,
    ENV_VAR,
    MAX_TOKENS_VAR,
    TIMEOUT_VAR,
    ModelSpec,
    parse_model_spec,
    real_model,
    setting,
)
from ..errors import ContextWindowFull, ModelConfigError, ModelError
from .findings import Finding

LIST_SECONDS, REPLY_SECONDS = 5.0, 20.0
PING_SECONDS = LIST_SECONDS + REPLY_SECONDS
PING_PROMPT = "Reply with the single word: ready"
BASE_PING_PROMPT = "Question: reply with the single word ready.\nAnswer:"  # a base model continues text
PING_TOKENS, BASE_PING_STOPS = 8, ["\n"]


def _spec() -> ModelSpec | ModelConfigError:
    try:
        return parse_model_spec(os.environ.get(ENV_VAR))
    except ModelConfigError as error:
        return error


def _needs_key(spec: ModelSpec) -> bool:
    return spec.kind == "openai" and not os.environ.get("OPENAI_BASE_URL")


def check_model() -> Finding:
    spec = _spec()
    if isinstance(spec, ModelConfigError):
        return Finding("model", "fix", str(spec), f"Fix or unset {ENV_VAR}.")
    if spec.kind == "scripted":
        return Finding("model", "ok", "scripted (offline, free, deterministic)")
    try:  # a bad number here would stop every lesson's first call
        setting(TIMEOUT_VAR, DEFAULT_TIMEOUT)
        setting(MAX_TOKENS_VAR, DEFAULT_MAX_TOKENS, int)
    except ModelConfigError as error:
        return Finding("model", "fix", str(error), "Correct or unset it.")
    has_key = bool(os.environ.get("OPENAI_API_KEY"))
    key = "OPENAI_API_KEY is set (hidden)" if has_key else "OPENAI_API_KEY is not set"
    where = "" if spec.base_url else f"; calls go to {spec.url}"
    detail = f"{spec}{where}; {key}"
    if _needs_key(spec) and not has_key:
        return Finding("model", "fix", detail, "export OPENAI_API_KEY=... in the shell that "
                                               "starts Jupyter (never in a notebook cell).")
    return Finding("model", "ok", detail)


def untested_model() -> str | None:
    """The URL of a configured real model (which only ``--ping`` contacts), else None."""
    spec = _spec()
    return None if isinstance(spec, ModelConfigError) or spec.kind == "scripted" else spec.url


def announce() -> str:
    """The line printed before a ping: what is contacted, and for how long at most."""
    spec = _spec()
    if isinstance(spec, ModelConfigError) or spec.kind == "scripted":
        return ""
    return (f"Contacting {spec.url} (model {spec.name!r}, {spec.endpoint} endpoint) "
            f"for at most {PING_SECONDS:g} s...")


def ping_model() -> list[Finding]:
    """The model list (where the server has one), then one tiny request."""
    spec = _spec()
    if isinstance(spec, ModelConfigError) or spec.kind == "scripted":
        return [Finding("model answers", "skip", "no real model configured, nothing to ping")]
    if _needs_key(spec) and not os.environ.get("OPENAI_API_KEY"):
        return [Finding("model answers", "skip", "not contacted: OPENAI_API_KEY is not set",
                        "Set the key first (see the model line above).")]
    try:
        model = real_model(spec)
    except ModelConfigError as error:
        return [Finding("model answers", "skip", f"not contacted: {error}")]
    model.timeout, model.max_retries = REPLY_SECONDS, 0
    listed = list_models(model)
    return [f for f in (_listed(spec, listed), *_answer(spec, model, listed)) if f]


def list_models(model) -> list[str] | Exception | None:
    """The model names the server lists at /models; None when it answered without such a list;
    the exception when it could not be reached (the reply's finding says so, once)."""
    import openai

    try:
        page = model.client.with_options(timeout=LIST_SECONDS, max_retries=0).models.list()
        return [str(item.id) for item in page.data]
    except (openai.APIConnectionError, ModelConfigError) as error:  # time-outs included
        return error
    except Exception:
        return None


def _listed(spec: ModelSpec, listed: list[str] | Exception | None) -> Finding | None:
    if isinstance(listed, Exception):
        return None  # not reached: the reply's finding says why
    if listed is None:
        return Finding("model name", "skip", f"{spec.url} has no model list to check against")
    if spec.name in listed:
        return Finding("model name", "ok", f"{spec.name!r} is listed by the server")
    return None  # said with the answer: whether the server takes the name anyway matters


def _answer(spec: ModelSpec, model, listed: list[str] | Exception | None) -> list[Finding]:
    name = "model answers"
    answered_list = not isinstance(listed, Exception)
    listed = listed if isinstance(listed, list) else None
    unlisted = listed is not None and spec.name not in listed
    try:
        if spec.endpoint == "completions":
            reply = model(BASE_PING_PROMPT, BASE_PING_STOPS, max_tokens=PING_TOKENS).strip()
        else:
            reply = model(PING_PROMPT, None).strip()
    except ModelError as error:
        return [Finding(name, "fix", redact(error),
                        _advice(error, spec, listed if unlisted else None, answered_list))]
    except Exception as error:  # a bug, not the server: still one line, not a traceback
        return [Finding(name, "fix", redact(f"{type(error).__name__}: {error}"),
                        "Please report this, with the line above.")]
    findings = []
    if unlisted:
        findings.append(Finding(
            "model name", "warn", f"the server answered, but does not list {spec.name!r} (it "
            f"lists {_names(listed)})", "It may serve one model whatever the name (llama.cpp "
            f"does); other servers refuse. Use a listed name in {ENV_VAR}."))
    if not reply:
        findings.append(Finding(name, "warn", "the model replied with nothing",
                                "A base model may need the completions mode (add -completions "
                                "to the kind); a reasoning model a larger REACT_COURSE_MAX_TOKENS."))
    else:
        findings.append(Finding(name, "ok", redact(f"replied {reply[:40]!r}")))
    return findings


def _advice(error: ModelError, spec: ModelSpec, listed: list[str] | None,
            answered_list: bool = False) -> str:
    cause = getattr(error, "cause", "other")
    if listed is not None:
        return f"The server lists {_names(listed)}: set {ENV_VAR} to one of them."
    if isinstance(error, ContextWindowFull):
        return "Even a tiny prompt does not fit: give the server a larger context size."
    if error.status in (401, 403):
        return "Check OPENAI_API_KEY in the shell that starts Jupyter (never in a notebook cell)."
    if error.status == 404:
        return f"Check the model name and that the base URL ({spec.url}) ends in /v1."
    if cause == "timeout" and answered_list:
        return (f"The server is up (it answered at /models) but wrote no reply within "
                f"{REPLY_SECONDS:g} s: a large model on a slow machine, or a server busy with "
                f"another request. The lessons wait {TIMEOUT_VAR} seconds per call: raise it.")
    if cause == "timeout":
        return (f"Nothing came back within {REPLY_SECONDS:g} s: is the server running, and still "
                "loading the model? The lessons wait REACT_COURSE_TIMEOUT seconds per call.")
    if cause == "connection":
        return f"Start the model server, or correct the address {spec.url} (host, port, /v1)."
    if cause == "protocol":
        return f"{spec.url} is not an OpenAI-compatible API: check the base URL."
    return "Fix what the message says, then run react-course doctor --ping again."


def _names(listed: list[str], limit: int = 5) -> str:
    shown = ", ".join(repr(n) for n in listed[:limit])
    return (shown + f" and {len(listed) - limit} more") if len(listed) > limit else shown or "none"
