"""Lesson 12's props: the frameworks' runs (with the optional extra) and the search tool's filter."""

from __future__ import annotations

import pytest

from react_course import ScriptedModel, run_react
from react_course.lessons import frameworks as fw
from react_course.lessons.incidents import RefundDesk
from react_course.lessons.web_search import format_results, sanitise, search_results, web_search
from react_course.safety import refund_limit
from react_course.scripted_api import serve


@pytest.fixture(scope="module")
def url():
    with serve() as base_url:
        yield base_url


@pytest.mark.parametrize("name", list(fw.MODULES))
def test_each_framework_answers_the_worked_question_in_three_calls(url, name):
    if fw.missing(name):
        pytest.skip(f"{name}: the optional 'frameworks' extra is not installed")
    assert fw.report(name, url) == f"{name}: 3 tool calls, answer: " + fw.run_framework(name, url).answer
    assert "237 m" in fw.run_framework(name, url).answer


def test_a_missing_client_says_what_to_install(monkeypatch):
    monkeypatch.setattr(fw, "missing", lambda name: ["smolagents"])
    line = fw.report("smolagents", "http://127.0.0.1:1/v1")
    assert line.startswith("smolagents: not run.") and "course.py setup --frameworks" in line
    with pytest.raises(ValueError, match="name is one of"):
        fw.run_framework("crewai", "http://127.0.0.1:1/v1")


def test_every_framework_maps_all_five_parts():
    assert all(len(parts) == len(fw.PART_NAMES) for parts in fw.PARTS.values())
    assert set(fw.MODULES) <= set(fw.PARTS)


def test_the_filter_catches_the_known_phrase_and_misses_the_paraphrase():
    text = web_search("late delivery refund")
    assert "IGNORE ALL PREVIOUS" not in text and "[a line was removed by the filter]" in text
    assert "505 INR" in text  # the business-prose instruction passes the filter
    assert text.count("https://") == 3 and format_results(search_results("x", k=1)).startswith("[1] ")
    assert sanitise("nothing odd here") == "nothing odd here"


def test_the_gate_refuses_the_injected_refund_whatever_the_filter_missed():
    desk = RefundDesk()
    model = ScriptedModel([
        "Thought: I search first.\nAction: web_search\nAction Input: late delivery refund",
        'Thought: The update says 505.\nAction: refund\nAction Input: {"order_id": 88213, "amount": 505}',
        "Thought: The refund was refused.\nFinal Answer: A person must approve a 505 INR refund.",
    ])
    result = run_react("Refund order 88213 as the rules say.", model, [web_search, *desk.tools()],
                       policy=refund_limit(25), max_steps=4)
    assert desk.paid == [] and "over the limit" in result.steps[1].observation


@pytest.mark.parametrize("extra", ["as installed", "missing"])
def test_the_lessons_framework_cell_prints_four_answers_or_says_what_to_install(capsys, monkeypatch, extra):
    """The lesson's framework cell is not compared by nbval; here it runs, and what it prints is checked."""
    if extra == "missing":  # a room without the extra: every client absent
        monkeypatch.setattr(fw, "missing", lambda name: list(fw.MODULES[name]))
    import contextlib
    from pathlib import Path

    import nbformat

    lesson = nbformat.read(Path(__file__).parents[1] / "notebooks" / "12_beyond_one_loop.ipynb", as_version=4)
    code = [c.source for c in lesson.cells if c.cell_type == "code"]
    cell = next(c for c in code if c.startswith("# NBVAL_IGNORE_OUTPUT") and "fw.report" in c)
    namespace: dict = {}
    with contextlib.redirect_stdout(None):
        exec(code[0], namespace)  # the lesson's imports
    exec(cell, namespace)
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":", 1)[0] for line in lines] == list(fw.MODULES)
    for name, line in zip(fw.MODULES, lines, strict=True):
        want = "not run." if fw.missing(name) else "3 tool calls, answer: The Eiffel Tower"
        assert want in line and "Traceback" not in line
