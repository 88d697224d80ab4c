"""The check machinery: verdicts, time limits, guards, strict mode, the results file."""

from __future__ import annotations

import json
import time

import pytest

from react_course.checks import (
    NOT_ATTEMPTED,
    CallBudgetExceeded,
    Case,
    CheckFailed,
    GuardedModel,
    attempt,
    attempted,
    check,
    exercise,
    exercises,
    guarded_tools,
    hint,
)
from react_course.checks.framework import run_cases


def square_cases(f):
    yield Case("two", lambda: f(2), expected=4, given="f(2)", hint="multiply it by itself")
    yield Case("three", lambda: f(3), expected=9, given="f(3)")


def result_of(f):
    return run_cases("99.square", "square a number", f, square_cases)


def test_passing_failing_and_not_attempted() -> None:
    assert result_of(lambda x: x * x).status == "passed"
    wrong = result_of(lambda x: x + x)
    assert wrong.status == "failed" and wrong.points == 1 and wrong.max_points == 2
    failed = wrong.cases[1]
    assert (failed.expected, failed.got, failed.given) == ("9", "6", "f(3)")

    def stub(x):
        raise NotImplementedError("exercise 9.1: square x")

    assert result_of(stub).status == "not attempted"
    assert result_of(...).status == "not attempted"
    assert result_of(None).status == "not attempted"


def test_text_form_shows_expected_got_and_hint() -> None:
    text = str(result_of(lambda x: x + x))
    assert text.splitlines()[0] == ("Check 99.square (square a number): 1 of 2 cases passed "
                                    "[1/2 points]")
    assert "  PASS  two" in text and "  FAIL  three" in text
    assert "expected: 9" in text and "got:      6" in text and "given:    f(3)" in text
    html = result_of(lambda x: x + x)._repr_html_()
    assert "FAIL" in html and "<pre" in html and "expected" in html


def test_student_exceptions_are_reported_not_raised() -> None:
    result = result_of(lambda x: {}["missing"])
    assert result.cases[0].got == "raised KeyError: 'missing'"
    assert result.cases[0].hint == "multiply it by itself"


def test_an_endless_loop_fails_its_case_and_is_stopped() -> None:
    def forever(x):
        while True:
            pass

    began = time.perf_counter()
    result = run_cases("99.loop", "t", forever, lambda f: [Case("stops", lambda: f(1), 1,
                                                                time_limit=0.3)])
    assert time.perf_counter() - began < 2
    case = result.cases[0]
    assert case.status == "failed" and case.message == "did not finish within 0.3 s"
    assert case.hint == "Is there a loop without a limit?"


def test_guarded_model_cannot_be_swallowed() -> None:
    def stubborn_loop(model):
        while True:
            try:
                model("p", None)
            except Exception:
                continue

    guarded = GuardedModel(lambda prompt, stop: "x", max_calls=5)
    result = run_cases("99.guard", "t", stubborn_loop, lambda f: [Case("bounded", lambda: f(guarded))])
    assert result.cases[0].status == "failed"
    assert "called the model more than 5 times" in result.cases[0].message
    with pytest.raises(CallBudgetExceeded):
        guarded("p", None)


def test_guarded_tools_share_a_budget() -> None:
    def echo(text: str) -> str:
        """Echo."""
        return text

    tools = guarded_tools({"echo": echo, "again": echo}, max_calls=2)
    assert tools["echo"]("a") == "a" and tools["again"]("b") == "b"
    assert tools["echo"].__doc__ == "Echo."
    with pytest.raises(CallBudgetExceeded):
        tools["echo"]("c")


def test_printed_output_is_captured_and_shown() -> None:
    def noisy(x):
        print("debugging", x)
        return 0

    result = result_of(noisy)
    assert result.cases[0].printed == "debugging 2"


