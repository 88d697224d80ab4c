"""Driving Debian's chromium from a test: start it headless, wait for JupyterLab, run a notebook.

Shared by tests/test_browser.py (JupyterLab on a laptop) and tests/test_lite_site.py (the
browser edition). Selenium drives the system ``chromium`` through the system ``chromedriver``:
the browsers Selenium or Playwright download themselves cannot be fetched here. ``.ci/run``
installs both; without them the tests that need them skip, saying what to install.
"""

from __future__ import annotations

import importlib.util
import shutil
import socket
import time

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
MISSING = [what for what, found in (("chromium", CHROMIUM), ("chromium-driver", DRIVER),
                                    ("selenium", importlib.util.find_spec("selenium"))) if not found]
NEEDS_CHROMIUM = pytest.mark.skipif(
    bool(MISSING), reason=f"no browser to drive: install {', '.join(MISSING)} (Debian: apt-get install "
                          "chromium chromium-driver; pip install selenium); .ci/run does this")


def chromium(*flags: str, log_requests: bool = False):
    """A headless chromium; with ``log_requests``, its performance log records every request."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000",
                 "--disable-gpu", *flags):
        options.add_argument(flag)
    if log_requests:
        options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(DRIVER))
    driver.set_page_load_timeout(60)
    return driver


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for(condition, timeout: float = 90.0, every: float = 0.25, what: str = "a condition"):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        found = condition()
        if found:
            return found
        time.sleep(every)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")


def by_css(driver, selector: str) -> list:
    from selenium.webdriver.common.by import By

    return driver.find_elements(By.CSS_SELECTOR, selector)


def status_bar(driver) -> str:
    bars = by_css(driver, "#jp-main-statusbar")
    return bars[0].text if bars else ""


def kernel_state(driver) -> str:
    indicators = by_css(driver, ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook-ExecutionIndicator")
    return indicators[0].get_attribute("data-status") if indicators else ""


def nothing_in_the_way(driver) -> str:
    """'' when no dialog, toast or kernel prompt covers the notebook; else what does."""
    dialogs = [d.text for d in by_css(driver, ".jp-Dialog")]
    toasts = [t.text for t in by_css(driver, ".Toastify__toast")]
    return "; ".join(f"dialog: {d[:120]}" for d in dialogs) + "; ".join(f"toast: {t[:120]}" for t in toasts)


def run_all(driver, lesson: str) -> None:
    from selenium.webdriver.common.by import By

    menu = "//div[contains(@class,'lm-MenuBar-itemLabel') and text()='Run']"
    item = "//div[contains(@class,'lm-Menu-itemLabel') and text()='Run All Cells']"
    driver.find_element(By.XPATH, menu).click()
    wait_for(lambda: driver.find_elements(By.XPATH, item), what="the Run menu")[0].click()
    time.sleep(1.0)  # let the first cell start

    def finished() -> bool:
        prompts = by_css(driver, ".jp-InputPrompt")
        return kernel_state(driver) == "idle" and not any("*" in p.text for p in prompts)

    # generous: a verdict must not depend on speed, and a loaded machine runs Pyodide slowly
    # (lesson 09 took over 3 min at load 12); a real hang still fails, only later
    wait_for(finished, timeout=600, what=f"lesson {lesson} to run")


def errors_shown(driver) -> list[str]:
    return [e.text[:300] for e in by_css(driver, ".jp-OutputArea-output[data-mime-type="
                                                 "'application/vnd.jupyter.error']")]


def a_click_steps_the_viewer(driver) -> None:
    """Lesson 09's trace viewer shows step 1, and a click on next shows step 2."""
    from selenium.webdriver.common.by import By

    viewer = wait_for(lambda: by_css(driver, ".react-course-viewer"), what="the trace viewer")[0]
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", viewer)
    text = lambda: viewer.find_element(By.CSS_SELECTOR, ".widget-html-content").text  # noqa: E731
    assert "Step 1 of" in text()
    viewer.find_element(By.XPATH, ".//button[contains(., 'next')]").click()
    wait_for(lambda: "Step 2 of" in text(), timeout=20, what="the viewer to show step 2")
    driver.execute_script("arguments[0].scrollIntoView({block: 'start'})", viewer)
