"""Read one model reply into an Action, a FinalAnswer or a ParseError.

The parser accepts the two text formats a ReAct prompt asks for::

    Thought: ...                     Thought 2: ...
    Action: search                   Action 2: Search[Eiffel Tower]
    Action Input: Eiffel Tower

and the two ways to end: ``Final Answer: ...`` or the paper's ``finish[...]``.
It tolerates what real models do: extra spaces, any keyword case, numbering,
markdown bold, code fences, the input on the next line, multi-line input,
brackets inside the input, quotes around it and trailing chatter.

It never raises. A reply it cannot read becomes a ``ParseError`` whose
``message`` is written *for the model*: the loop sends it back as the
observation, so it says what was wrong and shows the exact format to use.

When a reply holds an action and then more text (say, an invented
``Observation:`` and a ``Final Answer``), the first action is what counts; the
rest is kept in ``Action.discarded`` so the loop can record the cut.

``text_form_calls`` reads a chat template's own call form (``functions.NAME:``,
a ``<tool_call>`` block) that a server passed on as text: the native loop's calls.

What it leaves out: JSON tool calls (lesson 07 uses the API's structured calls
instead) and deciding whether a tool exists (the registry does that).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from .segments import Segment, split_segments
from .stops import strip_reasoning


@dataclass(frozen=True)
class Action:
    """The model asks to run ``tool`` on ``input``."""

    tool: str
    input: str
    # Two replies asking for the same call are the same action, whatever the wording around it.
    thought: str = field(default="", compare=False)
    discarded: str = field(default="", compare=False)  # text after the action, ignored

    @property
    def was_cut(self) -> bool:
        return bool(self.discarded)


@dataclass(frozen=True)
class FinalAnswer:
    """The model says it is done."""

    answer: str
    thought: str = field(default="", compare=False)


@dataclass(frozen=True)
class ParseError:
    """The reply could not be read; ``message`` is the corrective observation."""

    message: str
    reply: str = field(default="", compare=False)


Parsed = Action | FinalAnswer | ParseError  # what one reply reads as (record.Step is a whole step)

FORMAT_REMINDER = (
    "Write exactly one of these two forms:\n"
    "Thought: <your reasoning>\n"
    "Action: <one tool name>\n"
    "Action Input: <the input for the tool>\n"
    "or\n"
    "Thought: <your reasoning>\n"
    "Final Answer: <the answer>"
)

_TOOL = re.compile(r"[`'\"]?(?P<tool>[A-Za-z_][\w.-]*)[`'\"]?")
_CLOSE = {"[": "]", "(": ")"}
_NO_TOOL = {"none", "n/a", "na", "nothing", "null"}
_QUOTES = ('"', "'", "`")


def parse_step(text: str) -> Parsed:
    """Read one reply; never raises.

    >>> parse_step("Thought: I need the height.\\nAction: search\\nAction Input: Eiffel Tower")
    Action(tool='search', input='Eiffel Tower', thought='I need the height.', discarded='')
    >>> parse_step("Action 2: Search[Statue of Liberty]").input
    'Statue of Liberty'
    >>> parse_step("**Final Answer:** 237 m")
    FinalAnswer(answer='237 m', thought='')
    >>> parse_step("I think it is 237 m.").message.splitlines()[0]
    'Could not read your reply: it has no Action line and no Final Answer line.'
    """
    if not isinstance(text, str):
        return ParseError(_error(f"the reply was {type(text).__name__}, not text."), "")
    text_ = strip_reasoning(text.replace("\r\n", "\n").replace("\r", "\n"))
    segments = split_segments(text_)
    for at, seg in enumerate(segments):
        if seg.kind == "action":
            return _read_action(segments, at, text)
        if seg.kind == "final answer":
            return _read_final(segments, at, text)
        if seg.kind == "observation":
            return ParseError(
                _error(
                    "it contains an Observation line before any Action. "
                    "Only the program writes observations; stop after Action Input."
                ),
                text,
            )
    return ParseError(_error(_why_unreadable(segments)), text)


def _thought(segments: list[Segment], upto: int) -> str:
    parts = [s.body for s in segments[:upto] if s.kind in ("thought", "text") and s.body]
    return "\n".join(parts)


def _rest_after(segments: list[Segment], start: int) -> str:
    return "\n".join(
        (s.kind.title() + ": " if s.kind != "text" else "") + s.body for s in segments[start:]
    ).strip()


def _read_final(segments: list[Segment], at: int, text: str) -> Parsed:
    answer = segments[at].body
    if not answer:
        return ParseError(_error("the Final Answer line is empty."), text)
    return FinalAnswer(_unquote(answer), _thought(segments, at))


def _read_action(segments: list[Segment], at: int, text: str) -> Parsed:
    payload = segments[at].body
    name = _TOOL.match(payload)
    if not name:
        shown = payload.splitlines()[0][:80] if payload else ""
        return ParseError(_error(f"the Action line names no tool (it says {shown!r})."), text)
    tool, after = name["tool"].rstrip(".-"), payload[name.end() :]
    thought = _thought(segments, at)
    if tool.lower() in _NO_TOOL or re.match(r"final[ _]?answer\b", payload, re.IGNORECASE):
        return _not_a_tool(segments, at, text)
    opener = after.lstrip()[:1]
    nxt = segments[at + 1] if at + 1 < len(segments) else None
    if opener in _CLOSE:
        tool_input, trailing = _bracketed(after.lstrip())
        if not tool_input.strip() and nxt is not None and nxt.kind == "action input":
            # "Action: search()" then "Action Input: ...": the input is on its own line.
            return _action_or_finish(tool, nxt.body, thought, _rest_after(segments, at + 2))
        discarded = "\n".join(filter(None, [_later_lines(trailing), _rest_after(segments, at + 1)]))
        return _action_or_finish(tool, tool_input, thought, discarded)
    if after.strip(" \t.`'\""):
        return ParseError(
            _error(
                f"the Action line must hold only a tool name, but it says {payload[:80]!r}. "
                "Put the tool's input on its own Action Input line."
            ),
            text,
        )
    if nxt is None or nxt.kind != "action input":
        return ParseError(
            _error(f"Action: {tool} is not followed by an Action Input line."), text
        )
    # The input runs to the next keyword line, blank lines included: a tool such as an
    # email sender takes paragraphs, and cutting them silently would send half a message.
    return _action_or_finish(tool, nxt.body, thought, _rest_after(segments, at + 2))


def _not_a_tool(segments: list[Segment], at: int, text: str) -> Parsed:
    """``Action: None`` or ``Action: Final Answer``: the model meant to answer.

    A later Final Answer line wins; ``Action: Final Answer`` may instead carry
    the answer as its input, in brackets or on an Action Input line.
    """
    for later in segments[at + 1 :]:
        if later.kind == "final answer":
            return _read_final(segments, segments.index(later), text)
    named = re.match(r"final[ _]?answer\b[ \t]*", segments[at].body, re.IGNORECASE)
    if named:
        after = segments[at].body[named.end() :]
        if after[:1] in _CLOSE:
            return FinalAnswer(_unquote(_bracketed(after)[0]), _thought(segments, at))
        if after[:1] == ":" and after[1:].strip():
            return FinalAnswer(_unquote(after[1:]), _thought(segments, at))
        nxt = segments[at + 1] if at + 1 < len(segments) else None
        if nxt is not None and nxt.kind == "action input" and nxt.body:
            return FinalAnswer(_unquote(nxt.body), _thought(segments, at))
    return ParseError(_error("the Action line names no tool. To answer, write a Final Answer line."),
                      text)


def _action_or_finish(tool: str, tool_input: str, thought: str, discarded: str) -> Parsed:
    tool_input = _unquote(tool_input.strip())
    if tool.lower() == "finish":
        return FinalAnswer(tool_input, thought)
    return Action(tool, tool_input, thought, discarded)


def _bracketed(text: str) -> tuple[str, str]:
    """Split ``[input]trailing`` at the bracket that closes the first one.

    >>> _bracketed("[Tesla [company]] and more")
    ('Tesla [company]', ' and more')
    >>> _bracketed("[unclosed input")
    ('unclosed input', '')
    """
    opener, closer = text[0], _CLOSE[text[0]]
    depth = 0
    for i, ch in enumerate(text):
        if ch == opener:
            depth += 1
        elif ch == closer:
            depth -= 1
            if depth == 0:
                return text[1:i], text[i + 1 :]
    # Unbalanced: trust the last closer if there is one, else take everything.
    last = text.rfind(closer)
    return (text[1:last], text[last + 1 :]) if last > 0 else (text[1:], "")


def _later_lines(trailing: str) -> str:
    """Chatter on the action's own line is harmless; later lines were discarded."""
    _, _, later = trailing.partition("\n")
    return later.strip()


