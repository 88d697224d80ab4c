"""``react-course doctor``: is this machine ready for the course? Says what to fix.

Each check returns a ``Finding`` (ok, warn, fix, or skip); nothing here changes
the machine. Run it at the start of a workshop on every laptop in the room;
``--json`` prints a report an instructor can collect, ``--full`` also starts
the course's kernel and runs lesson 00 headless, and ``--ping`` sends one
request to the real model (``doctor_model.py``). In a browser tab it reports the
browser edition instead (``doctor_browser.py``).

What it leaves out: repairs (``python3 course.py open`` makes them) and any
check that needs the network, except ``--ping`` to the configured model.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import platform
import re
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path

from ..web import browser
from .findings import Finding, installed

KERNEL_NAME = "react-course"
KERNEL_DISPLAY_NAME = "Python (react-course)"
DISTRIBUTION = "react-course"
PACKAGES = ("jupyterlab", "ipykernel", "ipywidgets", "nbclient", "openai", "matplotlib")
FIRST_LESSON = "notebooks/00_start_here.ipynb"
def kernel_command(python: str = sys.executable) -> str:
    """The command that (re-)registers the kernel the notebooks ask for, by name and display name."""
    return (f'"{python}" -m ipykernel install --sys-prefix --name {KERNEL_NAME} '
            f'--display-name "{KERNEL_DISPLAY_NAME}"')


def _install() -> importlib.metadata.Distribution | None:
    """The installed course (the one with an install record, not a stray egg-info in this folder)."""
    found = list(importlib.metadata.distributions(name=DISTRIBUTION))
    recorded = [d for d in found if d.read_text("direct_url.json")]
    return (recorded or found or [None])[0]


def supported_pythons() -> str:
    """The Requires-Python range of the installed course (pyproject.toml states it once)."""
    install = _install()
    return (install.metadata.get("Requires-Python") if install else None) or ">=3.11"


def check_python() -> Finding:
    version = platform.python_version()
    wanted = supported_pythons()
    try:
        from packaging.specifiers import SpecifierSet

        ok = version in SpecifierSet(wanted)
    except ImportError:  # packaging comes with Jupyter; without it, only the old rule
        ok = sys.version_info >= (3, 11)
    return Finding("Python", "ok" if ok else "fix", f"{version} (supported: {wanted})",
                   f"Install a Python in the range {wanted} (python.org, or your system's "
                   "packages), then run: python3 course.py open")


def check_packages() -> list[Finding]:
    return installed(PACKAGES, "not installed", "Run the README's set-up command: python3 course.py open")


def course_folder() -> Path | None:
    """The folder whose notebooks/ the student opens: beside the imported package, or here."""
    for folder in (Path(__file__).resolve().parents[1], Path.cwd()):
        if (folder / FIRST_LESSON).exists():
            return folder
    return None


def installed_from() -> Path | None:
    """The folder the editable install points at (None when not an editable install)."""
    install = _install()
    record = json.loads((install.read_text("direct_url.json") if install else None) or "{}")
    url = record.get("url", "")
    if not url.startswith("file:"):
        return None
    from urllib.parse import unquote, urlparse

    path = unquote(urlparse(url).path)
    return Path(path[1:] if os.name == "nt" and path[:1] == "/" else path)


def check_folder() -> Finding:
    here, there = course_folder(), installed_from()
    if here is None:
        return Finding("course folder", "warn", f"no {FIRST_LESSON} beside the package or here",
                       "Run doctor from the course folder (the one with notebooks/).")
    if there is None or _same(here, there):
        return Finding("course folder", "ok", f"{here.name}/ (the install points here)")
    return Finding("course folder", "fix",
                   f"the install points at {there}, but the notebooks are in {here} "
                   "(the folder was moved or copied after set-up)",
                   "In the folder you use now, run: python3 course.py open (it re-installs).")


def _same(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False


def check_kernel() -> Finding:
    name = f"Jupyter kernel {KERNEL_NAME!r}"
    try:
        from jupyter_client.kernelspec import KernelSpecManager

        spec = KernelSpecManager().get_kernel_spec(KERNEL_NAME)
    except Exception:
        return Finding(name, "fix", "not registered", kernel_command())
    python = Path(spec.argv[0])
    if not python.exists():
        return Finding(name, "fix", f"its Python {python} no longer exists (a moved folder?)",
                       f"Re-register it: {kernel_command()}")
    if not _same(python.parent.parent, Path(sys.prefix)):
        return Finding(name, "warn", f"runs {python}, not this environment's Python",
                       f"To use this environment: {kernel_command()}")
    return Finding(name, "ok", f"runs this environment's {python.name}, shown as "
                               f"{spec.display_name!r}")


@contextmanager
def _scripted_model() -> Iterator[None]:
    """Lesson 00 runs on the scripted model here: the check is of the machine, not the model."""
    saved = os.environ.pop("REACT_COURSE_MODEL", None)
    try:
        yield
    finally:
        if saved is not None:
            os.environ["REACT_COURSE_MODEL"] = saved


def check_lesson(timeout: int = 120) -> Finding:
    """Start the course kernel and run lesson 00 to its end, headless (``--full``)."""
    name = "lesson 00 in the course kernel"
    folder = course_folder()
    if folder is None:
        return Finding(name, "skip", f"{FIRST_LESSON} not found")
    from .authoring import execute_notebook

    began = time.monotonic()
    try:
        with _scripted_model():
            execute_notebook(folder / FIRST_LESSON, timeout=timeout, save=False)
    except Exception as error:
        plain = re.sub(r"\x1b\[[0-9;]*m", "", str(error)).strip()  # tracebacks come coloured
        first = (plain.splitlines() or [""])[-1][:200]
        if type(error).__name__ == "CellExecutionError":  # the kernel ran, the lesson did not
            fix = ("Repair the install (python3 course.py open) and try again; if it still fails, "
                   "send this report to your instructor.")
        else:
            fix = f"Re-register the kernel ({kernel_command()}), or run: python3 course.py open"
        return Finding(name, "fix", f"{type(error).__name__}: {first}", fix)
    return Finding(name, "ok", f"ran to its end in {time.monotonic() - began:.0f} s "
                               "(scripted model)")


def diagnose(ping: bool = False, full: bool = False) -> list[Finding]:
    from .doctor_model import check_model, ping_model

    if browser.IN_BROWSER:  # no venv, kernel or folder to check in a tab, and no kernel to start
        from . import doctor_browser

        return doctor_browser.diagnose(ping)

    findings = [check_python(), *check_packages(), check_folder(), check_kernel(), check_model()]
    if full:
        findings.append(check_lesson())
    if ping:
        findings += ping_model()
    return findings


def summary(findings: list[Finding], pinged: bool = False) -> str:
    from .doctor_model import untested_model

    problems = sum(f.status == "fix" for f in findings)
    warnings = sum(f.status == "warn" for f in findings)
    if problems:
        return f"{problems} thing(s) to fix, listed above."
    untested = None if pinged else untested_model()
    if untested:
        return (f"The set-up is ready, but the model at {untested} was not contacted: "
                "run react-course doctor --ping to try it.")
    if warnings:
        return f"Ready, with {warnings} warning(s) above: open {FIRST_LESSON}."
    return f"All good: open {FIRST_LESSON}."


def report(findings: list[Finding], pinged: bool = False) -> str:
    from ..backends.api_errors import redact

    return redact("\n".join([*(f.line() for f in findings), summary(findings, pinged)]))


def report_json(findings: list[Finding], pinged: bool = False) -> str:
    """One JSON object per machine: what an instructor collects from the room."""
    from .. import __version__
    from ..backends.api_errors import redact

    data = {
        "ok": all(f.ok for f in findings),
        "summary": summary(findings, pinged),
        "course_version": __version__,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "findings": [asdict(f) for f in findings],
    }
    return redact(json.dumps(data, indent=2))
