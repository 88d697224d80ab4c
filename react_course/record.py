"""The run record: what happened in a run, whatever the format of its tool calls.

The text loop (lesson 02) reads an action out of the model's text; the native
loop (lesson 07) gets structured tool calls with ids. Both write the same
record, so guards, traces, cost and evaluation are written once:

- ``ToolCall``: one request to run a tool (an id, a name, the arguments);
- ``Observation``: what the program wrote back for one call (or for a reply
  it could not read), and the kind of failure if any;
- ``Step``: one model call, the calls it asked for and their observations;
- ``RunResult``: the answer, why the run ended, and every step.

A ``RunResult`` survives ``to_json`` / ``from_json`` unchanged, and
``to_messages`` gives the conversation in the shape its format needs.
What it leaves out: rendering (``transcript.py``) and prices (``cost.py``).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Literal, get_args

from .observations import short
from .parsing import Action, FinalAnswer, ParseError
from .transcript import native_messages, text_messages, trace_lines

Format = Literal["text", "native"]
ErrorKind = Literal[
    "parse_error",  # the reply could not be read as an action or an answer
    "unknown_tool",  # the model named a tool that does not exist
    "bad_input",  # the arguments do not fit the tool's parameters
    "tool_error",  # the tool raised
    "tool_timeout",  # the tool ran past its time limit
    "empty_result",  # the tool returned nothing (said in words)
    "repeat",  # an identical call was refused
    "refused",  # a policy or an approval gate refused the call
    "model_error",  # the model call itself failed
]
ERROR_KINDS: tuple[str, ...] = get_args(ErrorKind)


@dataclass(frozen=True)
class Usage:
    """Tokens of one call or a whole run. Cached input is part of input; reasoning, of output.

    >>> Usage(300, 40, cached_input=200) + Usage(420, 35)
    Usage(input=720, output=75, cached_input=200, reasoning=0)
    >>> sum([Usage(1, 2), Usage(3, 4)], Usage()).total
    10
    """

    input: int = 0
    output: int = 0
    cached_input: int = 0  # of ``input``, the part read from the provider's prompt cache
    reasoning: int = 0  # of ``output``, the hidden thinking of a reasoning model

    @property
    def total(self) -> int:
        return self.input + self.output

    def __add__(self, other: Usage) -> Usage:
        if not isinstance(other, Usage):
            return NotImplemented
        return Usage(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))

    def __radd__(self, other: object) -> Usage:
        if other == 0:  # sum() starts from 0
            return self
        return NotImplemented


@dataclass(frozen=True)
class ToolCall:
    """A request to run a tool: the one tool-call type of the course.

    Text runs: ``arguments`` is the Action Input text. Native runs: a JSON object,
    or the raw text when the model's JSON could not be read. A scripted chat model
    plans calls with ``id=""``; the server gives each its id on the wire.
    """

    id: str
    name: str
    arguments: str | dict[str, Any]

    @property
    def arguments_json(self) -> str:
        """The arguments as the wire carries them (raw text stays as it is).

        >>> ToolCall("c1", "search", {"query": "Paris"}).arguments_json
        '{"query": "Paris"}'
        >>> ToolCall("c1", "search", '{"query": ').arguments_json
        '{"query": '
        """
        if isinstance(self.arguments, str):
            return self.arguments
        return json.dumps(self.arguments, ensure_ascii=False)


@dataclass(frozen=True)
class Observation:
    """What the program wrote back for one call; ``call_id`` "" for an unreadable reply."""

    call_id: str
    text: str
    error: ErrorKind | None = None


Parsed = Action | FinalAnswer | ParseError | None


@dataclass
class Step:
    """One model call and what the program did with the reply."""

    number: int
    format: Format = "text"
    text: str = ""  # what the model wrote, after the stop cut (native: the message content)
    thought: str = ""
    calls: list[ToolCall] = field(default_factory=list)
    observations: list[Observation] = field(default_factory=list)  # one per call, same order
    answer: str | None = None  # the final answer, when this step gave one
    error: ErrorKind | None = None  # the first failure in this step, for logs and guards
    cut: str = ""  # text the program discarded (after a stop sequence, or after the action)
    usage: Usage = field(default_factory=Usage)
    latency: float = 0.0  # seconds for the model call and the tools
    forced: bool = False  # the extra call made at the step limit
    parsed: Parsed = None  # text runs: what parse_step read (None when the call failed)
    message: dict[str, Any] | None = None  # native runs: the assistant turn as sent back

    @property
    def action(self) -> Action | None:
        return self.parsed if isinstance(self.parsed, Action) else None

    @property
    def final_answer(self) -> str | None:
        return self.answer

    @property
    def observation(self) -> str:
        return "\n".join(o.text for o in self.observations)

    @property
    def reply(self) -> str:
        return self.text

    @property
    def tokens(self) -> Usage:
        return self.usage

    @property
    def model_failed(self) -> bool:
        return self.error == "model_error"

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["parsed"] = _parsed_to_dict(self.parsed)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Step:
        data = dict(data)
        data["calls"] = [ToolCall(**c) for c in data.get("calls", [])]
        data["observations"] = [Observation(**o) for o in data.get("observations", [])]
        data["usage"] = Usage(**data.get("usage", {}))
        data["parsed"] = _parsed_from_dict(data.get("parsed"))
        return cls(**data)


_PARSED_KINDS = {"action": Action, "final_answer": FinalAnswer, "parse_error": ParseError}


def _parsed_to_dict(parsed: Parsed) -> dict[str, Any] | None:
    if parsed is None:
        return None
    kind = next(k for k, cls in _PARSED_KINDS.items() if isinstance(parsed, cls))
    return {"kind": kind, **asdict(parsed)}


def _parsed_from_dict(data: dict[str, Any] | None) -> Parsed:
    if data is None:
        return None
    data = dict(data)
    return _PARSED_KINDS[data.pop("kind")](**data)


@dataclass
class RunResult:
    """How a run went: the answer, why it ended, and every step."""

    question: str
    answer: str
    end_reason: str
    steps: list[Step]
    detail: str = ""  # for a forced ending, what forced it
    format: Format = "text"

    @property
    def succeeded(self) -> bool:
        return self.end_reason == "final_answer"

    @property
    def model_calls(self) -> int:
        return len(self.steps)

    @property
    def usage(self) -> Usage:
        return sum((s.usage for s in self.steps), Usage())

    @property
    def tokens(self) -> Usage:
        return self.usage

    @property
    def tool_calls(self) -> list[ToolCall]:
        return [call for step in self.steps for call in step.calls]

    @property
    def transcript(self) -> str:
        """The classic text trace."""
        return self.render()

    def render(self, authors: bool = False) -> str:
        """The trace; ``authors=True`` marks which lines the model wrote and which the program did."""

        lines = trace_lines(self)
        if not authors:
            return "\n".join(text for _, text in lines)
        return "\n".join(f"{who:<7} | {text}" for who, text in lines)

    def to_messages(self) -> list[dict[str, Any]]:
        """The run as chat messages, in the shape its format needs.

        Text runs: the model's turns, and observations as user turns (the text
        format has no other place for them). Native runs: each assistant turn
        with its tool calls, then one ``tool`` message per call, linked by id.
        """

        convert = native_messages if self.format == "native" else text_messages
        return convert(self)

    def to_json(self) -> str:
        data = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "steps"}
        data["steps"] = [s.to_dict() for s in self.steps]
        return json.dumps(data, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> RunResult:
        data = json.loads(text)
        data["steps"] = [Step.from_dict(s) for s in data["steps"]]
        return cls(**data)

    def __repr__(self) -> str:
        return (f"RunResult(end_reason={self.end_reason!r}, model_calls={self.model_calls}, "
                f"answer={self.answer!r})")


# How the program's own notes to the model begin (the no-progress nudge): they are the
# program's words, not a tool's result, so a hand-over summary leaves them out.
PROGRAM_NOTE = "Note from the program: "


def tool_result(text: str) -> str:
    """An observation without the notes the program appended to it for the model.

    >>> tool_result("No flights.\\nNote from the program: you called search again.")
    'No flights.'
    """
    return text.split("\n" + PROGRAM_NOTE, 1)[0]


def handover_summary(question: str, steps: list[Step], detail: str, open_items: tuple[str, ...] = ()) -> str:
    """What a person taking over needs: why it stopped, what the tools found, what is open."""
    done = [f"{call.name}[{short(_arguments_text(call.arguments), 60)}] -> "
            f"{short(tool_result(obs.text), 100)}"
            for s in steps for call, obs in zip(s.calls, s.observations, strict=False)
            if obs.error is None and obs.text]
    tried = "; ".join(done) if done else "no tool call succeeded"
    tried += "" if tried.endswith(".") else "."  # observations often end with their own full stop
    still = "; ".join(open_items) if open_items else f"an answer to {question!r}"
    return f"Could not finish: {detail}. Done so far: {tried} Still open: {still}. Hand this to a person."


def _arguments_text(arguments: str | dict[str, Any]) -> str:
    return arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