def _unquote(value: str) -> str:
    """Remove one layer of matching quotes or backticks.

    >>> _unquote('"Eiffel Tower"')
    'Eiffel Tower'
    >>> _unquote('say "hi"')
    'say "hi"'
    """
    value = value.strip()
    if len(value) >= 6 and value.startswith("```") and value.endswith("```"):
        return value[3:-3].strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in _QUOTES:
        return value[1:-1].strip()
    return value


def _why_unreadable(segments: list[Segment]) -> str:
    # An empty "Action Input:" line is not an empty reply: say what is really missing.
    if any(s.kind == "action input" for s in segments):
        return "it has an Action Input line but no Action line naming the tool."
    if not any(s.body for s in segments):
        return "the reply was empty."
    return "it has no Action line and no Final Answer line."


def _error(reason: str) -> str:
    return f"Could not read your reply: {reason}\n{FORMAT_REMINDER}"


# A chat template's call written as text: "functions.today:" (llama-cpp-python's
# chatml-function-calling format), or a <tool_call> block holding {"name", "arguments"}.
_FUNCTIONS_CALL = re.compile(r"^[ \t]*functions\.(?P<name>[A-Za-z_][\w.-]*)[ \t]*:?", re.MULTILINE)
_TOOL_CALL_BLOCK = re.compile(r"<tool_call>\s*(?P<body>.*?)\s*(?:</tool_call>|$)", re.DOTALL)


