"""The browser edition in Firefox: a smoke test, headless, through Marionette (tests/firefox.py).

Debian's ``firefox-esr`` opens lesson 00 of the built site, served by lite/serve.py's
handler on 127.0.0.1; the kernel (Pyodide in Firefox) starts, the service worker
controls the page, every cell runs with no error output, and the doctor, run in the
tab, finds no problem. Skipped without Firefox (``apt-get install firefox-esr``, as .ci/run
does). What it leaves to test_lite_site.py: widgets, the offline
reload, the second address, the request log (Firefox keeps none for Marionette).
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from chromium import wait_for
from firefox import NEEDS_FIREFOX, Firefox
from test_lite_site import ARTIFACTS, room_server

ROOT = Path(__file__).resolve().parents[1]
FRONT = ".jp-NotebookPanel:not(.lm-mod-hidden) "
pytestmark = [pytest.mark.slow, NEEDS_FIREFOX]

STATE = (f"const i = document.querySelector('{FRONT}.jp-Notebook-ExecutionIndicator');"
         "const bar = document.querySelector('#jp-main-statusbar');"
         f"const busy = [...document.querySelectorAll('{FRONT}.jp-InputPrompt')]"
         ".some(p => p.textContent.includes('*'));"
         "return [i ? i.dataset.status : '', bar ? bar.textContent : '', busy];")
# The toolbar's "run this cell and select the next" button, pressed as a mouse does (JupyterLab's
# toolbar buttons act on mousedown): Marionette alone has no menu clicks, and this needs none.
RUN_NEXT = (f"const b = document.querySelector('{FRONT}"
            "[data-command=\"notebook:run-cell-and-select-next\"]');"
            "b.dispatchEvent(new MouseEvent('mousedown', {bubbles: true, button: 0}));")
NOT_RUN = (f"return [...document.querySelectorAll('{FRONT}.jp-CodeCell .jp-InputPrompt')]"
           ".filter(p => p.textContent.includes('[ ]')).length;")


def idle(firefox: Firefox) -> bool:
    status, bar, busy = firefox.script(STATE)
    return status == "idle" and "| Idle" in bar and not busy


def test_lesson_00_runs_in_firefox(tmp_path):
    subprocess.run([sys.executable, str(ROOT / "lite" / "build.py")], check=True, cwd=ROOT,
                   stdout=subprocess.DEVNULL)
    server = room_server()
    firefox = Firefox(tmp_path / "profile")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    try:
        started = time.monotonic()
        firefox.get(f"http://127.0.0.1:{server.server_port}/lab/index.html?path=notebooks/00_start_here.ipynb")
        wait_for(lambda: idle(firefox), timeout=400, every=1.0, what="lesson 00's kernel to start in Firefox")
        to_idle = time.monotonic() - started
        controlled = firefox.script("return [isSecureContext, !!navigator.serviceWorker.controller]")
        assert controlled == [True, True], "no service worker in Firefox"
        cells = firefox.script(f"return document.querySelectorAll('{FRONT}.jp-Cell').length")
        for _ in range(2 * cells):  # a press per cell, and more if one lands while the page is busy
            if not firefox.script(NOT_RUN):
                break
            firefox.script(RUN_NEXT)
            time.sleep(0.2)
        wait_for(lambda: idle(firefox) and not firefox.script(NOT_RUN), timeout=600, every=1.0,
                 what="lesson 00 to run in Firefox")
        firefox.screenshot(ARTIFACTS / "firefox-lesson-00.png")
        errors = firefox.script(f"return [...document.querySelectorAll('{FRONT}.jp-OutputArea-output"
                                "[data-mime-type=\"application/vnd.jupyter.error\"]')]"
                                ".map(o => o.textContent)")
        assert errors == [], f"lesson 00 showed an error in Firefox: {errors[0][:300]}"
        text = firefox.script(f"return [...document.querySelectorAll('{FRONT}.jp-OutputArea-output')]"
                              ".map(o => o.textContent).join('\\n')")
        assert "No problems found." in text, "the doctor found a problem in Firefox"
        print(f"Firefox: lesson 00 to an idle kernel in {to_idle:.1f} s, then ran")
    finally:
        firefox.quit()
        server.shutdown()
