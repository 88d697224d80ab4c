"""Tool declarations for native calls: JSON schemas generated from typed functions.

``declare(tool)`` turns a registry's tool into what the API wants: the name,
the description (the docstring's prose), and the JSON schema of the
arguments, which pydantic generates from the type hints (``Tool.json_schema``).
Two additions help a model more than a longer system prompt: a description
for each parameter (``name: text`` lines in the docstring) and an example (a
one-parameter tool's ``Example input:`` line). ``strict`` asks the server to
keep to the schema exactly, which needs every key required and no others, so
an optional parameter becomes "this type or null" (and a null means its
default when the call is read).

What it leaves out: nested models and free-form objects in strict mode (such
a tool is declared without ``strict``), and other vendors' declaration shapes.
"""

from __future__ import annotations

import json
import re
from typing import Any


def parse_arguments(raw: Any) -> Any:
    """A call's arguments: the JSON object, or the raw text when it is not one.

    >>> parse_arguments('{"item": "pen"}'), parse_arguments('{"item": "pen"'), parse_arguments("")
    ({'item': 'pen'}, '{"item": "pen"', {})
    """
    if isinstance(raw, dict):
        return raw
    if raw is None or not str(raw).strip():
        return {}  # a tool without parameters: some servers send "" for "{}"
    try:
        value = json.loads(raw)
    except ValueError:
        return str(raw)
    return value if isinstance(value, dict) else str(raw)


def declare(tool: Any, protocol: str = "chat", strict: bool = True) -> dict[str, Any]:
    """The tool as the protocol declares it, its schema generated from the function.

    Each parameter's description comes from the docstring (``name: text`` lines), and
    a one-parameter tool's ``Example input:`` becomes that parameter's example.
    ``strict`` makes the server keep to the schema exactly (all keys required,
    no others; an optional parameter may be null).
    """
    schema = describe_parameters(tool)
    description = _prose(tool.description, schema)
    strict = strict and _strictable(schema)
    if strict:
        schema = _strict(schema)
    body = {"name": tool.name, "description": description, "parameters": schema}
    if strict:
        body["strict"] = True
    if protocol == "responses":
        return {"type": "function", **body}
    return {"type": "function", "function": body}


def describe_parameters(tool: Any) -> dict[str, Any]:
    """The arguments' JSON schema (pydantic, via the tool), with descriptions and an example."""
    schema = json.loads(json.dumps(tool.json_schema()["function"]["parameters"]))  # a private copy
    properties = schema.setdefault("properties", {})
    notes = docstring_notes(getattr(tool.function, "__doc__", None) or "", list(properties))
    for name, note in notes.items():
        properties[name]["description"] = note
    schema.setdefault("type", "object")
    return schema


def docstring_notes(doc: str, names: list[str]) -> dict[str, str]:
    """Per-parameter notes from a docstring: ``name: text`` lines and a lone ``Example input:``.

    >>> docstring_notes("Price of an item. Example input: pen", ["item"])
    {'item': 'Example: pen'}
    >>> docstring_notes("Convert.\\n    amount: how many rupees\\n    code: e.g. EUR", ["amount", "code"])
    {'amount': 'how many rupees', 'code': 'e.g. EUR'}
    """
    notes = {}
    for name in names:
        found = re.search(rf"^\s*{re.escape(name)}\s*(\([^)]*\))?\s*:\s*(.+)$", doc, re.MULTILINE)
        if found:
            notes[name] = found[2].strip()
    example = re.search(r"Example input:\s*(.+?)\s*$", doc, re.MULTILINE)
    if example and len(names) == 1:
        notes[names[0]] = " ".join(filter(None, [notes.get(names[0]), f"Example: {example[1]}"]))
    return notes


def _prose(description: str, schema: dict[str, Any]) -> str:
    """The description without the ``name: text`` lines that now describe the parameters.

    >>> _prose("Convert rupees. amount: how many", {"properties": {"amount": {"description": "how many"}}})
    'Convert rupees.'
    """
    for name, prop in schema.get("properties", {}).items():
        note = prop.get("description", "")
        if note and not note.startswith("Example:"):
            description = description.replace(f"{name}: {note}", "")
    return " ".join(description.split())


def _strictable(schema: dict[str, Any]) -> bool:
    """Strict mode needs a closed object with named properties (no free-form dicts)."""
    return "$defs" not in schema and schema.get("additionalProperties") in (None, False)


def _strict(schema: dict[str, Any]) -> dict[str, Any]:
    """Every key required, no others; an optional parameter may be null instead.

    >>> _strict({"type": "object", "properties": {"n": {"type": "integer", "default": 1}}})["properties"]
    {'n': {'anyOf': [{'type': 'integer'}, {'type': 'null'}], 'description': 'Optional (default 1).'}}
    """
    required = set(schema.get("required", []))
    properties = {}
    for name, prop in schema.get("properties", {}).items():
        prop = dict(prop)
        if name not in required:
            default = prop.pop("default", None)
            said = prop.pop("description", "")
            said += "." if said and not said.endswith((".", "!", "?")) else ""
            note = " ".join(filter(None, [said, f"Optional (default {default})."]))
            nullable = prop.get("anyOf") or [prop]
            if {"type": "null"} not in nullable:
                nullable = [*nullable, {"type": "null"}]
            prop = {"anyOf": nullable, "description": note}
        properties[name] = prop
    return {**schema, "properties": properties, "required": list(properties),
            "additionalProperties": False}
