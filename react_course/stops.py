"""Stop sequences: only the program may write an Observation.

A language model continues text. Left alone after an ``Action`` line it will
happily write ``Observation: ...`` itself, inventing the tool's result, and then
answer from its own fiction. A *stop sequence* tells the API to end the reply
just before a given string. We send one on every call, and because some APIs
ignore or limit them (the OpenAI API takes at most 4; several reasoning models
take none), we also cut the reply on the client side: defence in depth.

Local servers add one more leak: a chat template's end-of-turn marker
(``<|im_end|>``, ``<|eot_id|>``, ...) left in the reply's text. The turn ended
there, so the reply is cut at the first one (``cut_at_end_of_turn``); in a
tool call's arguments the markers are removed (``drop_end_of_turn``).

A base model adds one more: after its step it goes on to the next question, as
the prompt's example did ("Now the real question." then "Question: ..."). The
reply is cut there too (``new_question_at``): the question is the program's.

What this module leaves out: choosing the stops per prompt format (the loop
does that), streaming (a stream would be cut the same way, chunk by chunk) and
every template's marker (the common ones are listed in ``END_OF_TURN``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

# A leading newline keeps a thought that merely mentions the word from being
# cut; with no colon, it also catches the paper's numbered "Observation 2:".
OBSERVATION_STOP = "\nObservation"
DEFAULT_STOPS: tuple[str, ...] = (OBSERVATION_STOP,)

# The most stop sequences the OpenAI Chat Completions API accepts in one call.
MAX_API_STOPS = 4


def as_stop_list(stops: str | Sequence[str] | None) -> list[str]:
    """APIs accept one stop string or a list; a lone string is one sequence, not characters.

    >>> as_stop_list("\\nObservation"), as_stop_list(None), as_stop_list(["a", ""])
    (['\\nObservation'], [], ['a'])
    """
    if stops is None:
        return []
    return [stops] if isinstance(stops, str) else [s for s in stops if s]


def find_stop(text: str, stops: str | Sequence[str] | None) -> int:
    """Index where the earliest stop sequence begins, or -1 when none occurs.

    >>> find_stop("Action: search\\nObservation: 330 m", ["\\nObservation"])
    14
    >>> find_stop("no stop here", ["\\nObservation"])
    -1
    """
    found = [at for at in (text.find(stop) for stop in as_stop_list(stops)) if at >= 0]
    return min(found, default=-1)


def cut_at_stop(text: str, stops: str | Sequence[str] | None) -> str:
    """Drop everything from the first stop sequence on, as an API would.

    >>> cut_at_stop("Action: search\\nAction Input: x\\nObservation: 1", ["\\nObservation"])
    'Action: search\\nAction Input: x'
    >>> cut_at_stop("Thought: done", ["\\nObservation"])
    'Thought: done'
    """
    at = find_stop(text, stops)
    return text if at < 0 else text[:at]


# End-of-turn markers of common chat templates (ChatML, Llama 3, Phi, Gemma, Llama 2 and GPT-2).
END_OF_TURN: tuple[str, ...] = ("<|im_end|>", "<|eot_id|>", "<|end|>", "<end_of_turn>",
                                "<|endoftext|>", "</s>")


def cut_at_end_of_turn(text: str) -> str:
    """The reply up to the first end-of-turn marker a server left in it: the turn ended there.

    >>> cut_at_end_of_turn("Final Answer: 4<|im_end|>\\n<|im_start|>user")
    'Final Answer: 4'
    """
    return cut_at_stop(text, END_OF_TURN)


_NEW_QUESTION = re.compile(r"^[ \t]*(?:Question:|Now the real question\.)", re.MULTILINE)


def new_question_at(text: str) -> int:
    """Where the reply starts a new question (after what it wrote first), or -1.

    >>> new_question_at("Thought: done\\nFinal Answer: 42\\nNow the real question.\\nQuestion: x")
    31
    >>> new_question_at("Question: q\\nThought: t"), new_question_at("Final Answer: 42")
    (-1, -1)
    """
    found = next((m for m in _NEW_QUESTION.finditer(text) if m.start() > 0), None)
    return -1 if found is None else found.start()


def drop_end_of_turn(text: str) -> str:
    """``text`` without any end-of-turn marker (for tool arguments, where a cut could break the JSON).

    >>> drop_end_of_turn('{"query": "Paris"}<|eot_id|>')
    '{"query": "Paris"}'
    """
    for marker in END_OF_TURN:
        text = text.replace(marker, "")
    return text


def strip_reasoning(text: str) -> str:
    """Drop a reasoning model's ``<think>...</think>`` block before anything else.

    Drafts inside it are not the reply: an ``Action:`` or ``Observation`` written
    while thinking must neither run nor cut the reply. Only the text after the
    last ``</think>`` counts; an unclosed ``<think>`` ends the reply.

    >>> strip_reasoning("<think>Action: draft\\nObservation: guess</think>Thought: t")
    'Thought: t'
    >>> strip_reasoning("unclosed <think>Action: draft")
    'unclosed '
    """
    closing = text.rfind("</think>")
    if closing >= 0:
        return text[closing + len("</think>") :]
    opening = text.find("<think>")
    return text if opening < 0 else text[:opening]


def api_stops(stops: str | Sequence[str] | None) -> list[str] | None:
    """The stops to send to an API that takes at most four; the client cut covers the rest.

    >>> api_stops(["a", "b", "c", "d", "e"])
    ['a', 'b', 'c', 'd']
    >>> api_stops([]) is None
    True
    """
    kept = as_stop_list(stops)[:MAX_API_STOPS]
    return kept or None
