"""Which OpenAI protocol a native run speaks, when a model requires one.

``run_native`` speaks Chat Completions unless told otherwise: every
OpenAI-compatible server has it, and most local servers have nothing else.
Some models refuse it for what an agent needs: GPT-5.6 answers a Chat
Completions request that carries function tools with reasoning on with an
error that says to "use /v1/responses" (OpenAI's API error text, read
1 December 2026). For those models the run picks the
Responses protocol by itself; a ``protocol=`` passed to ``run_native`` always
wins, so a local server that names a model the same way can still be told
"chat".

What it leaves out: asking the server which protocols it has (a failed call
says so, in ``api_errors``), and models whose requirement nobody has read.
"""

from __future__ import annotations

# model-name prefixes -> (protocol, why): one line per model family that requires one
REQUIRED = {
    "gpt-5.6": ("responses", "GPT-5.6 refuses function tools with reasoning on in Chat Completions "
                             "(\"use /v1/responses\"; read 1 December 2026)"),
}
DEFAULT = "chat"


def protocol_for(model: str, requested: str | None = None) -> str:
    """The protocol to speak to ``model``: ``requested`` if given, else what the model requires.

    A provider prefix (``openai:``) is ignored; a dated snapshot keeps its family's rule.

    >>> protocol_for("gpt-5.6"), protocol_for("openai:gpt-5.6-2026-11-20"), protocol_for("gpt-4o")
    ('responses', 'responses', 'chat')
    >>> protocol_for("gpt-5.6", "chat")
    'chat'
    """
    return requested or _requirement(model)[0]


def why_protocol(model: str) -> str:
    """A sentence on why ``model`` gets the protocol ``protocol_for`` picks.

    >>> why_protocol("llama3")
    'llama3: chat, the default (every OpenAI-compatible server speaks Chat Completions)'
    """
    protocol, why = _requirement(model)
    return f"{model}: {protocol}, {why}"


def _requirement(model: str) -> tuple[str, str]:
    name = model.split(":", 1)[1] if model.startswith("openai:") else model
    for prefix, (protocol, why) in REQUIRED.items():
        if name == prefix or name.startswith(prefix + "-"):
            return protocol, f"because {why}"
    return DEFAULT, "the default (every OpenAI-compatible server speaks Chat Completions)"
