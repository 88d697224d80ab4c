"""The price table: one row per model with date and source, a check a maintainer runs, and lessons that
print their prices from it (no price typed into a lesson's prose or code)."""

from __future__ import annotations

import json
import re
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

from react_course.context_cost.cost import prices
from react_course.context_cost.price_table import check_report, check_table
from react_course.tools.data import load_json

ROOT = Path(__file__).resolve().parent.parent
ROWS = load_json("prices.json")["models"]
PRICED_LESSONS = ["07_native_tool_calling.ipynb", "08_token_cost_and_context.ipynb"]
DOLLARS = re.compile(r"\$\s?(\d[\d,]*(?:\.\d+)?)")


def test_one_row_per_model_each_with_its_date_and_source() -> None:
    problems, _old = check_table(ROWS, date(2026, 12, 1))
    assert problems == []
    assert len({row["model"] for row in ROWS}) == len(ROWS)
    assert all(row["as_of"] and row["source"] and row["cache"]["source"] for row in ROWS)


def test_the_check_names_what_is_wrong_and_what_is_old() -> None:
    broken = [{"model": "m", "as_of": "1 Dec", "input": 2.5, "output": "x"},
              {"model": "m", "as_of": "2024-01-01", "source": "a page", "input": "1", "output": "2",
               "cache": {"minimum": "1024", "writes": {"5m": "1.25"}}}]
    problems, old = check_table(broken, date(2026, 12, 1))
    assert "m: as_of is '1 Dec'; write the day it was read as YYYY-MM-DD" in problems
    assert any("no source" in p for p in problems) and any("input is 2.5" in p for p in problems)
    assert any("two rows for one model" in p for p in problems)
    assert any("cache rules without a source" in p for p in problems)
    assert any("cache minimum is '1024'" in p for p in problems)
    assert old and "read 2024-01-01" in old[0]
    usable, report = check_report("{not json", date(2026, 12, 1))
    assert not usable and "cannot be read" in report


def _notebook(name: str) -> dict:
    return json.loads((ROOT / "notebooks" / name).read_text(encoding="utf-8"))


def _printed(notebook: dict) -> str:
    text = []
    for cell in notebook["cells"]:
        for output in cell.get("outputs", []):
            text.append("".join(output.get("text", "")))
            text.append("".join(output.get("data", {}).get("text/plain", "")))
    return "\n".join(text)


def _table_figures() -> set[Decimal]:
    figures = set()
    for price in prices().values():
        figures |= {p for p in (price.input, price.cached_input, price.output) if p is not None}
    return figures


@pytest.mark.parametrize("lesson", PRICED_LESSONS)
def test_every_dollar_figure_in_a_lessons_prose_is_printed_by_its_code(lesson: str) -> None:
    notebook = _notebook(lesson)
    printed = {Decimal(m.replace(",", "")) for m in DOLLARS.findall(_printed(notebook))}
    for index, cell in enumerate(notebook["cells"]):
        if cell["cell_type"] != "markdown":
            continue
        for figure in DOLLARS.findall("".join(cell["source"])):
            assert Decimal(figure.replace(",", "")) in printed, (
                f"{lesson} cell {index} states ${figure}, which no output of the lesson prints: "
                "print it from the price table (react_course.context_cost.cost.prices()) "
                "instead of typing it")


@pytest.mark.parametrize("lesson", PRICED_LESSONS)
def test_no_lesson_code_types_a_price_in(lesson: str) -> None:
    listed = _table_figures()
    for index, cell in enumerate(_notebook(lesson)["cells"]):
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        for call in re.findall(r"Price\(([^)]*)\)", source):
            typed = {Decimal(x) for x in re.findall(r"\b\d+\.\d+\b", call)}
            assert not typed & listed, f"{lesson} cell {index} types a price into Price(...): {call}"
        for literal in re.findall(r"Decimal\(\"(\d+\.\d+)\"\)", source):
            assert Decimal(literal) not in listed, f"{lesson} cell {index} types the price {literal}"


def test_the_maintainers_command_checks_the_bundled_file_and_a_broken_copy(tmp_path, capsys) -> None:
    from react_course.course.prices import main

    assert main(["--check"]) == 0
    assert "0 problems" in capsys.readouterr().out
    broken = tmp_path / "prices.json"
    broken.write_text(json.dumps({"models": [{"model": "m", "as_of": "2026-12-01", "input": "1"}]}))
    assert main(["--check", str(broken)]) == 1
    assert "m: no source" in capsys.readouterr().out
