"""The loop from memory against the answer key, on seeded generated scripts.

The hand-written cases end where their author's imagination ends. Here a
seeded generator writes many short scripts over the statement's space (valid
actions, repeated ones, unknown tools, unreadable replies, a tool that raises,
a model that ignores the stop and writes its own observation, final answers,
step limits of 1 to 5), runs the student's loop and ``reference_run`` on each,
and reports the smallest script on which they differ. The same seed gives the
same verdict every run.

What is compared is behaviour, not wording: the end reason, the answer (or
that a hand-over starts with "Could not finish"), the number of model calls,
the tool calls made, and whether an invented observation reached a prompt.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...models import ScriptedModel
from ..framework import CallBudgetExceeded, describe, error_text
from ..guards import GuardedModel
from .hostile import (
    ADD_UP,
    ASK_NOTEBOOK,
    ASK_PEN,
    ASK_RULER,
    INVENTED,
    QUESTION,
    UNKNOWN,
    UNREADABLE,
    WRITES_OWN,
    logged_tools,
    prompts_of,
    reference_run,
    spare,
)

SEED, COUNT = 11, 60
POOL = (ASK_NOTEBOOK, ASK_PEN, ASK_RULER, ADD_UP, UNKNOWN, UNREADABLE, WRITES_OWN,
        "Thought: Done.\nFinal Answer: 16")


@dataclass(frozen=True)
class Script:
    replies: tuple[str, ...]
    max_steps: int
    ignore_stops: bool

    @property
    def size(self) -> tuple[int, int]:
        return len(self.replies), self.max_steps

    def __str__(self) -> str:
        stops = "ignores the stop" if self.ignore_stops else "honours the stop"
        return (f"max_steps={self.max_steps}, a model that {stops}, replying in turn: "
                + " | ".join(describe(r, 90) for r in self.replies))


def scripts(seed: int = SEED, count: int = COUNT) -> list[Script]:
    """``count`` scripts, smallest first, so the first difference found is the smallest."""
    rng = random.Random(seed)
    made: set[Script] = set()
    for _ in range(20 * count):  # bounded: duplicates are drawn again, a few times at most
        if len(made) == count:
            break
        made.add(Script(tuple(rng.choice(POOL) for _ in range(rng.randint(1, 6))),
                        rng.randint(1, 5), rng.random() < 0.4))
    return sorted(made, key=lambda s: (s.size, s.replies, s.ignore_stops))


def outcome(loop: Callable[..., Any], script: Script) -> tuple[Any, ...]:
    """What a loop did on ``script``, in the terms the comparison uses."""
    log: list[tuple[str, str]] = []
    model = ScriptedModel([*script.replies, *spare(script.max_steps + 1)],
                          ignore_stops=script.ignore_stops)
    guarded = GuardedModel(model, max_calls=script.max_steps)
    try:
        got = loop(QUESTION, guarded, logged_tools(log), max_steps=script.max_steps)
    except NotImplementedError:
        raise
    except CallBudgetExceeded:
        return ("called the model more than max_steps times",)
    except Exception as error:  # the student's loop crashed: that is its outcome
        return ("raised " + error_text(error, 120),)
    invented = any(INVENTED in prompt for prompt in prompts_of(model))
    return (summary(got), guarded.calls, tuple(log), invented)


def summary(got: Any) -> Any:
    if not (isinstance(got, tuple) and len(got) == 2):
        return ("returned", describe(got, 80))
    answer, reason = got
    if reason == "step_limit":
        return ("step_limit", isinstance(answer, str) and answer.startswith("Could not finish"))
    return (reason, answer)


def first_difference(loop: Callable[..., Any]) -> tuple[Script, Any, Any] | None:
    """The smallest generated script on which ``loop`` and the answer key differ (None if none)."""
    for script in scripts():
        want, got = outcome(reference_run, script), outcome(loop, script)
        if got != want:
            return script, want, got
    return None


def explain(found: tuple[Script, Any, Any] | None) -> bool | str:
    if found is None:
        return True
    script, want, got = found
    return f"on {script}: the answer key did {show(want)}; yours did {show(got)}"


def show(result: Any) -> str:
    if len(result) == 1:
        return result[0]
    end, calls, log, invented = result
    seen = ", and an invented observation reached a prompt" if invented else ""
    return f"{end} after {calls} model call{'s' * (calls != 1)}, tools {list(log)}{seen}"
