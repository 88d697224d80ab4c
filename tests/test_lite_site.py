"""The browser edition end to end: the built site, served on 127.0.0.1, in headless Chromium, offline.

``lite/build.py`` builds the site (nothing when it is up to date); a plain HTTP
server serves it on 127.0.0.1, as any static host would. Chromium resolves no
other host (``--host-resolver-rules``), and its performance log records every
request it tries. The test opens lesson 09 (widgets: a click steps the trace
viewer; plots: drawn by the course's plotter), runs it with Run All in the page's
own Python (Pyodide), and fails on an error output, or on any request that left
127.0.0.1. Screenshots go to ``test-artifacts/lite/``. Every notebook's outputs in
Pyodide, and every exercise's "not attempted", are tests/test_lite_node.py's: a page
here is for what only a page shows (widgets, figures, the service worker, the drive,
CORS), so lesson 00 and an exercise are not opened for Run All again.

Then a room (``test_a_room_session_offline_and_at_a_second_address``): the site served
by lite/serve.py's handler, a plotting lesson drawn with nothing from off the machine,
a reload with the server stopped, and a student's edit carried to a second address
(``localhost``: another origin, so another storage) with ``course.handin.export_work`` and
``course.handin.import_work``; each page load there starts one kernel, the lesson's own
(the layout is not kept across loads, so no earlier notebook reopens with a kernel of its
own). And a tab calling ``react-course serve-model``'s server on another port (another
origin: CORS) with the ``openai`` SDK.
"""

from __future__ import annotations

import contextlib
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
NOTEBOOKS = {"lesson 09": "notebooks/09_evaluation_and_tracing.ipynb"}
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


MOVE = "from react_course.course.handin"  # where a student's work is moved from and to


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
    # open_notebook makes sure this notebook is the one in front, so Run All runs this one.
    open_notebook(driver, site, NOTEBOOKS[name])
    run_all(driver, name)
    return time.monotonic() - started


def outputs_text(driver) -> str:
    """The outputs of the notebook in front."""
    front = ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-OutputArea-output"
    return "\n".join(o.text for o in by_css(driver, front))


@pytest.mark.parametrize("name", list(NOTEBOOKS))
def test_a_notebook_runs_in_the_page_offline(site, browser, name):
    seconds = open_and_run(browser, site, name)
    browser.save_screenshot(str(ARTIFACTS / f"{name.replace(' ', '-')}.png"))
    assert errors_shown(browser) == [], f"{name}: an error output after Run All"
    names = [k.text for k in by_css(browser, ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-KernelName")]
    assert names == ["Python (Pyodide)"], names
    text = outputs_text(browser)
    if name == "lesson 09":
        assert "drawn by the course's own small plotter" in text, "a lesson with plots says who draws them"
        assert figures_drawn(browser), "lesson 09 drew no figure"
        a_click_steps_the_viewer(browser)
        browser.save_screenshot(str(ARTIFACTS / "lesson-09-viewer-stepped.png"))
    outside = {u for u in requests_made(browser)
               if urlparse(u).scheme in ("http", "https", "ws", "wss")
               and urlparse(u).hostname != "127.0.0.1"}
    assert outside == set(), f"requests left 127.0.0.1 (CDN ones: {sorted(outside & allowed_outside())}): " \
                             f"{sorted(outside)}"
    print(f"{name}: opened, kernel started and ran in {seconds:.1f} s")


# A room: the site served by lite/serve.py, a plotting lesson drawn with nothing from off the
# machine, a reload with the server gone, and a student's edit carried to a second address.
LESSON = "notebooks/01_what_is_react.ipynb"
NOTE = "# my own note, carried to the new address: 4242"
LOCAL_HOSTS = {"127.0.0.1", "localhost"}


def room_server():
    """lite/serve.py's handler on a free port of 127.0.0.1, counting the bytes it sends."""
    sys.path.insert(0, str(ROOT / "lite"))
    from serve import SiteHandler

    class Counting(SiteHandler):
        def send_header(self, keyword, value):
            if keyword == "Content-Length":
                self.server.sent += int(value)
            super().send_header(keyword, value)

    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Counting, directory=str(SITE)))
    server.sent = 0
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def room_browser(downloads: Path):
    driver = chromium("--disable-background-networking", "--disable-component-update", "--disable-sync",
                      "--no-first-run", "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1 , "
                      "EXCLUDE localhost", log_requests=True)
    driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow",
                                                           "downloadPath": str(downloads)})
    return driver


