"""The text ReAct prompt: instructions, tool list, format, an example, the scratchpad.

The prompt is the whole interface between the program and a text model, so it
says four things plainly: which tools exist (generated from the functions'
docstrings, never typed twice), the exact reply format, one worked example
trajectory (few-shot examples improve format-following more than any
instruction), and the question with everything done so far.

The loop re-renders every step in the canonical format below, whatever
spacing or markdown the model used: the model then only ever sees the format
it is asked to follow, which keeps it from drifting.

``read_prompt`` goes the other way, for scripted models that react to what
they are shown: it recovers the question and the (model text, observation)
pairs from a prompt built here. It reads this module's format only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from .stops import OBSERVATION_STOP, as_stop_list

INSTRUCTIONS = """\
Answer the question by thinking step by step and using tools. You can use these tools:
{tool_list}

Every reply holds one Thought, then either one Action or the Final Answer:
Thought: what you know so far and what you need next
Action: the tool to use, exactly one of: {tool_names}
Action Input: the input for the tool
Then stop. The program runs the tool and writes the Observation for you.
When the observations answer the question, reply:
Thought: I now know the answer
Final Answer: the answer in one short sentence"""

FORCE_ANSWER = (
    "You have used all your steps. Do not call another tool. Reply with a Thought, then "
    "Final Answer: your best answer from the observations above, "
    "or say what is still missing."
)

# Each example is used only when every tool it shows is available.
EXAMPLES: tuple[tuple[frozenset[str], str], ...] = (
    (
        frozenset({"search", "calculate"}),
        """\
Question: In which year did the Tokyo Skytree turn ten?
Thought: I need the year the Tokyo Skytree opened.
Action: search
Action Input: Tokyo Skytree
Observation: [Tokyo Skytree] The Tokyo Skytree is a broadcasting tower in Sumida, Tokyo. \
It opened to the public on 22 May 2012. At 634 m it is the tallest tower in the world.
Thought: It opened in 2012. Ten years later is 2012 + 10.
Action: calculate
Action Input: 2012 + 10
Observation: 2022
Thought: I now know the answer
Final Answer: The Tokyo Skytree turned ten in 2022.""",
    ),
    (
        frozenset({"price", "calculate"}),
        """\
Question: What do 2 rulers cost?
Thought: I need the price of one ruler.
Action: price
Action Input: ruler
Observation: A ruler costs 3.
Thought: One ruler costs 3, so two cost 2 * 3.
Action: calculate
Action Input: 2 * 3
Observation: 6
Thought: I now know the answer
Final Answer: 2 rulers cost 6.""",
    ),
    (
        frozenset({"get_order", "get_policy"}),
        """\
