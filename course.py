"""Set up the course and open it, or run its tests. Needs only Python 3.11+ and pip.

    python3 course.py open    set up (first time), then open JupyterLab on lesson 00
    python3 course.py test    set up with the test tools, then run the whole suite
    python3 course.py setup   set up only (add --test for the test tools)
    python3 course.py lock    maintainers: re-resolve constraints.txt from pyproject.toml

Setting up makes a virtual environment in .venv, installs the course with the
exact versions in constraints.txt, and registers the Jupyter kernel
"react-course" inside that environment. It is repeatable: a second run only
re-installs when pyproject.toml or constraints.txt changed. Extra arguments
go to JupyterLab (open) or pytest (test), e.g. `python3 course.py test -x`.
This file uses only the standard library, on purpose.
"""

from __future__ import annotations  # so that old Pythons can still print the version message

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

HERE = Path(__file__).resolve().parent
VENV = HERE / ".venv"
KERNEL = "react-course"
FIRST_NOTEBOOK = "notebooks/00_start_here.ipynb"


def venv_python() -> Path:
    folder = "Scripts" if os.name == "nt" else "bin"
    return VENV / folder / ("python.exe" if os.name == "nt" else "python")


def run(*args: str) -> None:
    print("+", " ".join(args), flush=True)
    subprocess.run(args, check=True, cwd=HERE)


def setup(extras: str) -> Path:
    if sys.version_info < (3, 11):  # noqa: UP036 (this file must run on old Pythons to say so)
        sys.exit(f"The course needs Python 3.11 or newer; this is {sys.version.split()[0]}.")
    python = venv_python()
    if not python.exists():
        print(f"Creating a virtual environment in {VENV.name}/ ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    stamp = VENV / f".installed-{extras or 'base'}"
    wanted = hashlib.sha256(
        b"".join((HERE / f).read_bytes() for f in ("pyproject.toml", "constraints.txt"))
    ).hexdigest()
    if not stamp.exists() or stamp.read_text() != wanted:
        target = f".[{extras}]" if extras else "."
        run(str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
            "-c", "constraints.txt", "-e", target)
        run(str(python), "-m", "ipykernel", "install", "--sys-prefix", "--name", KERNEL,
            "--display-name", "Python (react-course)")
        stamp.write_text(wanted)
    return python


def lab_command(python: Path, rest: list, as_root: bool | None = None) -> list:
    """The JupyterLab command line that opens lesson 00 with the whole course in view."""
    if as_root is None:
        as_root = hasattr(os, "geteuid") and os.geteuid() == 0
    if as_root and "--allow-root" not in rest:
        print("Running as root (a container?): passing --allow-root to JupyterLab.")
        rest = [*rest, "--allow-root"]
    # root_dir keeps the whole course in the file browser (a file argument alone
    # would make notebooks/ the root and hide exercises/ and solutions/).
    return [str(python), "-m", "jupyterlab", f"--ServerApp.root_dir={HERE}", FIRST_NOTEBOOK, *rest]


def lock() -> None:
    """Resolve pyproject.toml's ranges afresh in a scratch environment and pin the result."""
    import tempfile

    with tempfile.TemporaryDirectory() as scratch:
        venv.EnvBuilder(with_pip=True).create(scratch)
        python = str(Path(scratch) / ("Scripts/python.exe" if os.name == "nt" else "bin/python"))
        run(python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", ".[test]")
        frozen = subprocess.run([python, "-m", "pip", "freeze", "--exclude-editable"],
                                check=True, capture_output=True, text=True).stdout
    pins = [line for line in frozen.splitlines() if not line.lower().startswith("react-course")]
    header = ["# Exact versions the course is tested with (pip install -c constraints.txt ...).",
              "# Regenerate with: python3 course.py lock"]
    (HERE / "constraints.txt").write_text("\n".join(header + pins) + "\n")
    print(f"constraints.txt: {len(pins)} pinned packages")


def main(argv: list) -> int:
    verb, rest = (argv[0], argv[1:]) if argv else ("", [])
    if verb == "open":
        python = setup("")
        return subprocess.call(lab_command(python, rest), cwd=HERE)
    if verb == "test":
        python = setup("test")
        return subprocess.call([str(python), "-m", "pytest", *rest], cwd=HERE)
    if verb == "setup":
        setup("test" if "--test" in rest else "")
        return 0
    if verb == "lock":
        lock()
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
