"""The ``openai`` client a native lesson talks to, from the course's model setting.

Provider plumbing, not the agent: ``run_native`` takes any client. ``native_client``
builds one from ``REACT_COURSE_MODEL`` (scripted, a real API, a local server);
``lesson_client`` does the same for a lesson but falls back to the scripted model,
saying why in one line, where the setting cannot serve native tool calls or the
server does not answer, so that a lesson never stops at its first call.
"""

from __future__ import annotations

import os
import warnings
from typing import Any

from ..errors import ModelConfigError
from ..web import browser

__all__ = ["lesson_client", "native_client"]


def native_client(setting: str | None = None, *, base_url: str | None = None,
                  timeout: float | None = None, max_retries: int = 0) -> tuple[Any, str]:
    """An ``openai.OpenAI`` client and a model name, from the course's model setting.

    ``setting`` defaults to ``REACT_COURSE_MODEL``. "scripted" needs ``base_url``,
    the address ``scripted_api.serve()`` yields; a real setting ignores it and
    follows ``providers``: the key from ``OPENAI_API_KEY``, Ollama's local URL,
    ``REACT_COURSE_TIMEOUT`` seconds per call. The SDK's own retries are off by
    default: a failed call is a step the run's budget counts and retries.
    """
    import openai  # imported here: slow to import, and only native lessons need it

    from .providers import DEFAULT_TIMEOUT, ENV_VAR, TIMEOUT_VAR, effective_url, parse_model_spec
    from .providers import setting as number_setting

    spec = parse_model_spec(setting if setting is not None else os.environ.get(ENV_VAR))
    timeout = timeout or number_setting(TIMEOUT_VAR, DEFAULT_TIMEOUT)
    if spec.kind == "scripted":
        if base_url is None:
            raise ModelConfigError("the scripted model needs the address scripted_api.serve() yields "
                                   "(native_client(base_url=url)).")
        from ..scripted_api.in_process import openai_client  # the browser's serve() gives an in-process URL

        return openai_client(base_url, api_key="scripted", timeout=timeout,
                             max_retries=max_retries), "scripted"
    if spec.endpoint != "chat":
        raise ModelConfigError(f"{spec} is a completions endpoint (a base model); native tool calls need "
                               "a chat model: drop -completions from the setting.")
    key = "ollama" if spec.kind == "ollama" else os.environ.get("OPENAI_API_KEY")
    if not key and spec.base_url is None and not os.environ.get("OPENAI_BASE_URL"):
        raise ModelConfigError("OPENAI_API_KEY is not set. Set it in your shell (never in a notebook "
                               "cell), or use REACT_COURSE_MODEL=scripted.")
    with warnings.catch_warnings():  # in Pyodide httpx2 says it ignores the SDK's connection limits
        warnings.filterwarnings("ignore", "The following transport option", UserWarning)
        client = openai.OpenAI(api_key=key or "not-needed", base_url=effective_url(spec.base_url),
                               timeout=timeout, max_retries=max_retries)
    return client, spec.name


def lesson_client(scripted_url: str, setting: str | None = None) -> tuple[Any, str, str]:
    """A client, its model name, and a line saying which model a lesson talks to, and why.

    ``native_client`` for the setting (``REACT_COURSE_MODEL``); but a setting
    native tool calls cannot use (a ``-completions`` one: a base model) or a
    server that refuses connections would stop the lesson at its first raw
    call with a traceback. The lesson then runs on the scripted model served
    at ``scripted_url``, and the line says so in words. In the browser that
    address is in-process (``scripted_api.in_process``), and a real server must
    also let the page call it (CORS); the line says that too.
    """
    from ..scripted_api.in_process import is_in_process

    try:
        client, model = native_client(setting, base_url=scripted_url)
    except ModelConfigError as error:
        return (*native_client("scripted", base_url=scripted_url),
                f"scripted, because {error} (this lesson runs on the scripted chat model instead)")
    if model == "scripted":
        where = "in-process: the browser edition has no local server" if is_in_process(scripted_url) \
            else "served on 127.0.0.1"
        return client, model, f"scripted ({where})"
    problem = _unreachable(client, model)
    if problem:
        fix = ("in a browser tab the server must also allow this page's origin (CORS); "
               if browser.IN_BROWSER else "")
        return (*native_client("scripted", base_url=scripted_url),
                f"scripted, because {problem} (this lesson runs on the scripted chat model instead; "
                f"{fix}start your server and run the lesson again from the top)")
    return client, model, f"{model} at {client.base_url} (real)"


def _unreachable(client: Any, model: str) -> str:
    """Why the server cannot be reached, in words; "" when something answers (even a 404)."""
    import openai

    from .api_errors import explain

    try:
        client.with_options(timeout=5.0, max_retries=0).models.list()
    except openai.APITimeoutError:
        return ""  # something is listening, only slowly: the lesson's own calls have time-outs
    except openai.APIConnectionError as error:
        return str(explain(error, str(client.base_url).rstrip("/"), model=model))
    except Exception as error:
        if browser.IN_BROWSER and not isinstance(error, openai.APIError):  # the tab's fetch itself failed
            return f"this tab could not send a request to {client.base_url} ({type(error).__name__}: {error})"
        return ""  # it answered, if not with a model list
    return ""
