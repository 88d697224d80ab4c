"""Golden transcripts: the exact trace a student reads. Rewrite with --update-goldens."""

from __future__ import annotations

from pathlib import Path

import pytest

from react_course import WORKED_EXAMPLES, default_tools, demo_model, run_react

GOLDEN = Path(__file__).parent / "golden"
CASES = {
    "eiffel_vs_liberty": WORKED_EXAMPLES[0],
    "paris_tower_1889": WORKED_EXAMPLES[3],
    "support_refund": WORKED_EXAMPLES[5],
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_transcript_matches_golden(name: str, update_goldens: bool) -> None:
    result = run_react(CASES[name], demo_model(), default_tools())
    text = result.render(authors=True) + "\n"
    path = GOLDEN / f"{name}.txt"
    if update_goldens or not path.exists():
        path.write_text(text, encoding="utf-8")
        if not update_goldens:
            pytest.fail(f"{path.name} did not exist and was written; check it and commit it")
    assert text == path.read_text(encoding="utf-8")
