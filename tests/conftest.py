"""Test set-up: no network, no real model unless asked, golden files on demand."""

from __future__ import annotations

import ipaddress
import os
import socket

import pytest

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