def text_form_calls(text: str) -> tuple[str, list[tuple[str, str]]]:
    r"""The text before any call a chat template wrote as text, and each call as (name, arguments).

    The arguments stay raw text (``"{}"`` if none): unreadable ones are answered as such.

    >>> text_form_calls("functions.today:")
    ('', [('today', '{}')])
    >>> text_form_calls('I will search.\nfunctions.search:\n{"query": "Paris"}')
    ('I will search.', [('search', '{"query": "Paris"}')])
    >>> text_form_calls('<tool_call>{"name": "today", "arguments": {}}</tool_call>')
    ('', [('today', '{}')])
    >>> text_form_calls("Paris hosted the 2024 Games.")
    ('Paris hosted the 2024 Games.', [])
    """
    found = list(_FUNCTIONS_CALL.finditer(text))
    if found:
        ends = [m.start() for m in found[1:]] + [len(text)]
        calls = [(m["name"], text[m.end():end].strip() or "{}") for m, end in zip(found, ends, strict=True)]
        return text[:found[0].start()].strip(), calls
    blocks = list(_TOOL_CALL_BLOCK.finditer(text))
    calls = [call for block in blocks if (call := _tool_call_block(block["body"]))]
    return (text[:blocks[0].start()].strip() if calls else text), calls


def _tool_call_block(body: str) -> tuple[str, str] | None:
    """``{"name": ..., "arguments": ...}`` from a <tool_call> block, or None if it is not one."""
    try:
        data = json.loads(body)
    except ValueError:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        return None
    arguments = data.get("arguments", data.get("parameters", {}))
    return data["name"], arguments if isinstance(arguments, str) else json.dumps(arguments)
