"""Measure the evaluation of lesson 09: the default agent and one improved configuration.

    python benchmarks/evaluation.py           print both metrics tables and the times
    python benchmarks/evaluation.py --save    also write benchmarks/evaluation.json

Both configurations run every bundled task (64, train and held-out) three times on
the simulated model with its typical failure knobs (``evaluate.TYPICAL``), repeat r
seeded r, with a JSON Lines step log as ``react-course eval`` writes it. The figures
are exact and repeatable except the times, which are wall-clock on a shared machine.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from react_course.evaluate import ASKS, DEFAULT, compare, load_tasks, metrics, run_eval, table

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
    held = [[r for r in found[c.name] if r.task.split == "heldout"] for c in (DEFAULT, ASKS)]
    return {"tasks": len(tasks), "repeats": REPEATS, "seconds": {k: round(v, 2) for k, v in seconds.items()},
            "table": table([default, asks]), "whole set": str(compare(found["default"], found["asks"])),
            "held-out": str(compare(*held))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--save", action="store_true")
    args = parser.parse_args()
    figures = measure()
    print(figures["table"])
    print(f"\n{figures['tasks']} tasks x {figures['repeats']} repeats; seconds: {figures['seconds']}")
    print("whole set:", figures["whole set"])
    print("held-out: ", figures["held-out"])
    if args.save:
        (ROOT / "benchmarks" / "evaluation.json").write_text(json.dumps(figures, indent=1) + "\n")


if __name__ == "__main__":
    main()
