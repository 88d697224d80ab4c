"""``grade``, 3c: after the notebook's cells, the grader asks the kernel for answers, in rounds.

``grade_run.py`` executes a submission with ``AskingClient``: nbclient's client
that, once every cell has run, keeps the kernel and executes the cells ``Asker``
hands it, one per round. Each asks for the student's answers to the inputs the
grader planned from the exercise's spec (``trusted_spec.inputs``). The answers are judged
in this process (``trusted_spec.replay``), which may need the answers to a few more
inputs (a comparison that shrinks a difference), asked in the next round.

What it leaves out: what the kernel does with a question (``kernel_answers.py``).
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from nbclient import NotebookClient
from nbclient.util import ensure_async, run_sync

from ..checks.framework import CaseResult, CheckResult
from . import registry, trusted_spec


class Asker:
    """The rounds of questions for one submission, and the results they lead to.

    ``plan``: each exercise's inputs; ``names``: the name the notebook defines for it.
    """

    def __init__(self, nonce: str, plan: dict[str, list[str]], names: dict[str, str],
                 seconds: float = 120.0) -> None:
        self.nonce, self.names, self.seconds = nonce, names, seconds
        self.pending = {e: list(keys) for e, keys in plan.items()}
        self.answers: dict[str, dict[str, dict]] = {e: {} for e in plan}
        self.asked: dict[str, set[str]] = {e: set() for e in plan}
        self.asked_rounds: dict[str, int] = {e: 0 for e in plan}
        self.results: dict[str, CheckResult] = {}
        self.rounds = 0

    def next_cell(self, answered: Any) -> Any:
        """The cell of the next round, or None when every exercise has its result."""
        import nbformat

        if answered is not None:
            self._take(answered)
        if not self.pending:
            return None
        self.rounds += 1
        questions, share = [], 0.8 * self.seconds / len(self.pending)  # of the cell's time-out
        for e, keys in self.pending.items():
            self.asked[e].update(keys)
            self.asked_rounds[e] += 1
            questions.append([e, self.names[e], keys, share])
        cell = nbformat.v4.new_code_cell(ask_cell(self.nonce, questions))
        cell.metadata["grader"] = True
        return cell

    def _take(self, cell: Any) -> None:
        replies = _nonce_line(cell, self.nonce)
        replies = replies if isinstance(replies, dict) else {}
        asked, self.pending = self.pending, {}
        for exercise_id in asked:
            found = replies.get(exercise_id)
            found = {k: v for k, v in found.items() if k in self.asked[exercise_id]} \
                if isinstance(found, dict) else {}
            if not found:
                self.results[exercise_id] = _silent(exercise_id)
                continue
            if all(isinstance(o, dict) and "missing" in o for o in found.values()):
                self.results[exercise_id] = missing(exercise_id, self.names[exercise_id])
                continue
            self.answers[exercise_id].update(found)
            last = self.asked_rounds[exercise_id] >= trusted_spec.ROUNDS
            result, more = trusted_spec.replay(exercise_id, self.answers[exercise_id],
                                               self.asked[exercise_id], last)
            if more:
                self.pending[exercise_id] = more
            else:
                self.results[exercise_id] = result


def ask_cell(nonce: str, questions: list[list]) -> str:
    """The source of the cell that asks the kernel: ``[[exercise, name, [input keys], seconds], ...]``."""
    return ("import react_course.course.kernel_answers as _ask\n"
            f"_ask.answers({nonce!r}, {json.dumps(questions)!r})\ndel _ask")


def _nonce_line(cell: Any, nonce: str) -> dict | None:
    """The answers the round's cell printed (the first line that starts with the nonce)."""
    for output in cell.get("outputs", []):
        text = output.get("text", "") if output.get("output_type") == "stream" else ""
        for line in text.splitlines():
            if line.startswith(nonce):
                try:
                    return json.loads(line[len(nonce):]).get("answers")
                except (ValueError, AttributeError):
                    return None
    return None


def missing(exercise_id: str, name: str) -> CheckResult:
    case = CaseResult("answer", "not attempted", 0, 1, message=f"the notebook defines no {name!r}")
    return CheckResult(exercise_id, registry.title(exercise_id), (case,))


def _silent(exercise_id: str) -> CheckResult:
    case = CaseResult("answers", "failed", 0, 1, message="the kernel gave no answers to the grader's inputs")
    return CheckResult(exercise_id, registry.title(exercise_id), (case,))


def as_json(result: CheckResult) -> dict:
    return {"exercise": result.exercise, "title": result.title,
            "cases": [dataclasses.asdict(case) for case in result.cases]}


class AskingClient(NotebookClient):
    """nbclient's client, with rounds of the grader's questions after the notebook's last cell."""

    asker: Asker | None = None

    async def async_execute(self, reset_kc: bool = False, **kwargs: Any) -> Any:
        self.reset_execution_trackers()
        async with self.async_setup_kernel(**kwargs):
            assert self.kc is not None
            await self.async_wait_for_reply(await ensure_async(self.kc.kernel_info()))
            for index, cell in enumerate(self.nb.cells):
                await self.async_execute_cell(cell, index, execution_count=self.code_cells_executed + 1)
            cell = self.asker.next_cell(None) if self.asker else None
            while cell is not None:
                self.nb.cells.append(cell)
                await self.async_execute_cell(cell, len(self.nb.cells) - 1,
                                              execution_count=self.code_cells_executed + 1)
                cell = self.asker.next_cell(cell)
        return self.nb

    execute = run_sync(async_execute)
