"""The react-course command: each verb, as a user runs it."""

from __future__ import annotations

import subprocess
import sys

import pytest

from react_course.course.cli import main


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
    for missing in ([], [""], ["   "], ["\t\n"]):
        assert main(["run", *missing]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.startswith("react-course: run needs a question, e.g. react-course run")
        assert err.count("\n") == 1


def test_help_shows_the_commands_not_the_module_docstring() -> None:
    out = subprocess.run([sys.executable, "-m", "react_course", "--help"],
                         capture_output=True, text=True).stdout
    assert 'react-course run "QUESTION"' in out and "react-course doctor [--ping]" in out
    assert "Thin: each verb" not in out and "leaves out" not in out


def test_each_step_is_printed_as_it_completes(capsys, monkeypatch) -> None:
    """When the model is called for step 2, step 1's observation is already on the screen."""
    import react_course.lessons.demo as demo

    seen_before_each_call: list[str] = []
    scripted = demo.demo_model()

    def watching(prompt: str, stop=None) -> str:
        seen_before_each_call.append(capsys.readouterr().out)
        return scripted(prompt, stop)

    monkeypatch.setattr(demo, "demo_model", lambda: watching)
    assert main(["run", "What do 3 notebooks and 2 pens cost?"]) == 0
    assert seen_before_each_call[0] == "Question: What do 3 notebooks and 2 pens cost?\n"
    assert seen_before_each_call[1].endswith("Action Input: notebook\nObservation: A notebook costs 4.\n")
    assert seen_before_each_call[2].startswith("Thought: A notebook costs 4. Now I need the price")
    assert seen_before_each_call[2].endswith("Observation: A pen costs 2.\n")
    assert seen_before_each_call[3].endswith("Observation: 16\n")
    rest = capsys.readouterr().out
    assert rest.startswith("Thought: I now know the answer\nFinal Answer: 3 notebooks and 2 pens")
    assert rest.count("[ended: final_answer") == 1


def test_max_seconds_is_a_positive_number(capsys) -> None:
    for bad in ("0", "-3", "soon", "inf"):
        with pytest.raises(SystemExit) as stop:
            main(["run", "--max-seconds", bad, "q"])
        assert stop.value.code == 2
        assert f"expected a positive number of seconds, got '{bad}'" in capsys.readouterr().err


def test_run_rejects_a_bad_model_setting(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--model", "gpt-4", "q"]) == 2
    assert "cannot read the model setting 'gpt-4'" in capsys.readouterr().err


def test_doctor_reports_each_check(capsys: pytest.CaptureFixture[str], monkeypatch) -> None:
    monkeypatch.setenv("REACT_COURSE_MODEL", "openai:gpt-4o-mini")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-do-not-print-0123")
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    assert main(["doctor"]) == 0
    out = capsys.readouterr().out
    assert "[ok  ] Python: 3." in out
    assert "openai:gpt-4o-mini; calls go to https://api.openai.com/v1; OPENAI_API_KEY is set (hidden)" in out
    assert "sk-do-not-print" not in out
    assert "All good" not in out and out.rstrip().endswith("run react-course doctor --ping to try it.")
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


def test_max_seconds_bounds_a_run_on_a_server_that_never_answers(capsys, monkeypatch) -> None:
    import stub_servers as stub

    step = "Thought: I need the price of a notebook.\nAction: price\nAction Input: notebook"
    monkeypatch.setenv("OPENAI_API_KEY", stub.KEY)
    # 6 s, so that a loaded machine still answers the first call inside the run's limit; the second
    # call hangs until the limit ends the run (the model's own 30 s time-out would end it as an error)
    with stub.StubServer(stub.then_fail(stub.answering([step]), 1, stub.hanging)) as server:
        code = main(["run", "--model", f"openai-compatible:{server.url}:{stub.MODEL}",
                     "--max-seconds", "6", "What do 3 notebooks and 2 pens cost?"])
    out, err = capsys.readouterr()
    assert code == 1 and err == ""
    assert "Observation: A notebook costs 4.\n" in out and "[ended: time_limit after " in out
    assert "the run took over 6 s (a model call was still running)" in out
    assert stub.KEY not in out


def test_eval_prints_the_metrics_table_and_resumes_from_its_log(capsys, tmp_path) -> None:
    from react_course.course.cli import main

    log = tmp_path / "eval.jsonl"
    assert main(["eval", "--split", "heldout", "--repeats", "1", "--log", str(log)]) == 0
    out = capsys.readouterr()
    assert "| success (pass@1) |" in out.out and "15/15" in out.err
    lines = log.read_text().count("\n")
    assert main(["eval", "--split", "heldout", "--repeats", "1", "--log", str(log), "--resume"]) == 0
    assert log.read_text().count("\n") == lines  # nothing ran again


def test_an_option_before_the_command_is_named(capsys) -> None:
    assert main(["--bogus"]) == 2
    err = capsys.readouterr().err
    assert "unknown option '--bogus'" in err and "react-course --help" in err


def test_a_date_that_is_not_one_gets_a_sentence(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["run", "--date", "yesterday", "What time is it?"])
    err = capsys.readouterr().err
    assert "expected a date as YEAR-MONTH-DAY, e.g. 2026-12-01, got 'yesterday'" in err
    assert "fromisoformat" not in err


def test_a_closed_pipe_ends_without_a_traceback() -> None:
    """`react-course doctor | head` closes the pipe early: no BrokenPipeError traceback."""
    code = ("import sys\nfrom react_course.course import cli\n"
            "def closed(args):\n    raise BrokenPipeError\n"
            "cli.COMMANDS['progress'] = closed\nsys.exit(cli.main(['progress']))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert (done.returncode, done.stderr) == (0, "")


def test_help_lists_the_course_verbs() -> None:
    out = subprocess.run([sys.executable, "-m", "react_course", "--help"],
                         capture_output=True, text=True).stdout
    for verb in ("react-course progress", "react-course reset LESSON", "react-course grade DIR --out F"):
        assert verb in out


def test_grade_is_a_thin_call(monkeypatch, capsys, tmp_path) -> None:
    seen = {}

    def grade_folder(folder, out, *, lesson, limits):
        seen.update(folder=folder, out=out, lesson=lesson, limits=limits)
        return ["a", "b"]

    monkeypatch.setattr("react_course.course.grade.grade_folder", grade_folder)
    assert main(["grade", str(tmp_path), "--out", "g.csv", "--lesson", "03", "--cell-timeout", "5",
                 "--workers", "2"]) == 0
    assert (seen["folder"], seen["out"], seen["lesson"]) == (str(tmp_path), "g.csv", "03")
    assert (seen["limits"].cell_timeout, seen["limits"].workers, seen["limits"].wall) == (5.0, 2, 300.0)
    assert "2 submission(s) graded into g.csv" in capsys.readouterr().out
