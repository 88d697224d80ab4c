"""Tools: plain typed functions whose docstrings are their descriptions.

A tool is an ordinary function with type hints and a docstring. Registration
checks both, because the docstring *is* the description the model reads (the
highest-leverage text in the prompt) and the hints say how to convert the
model's text input. A missing one is an error at registration, not a silent
default that shows up later as a confused model.

``ToolRegistry.run`` turns every way a tool call can go wrong into an
observation the model can act on, and never raises for them:

- an unknown tool name: the observation lists the real ones (we never run the
  "closest" tool: that hides the mistake and may run the wrong thing);
- an input that does not fit the parameters: says what was expected;
- an exception inside the tool: its type and message, and what to change;
- a tool that runs past its time limit;
- a tool that returns nothing: said in words, because a model fills a blank
  with whatever it expected to see.

What it leaves out: JSON schemas for native tool calling (lesson 07) and
approval of side-effecting tools (lesson 06).
"""

from __future__ import annotations

import inspect
import json
import re
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, get_args, get_type_hints

from ..errors import ToolDefinitionError

_CONVERTIBLE = (str, int, float, bool)
_KEYWORD_INPUT = re.compile(r"""^\s*(?P<name>\w+)\s*=\s*(?P<q>["'])(?P<value>.*)(?P=q)\s*$""", re.DOTALL)


@dataclass(frozen=True)
class Tool:
    """A function the model may call, with what the prompt says about it."""

    name: str
    function: Callable[..., Any]
    description: str
    parameters: dict[str, type]
    positional: bool = False  # pass arguments by position (builtins, positional-only, *args)
    repeatable: bool = False  # its result depends on state, so an identical call is not a repeat

    @classmethod
    def from_function(
        cls, function: Callable[..., Any], name: str | None = None, *, strict: bool = True
    ) -> Tool:
        """Describe ``function`` as a tool.

        ``strict=False`` accepts a bare function or lambda (for the quick
        ``{name: function}`` dict form): no docstring becomes a placeholder
        description and an unhinted parameter receives the model's text as is.
        """
        name = name or getattr(function, "__name__", "")
        if not name.isidentifier():
            raise ToolDefinitionError(f"a tool name must be an identifier, got {name!r}.")
        if not callable(function):
            raise ToolDefinitionError(f"tool {name!r} is {type(function).__name__}, not a function.")
        doc = inspect.getdoc(function) if getattr(function, "__doc__", None) else None
        if not doc and strict:
            raise ToolDefinitionError(
                f"tool {name!r} has no docstring; the docstring is the description the "
                "model reads, so say what the tool is for, what it returns and an example input."
            )
        parameters, positional = _parameters(function, name, strict)
        description = _describe(doc) if doc else "(no description given)"
        repeatable = bool(getattr(function, "repeatable", False))
        return cls(name, function, description, parameters, positional, repeatable)

    @property
    def signature(self) -> str:
        """``search(query: str)``: the name and typed parameters, for the tool list."""
        params = ", ".join(f"{p}: {getattr(t, '__name__', t)}" for p, t in self.parameters.items())
        return f"{self.name}({params})"

    def bind(self, text: str) -> dict[str, Any]:
        """Turn the model's text input into keyword arguments, or raise ValueError."""
        names = list(self.parameters)
        if not names:
            return {}
        data = _json_object(text)
        if data is not None and len(names) == 1 and len(data) == 1:
            # Models often wrap a lone input as {"query": ...}, whatever the name.
            return {names[0]: _convert(next(iter(data.values())), self.parameters[names[0]], names[0])}
        keyword = _KEYWORD_INPUT.match(text)
        if keyword and len(names) == 1 and keyword["name"] == names[0]:
            text = keyword["value"]  # search(query="Eiffel Tower")
        if data is not None and len(names) > 1:
            missing = [n for n in names if n not in data and self._required(n)]
            unknown = sorted(set(data) - set(names))
            if missing or unknown:
                raise ValueError(f"expected the keys {names}, got {sorted(data)}.")
            return {k: _convert(v, self.parameters[k], k) for k, v in data.items()}
        if len(names) > 1:
            example = json.dumps(dict.fromkeys(names, "..."))
            raise ValueError(f"this tool takes {len(names)} inputs; give them as JSON: {example}")
        return {names[0]: _convert(text, self.parameters[names[0]], names[0])}

    def _required(self, pname: str) -> bool:
        if self.positional:
            return True
        param = inspect.signature(self.function).parameters[pname]
        return param.default is param.empty

    def call(self, kwargs: dict[str, Any]) -> Any:
        if self.positional:
            return self.function(*(kwargs[p] for p in self.parameters if p in kwargs))
        return self.function(**kwargs)


