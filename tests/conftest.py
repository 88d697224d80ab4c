"""Test set-up: no network, no real model unless asked, golden files on demand, and a run that
leaves the repository as it found it."""

from __future__ import annotations

import ipaddress
import os
import socket
import subprocess
from pathlib import Path

import pytest
import scheduling

REAL_MODEL_SWITCH = "REACT_COURSE_REAL_MODEL_TESTS"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-goldens", action="store_true",
                     help="rewrite tests/golden/* from the current output")


def pytest_configure(config: pytest.Config) -> None:
    # Notebooks and library tests must behave the same on every machine:
    # the scripted model, unless a real-model run is explicitly asked for.
    if not os.environ.get(REAL_MODEL_SWITCH):
        os.environ.pop("REACT_COURSE_MODEL", None)
    for name in ("REACT_COURSE_STRICT", "REACT_COURSE_RESULTS"):
        os.environ.pop(name, None)
    _block_network()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    _require_kernel(items)
    if os.environ.get(REAL_MODEL_SWITCH):
        return
    skip = pytest.mark.skip(reason=f"needs a real model: set {REAL_MODEL_SWITCH}=1")
    for item in items:
        if "real_model" in item.keywords:
            item.add_marker(skip)


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook: -n's scheduler
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
    """``--dist loadscope`` as tests/scheduling.py refines it: finer groups, the longest first."""
    if config.getvalue("dist") == "loadscope":
        return scheduling.Spread(config, log)
    return None


def _require_kernel(items: list[pytest.Item]) -> None:
    """Notebook tests need the course's kernel: say so once, not in one error per notebook."""
    if not any(str(item.fspath).endswith((".ipynb", "test_notebooks.py")) for item in items):
        return
    from jupyter_client.kernelspec import KernelSpecManager

    from react_course.course.authoring import KERNEL_NAME

    if KERNEL_NAME not in KernelSpecManager().find_kernel_specs():
        pytest.exit(f"The Jupyter kernel {KERNEL_NAME!r} is not registered, so no notebook can run. "
                    "Run `python3 course.py test` (it sets up and registers it), then try again.",
                    returncode=4)


def _is_local(address: object) -> bool:
    if not isinstance(address, tuple):
        return True  # a Unix socket path
    host = str(address[0])
    if host in ("localhost", ""):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _block_network() -> None:
    """Any connection beyond this machine fails loudly instead of hanging a test."""
    if os.environ.get(REAL_MODEL_SWITCH) or getattr(socket.socket, "_course_blocked", False):
        return
    original = socket.socket.connect

    def guarded_connect(self: socket.socket, address: object) -> None:
        if not _is_local(address):
            raise ConnectionRefusedError(f"tests may not use the network (tried {address!r})")
        return original(self, address)

    socket.socket.connect = guarded_connect  # type: ignore[method-assign]
    socket.socket._course_blocked = True  # type: ignore[attr-defined]


@pytest.fixture
def update_goldens(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-goldens"))


REPO = Path(__file__).resolve().parent.parent


def _repo_changes() -> set | None:
    """What ``git status`` lists (changed and untracked files, ignored ones left out); None outside
    a checkout. A lesson, an exercise or a test that writes into the course folder shows here."""
    try:
        out = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=REPO,
                             capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return set(out.stdout.splitlines()) if out.returncode == 0 else None


def pytest_sessionstart(session: pytest.Session) -> None:
    if not hasattr(session.config, "workerinput"):  # the controller only, not each xdist worker
        session.config.stash[_BEFORE] = _repo_changes()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    before = session.config.stash.get(_BEFORE, None)
    if before is None or session.config.getoption("--update-goldens"):
        return
    new = sorted((_repo_changes() or set()) - before)
    if new:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        message = ("The run wrote into the repository (tests and lessons must write only to "
                   "temporary or ignored folders):\n  " + "\n  ".join(new))
        if reporter:
            reporter.ensure_newline()
            reporter.write_line(message, red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


_BEFORE = pytest.StashKey[set | None]()
