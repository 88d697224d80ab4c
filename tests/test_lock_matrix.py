"""The lock serves every supported platform and Python with wheels only.

For each cell of course.py's matrix (Windows x64 and ARM64, macOS Intel and
Apple silicon, Linux x86_64 and aarch64, each supported Python, less the stated
exceptions) uv resolves pyproject.toml under constraints.txt with
`--only-binary :all:`, and every package it needs must be pinned in the lock.
No test asks the package index: ``python3 course.py test`` fills uv's cache first (a
set-up step, ``course.lock_cache``) and the test resolves every cell with ``--offline``;
run otherwise, or where no index answered, it is skipped, saying why. What is left out:
installing the wheels (the offline wheelhouse run in the README does that for this machine).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def load_course():
    spec = importlib.util.spec_from_file_location("course_for_lock", ROOT / "course.py")
    course = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(course)
    return course


@pytest.fixture(scope="module")
def uv() -> str:
    found = shutil.which("uv", path=str(Path(sys.executable).parent)) or shutil.which("uv")
    if not found:
        pytest.skip("uv is not installed; `python3 course.py test` installs it (the test extra)")
    if os.environ.get("REACT_COURSE_LOCK_CACHE") != "filled":
        pytest.skip("uv's cache was not filled for the matrix (a set-up step of `python3 course.py test`, "
                    "which needs a package index; with --wheelhouse, or with no index, it is skipped)")
    return found


def test_every_platform_and_python_resolves_with_wheels_only(uv) -> None:
    course = load_course()
    cells = course.matrix()
    assert len(cells) == len(course.PLATFORMS) * len(course.minor_versions()) - len(course.EXCEPTIONS)
    failures = course.check_matrix(uv, offline=True)
    report = "\n".join(f"{name} Python {version}: {problem}"
                       for (name, version), problem in sorted(failures.items()))
    assert not failures, f"the lock fails on {len(failures)} of {len(cells)} cells:\n{report}"


def test_platform_only_packages_are_pinned_with_markers() -> None:
    course = load_course()
    pins = {name: marker for name, _, marker in course.read_lock()}
    for name in ("pywinpty", "colorama", "appnope"):
        assert pins.get(name), f"{name} must be pinned, with its platform marker"
    assert "win32" in pins["colorama"] and "darwin" in pins["appnope"]


def test_the_oldest_supported_python_has_a_pin_for_everything() -> None:
    # Debian 12's Python is 3.11.2: every package needs a pin that applies to it.
    course = load_course()
    names = {pin.split("==")[0] for pin in course.pins_for("linux-x86_64", "3.11")}
    for name, version, marker in course.read_lock():
        if name == "soupsieve" and "3.11.5" in marker and "<" in marker:
            assert version.split(".")[0] == "2", "soupsieve for 3.11.0-3.11.4 must be a 2.x release"
    assert {"jupyterlab", "ipykernel", "soupsieve", "numpy"} <= names
