"""The Python packages of the browser edition: which wheels, from where, and Pyodide's lock file.

Pyodide loads a package by looking it up in ``pyodide-lock.json``: a file
name (relative to the lock, or a full URL), a SHA-256 and the names it
depends on. We write our own lock from the one in npm's ``pyodide``:

- every package the kernel and the lessons need is a wheel in the site
  itself, downloaded from PyPI at the version ``constraints.txt`` pins (the
  version the laptop tests run), else at the version Pyodide ships;
- every other package keeps Pyodide's own build, as a full URL on the public
  CDN: no lesson asks for one (the plots are drawn by the course's own plotter,
  react_course/web/plots_offline.py), and the Chromium test fails on any request
  that leaves the machine;
- the course itself is one more entry, so ``%pip install react-course``
  (micropip, through the lock) installs it and its browser dependencies.

Pure-Python wheels work on any platform; two of the course's dependencies are
compiled (``pydantic_core``, ``jiter``) and PyPI carries their WebAssembly
wheels for this Pyodide's platform tag, so those come from PyPI as well.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import re
import subprocess
import sys
import zipfile
from email.parser import Parser
from pathlib import Path

from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

PYODIDE = "314.0.6"
PLATFORM = "pyemscripten_2026_0_wasm32"
CDN = f"https://cdn.jsdelivr.net/pyodide/v{PYODIDE}/full/"

# The environment markers of Pyodide 314 (Python 3.14.2 on emscripten 5.0.3).
ENVIRONMENT = {
    "implementation_name": "cpython", "implementation_version": "3.14.2",
    "os_name": "posix", "platform_machine": "wasm32", "platform_release": "5.0.3",
    "platform_system": "Emscripten", "platform_version": "#1",
    "python_full_version": "3.14.2", "platform_python_implementation": "CPython",
    "python_version": "3.14", "sys_platform": "emscripten",
}

# What the JupyterLite kernel installs when it starts (its worker asks piplite for
# these), beside the course: they must be in the site, or the kernel cannot start offline.
EXTRAS = {"browser"}  # the course's extra the lock installs with it
KERNEL = ["micropip", "packaging", "ipython", "jedi", "comm"]
# Shims that JupyterLite's kernel ships itself: never replaced by PyPI's packages.
SHIPPED = {"ipykernel", "widgetsnbextension", "piplite", "pyodide-kernel"}


def pins(constraints: Path) -> dict[str, str]:
    """The versions ``constraints.txt`` pins for Pyodide (a line whose marker fails there is dropped).

    The lock is read by course.py's own reader, which the offline wheelhouse uses too.
    """
    spec = importlib.util.spec_from_file_location("course_setup", constraints.parent / "course.py")
    course = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(course)
    return {name: version for name, version, marker in course.read_lock(constraints)
            if not marker or Marker(marker).evaluate(ENVIRONMENT)}


def requirements_of(wheel: Path, extras: set[str]) -> list[Requirement]:
    """The wheel's Requires-Dist entries that apply in Pyodide with these extras."""
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        metadata = Parser().parsestr(archive.read(name).decode("utf-8"))
    wanted = []
    for text in metadata.get_all("Requires-Dist") or []:
        requirement = Requirement(text)
        marker = requirement.marker
        if marker is None or any(marker.evaluate({**ENVIRONMENT, "extra": e}) for e in extras | {""}):
            wanted.append(requirement)
    return wanted


def download(requirements: list[str], into: Path) -> None:
    """PyPI's wheels for Pyodide (pure ones, or built for its platform tag), without dependencies."""
    into.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                    "--only-binary", ":all:", "--python-version", "3.14", "--implementation", "cp",
                    "--abi", "cp314", "--platform", PLATFORM, "--dest", str(into), *requirements],
                   check=True)