def open_notebook(driver, url: str, path: str, kernel: bool = True) -> float:
    """Open ``path`` and wait for its kernel; the seconds from the request to an idle kernel.

    The site keeps no layout across page loads (lite/jupyter-lite.json), so ``path`` is the
    only notebook the page opens; the click on its tab stays, should one ever be in front.
    With ``kernel=False`` it waits only for the notebook to be in front: for a step that reads
    the cells and runs nothing, a Pyodide start (the longest wait of a page) proves nothing.
    """
    started = time.monotonic()
    name = Path(path).name
    tab = (f"//li[contains(@class,'lm-TabBar-tab')]"
           f"[.//div[contains(@class,'lm-TabBar-tabLabel') and text()='{name}']]")
    save_the_front(driver)  # a page with unsaved work may keep the browser from leaving it
    for attempt in range(1, 4):
        driver.get(f"{url}/lab/index.html?path={path}")
        wait_for(lambda: by_css(driver, ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell"),
                 timeout=180, what=f"{path} to open")
        try:
            found = wait_for(lambda: driver.find_elements("xpath", tab), timeout=60, what=f"{name}'s tab")
            break
        except AssertionError:
            # Seen under load: the page restored its earlier tabs and never opened ?path=
            # (1 run in 3 at load 12). A student would open the file again; so does the test.
            if attempt == 3:
                raise
            print(f"{name}'s tab did not appear after {attempt} load(s) of the page: loading it again")
    found[0].click()
    wait_for(lambda: by_css(driver, ".jp-NotebookPanel:not(.lm-mod-hidden)")[0].get_attribute("id")
             and name in panel_title(driver), what=f"{name} to be in front")
    if not kernel:
        return time.monotonic() - started
    wait_for(lambda: kernel_state(driver) == "idle" and "| Idle" in status_bar(driver), timeout=400,
             what=f"{path}'s kernel to start")
    return time.monotonic() - started


def save_the_front(driver) -> None:
    """Save the notebook in front (Ctrl+S), as a student does before opening another one."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    if by_css(driver, ".lm-TabBar-tab.jp-mod-dirty"):  # no click: it could land on a widget
        ActionChains(driver).key_down(Keys.CONTROL).send_keys("s").key_up(Keys.CONTROL).perform()
        with contextlib.suppress(AssertionError):  # not saved: the reload below still copes
            wait_for(lambda: not by_css(driver, ".lm-TabBar-tab.jp-mod-dirty"), timeout=20)


def panel_title(driver) -> str:
    """The file name of the notebook in front (its tab is the current one of the main area)."""
    return driver.execute_script(
        "const tab = document.querySelector('#jp-main-dock-panel .lm-TabBar-tab.lm-mod-current');"
        "return tab ? tab.textContent : '';")


def choose_file(driver, button, path: Path) -> None:
    """Click an upload button and give it ``path``, as a student picks a file in the dialog.

    The widget's file input is never in the page (a click on it opens the dialog), so the
    test puts it in the page instead of opening a dialog, and types the file's path into it.
    """
    driver.execute_script(
        "const click = HTMLInputElement.prototype.click;"
        "HTMLInputElement.prototype.click = function () {"
        "  if (this.type !== 'file' || this.isConnected) { return click.call(this); }"
        "  this.id = 'chosen-file'; this.style.display = 'block'; document.body.appendChild(this); };")
    button.click()
    wait_for(lambda: by_css(driver, "#chosen-file"), what="the file input")[0].send_keys(str(path))


def site_kept(driver) -> int:
    """How many of the site's files the service worker holds (0 before it has installed)."""
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "caches.keys().then(names => Promise.all(names.map(n => caches.open(n).then(c => c.keys()))))"
        ".then(lists => done(lists.reduce((a, l) => a + l.length, 0)), () => done(0));")


