"""A final answer in a fixed shape: the answer, and the observations it rests on.

Lesson 06 checks a prose answer by hunting its figures and names in the run's
observations. When the API can hold the answer to a JSON schema (OpenAI's
structured outputs: ``response_format`` in Chat Completions, ``text.format``
in Responses, both with ``strict``), the model also says *which* tool results
it used, by their call ids, and the check reads fields instead of prose:

- every cited id must be a tool result of this run that did not fail;
- every figure and multi-word name in the answer must be in the results it
  cites (or the question): a figure found only in some other result is a
  citation that does not hold;
- an answer that cites nothing is not grounded, however plausible.

``answer_options(protocol)`` gives the request fields for either protocol
(pass them as ``run_native(..., request_options=...)``); ``read_answer``
reads the reply back; ``check_cited`` is the grounding check.

What it leaves out: validating against any other schema (the server's strict
mode does that for a real model), and quotes checked word for word.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .safety import ungrounded

ANSWER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "answer": {"type": "string", "description": "The answer to the question, in one or two sentences."},
        "observations": {"type": "array", "items": {"type": "string"},
                         "description": "The call ids of the tool results the answer rests on, e.g. call_1."},
    },
    "required": ["answer", "observations"],
    "additionalProperties": False,  # strict mode's rule: every key required, no others
}


def answer_options(protocol: str = "chat", name: str = "grounded_answer") -> dict[str, Any]:
    """The request fields that ask for an answer in ``ANSWER_SCHEMA``'s shape, for either protocol.

    >>> sorted(answer_options("chat")["response_format"]["json_schema"])
    ['name', 'schema', 'strict']
    >>> answer_options("responses")["text"]["format"]["type"]
    'json_schema'
    """
    if protocol == "responses":
        return {"text": {"format": {"type": "json_schema", "name": name, "schema": ANSWER_SCHEMA,
                                    "strict": True}}}
    return {"response_format": {"type": "json_schema",
                                "json_schema": {"name": name, "schema": ANSWER_SCHEMA, "strict": True}}}


@dataclass(frozen=True)
class CitedAnswer:
    """The answer's fields: its text and the call ids it cites."""

    answer: str
    observations: tuple[str, ...]


def read_answer(text: str) -> CitedAnswer | str:
    """The answer's fields, or why the reply is not in the schema's shape.

    >>> read_answer('{"answer": "It was late.", "observations": ["call_1"]}')
    CitedAnswer(answer='It was late.', observations=('call_1',))
    >>> read_answer("It was late.")
    'the answer is not JSON: It was late.'
    """
    try:
        value = json.loads(text)
    except (TypeError, ValueError):
        return f"the answer is not JSON: {str(text)[:80]}"
    if not isinstance(value, dict) or not isinstance(value.get("answer"), str):
        return "the answer has no text field 'answer'"
    cited = value.get("observations")
    if not isinstance(cited, list) or not all(isinstance(c, str) for c in cited):
        return "the answer's 'observations' is not a list of call ids"
    return CitedAnswer(value["answer"], tuple(cited))


def results_by_id(result: Any) -> dict[str, str]:
    """The run's tool results that did not fail, by call id."""
    return {o.call_id: o.text for step in result.steps for o in step.observations
            if o.error is None and o.call_id}


def check_cited(answer: CitedAnswer | str, result: Any) -> list[str]:
    """What the answer's fields claim that the run does not support; [] when it holds.

    ``result`` is the run (a ``RunResult``); ``answer`` is ``read_answer``'s value.
    """
    if isinstance(answer, str):
        return [answer]
    found = results_by_id(result)
    problems = [f"it cites {c!r}, which is no successful tool result of this run"
                for c in answer.observations if c not in found]
    cited = [found[c] for c in answer.observations if c in found]
    if not answer.observations:
        problems.append("it cites no observation")
    problems += [f"{claim!r} is in none of the observations it cites"
                 for claim in ungrounded(answer.answer, [result.question, *cited])]
    return problems