def wheel_for(name: str, version: str, folder: Path) -> Path | None:
    """The downloaded wheel of ``name`` at ``version`` in ``folder``, if there is one."""
    for wheel in folder.glob("*.whl"):
        stem = wheel.name.split("-")
        if canonicalize_name(stem[0]) == name and stem[1] == version:
            return wheel
    return None


def closure(course_wheel: Path, course_extras: set[str], constraints: Path, lock: dict,
            cache: Path) -> dict[str, tuple[Path, set[str]]]:
    """Every wheel the course (with ``course_extras``) and the kernel need, downloaded into ``cache``,
    each with the extras asked of it.

    Versions: the laptop's pin, else Pyodide's; a package with neither is an error,
    so the site never holds a version nobody tested.
    """
    pinned, shipped = pins(constraints), lock["packages"]
    chosen: dict[str, Path] = {}
    todo = [(canonicalize_name(n), set()) for n in KERNEL]
    todo += [(canonicalize_name(r.name), set(r.extras)) for r in requirements_of(course_wheel, course_extras)]
    extras_of: dict[str, set[str]] = {}
    while todo:
        batch = {}
        for name, extras in todo:
            if name in SHIPPED:
                continue
            if name in chosen and extras <= extras_of.get(name, set()):
                continue
            extras_of.setdefault(name, set()).update(extras)
            version = pinned.get(name) or shipped.get(name, {}).get("version")
            if not version:
                raise SystemExit(f"no version for {name}: pin it in constraints.txt")
            batch[name] = version
        missing = [f"{n}=={v}" for n, v in batch.items() if not wheel_for(n, v, cache)]
        if missing:
            download(missing, cache)
        todo = []
        for name, version in batch.items():
            wheel = wheel_for(name, version, cache)
            if wheel is None:
                raise SystemExit(f"PyPI has no wheel of {name}=={version} for Pyodide")
            chosen[name] = wheel
            todo += [(canonicalize_name(r.name), set(r.extras))
                     for r in requirements_of(wheel, extras_of[name])]
    return {name: (wheel, extras_of[name]) for name, wheel in chosen.items()}


def top_level(wheel: Path) -> list[str]:
    """The importable top-level names a wheel installs (for the lock's ``imports``)."""
    with zipfile.ZipFile(wheel) as archive:
        names = {n.split("/")[0] for n in archive.namelist()}
    return sorted(re.sub(r"\.py$", "", n) for n in names
                  if not n.endswith((".dist-info", ".data")) and re.fullmatch(r"[A-Za-z_]\w*(\.py)?", n))


def entry(name: str, wheel: Path, extras: set[str], known: set[str]) -> dict:
    """One lock entry for a wheel that lies beside the lock."""
    depends = sorted({canonicalize_name(r.name) for r in requirements_of(wheel, extras)} & known)
    return {"name": name, "version": wheel.name.split("-")[1], "file_name": wheel.name,
            "install_dir": "site", "sha256": hashlib.sha256(wheel.read_bytes()).hexdigest(),
            "package_type": "package", "imports": top_level(wheel), "depends": depends,
            "unvendored_tests": False}


def write_lock(original: dict, wheels: dict[str, tuple[Path, set[str]]], course: Path,
               course_extras: set[str], out: Path) -> dict:
    """Our ``pyodide-lock.json`` in ``out``, with the wheels copied beside it; returns the lock."""
    packages = {}
    for name, package in original["packages"].items():
        packages[name] = {**package, "file_name": CDN + package["file_name"]}
    known = set(packages) | set(wheels) | {"react-course"}
    for name, (wheel, extras) in wheels.items():
        packages[name] = entry(name, wheel, extras, known)
        (out / wheel.name).write_bytes(wheel.read_bytes())
    packages["react-course"] = entry("react-course", course, course_extras, known)
    (out / course.name).write_bytes(course.read_bytes())
    lock = {**original, "packages": packages}
    (out / "pyodide-lock.json").write_text(json.dumps(lock, indent=1, sort_keys=True), encoding="utf-8")
    return lock
