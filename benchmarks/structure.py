"""Measure lesson 12's structures against the plain loop on the evaluation set.

    python benchmarks/structure.py           print the metrics table, model calls and comparisons
    python benchmarks/structure.py --save    also write benchmarks/structure.json (lesson 12 reads it)

Each kind (``evaluate.structured.KINDS``: plain, plan, retry, reflect) runs every
bundled task (64) three times on the simulated model with its typical knobs, repeat
r seeded r. Success, steps, tokens and model calls are exact and repeatable; the
seconds are wall-clock on a shared machine. Per family, the plan's saving in model
calls shows where the task's shape is known up front. Each comparison is paired by
task, with a 95% interval clustered by task and a two-stage bootstrap (tasks, then
repeats). A reflection's lesson reaches the simulated model as the endings it
declares it permits (``structure.Lesson.permits``), never as its words.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from react_course.evaluate import FAMILIES, bootstrap, compare, load_tasks, metrics, table
from react_course.evaluate.metrics import mean
from react_course.evaluate.structured import KINDS, model_calls, run_structured

ROOT = Path(__file__).resolve().parent.parent
REPEATS = 3
PAIRS = (("plain", "plan"), ("plain", "retry"), ("plain", "reflect"), ("retry", "reflect"))


def measure() -> dict:
    tasks, found, seconds = load_tasks(), {}, {}
    for kind in KINDS:
        began = time.perf_counter()
        found[kind] = run_structured(kind, tasks, repeats=REPEATS)
        seconds[kind] = round(time.perf_counter() - began, 2)
    calls = {k: round(mean([model_calls(r) for r in runs]), 2) for k, runs in found.items()}
    by_family = {f: {k: round(mean([model_calls(r) for r in found[k] if r.task.family == f]), 2)
                     for k in ("plain", "plan")} for f in FAMILIES}
    return {"tasks": len(tasks), "repeats": REPEATS, "seconds": seconds,
            "table": table([metrics(found[k], k) for k in KINDS], errors=False),
            "model calls per task": calls, "model calls per task by family": by_family,
            **{f"{b} vs {a}": comparison(found[a], found[b]) for a, b in PAIRS}}


def comparison(a: list, b: list) -> dict:
    diff = compare(a, b)
    return {"clustered by task": str(diff),
            "bootstrap (tasks, then repeats)": [round(x, 4) for x in bootstrap(a, b)]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--save", action="store_true")
    args = parser.parse_args()
    figures = measure()
    print(figures["table"])
    for key, value in figures.items():
        if key != "table":
            print(f"{key}: {value}")
    if args.save:
        (ROOT / "benchmarks" / "structure.json").write_text(json.dumps(figures, indent=1) + "\n")


if __name__ == "__main__":
    main()
