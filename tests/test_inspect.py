"""The evaluation as an Inspect task, offline: the course's tasks, agent and scorer run by Inspect
against the scripted server, and the log it writes opened in Inspect's viewer in headless Chromium.

Needs the optional extra (``pip install -c constraints.txt -e ".[inspect]"``; .ci/run installs
it); without it these tests skip and say so. Everything listens on 127.0.0.1.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("inspect_ai", reason='Inspect is an optional extra: pip install -c constraints.txt '
                                          '-e ".[inspect]" (.ci/run installs it)')

from chromium import NEEDS_CHROMIUM, chromium, free_port, wait_for
from inspect_ai import eval as inspect_eval
from inspect_ai.model import get_model

from react_course.evaluate import load_tasks
from react_course.evaluate.careful import careful_chat_model
from react_course.evaluate.inspect_task import dataset, eval_task
from react_course.scripted_api import serve

INSPECT = Path(sys.executable).with_name("inspect")


def model_at(url: str, name: str = "careful"):
    return get_model(f"openai-api/course/{name}", base_url=url, api_key="scripted", memoize=False)


@pytest.fixture(scope="module")
def log_dir(tmp_path_factory) -> Path:
    """One Inspect evaluation: the held-out date tasks, two epochs, on the careful agent served."""
    where = tmp_path_factory.mktemp("inspect-logs")
    with serve(careful_chat_model(load_tasks())) as url:
        logs = inspect_eval(eval_task("heldout", "dates", epochs=2), model=model_at(url), log_dir=str(where),
                            display="none")
    assert logs[0].status == "success", logs[0].error
    return where


def test_the_dataset_holds_every_course_task_with_its_family() -> None:
    samples = dataset()
    assert len(samples) == len(load_tasks()) and samples[0].metadata["family"] == "multi_hop"


def test_inspect_runs_the_course_agent_and_scores_with_the_course_rule(log_dir) -> None:
    from inspect_ai.log import list_eval_logs, read_eval_log

    log = read_eval_log(list_eval_logs(str(log_dir))[0])
    assert log.eval.task == "react_course_eval" and len(log.samples) == 4  # 2 tasks x 2 epochs
    metrics = log.results.scores[0].metrics
    assert metrics["accuracy"].value == 1.0 and metrics["stderr"].params == {"cluster": "family"}
    first = log.samples[0]
    assert first.metadata["end_reason"] == "final_answer" and first.metadata["calls"][0] == "today[]"
    assert first.scores["course_scorer"].explanation.startswith("ended: final_answer")
    calls = [e for e in first.events if e.event == "model"]
    assert len(calls) == first.metadata["steps"]  # every step's model call is in Inspect's log


def test_inspect_runs_against_react_course_serve_model(tmp_path) -> None:
    """The workshop server (the demo model, which knows only the worked examples): the run goes
    through, and a run that ends without a right answer is scored incorrect, with its end reason."""
    port = free_port()
    server = subprocess.Popen([str(Path(sys.executable).with_name("react-course")), "serve-model",
                               "--port", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(lambda: _listening(port), timeout=60, what="react-course serve-model")
        logs = inspect_eval(eval_task("heldout", "shop"), model=model_at(f"http://127.0.0.1:{port}/v1",
                                                                       "react-course-demo"),
                            log_dir=str(tmp_path), display="none", limit=1)
    finally:
        server.terminate()
        server.wait(timeout=30)
    sample = logs[0].samples[0]
    assert logs[0].status == "success" and sample.metadata["end_reason"]
    assert any(e.event == "model" for e in sample.events)


@NEEDS_CHROMIUM
def test_the_log_opens_in_inspect_view_in_headless_chromium(log_dir, tmp_path) -> None:
    port = free_port()
    viewer = subprocess.Popen([str(INSPECT), "view", "start", "--log-dir", str(log_dir), "--host",
                               "127.0.0.1", "--port", str(port)], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    driver = None
    try:
        wait_for(lambda: _listening(port), timeout=120, what="inspect view")
        driver = chromium()
        driver.get(f"http://127.0.0.1:{port}/")
        text = wait_for(lambda: _page_text(driver, "react_course_eval"), timeout=120,
                        what="the viewer to list the log")
        driver.save_screenshot(str(Path(os.environ.get("REACT_COURSE_SHOTS", tmp_path)) / "inspect-view.png"))
        assert "react_course_eval" in text and "accuracy" in text.lower()
    finally:
        if driver is not None:
            driver.quit()
        viewer.terminate()
        viewer.wait(timeout=30)


def _listening(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(1)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def _page_text(driver, needle: str) -> str:
    text = driver.execute_script("return document.body ? document.body.innerText : ''") or ""
    return text if needle in text else ""  # the viewer renders in steps: wait_for polls