def test_hostile_results_do_not_break_the_check() -> None:
    class Weird:
        def __eq__(self, other):
            raise RuntimeError("no comparing")

        def __repr__(self):
            raise RuntimeError("no repr")

    case = result_of(lambda x: Weird()).cases[0]
    assert case.status == "failed"
    assert "could not compare" in case.message and "repr raised" in case.got


def test_registered_check_strict_mode_and_results_file(tmp_path, monkeypatch) -> None:
    if "99.registered" not in exercises():
        exercise("99.registered", "square", hints=("one", "two"))(square_cases)
    results = tmp_path / "r.jsonl"
    monkeypatch.setenv("REACT_COURSE_RESULTS", str(results))
    monkeypatch.setenv("REACT_COURSE_SUBMISSION", "alice.ipynb")
    assert check("99.registered", lambda x: x * x).passed
    monkeypatch.setenv("REACT_COURSE_STRICT", "1")
    with pytest.raises(CheckFailed, match="1 of 2 cases passed"):
        check("99.registered", lambda x: x + x)
    lines = [json.loads(line) for line in results.read_text().splitlines()]
    assert [(r["exercise"], r["status"], r["points"]) for r in lines] == [
        ("99.registered", "passed", 2), ("99.registered", "failed", 1)]
    assert lines[0]["submission"] == "alice.ipynb"


def test_unknown_exercise_lists_the_known_ones() -> None:
    with pytest.raises(KeyError, match=r"no exercise '42\.nothing'; known exercises: .*00\.first_check"):
        check("42.nothing", 1)


def test_hints_one_at_a_time(capsys) -> None:
    hint("00.first_check", 1)
    assert "Hint 1 of 3" in capsys.readouterr().out
    hint("00.first_check", 9)
    assert "(that was the last hint)" in capsys.readouterr().out


def test_attempt_never_raises(capsys) -> None:
    def stub():
        raise NotImplementedError("exercise 2.1: write it")

    assert attempt(stub) is NOT_ATTEMPTED and not attempted(attempt(stub))
    assert "Not attempted yet (exercise 2.1: write it)" in capsys.readouterr().out
    assert repr(attempt(stub)) == "not attempted" and not attempt(stub)
    assert not attempted(attempt(lambda: 1 / 0)) and "raised" in repr(attempt(lambda: 1 / 0))
    assert attempted(None) and attempt(lambda: None) is None  # None is an answer, not "not attempted"
    assert "ZeroDivisionError" in capsys.readouterr().out
    assert attempt(lambda a, b: a + b, 1, b=2) == 3


@pytest.mark.parametrize("wrong", [3, 5, 0, "4", 4.5, True, [4]])
def test_lesson00_first_check_rejects_wrong_counts(wrong) -> None:
    result = check("00.first_check", wrong)
    assert result.status == "failed"
    assert 'rule:     "How many model calls did the run above make?"' in str(result)


def test_lesson00_first_check() -> None:
    assert check("00.first_check", 4).passed
    assert "write the number itself" in str(check("00.first_check", "4"))


# ------------------------------------------------- time limits, statuses, shared helpers


def forever_cases(f):
    yield Case("first", lambda: f(1), expected=1)
    yield Case("runs away", lambda: f(None), expected=1, time_limit=0.3)
    yield Case("third", lambda: f(3), expected=3, time_limit=0.3)
    yield Case("fourth", lambda: f(4), expected=4, time_limit=0.3)


def runaway(x):
    while x is None:
        pass
    return x


def test_a_runaway_case_costs_one_time_limit_and_the_rest_are_not_run() -> None:
    result = run_cases("99.runaway", "t", runaway, forever_cases)
    assert [c.status for c in result.cases] == ["passed", "failed", "not run", "not run"]
    assert result.status == "failed"
    text = str(result)
    assert "  SKIP  third" in text and text.count("2 more cases not run") == 1
    assert "'runs away' ran out of time" in text
    assert "2 more cases not run" in result._repr_html_()
    assert [c["status"] for c in result.to_json()["cases"]][2:] == ["not run", "not run"]


def _no_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    def refuse(self):
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(threading.Thread, "start", refuse)


