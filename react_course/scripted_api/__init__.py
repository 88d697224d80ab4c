"""The scripted models served over HTTP: what lets the real ``openai`` SDK run offline.

Lesson 07 builds the native loop against the real SDK; without a key or a
network, the SDK talks to ``serve()``, which runs a scripted chat model on
127.0.0.1 and speaks the Chat Completions and Responses protocols. Lesson 05's
flaky server and lesson 07's MCP tool server live here too. Nothing in this
package is part of the agent a student writes: it is the world the agent
talks to. The files, in reading order, are listed in ``README.md`` beside this one.
"""

from typing import Any

__all__ = ["MAX_BODY", "openai_client", "scripted_client", "serve", "serve_forever"]


def __getattr__(name: str) -> Any:
    """``serve`` and friends, imported on first use: ``import react_course`` (which loads the
    scripted chat models from here) stays fast, without the HTTP server's modules."""
    if name in ("MAX_BODY", "scripted_client", "serve"):
        from . import server

        return getattr(server, name)
    if name == "openai_client":
        from .in_process import openai_client

        return openai_client
    if name == "serve_forever":
        from .standalone import serve_forever

        return serve_forever
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
