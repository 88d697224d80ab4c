"""Every figure in the lessons has alt text; a check's values wrap at spaces, never mid-word."""

from __future__ import annotations

import json
from pathlib import Path

import matplotlib
import pytest

from react_course.checks import Case
from react_course.checks.framework import run_cases
from react_course.web.figures import figure_bundle

matplotlib.use("Agg")
ROOT = Path(__file__).resolve().parents[1]


def _image_outputs(path: Path) -> list[dict]:
    notebook = json.loads(path.read_text(encoding="utf-8"))
    return [output for cell in notebook["cells"] for output in cell.get("outputs", [])
            if "image/png" in output.get("data", {})]


@pytest.mark.parametrize("path", sorted((ROOT / "notebooks").glob("*.ipynb")), ids=lambda p: p.name)
def test_every_figure_has_alt_text(path: Path) -> None:
    for output in _image_outputs(path):
        alt = output.get("metadata", {}).get("image/png", {}).get("alt", "")
        assert len(alt) > 40, f"a figure in {path.name} has no alt text (use rc.show_figure(fig, alt))"
        assert "".join(output["data"]["text/plain"]) == alt


def test_a_figure_without_alt_text_is_refused() -> None:
    import matplotlib.pyplot as plt

    fig = plt.figure(figsize=(1, 1))
    data, metadata = figure_bundle(fig, "A single empty square.")
    assert data["text/plain"] == "A single empty square." and data["image/png"]
    assert metadata == {"image/png": {"alt": "A single empty square."}}
    with pytest.raises(ValueError, match="needs alt text"):
        figure_bundle(fig, "  ")
    plt.close(fig)


def test_check_values_wrap_at_word_boundaries() -> None:
    result = run_cases("99.demo", "demo", object(), lambda obj: [
        Case("long value", lambda: "word " * 60, expected="other")])
    html = result._repr_html_()
    assert "white-space:pre-wrap;word-break:normal;overflow-wrap:break-word" in html
    assert "break-all" not in html