def files_listed() -> int:
    text = (SITE / "service-worker.js").read_text(encoding="utf-8")
    return len(json.loads(text.split("const FILES = ", 1)[1].split(";\n", 1)[0]))


def type_into_first_cell(driver, text: str, run: bool) -> None:
    """Click the first cell's editor, type ``text`` at its end, save (Ctrl+S), then maybe run it."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    editor = by_css(driver, ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell .cm-content")[0]
    editor.click()
    ActionChains(driver).key_down(Keys.CONTROL).send_keys(Keys.END).key_up(Keys.CONTROL).perform()
    ActionChains(driver).send_keys(text).perform()
    ActionChains(driver).key_down(Keys.CONTROL).send_keys("s").key_up(Keys.CONTROL).perform()
    wait_for(lambda: not by_css(driver, ".lm-TabBar-tab.jp-mod-current.jp-mod-dirty"), timeout=30,
             what="the notebook to be saved")
    if run:
        ActionChains(driver).key_down(Keys.SHIFT).send_keys(Keys.ENTER).key_up(Keys.SHIFT).perform()


def first_cell_text(driver) -> str:
    return by_css(driver, ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell .cm-content")[0].text


def figures_drawn(driver) -> list[int]:
    """The pixel widths of the SVG figures the open notebook shows (0 for one that did not load)."""
    images = by_css(driver, ".jp-NotebookPanel:not(.lm-mod-hidden) "
                            ".jp-OutputArea-output[data-mime-type='image/svg+xml'] img")
    return [driver.execute_script("return arguments[0].naturalWidth", image) for image in images]


def kernels_running(driver) -> int:
    """The kernels the page runs, as its status bar counts them ("0 Terminals, 1 Kernel sessions").

    Not Chromium's list of Web Workers (one per Pyodide): it may still hold the worker of
    the page just left, for a moment after the new page's kernel has started.
    """
    return driver.execute_script(
        "const item = [...document.querySelectorAll('#jp-main-statusbar [title]')]"
        "  .find(e => / Kernel sessions?$/.test(e.title));"
        "return item ? parseInt(item.title.split(', ')[1], 10) : -1;")


def off_the_machine(driver) -> list[str]:
    return sorted({u for u in requests_made(driver) if urlparse(u).scheme in ("http", "https", "ws", "wss")
                   and urlparse(u).hostname not in LOCAL_HOSTS})


def test_a_room_session_offline_and_at_a_second_address(tmp_path):
    subprocess.run([sys.executable, str(ROOT / "lite" / "build.py")], check=True, cwd=ROOT,
                   stdout=subprocess.DEVNULL)
    first, driver = room_server(), room_browser(tmp_path)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    try:
        here = f"http://127.0.0.1:{first.server_port}"
        first_open = open_notebook(driver, here, LESSON)
        run_all(driver, LESSON)
        assert errors_shown(driver) == [], "lesson 01: an error output after Run All"
        widths = figures_drawn(driver)
        assert widths and all(w > 100 for w in widths), f"lesson 01 drew no figure: {widths}"
        figure = by_css(driver, ".jp-OutputArea-output[data-mime-type='image/svg+xml'] img")[0]
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", figure)
        driver.save_screenshot(str(ARTIFACTS / "room-lesson-01-figure.png"))
        wait_for(lambda: site_kept(driver) >= files_listed(), timeout=180,
                 what="the service worker to keep the site")
        first_bytes = first.sent
        type_into_first_cell(driver, f"\n{NOTE}\n{MOVE} import export_work\nexport_work()", run=False)

        first.shutdown()
        first.server_close()  # the laptop is gone: the reload comes from the service worker
        try:
            reload = open_notebook(driver, here, LESSON)
        except AssertionError as error:
            driver.save_screenshot(str(ARTIFACTS / "room-offline-reload-failed.png"))
            failed = [e["message"][:200] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
            raise AssertionError(f"the offline reload did not open the lesson: {failed[-8:]}") from error
        assert NOTE in first_cell_text(driver), "the saved edit is gone after an offline reload"
        run_all(driver, LESSON)
        assert errors_shown(driver) == [] and figures_drawn(driver), "offline, lesson 01 no longer runs"
        driver.save_screenshot(str(ARTIFACTS / "room-offline-reload.png"))
        wait_for(lambda: by_css(driver, "a[download='react-course-work.zip']"),
                 what="the export link")[0].click()
        zipped = wait_for(lambda: list(tmp_path.glob("react-course-work*.zip")), timeout=30,
                          what="the work zip to download")[0]

        second = room_server()  # the laptop is back, at a new address
        there = f"http://localhost:{second.server_port}"
        open_notebook(driver, there, LESSON, kernel=False)  # what it shows, nothing run
        assert NOTE not in first_cell_text(driver), "a new address should start with the site as served"
        assert zipped.stat().st_size > 10_000, "the exported zip is empty"
        open_notebook(driver, there, "notebooks/00_start_here.ipynb")
        type_into_first_cell(driver, f"\n{MOVE} import import_work\nimport_work()", run=True)
        chooser = wait_for(lambda: by_css(driver, ".jp-NotebookPanel:not(.lm-mod-hidden) .widget-upload"),
                           what="the import button")
        choose_file(driver, chooser[0], zipped)
        wait_for(lambda: "Imported" in outputs_text(driver), timeout=60, what="the import to finish")
        type_into_first_cell(driver, "", run=False)  # saved, so that leaving the page asks nothing
        open_notebook(driver, there, LESSON, kernel=False)
        assert NOTE in first_cell_text(driver), "the student's edit did not come to the new address"
        panels = len(by_css(driver, ".jp-NotebookPanel"))
        assert (panels, kernels_running(driver)) == (1, 1), f"a page load opened {panels} notebooks"
        driver.save_screenshot(str(ARTIFACTS / "room-second-address.png"))
        second.shutdown()
        print(f"room: first open {first_open:.1f} s, {first_bytes / 1e6:.1f} MB sent; "
              f"offline reload to an idle kernel {reload:.1f} s")
        assert off_the_machine(driver) == [], f"requests left the machine: {off_the_machine(driver)}"
    finally:
        driver.quit()


def test_a_tab_reaches_serve_model_through_cors(site, tmp_path):
    """The real-model path from a tab: the openai SDK over the page's XMLHttpRequest, with CORS.

    ``react-course serve-model``'s server on another port of 127.0.0.1 is another origin
    than the site's, so Chromium asks it first (a CORS preflight) and sends the calls only
    when it allows them; the tab then talks to it as a laptop talks to a real model.

    First the doctor, as lesson 00's cell asks it, finds no problem in the page (the drive
    the site mounts, as only a page has it).
    """
    from react_course.scripted_api.standalone import open_server

    model = open_server("127.0.0.1", 0)
    threading.Thread(target=model.serve_forever, daemon=True).start()
    driver = room_browser(tmp_path)
    try:
        open_notebook(driver, site, "exercises/02_scripted_model_and_loop.ipynb")
        url, name = model.base_url, model.model_name
        type_into_first_cell(driver, "\nfrom react_course.course.doctor import diagnose\n"
                             "print('problems:', [f.line() for f in diagnose() if not f.ok])\n"
                             "import os, openai\nimport react_course as rc\n"
                             f"os.environ['REACT_COURSE_MODEL'] = 'openai-compatible:{url}:{name}'\n"
                             f"client = openai.OpenAI(base_url='{url}', api_key='any', max_retries=0)\n"
                             "print('models:', [m.id for m in client.models.list()])\n"
                             "reply = rc.course_model()('Question: What is 2 + 2?', ['Observation:'])\n"
                             "print('reply:', reply)",
                             run=True)
        wait_for(lambda: "reply:" in outputs_text(driver) or errors_shown(driver), timeout=120,
                 what="the tab's calls to the model")
        assert errors_shown(driver) == [], f"the tab could not use serve-model: {errors_shown(driver)}"
        assert "problems: []" in outputs_text(driver), "the doctor found a problem in the page"
        assert f"models: ['{name}'" in outputs_text(driver), outputs_text(driver)
        assert "not supported on Emscripten" not in outputs_text(driver), "a stray warning in the tab"
        driver.save_screenshot(str(ARTIFACTS / "tab-serve-model.png"))
    finally:
        driver.quit()
        model.shutdown()