def test_time_limits_work_where_no_thread_can_start(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    _no_threads(monkeypatch)
    before = sys.gettrace()
    result = run_cases("99.runaway", "t", runaway, forever_cases)
    assert [c.status for c in result.cases] == ["passed", "failed", "not run", "not run"]
    assert result.cases[1].message == "did not finish within 3 s"  # 0.3 s, ten times over in a tab
    assert sys.gettrace() is before  # whatever tracer was there (coverage, a debugger) is back


def test_without_threads_errors_output_and_values_are_still_reported(monkeypatch) -> None:
    _no_threads(monkeypatch)
    assert result_of(lambda x: x * x).status == "passed"
    assert result_of(lambda x: {}["missing"]).cases[0].got == "raised KeyError: 'missing'"

    def noisy(x):
        print("debugging", x)
        return 0

    assert result_of(noisy).cases[0].printed == "debugging 2"


def test_statuses_are_a_closed_set() -> None:
    from react_course.checks import STATUSES, CaseResult

    assert STATUSES == ("passed", "failed", "not attempted", "not run")
    with pytest.raises(ValueError, match="not 'skipped'"):
        CaseResult("x", "skipped", 0, 1)


def test_a_long_error_message_keeps_its_end_marker() -> None:
    long = "x" * 300 + ")"
    got = result_of(lambda x: (_ for _ in ()).throw(ValueError(f"bad ({long}"))).cases[0].got
    assert got.startswith("raised ValueError: bad (xxx") and got.endswith("(306 characters)")


def test_a_library_dataclass_as_expected_names_the_field() -> None:
    from react_course.parsing import Action

    def cases(f):
        yield Case("parse", lambda: f("pen"), expected=Action("price", "pen"))

    wrong = run_cases("99.fields", "t", lambda t: Action("price", t + " "), cases).cases[0]
    assert wrong.message == "input is 'pen ', expected 'pen'"
    other = run_cases("99.fields", "t", lambda t: ("price", t), cases).cases[0]
    assert "a tuple; expected a Action" in other.message
    assert run_cases("99.fields", "t", lambda t: Action("price", t), cases).passed


def test_shown_values_appear_without_quotes() -> None:
    from react_course.checks import Shown, describe, nonblank_lines

    assert describe(Shown("a text starting 'Could'")) == "a text starting 'Could'"
    assert nonblank_lines(" a \n\n b") == ["a", "b"]


def test_an_import_error_inside_a_lesson_checker_is_raised(monkeypatch) -> None:
    import importlib

    from react_course import checks

    real = importlib.import_module

    def broken(name, *args):
        if name == "react_course.checks.lesson77":
            raise ModuleNotFoundError("No module named 'numpy'", name="numpy")
        return real(name, *args)

    monkeypatch.setattr(checks.importlib, "import_module", broken)
    with pytest.raises(ModuleNotFoundError, match="numpy"):
        check("77.anything", 1)
    with pytest.raises(KeyError, match=r"no exercise '78\.anything'"):
        check("78.anything", 1)  # no checker module at all: "no exercise"


def test_a_timed_out_case_leaves_no_thread_pool_stuck() -> None:
    """A CaseTimeout inside ThreadPoolExecutor.submit can leak its process-wide lock; the limit
    frees it, so the next pool still starts (a loaded run once hung here in 07.run_calls)."""
    from concurrent.futures import ThreadPoolExecutor
    from concurrent.futures import thread as pools

    from react_course.checks.timing import run_limited

    def forever() -> None:
        while True:
            pass

    pools._global_shutdown_lock.acquire()  # as a thread interrupted inside submit leaves it
    try:
        assert run_limited(forever, 0.2).timed_out
        assert not pools._global_shutdown_lock.locked()
        with ThreadPoolExecutor(1) as pool:
            assert pool.submit(lambda: 42).result(timeout=10) == 42
    finally:
        if pools._global_shutdown_lock.locked():
            pools._global_shutdown_lock.release()
