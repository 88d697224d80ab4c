"""Step events: one per step from the one step loop, for both agents; logs that survive a kill."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from react_course import ScriptedModel, run_native, run_react
from react_course.record import RunResult
from react_course.scripted_api import serve
from react_course.tools import default_tools
from react_course.tracing.trace import JsonLines, StepLog, read_log
from react_course.tracing.viewer import TraceViewer, static_html, step_html

EIFFEL = "How much taller is the Eiffel Tower than the Statue of Liberty?"
REPLIES = ["Thought: I need the height.\nAction: search\nAction Input: Eiffel Tower",
           "Thought: Now the statue.\nAction: serch\nAction Input: Statue of Liberty",
           "Thought: Spelt right.\nAction: search\nAction Input: Statue of Liberty",
           "Thought: Subtract.\nAction: calculate\nAction Input: 330 - 93",
           "Thought: I now know the answer\nFinal Answer: 237 m taller."]


def test_text_run_emits_start_one_event_per_step_and_end(tmp_path: Path) -> None:
    log = StepLog(tmp_path / "run.jsonl", run_id="r1", meta={"task": "demo"})
    result = run_react(EIFFEL, ScriptedModel(REPLIES), default_tools(), trace=log)
    kinds = [e["event"] for e in log.events]
    assert kinds == ["start"] + ["step"] * 5 + ["end"]
    wrong = log.events[2]
    assert wrong["calls"][0]["name"] == "serch" and wrong["error"] == "unknown_tool"
    assert log.events[1]["thought"] == "I need the height." and log.events[1]["observation_chars"] > 50
    assert log.events[-1]["end_reason"] == "final_answer" and log.events[-1]["meta"] == {"task": "demo"}
    back = read_log(tmp_path / "run.jsonl").runs["r1"]
    assert back.to_json() == result.to_json()


def test_native_run_emits_the_same_events() -> None:
    openai = pytest.importorskip("openai")
    log = StepLog(run_id="n1")
    with serve() as url:
        client = openai.OpenAI(base_url=url, api_key="scripted", max_retries=0, timeout=10)
        result = run_native(client, default_tools(), EIFFEL, model="react-course-demo", trace=log)
    steps = [e for e in log.events if e["event"] == "step"]
    assert len(steps) == len(result.steps) and result.format == "native"
    assert steps[0]["calls"] and isinstance(steps[0]["calls"][0]["arguments"], dict)
    assert steps[0]["usage"]["input"] > 0
    shown = step_html(result, 0)
    assert "(native run)" in shown and f"{result.steps[0].calls[0].name}(" in shown
    assert "Ended:" in step_html(result, len(result.steps) - 1)


def test_a_half_written_last_line_is_reported_and_skipped(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    run_react(EIFFEL, ScriptedModel(REPLIES), default_tools(), trace=StepLog(path, run_id="a"))
    with path.open("a") as out:
        out.write('{"event": "step", "run_id": "a", "ste')  # the kill came mid-line
    with pytest.warns(UserWarning, match="not whole JSON"):
        log = read_log(path)
    assert len(log.runs["a"].steps) == 5 and log.runs["a"].end_reason == "final_answer"
    # appending after the broken line starts a fresh line
    JsonLines(path).write({"event": "start", "run_id": "b", "question": "q", "format": "text"})
    assert read_log(path, quiet=True).runs["b"].question == "q"


KILLED = textwrap.dedent("""
    import os, signal, sys
    from react_course import ReactiveModel, run_react
    from react_course.tools import default_tools
    from react_course.tracing.trace import StepLog

    calls = []
    def model(prompt, stop=None):
        calls.append(1)
        if len(calls) == 4:  # the fourth call never returns: the process is killed
            os.kill(os.getpid(), signal.SIGKILL)
        return f"Thought: step {len(calls)}\\nAction: calculate\\nAction Input: {len(calls)} + 1"

    run_react("What is 1 + 1?", model, default_tools(), trace=StepLog(sys.argv[1], run_id="k"))
""")


def test_a_run_killed_mid_way_loads_with_every_completed_step(tmp_path: Path) -> None:
    path = tmp_path / "killed.jsonl"
    done = subprocess.run([sys.executable, "-c", KILLED, str(path)], timeout=60)
    assert done.returncode == -9
    log = read_log(path)
    run = log.runs["k"]
    assert [s.number for s in run.steps] == [1, 2, 3]
    assert [s.observation for s in run.steps] == ["2", "3", "4"]
    assert run.end_reason == "interrupted" and "k" not in log.finished


def test_events_are_json_lines_with_the_schema(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    run_react(EIFFEL, ScriptedModel(REPLIES), default_tools(), trace=StepLog(path, run_id="s"))
    step = json.loads(path.read_text().splitlines()[1])
    for key in ("run_id", "step", "thought", "calls", "observation_chars", "latency", "usage", "money",
                "error", "record"):
        assert key in step


def test_spans_follow_the_genai_conventions(tmp_path: Path) -> None:
    pytest.importorskip("opentelemetry.sdk")
    from react_course.tracing.trace import OtelSpans

    spans = OtelSpans(tmp_path / "spans.jsonl", model="scripted")
    run_react(EIFFEL, ScriptedModel(REPLIES), default_tools(), trace=StepLog(run_id="o", spans=spans))
    spans.close()
    found = [json.loads(line) for line in (tmp_path / "spans.jsonl").read_text().splitlines()]
    names = [s["name"] for s in found]
    assert names.count("chat scripted") == 5 and "invoke_agent react-course" in names
    tool = next(s for s in found if s["name"] == "execute_tool calculate")
    assert tool["attributes"]["gen_ai.operation.name"] == "execute_tool"


def test_the_viewer_steps_through_a_run() -> None:
    result = run_react(EIFFEL, ScriptedModel(REPLIES), default_tools())
    first, last = step_html(result, 0), step_html(result, 4)
    assert "Step 1 of 5" in first and "search(Eiffel Tower)" in first and "Ended" not in first
    assert "Ended:</b> final_answer" in last and "237 m taller" in last
    assert "[unknown_tool]" in step_html(result, 1)
    unreadable = run_react(EIFFEL, ScriptedModel(["Thought: hmm, let me think.", *REPLIES]), default_tools())
    assert "The model wrote:</b> Thought: hmm, let me think." in step_html(unreadable, 0)
    viewer = TraceViewer(result)
    viewer.forward.click()
    viewer.forward.click()
    assert viewer.slider.value == 2 and "Step 3 of 5" in viewer.body.value
    viewer.go(99)
    assert viewer.slider.value == 4 and viewer.forward.disabled
    assert static_html(result).count("<b>Step ") == 5


def test_the_viewer_shows_a_loaded_unfinished_run(tmp_path: Path) -> None:
    empty = RunResult("q", "", "interrupted", [])
    assert "No steps" in step_html(empty, 0)
    TraceViewer(empty)  # no steps: no error
