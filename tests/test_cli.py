"""The react-course command: each verb, as a user runs it."""

from __future__ import annotations

import subprocess
import sys

import pytest

from react_course.cli import main


def test_run_prints_the_trace_and_the_answer(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["run", "How much taller is the Eiffel Tower than the Statue of Liberty?"])
    out = capsys.readouterr().out
    assert code == 0
    assert out.startswith("Question: How much taller is the Eiffel Tower")
    assert "Observation: 237" in out
    assert out.rstrip().endswith("Answer: The Eiffel Tower (330 m with its antennas) is 237 m taller "
                                 "than the Statue of Liberty (93 m from the ground to the torch).")


def test_run_authors_and_step_limit(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["run", "--authors", "--max-steps", "1",
                 "How tall is the tower in Paris that opened in 1889?"])
    out = capsys.readouterr().out
    assert code == 1
    assert "program | Observation: No page matches 'Paris tower 1889'" in out
    assert "program | [ended: step_limit after 2 model calls]" in out


def test_run_list_and_missing_question(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--list"]) == 0
    assert "What do 3 notebooks and 2 pens cost?" in capsys.readouterr().out
    assert main(["run"]) == 2


def test_run_rejects_a_bad_model_setting(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--model", "gpt-4", "q"]) == 2
    assert "cannot read the model setting 'gpt-4'" in capsys.readouterr().err


def test_doctor_reports_each_check(capsys: pytest.CaptureFixture[str], monkeypatch) -> None:
    monkeypatch.setenv("REACT_COURSE_MODEL", "openai:gpt-4o-mini")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-do-not-print")
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    main(["doctor"])
    out = capsys.readouterr().out
    assert "[ok  ] Python: 3." in out
    assert "openai:gpt-4o-mini; OPENAI_API_KEY is set (hidden)" in out
    assert "sk-do-not-print" not in out
    monkeypatch.delenv("OPENAI_API_KEY")
    assert main(["doctor"]) == 1
    assert "[FIX ] model" in capsys.readouterr().out


def test_console_script_and_module_entry_point() -> None:
    out = subprocess.run([sys.executable, "-m", "react_course", "run", "--list"],
                         capture_output=True, text=True)
    assert out.returncode == 0 and "Worked examples" in out.stdout


def test_run_without_a_key_says_what_to_set(capsys, monkeypatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    assert main(["run", "--model", "openai:gpt-4o-mini", "What do 3 notebooks and 2 pens cost?"]) == 2
    assert "OPENAI_API_KEY is not set" in capsys.readouterr().err


def test_a_bad_step_limit_is_a_usage_error(capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["run", "--max-steps", "-1", "q"])
    assert stop.value.code == 2
    assert "expected a whole number of steps, 0 or more, got '-1'" in capsys.readouterr().err
