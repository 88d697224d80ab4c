"""The table of tools a model may call, looked up by exact name.

A tool is run by exact name only: we never run the "closest" tool, which
would hide the model's mistake and may run the wrong thing. The registry
holds definitions (``definition.py``) and writes the prompt's tool list; it
does not run anything itself: every call goes through ``execute.py``, the one
door where binding, time limits, repeats and approval are applied.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import ToolDefinitionError
from .definition import Tool


class ToolRegistry:
    """The table of tools the model may call, looked up by exact name.

    >>> def double(n: int) -> str:
    ...     '''Double a whole number. Example input: 21'''
    ...     return str(2 * n)
    >>> tools = ToolRegistry([double])
    >>> tools.run("double", "21")
    '42'
    >>> tools.run("triple", "21")
    "Unknown tool 'triple'. Available tools: double."
    """

    def __init__(
        self,
        tools: Iterable[Callable[..., Any] | Tool] | Mapping[str, Callable] = (),
        *,
        strict: bool = True,
    ):
        self._tools: dict[str, Tool] = {}
        self.strict = strict
        items = tools.items() if isinstance(tools, Mapping) else ((None, t) for t in tools)
        for name, tool in items:
            self.register(tool, name=name)

    def register(self, function: Callable[..., Any] | Tool, name: str | None = None) -> Tool:
        if isinstance(function, Tool):
            tool = function
        else:
            tool = Tool.from_function(function, name, strict=self.strict)
        if tool.name in self._tools:
            raise ToolDefinitionError(f"a tool named {tool.name!r} is already registered.")
        self._tools[tool.name] = tool
        return tool

    @property
    def names(self) -> list[str]:
        return list(self._tools)

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    def __getitem__(self, name: str) -> Tool:
        return self._tools[name]

    def __iter__(self):
        return iter(self._tools.values())

    def __len__(self) -> int:
        return len(self._tools)

    def describe(self) -> str:
        """The prompt's tool list: one line per tool, generated from the docstrings."""
        return "\n".join(f"- {t.signature}: {t.description}" for t in self)

    def unknown_tool_message(self, name: str) -> str:
        same_but_case = [n for n in self._tools if n.lower() == str(name).lower()]
        tip = f" Tool names are case-sensitive: did you mean {same_but_case[0]!r}?" if same_but_case else ""
        return f"Unknown tool {name!r}.{tip} Available tools: {', '.join(self._tools)}."

    def schemas(self) -> list[dict[str, Any]]:
        """Every tool as the Chat Completions API declares it (lesson 07)."""
        return [tool.json_schema() for tool in self]

    def run(self, name: str, text: str, *, timeout: float | None = None) -> str:
        """Run a tool on the model's text input; every failure becomes an observation."""
        return self.call(name, text, timeout=timeout).text

    def call(self, name: str, text: str, *, timeout: float | None = None) -> ToolOutcome:
        """Like ``run``, and also says which kind of failure happened, for logs and guards.

        A single call outside any run, through the same door as the loop's calls.
        """
        from ..execute import execute
        from ..record import ToolCall

        observation = execute(ToolCall("call_1", name, text), self, timeout=timeout, max_chars=None)
        return ToolOutcome(observation.text, observation.error)


@dataclass(frozen=True)
class ToolOutcome:
    """What a tool call produced: the observation text, and the kind of failure if any."""

    text: str
    error: str | None = None  # unknown_tool, bad_input, tool_error, tool_timeout, empty_result


def as_registry(tools: ToolRegistry | Mapping[str, Callable] | Iterable[Callable]) -> ToolRegistry:
    """Accept a registry as is; a ``{name: function}`` dict or a list, leniently.

    The quick forms are for experiments and other people's tests, where a
    lambda is normal; build a ``ToolRegistry`` to have every tool checked.
    """
    return tools if isinstance(tools, ToolRegistry) else ToolRegistry(tools, strict=False)
