"""``react-course serve-model``: the scripted server standalone, for a workshop or any client.

The same server ``serve()`` runs inside a notebook, bound to a port of your
choice (``--port 0``: any free one) until Ctrl-C. It starts with a banner that
says what a room needs: the address, which questions and tools the scripted
model answers, and the setting that points each kind of lesson at it. A port
already taken is a one-line message that says what to do, not a traceback.

What it leaves out: keys (any placeholder is accepted), HTTPS, and serving
other machines unless ``--host 0.0.0.0`` is asked for.
"""

from __future__ import annotations

import errno
from typing import Any

from .server import ScriptedServer


class PortTaken(Exception):
    """The port is in use: the message says which, and how to choose another."""


def open_server(host: str, port: int, model: Any = None) -> ScriptedServer:
    """The server bound to ``host:port``, or ``PortTaken`` with a message a person can act on."""
    try:
        return ScriptedServer(model, host, port)
    except OSError as error:
        if error.errno not in (errno.EADDRINUSE, errno.EACCES, getattr(errno, "WSAEADDRINUSE", -1)):
            raise
        why = "is already in use" if error.errno != errno.EACCES else "needs more permissions"
        raise PortTaken(f"port {port} on {host} {why} (perhaps another serve-model or a model "
                        f"server). Choose another with --port, e.g. --port {port + 1}, or --port 0 for "
                        "any free port.") from None


def banner(server: ScriptedServer) -> str:
    """What to tell the room: the address, what the scripted model answers, and each lesson's setting."""
    from ..lessons.demo import WORKED_EXAMPLES
    from ..tools import default_tools
    from .demo import DATE_QUESTION

    url, name = server.base_url, server.model_name
    questions = "\n".join(f"    {q}" for q in (*WORKED_EXAMPLES, DATE_QUESTION))
    tools = ", ".join(default_tools().names)
    return f"""\
Serving the scripted model {name!r} at {url}
  Chat Completions, Responses and /v1/completions; any API key works (send any placeholder).

It answers these questions (anything else gets a reply saying it has no plan):
{questions}
with these tools, declared by the client under these names: {tools}
(final_answer or final_result too, where a framework offers one).

Point each kind of lesson at it:
  text lessons (02-06, 08):  REACT_COURSE_MODEL=openai-compatible:{url}:{name}
                  or, as a base model:  REACT_COURSE_MODEL=openai-compatible-completions:{url}:{name}
  native lesson (07):        REACT_COURSE_MODEL=openai-compatible:{url}:{name}
  any OpenAI client:         OpenAI(base_url="{url}", api_key="any")
                  or:        OPENAI_BASE_URL={url} OPENAI_API_KEY=any"""


def serve_forever(host: str = "127.0.0.1", port: int = 8000, model: Any = None) -> None:
    """Serve until interrupted (Ctrl-C), after printing the banner. Raises ``PortTaken``."""
    server = open_server(host, port, model)
    print(banner(server) if model is None else f"Serving {server.model_name!r} at {server.base_url}")
    if host in ("0.0.0.0", "::", ""):
        print("Other machines reach it at this machine's address instead of the one above.")
    print("Stop with Ctrl-C.", flush=True)
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        server.close_connections()
        server.server_close()
