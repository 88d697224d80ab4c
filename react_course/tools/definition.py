"""A tool's definition: a plain typed function whose docstring is its description.

Registration checks both the docstring and the type hints, because the
docstring *is* the description the model reads (the highest-leverage text in
the prompt) and the hints say how to convert the model's input. A missing one
is an error at registration, not a silent default that shows up later as a
confused model.

A definition also says what the program must know before running a tool:
whether it has side effects (``@side_effect``: lesson 06 gates those behind
approval) and whether an identical second call may give a different result
(``@repeatable``: such a call is not refused as a repeat). For native tool
calling it gives the JSON schema of its arguments and validates them, with
pydantic.

What it leaves out: running a tool (``execute.py``) and the table of tools
(``registry.py``).
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar, get_args, get_type_hints

from ..errors import ToolDefinitionError

_CONVERTIBLE = (str, int, float, bool)
_KEYWORD_INPUT = re.compile(r"""^\s*(?P<name>\w+)\s*=\s*(?P<q>["'])(?P<value>.*)(?P=q)\s*$""", re.DOTALL)
F = TypeVar("F", bound=Callable[..., Any])


def side_effect(function: F) -> F:
    """Mark a tool as changing the world (a refund, an email): it needs approval to run."""
    function.side_effects = True  # type: ignore[attr-defined]
    return function


def repeatable(function: F) -> F:
    """Mark a tool whose result depends on state, so an identical call is not a repeat."""
    function.repeatable = True  # type: ignore[attr-defined]
    return function


@dataclass(frozen=True)
class Tool:
    """A function the model may call, with what the prompt says about it."""

    name: str
    function: Callable[..., Any]
    description: str
    parameters: dict[str, type]
    positional: bool = False  # pass arguments by position (builtins, positional-only, *args)
    repeatable: bool = False  # its result depends on state, so an identical call is not a repeat
    side_effects: bool = False  # it changes the world (a refund, an email): lesson 06 gates it

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
        side_effects = bool(getattr(function, "side_effects", False))
        return cls(name, function, description, parameters, positional, repeatable, side_effects)

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

    def validate(self, arguments: Any) -> dict[str, Any]:
        """Check a native call's JSON arguments against the parameters, or raise ValueError.

        >>> def price(item: str, count: int = 1) -> str:
        ...     "Price of an item. Example input: pen"
        ...     return item
        >>> Tool.from_function(price).validate({"item": "pen", "count": "3"})
        {'item': 'pen', 'count': 3}
        """
        from pydantic import ValidationError  # imported here: only native calls need it

        if not isinstance(arguments, dict):
            raise ValueError(f"arguments must be a JSON object, got {type(arguments).__name__}.")
        try:
            checked = self._arguments_model().model_validate(arguments)
        except ValidationError as error:
            problems = [f"{'.'.join(map(str, e['loc'])) or 'arguments'}: {e['msg']}" for e in error.errors()]
            raise ValueError("; ".join(problems) + ".") from None
        return {name: getattr(checked, name) for name in self.parameters if name in arguments}

    def parameters_schema(self) -> dict[str, Any]:
        """The JSON schema of the arguments, generated from the type hints."""
        schema = self._arguments_model().model_json_schema()
        schema.pop("title", None)
        for prop in schema.get("properties", {}).values():
            prop.pop("title", None)
        return schema

    def json_schema(self) -> dict[str, Any]:
        """The tool as the Chat Completions API declares it."""
        return {"type": "function", "function": {
            "name": self.name, "description": self.description, "parameters": self.parameters_schema()}}

    def _arguments_model(self) -> Any:
        from pydantic import ConfigDict, create_model

        fields = {p: (kind, ... if self._required(p) else self._default(p))
                  for p, kind in self.parameters.items()}
        strict = ConfigDict(extra="forbid", arbitrary_types_allowed=True)
        return create_model(f"{self.name}_arguments", __config__=strict, **fields)

    def _default(self, pname: str) -> Any:
        return inspect.signature(self.function).parameters[pname].default

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
