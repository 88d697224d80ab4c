"""When to stop: the stopping rules as data, and the detectors of no progress.

Lesson 05's pure parts, kept apart from the loop so that each can be read,
tested and taught on its own:

- ``ENDINGS``: every way a run ends, who decides it, and what happens next;
- ``should_stop(state, rules)``: the whole stopping decision as one function;
- ``TASK_STEPS`` / ``steps_for``: step limits calibrated per kind of task;
- ``call_distance`` (``word_distance`` of the inputs), ``find_repeat`` and ``RepeatWatch``: near-repeats (the
  same call with one word changed, and the same result) and two calls taking
  turns (A, B, A, B); the policy nudges once, then ends the run.

The budget that counts a real run (``guards.Budget``) uses these; this module
counts nothing itself. What it leaves out: prices (lesson 08 turns tokens
into money) and semantic similarity (two searches with different words that
mean the same thing are not caught).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import NamedTuple

from .errors import LimitReached
from .record import PROGRAM_NOTE

# end reason -> (who decides, what happens next)
ENDINGS: dict[str, tuple[str, str]] = {
    "final_answer": ("the model", "return the answer (lesson 06 checks it against the evidence)"),
    "step_limit": ("the program: a step count", "ask once for a labelled best-effort answer, "
                   "else hand over with a summary"),
    "budget": ("the program: tokens or money spent", "hand over with a summary"),
    "time_limit": ("the program: wall-clock time", "hand over with a summary"),
    "repeating": ("the program: the repeat detector", "nudge once, then hand over with a summary"),
    "hand_over": ("the model (a hand-over tool) or a policy", "a person takes over, with the summary"),
    "interrupted": ("the user (Ctrl-C, the stop button)", "keep the partial trace and the summary"),
    "error": ("the program: model failures in a row", "hand over, saying which failure"),
}

# Step limits per kind of task; pick one by name with steps_for.
TASK_STEPS: dict[str, int] = {"simple_lookup": 3, "research": 8, "complex": 12}


def steps_for(task: str) -> int:
    """The step limit for a kind of task.

    >>> steps_for("simple lookup"), steps_for("research")
    (3, 8)
    """
    key = "_".join(task.lower().replace("-", " ").split())
    if key not in TASK_STEPS:
        raise KeyError(f"no step limit for task type {task!r}; known: {', '.join(TASK_STEPS)}")
    return TASK_STEPS[key]


@dataclass(frozen=True)
class StopRules:
    """Thresholds for ``should_stop``: lesson 05's teaching view of ``guards.Limits``.

    The defaults are one published set (illustrative). A real run enforces
    ``Limits`` through its ``Budget``; ``Limits.from_stop_rules(rules)`` gives a run
    the same thresholds (a test holds the two to the same decisions). One
    difference of counting: here the third repeat stops at ``max_repeats=3``;
    ``Limits.max_repeats`` counts the refusals a run *survives* (2).
    """

    max_steps: int = 12
    max_cost: Decimal = Decimal("20")  # rupees
    max_seconds: float = 120.0
    max_repeats: int = 3


@dataclass
class RunState:
    """What the program knows about a run in progress."""

    steps: int = 0  # model calls made
    cost: Decimal = Decimal("0")  # money spent so far
    seconds: float = 0.0  # wall-clock time so far
    repeats: int = 0  # refused or detected repeats
    answered: bool = False  # the model gave a final answer
    handed_over: bool = False  # the model chose the hand-over tool, or a policy did
    interrupted: bool = False  # the user pressed stop


def should_stop(state: RunState, rules: StopRules = StopRules()) -> str | None:
    """The end reason if the run must stop now, else None.

    A limit is reached when the count *equals* it: 12 steps taken with a limit of
    12 means no 13th.

    >>> should_stop(RunState(steps=11)), should_stop(RunState(steps=12))
    (None, 'step_limit')
    """
    if state.interrupted:
        return "interrupted"
    if state.answered:
        return "final_answer"
    if state.handed_over:
        return "hand_over"
    checks = (
        (state.steps >= rules.max_steps, "step_limit"),
        (state.cost >= rules.max_cost, "budget"),
        (state.seconds >= rules.max_seconds, "time_limit"),
        (state.repeats >= rules.max_repeats, "repeating"),
    )
    return next((reason for reached, reason in checks if reached), None)


class Call(NamedTuple):
    """One tool call as the repeat detector sees it."""

    tool: str
    input: str
    observation: str = ""


def _words(text: str) -> list[str]:
    """The words of an input as exercise 5.2 states them: lower-cased, split on any whitespace."""
    return text.lower().split()


def call_distance(a: Call, b: Call) -> int | None:
    """Words added, removed or changed between two calls of one tool (None: different tools).

    >>> call_distance(Call("search", "flights Delhi Paris"), Call("search", "flights Delhi Pariss"))
    1
    >>> call_distance(Call("search", "x"), Call("price", "x")) is None
    True
    """
    return None if a.tool != b.tool else word_distance(_words(a.input), _words(b.input))


def word_distance(x: Sequence[str], y: Sequence[str]) -> int:
    """Words added, removed or changed to turn the list ``x`` into ``y`` (an edit distance).

    >>> word_distance(["delhi", "paris"], ["delhi", "to", "paris"]), word_distance(["a", "b"], ["b", "a"])
    (1, 2)
    """
    row = list(range(len(y) + 1))
    for i, word in enumerate(x, 1):
        previous, row[0] = row[0], i
        for j, other in enumerate(y, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (word != other))
    return row[-1]


def _near(a: Call, b: Call) -> bool:
    distance = call_distance(a, b)
    return distance is not None and distance <= 1


def find_repeat(history: Sequence[Call]) -> str | None:
    """Does the latest call make no progress? "near_repeat", "alternating" or None.

    - near_repeat: an earlier call of the same tool, at most one word different, got
      the same observation;
    - alternating: the last four calls take turns, A, B, A, B (each at most one word
      from its twin), with A and B different.

    >>> s = lambda text, seen="no flights": Call("search_flights", text, seen)
    >>> find_repeat([s("Delhi Paris May"), s("Delhi Paris in May")])
    'near_repeat'
    >>> find_repeat([s("Delhi Paris May"), s("Delhi Paris June", "3 flights")]) is None
    True
    """
    if not history:
        return None
    last = history[-1]
    if any(_near(last, old) and old.observation == last.observation for old in history[:-1]):
        return "near_repeat"
    if len(history) >= 4:
        a1, b1, a2, b2 = history[-4:]
        if _near(a1, a2) and _near(b1, b2) and not _near(a1, b1):
            return "alternating"
    return None


def nudge_text(kind: str, history: Sequence[Call]) -> str:
    """The observation that tells the model what it repeated (said once)."""
    last = history[-1]
    if kind == "alternating":
        a, b = history[-4], history[-3]
        what = (f"you are alternating between {a.tool}[{a.input}] and {b.tool}[{b.input}], "
                "and neither gives anything new")
    else:
        what = (f"you called {last.tool} again with nearly the same input ({last.input!r}) "
                "and got the same result")
    return (f"{PROGRAM_NOTE}{what}. Try a different tool or input, give your "
            "Final Answer from what you have, or hand over to a person.")


def refusals(refused: int, refused_tools: dict[str, int], tool_errors: dict[str, int],
             unreadable: int = 0) -> str:
    """Why a run ended as ``repeating``: ``refused`` calls in all, ``refused_tools`` of them to
    tools that had failed (``tool_errors`` times each), ``unreadable`` of them replies that could
    not be read, sent again word for word. A tool that kept failing is named, not called a repeat;
    an unreadable reply made no call, so it is not called one either.

    >>> refusals(3, {"get_fx_rate": 3}, {"get_fx_rate": 2})
    'get_fx_rate failed 2 times and was refused, and the model called it again 3 times'
    >>> refusals(3, {}, {}, unreadable=3)
    'the model sent a reply that could not be read again 3 times after being told so (no call was made)'
    """
    def times(n: int) -> str:
        return "once" if n == 1 else f"{n} times"

    repeats = refused - sum(refused_tools.values()) - unreadable
    said = [f"the model repeated a call {times(repeats)} after being told not to"] if repeats else []
    said += [f"{tool} failed {times(tool_errors[tool])} and was refused, and the model called it "
             f"again {times(n)}" for tool, n in refused_tools.items()]
    said += [f"the model sent a reply that could not be read again {times(unreadable)} after being "
             "told so (no call was made)"] if unreadable else []
    return "; ".join(said)


class RepeatWatch:
    """The no-progress policy: nudge once, then end the run as ``repeating``.

    ``see(tool, input, observation)`` returns a nudge to append to the observation the
    first time a call makes no progress, else None. A second finding sets ``ended`` to
    the reason (the budget then ends the run after that step is recorded).
    ``see_unreadable`` watches the replies that could not be read: the same one again
    (word for word) gets a note, and the budget counts it as a refused repeat.
    """

    def __init__(self) -> None:
        self.history: list[Call] = []
        self.nudged = False
        self.ended: str | None = None
        self.unreadable: dict[str, int] = {}  # an unreadable reply -> the step it first came in

    def see_unreadable(self, reply: str, step: int) -> str | None:
        """A note when ``reply`` repeats an earlier unreadable one, else None.

        >>> watch = RepeatWatch()
        >>> watch.see_unreadable("I am not sure.", 1), watch.see_unreadable("i am  NOT sure.", 3)
        (None, 'This reply is the same as your reply in step 1, which could not be read either.')
        """
        first = self.unreadable.setdefault(" ".join(reply.lower().split()), step)
        if first == step:
            return None
        return f"This reply is the same as your reply in step {first}, which could not be read either."

    def see(self, tool: str, text: str, observation: str) -> str | None:
        self.history.append(Call(tool, text, observation))
        kind = find_repeat(self.history)
        if kind is None:
            return None
        if self.nudged:
            self.ended = f"{kind.replace('_', ' ')} again after a nudge ({tool}[{text}])"
            return None
        self.nudged = True
        return nudge_text(kind, self.history)

    def check(self) -> None:
        """Raise ``LimitReached("repeating")`` once a finding came after the nudge."""
        if self.ended:
            raise LimitReached("repeating", self.ended)


class HandOver(LimitReached):
    """Raised by the hand-over tools: the run ends as ``hand_over``, with the reason given."""

    def __init__(self, detail: str) -> None:
        super().__init__("hand_over", detail)


def people_tools(answer: Callable[[str], str] | None = None) -> list[Callable[[str], str]]:
    """Two tools the model can choose: ask the user a question, or hand over to a person.

    ``answer`` replies for the user (a function, or ``input`` in a terminal); with none,
    asking the user ends the run as ``hand_over`` with the question, for a person to answer.

    >>> ask_user, hand_over = people_tools(lambda question: "88213")
    >>> ask_user("Which order?")
    'The user replied: 88213'
    """

    def ask_user(question: str) -> str:
        """Ask the user for something only they know (which order, which option they want).
        Returns their reply. Example input: Which order number do you mean?
        """
        if answer is None:
            raise HandOver(f"the model needs the user to answer: {question.strip()}")
        return f"The user replied: {answer(question)}"

    def hand_over(reason: str) -> str:
        """Hand the case to a person when you cannot or should not finish it yourself (a refund
        you may not grant, missing access, an unhappy customer). Example input: refund of 480 INR
        needs a manager's approval
        """
        raise HandOver(f"the model handed over: {reason.strip()}")

    return [ask_user, hand_over]
