"""Compression that pays for itself, counted in tokens (exact and repeatable, never timed).

On lesson 08's long tasks, the agent's input plus the summariser's reading must
fall by half against the uncompressed runs, with every task still solved. Token
counts are deterministic here (scripted models, exact counts), so the figure the
benchmark reports can be held as a test.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from compression import measure

from react_course.context_cost.context import Compressor, ExtractiveSummariser
from react_course.lessons.long_tasks import TASKS


def _total(cut: int | None, threshold: int | None, keep: int = 1) -> tuple[int, int]:
    solved, tokens = 0, 0
    for task in TASKS:
        history = None
        if threshold:
            history = Compressor(ExtractiveSummariser(), threshold=threshold, keep_last=keep)
        row = measure(task, history, cut=cut)
        solved += row["solved"]
        tokens += row["agent"].input + row["summariser"].input
    return solved, tokens


def test_cut_and_compressed_runs_read_half_the_tokens_and_lose_no_task() -> None:
    base_solved, base = _total(None, None)
    solved, tokens = _total(120, 250)
    assert base_solved == solved == len(TASKS)
    assert tokens <= base / 2, f"{1 - tokens / base:.0%} saved"
