"""The browser edition end to end: the built site, served on 127.0.0.1, in headless Chromium, offline.

``lite/build.py`` builds the site (nothing when it is up to date); a plain HTTP
server serves it on 127.0.0.1, as any static host would. Chromium resolves no
other host (``--host-resolver-rules``), and its performance log records every
request it tries. The test opens lesson 00, lesson 09 (widgets: a click steps the
trace viewer; plots: offline, their descriptions) and an exercise notebook, runs
each with Run All in the page's own Python (Pyodide), and fails on an error
output, or on any request that left 127.0.0.1 other than the compiled packages the
lock lists on Pyodide's CDN. Screenshots go to ``test-artifacts/lite/``.
"""

from __future__ import annotations

import functools
import json
import subprocess
import sys
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar
from urllib.parse import urlparse

import pytest
from chromium import (
    NEEDS_CHROMIUM,
    a_click_steps_the_viewer,
    by_css,
    chromium,
    errors_shown,
    kernel_state,
    run_all,
    status_bar,
    wait_for,
)

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "lite" / "_site"
ARTIFACTS = ROOT / "test-artifacts" / "lite"
NOTEBOOKS = {"lesson 00": "notebooks/00_start_here.ipynb",
             "lesson 09": "notebooks/09_evaluation_and_tracing.ipynb",
             "exercise 03": "exercises/03_parsing_and_stops.ipynb"}
pytestmark = [pytest.mark.slow, NEEDS_CHROMIUM]


class Quiet(SimpleHTTPRequestHandler):
    extensions_map: ClassVar[dict[str, str]] = {
        **SimpleHTTPRequestHandler.extensions_map,
        ".mjs": "text/javascript", ".wasm": "application/wasm", ".whl": "application/zip"}

    def log_message(self, *args) -> None:  # the test reads Chromium's log instead
        pass


@pytest.fixture(scope="module")
def site():
    """The built site on a free port of 127.0.0.1."""
    subprocess.run([sys.executable, str(ROOT / "lite" / "build.py")], check=True, cwd=ROOT,
                   stdout=subprocess.DEVNULL)
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(SITE)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


@pytest.fixture(scope="module")
def browser():
    driver = chromium("--disable-background-networking", "--disable-component-update", "--disable-sync",
                      "--no-first-run", "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
                      log_requests=True)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    yield driver
    driver.quit()


def allowed_outside() -> set[str]:
    """The only URLs off 127.0.0.1 the site may ask for: the lock's packages on Pyodide's CDN."""
    lock = json.loads((SITE / "pyodide" / "pyodide-lock.json").read_text(encoding="utf-8"))
    return {p["file_name"] for p in lock["packages"].values() if p["file_name"].startswith("https://")}


def requests_made(driver) -> list[str]:
    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    return urls


def open_and_run(driver, site: str, name: str) -> float:
    """Open a notebook in JupyterLab (the site's), wait for its kernel, Run All; the seconds it took."""
    started = time.monotonic()
    driver.get(f"{site}/lab/index.html?path={NOTEBOOKS[name]}")
    wait_for(lambda: by_css(driver, ".jp-NotebookPanel .jp-Cell"), what=f"{name} to open")
    wait_for(lambda: kernel_state(driver) == "idle" and "| Idle" in status_bar(driver), timeout=120,
             what=f"{name}'s Pyodide kernel to start")
    run_all(driver, name)
    return time.monotonic() - started


def outputs_text(driver) -> str:
    return "\n".join(o.text for o in by_css(driver, ".jp-OutputArea-output"))


@pytest.mark.parametrize("name", list(NOTEBOOKS))
def test_a_notebook_runs_in_the_page_offline(site, browser, name):
    seconds = open_and_run(browser, site, name)
    browser.save_screenshot(str(ARTIFACTS / f"{name.replace(' ', '-')}.png"))
    assert errors_shown(browser) == [], f"{name}: an error output after Run All"
    names = [k.text for k in by_css(browser, ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-KernelName")]
    assert names == ["Python (Pyodide)"], names
    text = outputs_text(browser)
    if name == "lesson 00":
        assert "No problems found." in text, "the doctor found a problem in the browser"
    if name == "lesson 09":
        assert "Offline: the plots of this lesson will show their descriptions" in text, \
            "offline, a lesson with plots must say why it shows no drawings"
        a_click_steps_the_viewer(browser)
        browser.save_screenshot(str(ARTIFACTS / "lesson-09-viewer-stepped.png"))
    outside = {u for u in requests_made(browser)
               if urlparse(u).scheme in ("http", "https", "ws", "wss")
               and urlparse(u).hostname != "127.0.0.1"}
    assert outside <= allowed_outside(), f"requests left 127.0.0.1: {sorted(outside - allowed_outside())}"
    print(f"{name}: opened, kernel started and ran in {seconds:.1f} s")
