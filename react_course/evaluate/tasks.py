"""The evaluation set: bundled tasks with gold answers, in families, with a held-out split.

A task is data (``react_course/data/eval_tasks.json``): a question over the
course's bundled tools, its gold answer, the calls a careful agent makes, and
the wrong answer a careless one gives. Seven families: multi-hop encyclopedia
questions, comparisons with arithmetic, the shop, the support desk (the
"promised by 6" misreading among them), dates (today is fixed), questions
whose answer is not in the data (the right outcome says so) and underspecified
requests (the right move is to ask the user).

The held-out split is every fourth task of each family: judge a change on it
only after tuning on ``train``, so that the change is not fitted to the tasks
it is judged on. What it leaves out: tasks with side effects, and graded
(partial) answers.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Literal

from ..tools import ToolRegistry, default_tools
from ..tools.data import load_json

Kind = Literal["text", "number", "no_answer", "ask_user"]
FAMILIES = ("multi_hop", "comparison", "shop", "support", "dates", "no_answer", "ask_user")


@dataclass(frozen=True)
class Task:
    """One question, its gold answer and what a careful agent does to find it."""

    id: str
    family: str
    split: Literal["train", "heldout"]
    kind: Kind
    question: str
    answer: Any = None  # text, {"value", "unit"}, or None (no_answer, ask_user)
    aliases: tuple[str, ...] = ()
    calls: tuple[tuple[str, str], ...] = ()  # the expected (tool, input) calls, in order
    final: str = ""  # a correct final answer, in a sentence
    distractor: str = ""  # the wrong answer of an agent that misread or guessed
    meta: dict[str, Any] = field(default_factory=dict, compare=False)


@cache
def _data() -> dict[str, Any]:
    return load_json("eval_tasks.json")


def today() -> dt.date:
    """The evaluation's fixed date, so that the date questions have one answer."""
    return dt.date.fromisoformat(_data()["today"])


def load_tasks(split: str | None = None, family: str | None = None) -> list[Task]:
    """The bundled tasks, optionally one split ("train", "heldout") or one family.

    >>> len(load_tasks()) >= 60, sorted({t.split for t in load_tasks()})
    (True, ['heldout', 'train'])
    """
    if split not in (None, "train", "heldout"):
        raise ValueError(f"split is 'train', 'heldout' or None (all), not {split!r}")
    tasks = [Task(**{**raw, "aliases": tuple(raw.get("aliases", ())),
                     "calls": tuple(tuple(c) for c in raw["calls"])}) for raw in _data()["tasks"]]
    return [t for t in tasks if split in (None, t.split) and family in (None, t.family)]


def task_tools() -> ToolRegistry:
    """Every bundled tool, fresh, with the evaluation's date: one registry for every task."""
    return default_tools(today())
