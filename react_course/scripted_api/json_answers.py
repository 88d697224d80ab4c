"""A scripted answer in the shape of the request's JSON schema (structured outputs).

A real model asked for ``response_format`` (Chat Completions) or ``text.format``
(Responses) writes JSON that fits the schema. A scripted turn is prose, so the
server builds the JSON from it: each string field gets the answer's text, each
number the first number in it, each enum the first value the text names.
``$ref``, ``anyOf`` and nullable types are followed far enough to pick a shape.

What it leaves out: validating against the schema (``pattern``, ``minimum``,
``required`` are not checked), and any cleverness in reading the prose: the
demo model passes a calculation's result through ``numbers``.
"""

from __future__ import annotations

import json
import re
from typing import Any


def as_json(text: str, schema: dict) -> str:
    """The answer as JSON: kept if it already parses to an object, else built to the schema.

    >>> as_json("About 1830000 people.", {"type": "object", "properties": {
    ...     "answer": {"type": "string"}, "number": {"type": "number"}}})
    '{"answer": "About 1830000 people.", "number": 1830000}'
    """
    try:
        if isinstance(json.loads(text), dict):
            return text
    except ValueError:
        pass
    value = fill(schema or {"type": "object", "properties": {"answer": {"type": "string"}}}, text)
    return json.dumps(value, ensure_ascii=False)


def fill(schema: dict, text: str, defs: dict | None = None, *, numbers: str | None = None) -> Any:
    """A value of ``schema``'s shape made from the answer ``text``: the first number for numbers,
    taken from ``numbers`` instead when given (a calculation's result, say).

    >>> fill({"$defs": {"M": {"type": "integer"}}, "properties": {"m": {"$ref": "#/$defs/M"},
    ...       "note": {"anyOf": [{"type": "string"}, {"type": "null"}]}}}, "About 12 m")
    {'m': 12, 'note': 'About 12 m'}
    >>> fill({"properties": {"m": {"type": "number"}}}, "330 m and 93 m", numbers="237")
    {'m': 237}
    """
    defs = {**(defs or {}), **(schema.get("$defs") or {}), **(schema.get("definitions") or {})}
    if isinstance(schema.get("$ref"), str):  # each definition is opened once: recursion ends
        name = schema["$ref"].rsplit("/", 1)[-1]
        schema, defs = defs.get(name, {}), {k: v for k, v in defs.items() if k != name}
    options = schema.get("anyOf") or schema.get("oneOf")
    if isinstance(options, list) and options:
        schema = next((o for o in options if isinstance(o, dict) and o.get("type") != "null"), {})
    kind = schema.get("type")
    kind = next((k for k in kind if k != "null"), "string") if isinstance(kind, list) else kind
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return next((v for v in schema["enum"] if str(v).lower() in text.lower()), schema["enum"][0])
    if kind == "object" or "properties" in schema:
        properties = schema.get("properties")
        properties = properties if isinstance(properties, dict) else {"answer": {"type": "string"}}
        return {k: fill(v if isinstance(v, dict) else {}, text, defs, numbers=numbers)
                for k, v in properties.items()}
    if kind == "array":
        items = schema.get("items")
        return [fill(items if isinstance(items, dict) else {}, text, defs, numbers=numbers)]
    if kind in ("number", "integer"):
        found = re.search(r"-?\d[\d,]*(?:\.\d+)?", numbers if numbers is not None else text)
        number = float(found.group().replace(",", "")) if found else 0
        return int(number) if kind == "integer" or number == int(number) else number
    if kind == "boolean":
        return not re.match(r"\s*(no|false)\b", text, re.IGNORECASE)
    return text
