"""``react-course eval``: run the evaluation set, show a progress bar, print the metrics table.

A plain function (``evaluate_command``) with the CLI's defaults, so that the
verb stays thin. On the simulated model (the default) every run is offline
and the whole set takes seconds; with ``--model`` (or REACT_COURSE_MODEL) the
runs go to a real model, ``--workers`` at a time under ``--rate`` calls per
second, and ``--resume`` carries on from the log after an interruption.
What it leaves out: comparing two logs (the lesson does that, with plots).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import IO, Any

CONFIGS = ("default", "asks")


def progress_bar(out: IO[str] | None = None, width: int = 30):
    """A one-line text progress bar, redrawn in place.

    >>> import io; buffer = io.StringIO(); bar = progress_bar(buffer, width=10); bar(5, 10)
    >>> buffer.getvalue()
    '\\r[#####.....]   5/10'
    """
    def show(done: int, total: int) -> None:
        stream = out if out is not None else sys.stderr  # looked up late: tests swap sys.stderr
        filled = width * done // total if total else width
        if done != total and filled == width * (done - 1) // max(total, 1):
            return  # redraw only when the bar grows: a log of the output stays short
        stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done:>3}/{total}")
        if done == total:
            stream.write("\n")
        stream.flush()
    return show


def evaluate_command(config: str = "default", split: str | None = None, repeats: int = 3,
                     log: str | Path = "eval-log.jsonl", resume: bool = False, model: str | None = None,
                     workers: int = 4, rate: float = 2.0, quiet: bool = False) -> tuple[Any, str]:
    """Run the evaluation and return (its metrics, the table as Markdown)."""
    from ..evaluate import ASKS, DEFAULT, load_tasks, metrics, run_eval, table
    from ..providers import parse_model_spec, real_model

    chosen = {"default": DEFAULT, "asks": ASKS}[config]
    tasks = load_tasks(split)
    spec = parse_model_spec(model) if model else None
    if spec is not None and spec.kind != "scripted":
        runs = run_eval(chosen, tasks, repeats=repeats, model_for=lambda _repeat: real_model(spec),
                        log=log, resume=resume, workers=workers, rate=rate,
                        progress=None if quiet else progress_bar())
    else:  # the simulated model: one thread, no rate limit
        runs = run_eval(chosen, tasks, repeats=repeats, log=log, resume=resume,
                        progress=None if quiet else progress_bar())
    found = metrics(runs, chosen.name)
    return found, table([found], latency=True)
