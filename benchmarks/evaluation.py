"""Measure the evaluation of lesson 09: the default agent and one improved configuration.

    python benchmarks/evaluation.py           print both metrics tables and the times
    python benchmarks/evaluation.py --save    also write benchmarks/evaluation.json

Both configurations run every bundled task (64, train and held-out) three times on
the simulated model with its typical failure knobs (``evaluate.TYPICAL``), repeat r
seeded r, with a JSON Lines step log as ``react-course eval`` writes it. Each
comparison pairs the two by task: its 95% interval is clustered by task (t over the
tasks), beside a two-stage bootstrap (tasks, then repeats) and, for contrast, the
interval from the seeds alone. The figures are exact and repeatable except the
times, which are wall-clock on a shared machine. The simulated model is told what
each configuration's example permits (``Config.permits``): its gain is that
assumption at work, not a measurement of a real model.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from react_course.evaluate import (
    ASKS,
    DEFAULT,
    bootstrap,
    compare,
    load_tasks,
    metrics,
    run_eval,
    seed_interval,
    table,
    tasks_needed,
)

ROOT = Path(__file__).resolve().parent.parent
REPEATS = 3


def measure() -> dict:
    tasks, found, seconds = load_tasks(), {}, {}
    with tempfile.TemporaryDirectory() as scratch:
        for config in (DEFAULT, ASKS):
            began = time.perf_counter()
            found[config.name] = run_eval(config, tasks, repeats=REPEATS, log=Path(scratch) / "log.jsonl")
            seconds[config.name] = time.perf_counter() - began
    default, asks = (metrics(found[c.name], c.name) for c in (DEFAULT, ASKS))
    splits = {"whole set": lambda r: True, "train": lambda r: r.task.split == "train",
              "held-out": lambda r: r.task.split == "heldout"}
    return {"tasks": len(tasks), "repeats": REPEATS, "seconds": {k: round(v, 2) for k, v in seconds.items()},
            "table": table([default, asks]),
            **{name: comparison(*([r for r in found[c] if keep(r)] for c in ("default", "asks")))
               for name, keep in splits.items()}}


def comparison(a: list, b: list) -> dict:
    """One paired comparison, with the parts of its noise and the tasks a +/-10-point interval needs."""
    diff, boot, seeds = compare(a, b), bootstrap(a, b), seed_interval(a, b)
    return {"clustered by task": str(diff), "tasks": diff.tasks, "se": round(diff.se, 4),
            "se from the repeats": round(diff.repeat_se, 4), "se from the tasks": round(diff.task_se, 4),
            "bootstrap (tasks, then repeats)": [round(x, 4) for x in boot],
            "seeds alone, tasks fixed": [round(x, 4) for x in seeds] if seeds else None,
            "tasks for +/-10 points": tasks_needed(diff.task_sd, 0.10)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--save", action="store_true")
    args = parser.parse_args()
    figures = measure()
    print(figures["table"])
    print(f"\n{figures['tasks']} tasks x {figures['repeats']} repeats; seconds: {figures['seconds']}")
    for name in ("whole set", "train", "held-out"):
        print(f"{name}: {json.dumps(figures[name], indent=1)}")
    if args.save:
        (ROOT / "benchmarks" / "evaluation.json").write_text(json.dumps(figures, indent=1) + "\n")


if __name__ == "__main__":
    main()