def _parameters(function: Callable[..., Any], name: str, strict: bool) -> tuple[dict[str, type], bool]:
    """The typed parameters, and whether to pass them by position."""
    try:
        hints = get_type_hints(function)
        params = inspect.signature(function).parameters
    except (TypeError, ValueError, NameError) as error:
        if strict:
            raise ToolDefinitionError(f"tool {name!r}: cannot read its signature ({error}).") from None
        hints, params = {}, None
    parameters: dict[str, type] = {}
    positional = params is None  # unreadable (a builtin): pass the text positionally
    for pname, param in (params or {}).items():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            if strict:
                raise ToolDefinitionError(f"tool {name!r}: *args and **kwargs cannot be described.")
            positional = positional or param.kind == param.VAR_POSITIONAL
            continue
        positional = positional or param.kind == param.POSITIONAL_ONLY
        if pname not in hints and strict:
            raise ToolDefinitionError(
                f"tool {name!r}: parameter {pname!r} has no type hint; "
                "hints say how to convert the model's text input."
            )
        parameters[pname] = _optional_of(hints.get(pname, str))
    if positional and not parameters:
        parameters = {"input": str}
    return parameters, positional


def _optional_of(kind: Any) -> Any:
    """``int | None`` converts like ``int``: the model's text is never None.

    >>> _optional_of(int | None), _optional_of(str)
    (<class 'int'>, <class 'str'>)
    """
    args = [a for a in get_args(kind) if a is not type(None)]
    return args[0] if len(args) == 1 and type(None) in get_args(kind) else kind


def _describe(doc: str) -> str:
    """Collapse a docstring's leading prose into one line for the tool list (doctests dropped)."""
    kept = []
    for line in doc.splitlines():
        if line.strip().startswith(">>>"):
            break
        kept.append(line.strip())
    return " ".join(" ".join(kept).split())


def _json_object(text: str) -> dict[str, Any] | None:
    stripped = text.strip()
    if not (stripped.startswith("{") and stripped.endswith("}")):
        return None
    try:
        data = json.loads(stripped)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _convert(value: Any, kind: type, pname: str) -> Any:
    """Convert text to the hinted type, with a message the model can act on."""
    if kind not in _CONVERTIBLE or (isinstance(value, kind) and not isinstance(value, bool)):
        return value
    text = str(value).strip()
    try:
        if kind is bool:
            if text.lower() not in ("true", "false", "yes", "no"):
                raise ValueError
            return text.lower() in ("true", "yes")
        return kind(text) if kind is not int else int(text.lstrip("#"))
    except ValueError:
        raise ValueError(f"{pname} must be {kind.__name__}, got {text[:60]!r}.") from None


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

    def run(self, name: str, text: str, *, timeout: float | None = None) -> str:
        """Run a tool on the model's text input; every failure becomes an observation."""
        return self.call(name, text, timeout=timeout).text

    def call(self, name: str, text: str, *, timeout: float | None = None) -> ToolOutcome:
        """Like ``run``, and also says which kind of failure happened, for logs and guards."""
        if name not in self._tools:
            return ToolOutcome(self.unknown_tool_message(name), "unknown_tool")
        tool = self._tools[name]
        try:
            kwargs = tool.bind(text)
        except ValueError as error:
            return ToolOutcome(f"Bad input for {tool.signature}: {error} {tool.description}",
                               "bad_input")
        try:
            result = _call_with_timeout(tool.call, kwargs, timeout)
        except _Abandoned:
            return ToolOutcome(f"{name} did not finish within {timeout:g} s; the program stopped "
                               "waiting (the call may still complete in the background). "
                               "Try a simpler input or another tool.", "tool_timeout")
        except Exception as error:
            return ToolOutcome(f"{name} failed with {type(error).__name__}: {error}. "
                               "Check the input against the tool description and try again.",
                               "tool_error")
        if _is_empty(result):
            return ToolOutcome(f"{name} returned no result for {text!r}.", "empty_result")
        return ToolOutcome(result if isinstance(result, str) else str(result))


@dataclass(frozen=True)
class ToolOutcome:
    """What a tool call produced: the observation text, and the kind of failure if any."""

    text: str
    error: str | None = None  # unknown_tool, bad_input, tool_error, tool_timeout, empty_result


def _is_empty(result: Any) -> bool:
    """None, a blank string or an empty container: nothing a model can read.

    >>> [_is_empty(x) for x in (None, "  ", {}, [], 0, "0")]
    [True, True, True, True, False, False]
    """
    if isinstance(result, str):
        return not result.strip()
    return result is None or (isinstance(result, dict | list | tuple | set) and not result)


class _Abandoned(Exception):
    """Our own signal that a tool ran past its limit (a tool's own TimeoutError is a tool error)."""


def _call_with_timeout(call: Callable[[dict], Any], kwargs: dict, timeout: float | None) -> Any:
    """Run in a daemon thread when a time limit is set.

    Python cannot kill a thread, so a tool past its limit is abandoned, not
    stopped: it keeps running in the background while the loop goes on.
    """
    if timeout is None:
        return call(kwargs)
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["result"] = call(kwargs)
        except BaseException as error:  # handed back to the caller below
            box["error"] = error

    worker = threading.Thread(target=target, daemon=True)
    worker.start()
    worker.join(timeout)
    if worker.is_alive():
        raise _Abandoned
    if "error" in box:
        raise box["error"]
    return box.get("result")


def as_registry(tools: ToolRegistry | Mapping[str, Callable] | Iterable[Callable]) -> ToolRegistry:
    """Accept a registry as is; a ``{name: function}`` dict or a list, leniently.

    The quick forms are for experiments and other people's tests, where a
    lambda is normal; build a ``ToolRegistry`` to have every tool checked.
    """
    return tools if isinstance(tools, ToolRegistry) else ToolRegistry(tools, strict=False)
