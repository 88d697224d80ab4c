"""Measure lesson 10's comparison: the refund job as a ReAct agent and as a fixed workflow.

    python benchmarks/workflow.py           print the comparison
    python benchmarks/workflow.py --save    also write benchmarks/workflow.json

Both run the late-delivery refund question for every delivered order of the support
desk (``lessons.workflow.refund_tasks``, a family of lesson 09's evaluation set), 20
times each: the agent on the simulated model with the evaluation's typical failure
knobs (repeat r seeded r), the workflow in code with one scripted model call to word
the answer. Tokens, model calls and failures are exact and repeatable; the seconds are
wall-clock on a shared machine, the program's own overhead (no model latency).
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict
from pathlib import Path

from react_course.lessons.workflow import measure_agent, measure_workflow, off_shape, refund_tasks

ROOT = Path(__file__).resolve().parent.parent
REPEATS = 20


def measure() -> dict:
    tasks = refund_tasks()
    agent, flow = measure_agent(tasks, REPEATS), measure_workflow(tasks, REPEATS)
    sides = {side.name: {k: round(v, 4) if isinstance(v, float) else v for k, v in asdict(side).items()}
             for side in (agent, flow)}
    return {"tasks": len(tasks), "repeats": REPEATS, "sides": sides,
            "fewer tokens": round(1 - flow.tokens_per_task / agent.tokens_per_task, 3),
            "workflow right on the support family": [t for t, ok in off_shape() if ok]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--save", action="store_true")
    args = parser.parse_args()
    figures = measure()
    print(json.dumps(figures, indent=1))
    if args.save:
        (ROOT / "benchmarks" / "workflow.json").write_text(json.dumps(figures, indent=1) + "\n")


if __name__ == "__main__":
    main()