Question: Can the customer of order 88102 still cancel it?
Thought: I need the order's status, then the cancellation policy.
Action: get_order
Action Input: 88102
Observation: Order 88102: status preparing; promised 20:30; not delivered; \
item price 240 INR; delivery fee 25 INR.
Thought: The order is still being prepared. I need the cancellation policy.
Action: get_policy
Action Input: cancellation
Observation: [cancellation] An order can be cancelled for a full refund until it leaves the \
kitchen (status preparing or earlier). After that it cannot be cancelled.
Thought: I now know the answer
Final Answer: Yes: order 88102 is still preparing, so it can be cancelled for a full refund.""",
    ),
)


def pick_example(tool_names: set[str] | frozenset[str]) -> str:
    """The first example trajectory that uses only tools we have, else ''.

    >>> pick_example({"price", "calculate"}).splitlines()[0]
    'Question: What do 2 rulers cost?'
    >>> pick_example({"weather"})
    ''
    """
    for needed, example in EXAMPLES:
        if needed <= set(tool_names):
            return example
    return ""


def build_prompt(
    question: str,
    tool_list: str,
    tool_names: list[str],
    scratchpad: str = "",
    *,
    example: str | None = None,
    force_answer: bool = False,
) -> str:
    """Assemble the whole prompt; ``example=None`` picks one that fits the tools."""
    if example is None:
        example = pick_example(set(tool_names))
    head = INSTRUCTIONS.format(tool_list=tool_list, tool_names=", ".join(tool_names))
    if example:
        head += "\n\nHere is an example:\n" + example
    body = f"Question: {question}"
    if scratchpad:
        body += "\n" + scratchpad.rstrip("\n")
    if force_answer:
        body += "\n" + FORCE_ANSWER
    return head + "\n\nNow the real question.\n" + body


def render_action(thought: str, tool: str, tool_input: str) -> str:
    """One action in the canonical format.

    >>> print(render_action("I need the height.", "search", "Eiffel Tower"))
    Thought: I need the height.
    Action: search
    Action Input: Eiffel Tower
    """
    lines = [f"Thought: {thought}"] if thought else []
    return "\n".join([*lines, f"Action: {tool}", f"Action Input: {tool_input}"])


def render_final(thought: str, answer: str) -> str:
    """A final answer in the canonical format.

    >>> print(render_final("I now know the answer", "237 m"))
    Thought: I now know the answer
    Final Answer: 237 m
    """
    lines = [f"Thought: {thought}"] if thought else []
    return "\n".join([*lines, f"Final Answer: {answer}"])


@dataclass
class Scratchpad:
    """What a prompt shows: the question and each (model text, observation) so far."""

    question: str
    steps: list[tuple[str, str]] = field(default_factory=list)
    must_answer: bool = False

    @property
    def observations(self) -> list[str]:
        return [obs for _, obs in self.steps]

    @property
    def last_observation(self) -> str:
        return self.steps[-1][1] if self.steps else ""


_QUESTION = re.compile(r"^Question:[ \t]*(.*)$", re.MULTILINE)
_OBSERVATION = re.compile(r"^Observation(?:[ \t]*\d+)?:[ \t]?", re.MULTILINE)
_MODEL_LINE = re.compile(r"^(Thought|Action|Final Answer)", re.MULTILINE)


def read_prompt(prompt: str) -> Scratchpad:
    """Recover the question and the steps from a prompt built by ``build_prompt``.

    The last ``Question:`` line is the real one (the example has its own).

    >>> pad = read_prompt("Question: example?\\nQuestion: Real?\\n"
    ...                   "Thought: t\\nAction: search\\nAction Input: x\\nObservation: found x")
    >>> pad.question, pad.last_observation
    ('Real?', 'found x')
    """
    found = list(_QUESTION.finditer(prompt))
    if not found:
        return Scratchpad(question=prompt.strip(), must_answer=FORCE_ANSWER in prompt)
    question = found[-1].group(1).strip()
    rest = prompt[found[-1].end() :]
    must_answer = FORCE_ANSWER in rest
    rest = rest.replace(FORCE_ANSWER, "")
    chunks = _OBSERVATION.split(rest)
    steps = []
    model_text = chunks[0].strip()
    for chunk in chunks[1:]:
        nxt = _MODEL_LINE.search(chunk)
        observation = (chunk[: nxt.start()] if nxt else chunk).strip()
        steps.append((model_text, observation))
        model_text = chunk[nxt.start() :].strip() if nxt else ""
    return Scratchpad(question, steps, must_answer)


def cue_for(prompt: str, stop: Sequence[str] | None) -> str:
    """The cue a completions prompt ends with: ``Thought:`` for a text ReAct step, else "".

    A base model continues the text it is given: after "Now the real question." and the
    question, with no cue, it may as well write another question. A text ReAct call is
    the one sent with the Observation stop; other prompts (a summary) get no cue.

    >>> cue_for("Question: 6*7?", ["\\nObservation"]), cue_for("Summarise these steps.", None)
    ('Thought:', '')
    """
    wanted = OBSERVATION_STOP in as_stop_list(stop) and not prompt.rstrip().endswith("Thought:")
    return "Thought:" if wanted else ""
