"""``release``, the data: each exercise's key values, computed once, for the student edition.

For every spec, on its worked examples and on a seeded sample of its generated inputs,
the key's value as plain JSON (what ``checks/released.py`` reads back), and the value
of each known wrong solution (``Fault.like``) on the same input, so a hint in the
edition follows the fault found as it does here.

The sample is drawn with another seed than the grader's generated inputs: a student
who copies the released values into a lookup table passes the notebook's check and
still fails the grade. It is stored smallest input first, because the edition cannot
shrink (it has no key to ask about smaller inputs).

Left out: hidden cases (the grade's, never released) and the full count of generated
inputs (the grader's).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from typing import Any

from ..checks.generated import Draw
from ..checks.plain import to_plain
from ..checks.spec import Spec

__all__ = ["SAMPLE", "exercise_data", "sample_inputs"]

SAMPLE = 40  # generated inputs per exercise in the edition (fewer when the statement has fewer)


def sample_inputs(spec: Spec, size: int = SAMPLE) -> list[tuple]:
    """``size`` distinct inputs from the spec's generator, drawn with the release's own seed.

    Ordered smallest first (fewest choices, then the shortest text), so the first
    input that differs is a small one.
    """
    rng, made, seen = random.Random(f"{spec.id}:release:{spec.seed}"), [], set()
    for _ in range(max(size, spec.count) * 4):
        if len(made) >= min(size, spec.count):
            break
        draw = Draw(rng)
        args = spec.inputs(draw)
        text = json.dumps(to_plain(args), ensure_ascii=False)
        if text not in seen:
            seen.add(text)
            made.append((len(draw.choices), len(text), text, args))
    return [args for *_, args in sorted(made, key=lambda item: item[:3])]


def _entry(spec: Spec, args: tuple) -> dict[str, Any]:
    entry: dict[str, Any] = {"args": to_plain(args), "expected": to_plain(spec.expected(args))}
    wrong = {}
    for number, fault in enumerate(spec.faults):
        if fault.like is None:
            continue
        try:
            wrong[str(number)] = to_plain(spec.value(fault.like, args))
        except TypeError:  # a wrong solution's value that is not plain: that fault goes unrecognised
            continue
    if wrong:
        entry["wrong"] = wrong
    return entry


def exercise_data(spec: Spec, size: int = SAMPLE) -> dict[str, Any]:
    """What the edition keeps of one exercise: examples and sample, each with the key's value."""
    def entries(inputs: Iterable[tuple]) -> list[dict[str, Any]]:
        return [_entry(spec, args) for args in inputs]

    return {"exercise": spec.id, "examples": entries(example.args for example in spec.examples),
            "sample": entries(sample_inputs(spec, size))}
