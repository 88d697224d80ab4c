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
import os
import random
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..checks.generated import Draw
from ..checks.plain import from_plain, to_plain
from ..checks.spec import Spec

__all__ = ["SAMPLE", "exercise_data", "lesson_inputs", "sample_inputs"]

SAMPLE = 60  # generated inputs per exercise in the edition (fewer when the statement has fewer)


def sample_inputs(spec: Spec, size: int = SAMPLE) -> list[tuple]:
    """``size`` distinct inputs from the spec's generator, drawn with the release's own seed.

    An input that is one of the spec's hidden cases is drawn again: those stay the grade's.

    Ordered smallest first (fewest choices, then the shortest text), so the first
    input that differs is a small one.
    """
    rng, made = random.Random(f"{spec.id}:release:{spec.seed}"), []
    seen = {json.dumps(to_plain(hidden.args), ensure_ascii=False) for hidden in spec.hidden}  # never released
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


def exercise_data(spec: Spec, size: int = SAMPLE, shown: Iterable[tuple] = ()) -> dict[str, Any]:
    """What the edition keeps of one exercise: examples and sample, each with the key's value.

    ``shown``: inputs a lesson asks the key about (``lesson_inputs``), kept with the examples.
    """
    def entries(inputs: Iterable[tuple]) -> list[dict[str, Any]]:
        return [_entry(spec, args) for args in inputs]

    return {"exercise": spec.id, "examples": entries([*(example.args for example in spec.examples), *shown]),
            "sample": entries(sample_inputs(spec, size))}


RECORDER = """\
import json, sys
from react_course.checks.plain import to_plain
from react_course.checks.spec import Spec
asked, expected = [], Spec.expected
def recorded(self, args):
    asked.append([self.id, to_plain(args)])
    return expected(self, args)
Spec.expected = recorded
"""


def lesson_inputs(notebooks: Iterable[Path]) -> dict[str, list[tuple]]:
    """The inputs each lesson asks a key about (lesson 11's ``answer_key_on``), by exercise.

    Each lesson that imports a checker module runs here once, its code cells as one
    script in a fresh Python, with ``Spec.expected`` recording what it is asked.
    """
    found: dict[str, list[tuple]] = {}
    for notebook in notebooks:
        cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
        code = ["".join(cell["source"]) for cell in cells if cell["cell_type"] == "code"]
        if not any("react_course.checks.lesson" in text for text in code):
            continue
        with tempfile.TemporaryDirectory() as scratch:
            out = Path(scratch) / "asked.json"
            script = "\n\n".join([RECORDER, "from IPython.display import display", *code,
                                   f"open({str(out)!r}, 'w').write(json.dumps(asked))"])
            subprocess.run([sys.executable, "-c", script], cwd=scratch, check=True, capture_output=True,
                           env={**os.environ, "MPLBACKEND": "Agg"}, timeout=600)
            for exercise, args in json.loads(out.read_text(encoding="utf-8")):
                found.setdefault(exercise, []).append(from_plain(args))
    return found
