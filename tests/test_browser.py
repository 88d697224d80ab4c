"""The course in a real browser: JupyterLab from the course's set-up, driven in Chromium.

What a student meets on first open, checked by a person's actions: lessons
00, 08 and 09 open with no dialog or toast in the way, on the course's kernel
without a prompt, and run to their end; a lesson 08 slider redraws its figure;
a click steps the lesson 09 trace viewer. Screenshots go to
``test-artifacts/browser/`` (not committed).

The server is JupyterLab as ``course.py open`` starts it (``lab_command``), on
127.0.0.1, with fresh user settings and workspaces, so only what the set-up
ships (the news override in the environment) is in force. The browser is
Debian's ``chromium`` through Selenium and the system ``chromedriver``
(Selenium's and Playwright's own browser downloads do not work offline).
``.ci/run`` installs both; elsewhere the test is skipped, saying what to install.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from chromium import (
    NEEDS_CHROMIUM,
    a_click_steps_the_viewer,
    by_css,
    chromium,
    errors_shown,
    free_port,
    kernel_state,
    nothing_in_the_way,
    run_all,
    status_bar,
    wait_for,
)

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts" / "browser"
TOKEN = "react-course-browser-test"
pytestmark = [pytest.mark.slow, NEEDS_CHROMIUM]

LESSONS = {"00": "notebooks/00_start_here.ipynb", "08": "notebooks/08_token_cost_and_context.ipynb",
           "09": "notebooks/09_evaluation_and_tracing.ipynb"}


def course_module():
    spec = importlib.util.spec_from_file_location("course_setup", ROOT / "course.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """JupyterLab as course.py starts it, headless, on a free port of 127.0.0.1."""
    course, home = course_module(), tmp_path_factory.mktemp("lab-user")
    overrides = Path(sys.prefix) / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    assert overrides.exists(), "run `python3 course.py setup`: it writes the settings override"
    port = free_port()
    command = course.lab_command(Path(sys.executable), [
        "--no-browser", f"--port={port}", "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={TOKEN}",
        f"--LabApp.user_settings_dir={home / 'settings'}", f"--LabApp.workspaces_dir={home / 'workspaces'}"])
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(home / "config"), "JUPYTER_RUNTIME_DIR": str(home / "run")}
    env.pop("REACT_COURSE_MODEL", None)
    log = (home / "lab.log").open("w")
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(120):
            try:
                with urllib.request.urlopen(f"{url}/api/status?token={TOKEN}", timeout=2) as reply:
                    json.load(reply)
                break
            except OSError:
                if server.poll() is not None:
                    pytest.fail(f"JupyterLab exited: {(home / 'lab.log').read_text()[-2000:]}")
                time.sleep(0.5)
        else:
            pytest.fail("JupyterLab did not answer within 60 s")
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


@pytest.fixture(scope="module")
def browser():
    driver = chromium()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    yield driver
    driver.quit()


def open_lesson(driver, url: str, lesson: str) -> None:
    driver.get(f"{url}/lab/tree/{LESSONS[lesson]}?reset&token={TOKEN}")
    wait_for(lambda: by_css(driver, ".jp-NotebookPanel .jp-Cell"), what=f"lesson {lesson} to open")
    wait_for(lambda: kernel_state(driver) == "idle" and "| Idle" in status_bar(driver),
             what=f"lesson {lesson}'s kernel to start")


def shot(driver, name: str) -> None:
    driver.save_screenshot(str(ARTIFACTS / f"{name}.png"))


@pytest.mark.parametrize("lesson", ["00", "08", "09"])
def test_a_lesson_opens_on_the_course_kernel_and_runs(lab, browser, lesson):
    open_lesson(browser, lab, lesson)
    time.sleep(2.0)  # the news question, when it comes, comes a moment after the page loads
    shot(browser, f"{lesson}-opened")
    assert nothing_in_the_way(browser) == ""
    names = [k.text for k in by_css(browser, ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-KernelName")]
    assert names and names[0] == "Python (react-course)", names
    run_all(browser, lesson)
    shot(browser, f"{lesson}-ran")
    assert errors_shown(browser) == []
    assert nothing_in_the_way(browser) == ""
    if lesson == "08":
        slider_redraws_the_figure(browser)
    if lesson == "09":
        a_click_steps_the_viewer(browser)
        shot(browser, "09-viewer-stepped")


def slider_redraws_the_figure(driver) -> None:
    from selenium.webdriver.common.keys import Keys

    box = wait_for(lambda: by_css(driver, ".widget-interact"), what="lesson 08's sliders")[0]
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
    from selenium.common.exceptions import StaleElementReferenceException

    def figure() -> list[str] | None:
        try:
            return [i.get_attribute("src") for i in box.find_elements("css selector", "img")]
        except StaleElementReferenceException:  # the image was replaced as we read it: look again
            return None

    before = wait_for(figure, what="the sliders' figure")
    handle = box.find_elements("css selector", ".noUi-handle")[0]
    handle.click()
    for _ in range(5):
        handle.send_keys(Keys.ARROW_RIGHT)
    wait_for(lambda: figure() and figure() != before, timeout=30, what="the figure to redraw")
    shot(driver, "08-slider-moved")
