"""What a Jupyter kernel does for a notebook, in one process: record each cell, start each notebook afresh.

Used by notebooks.py, in Pyodide under Node, where no Jupyter kernel runs.

``KernelLikeShell`` is IPython's ``InteractiveShell`` (the JupyterLite kernel's
shell too) with the three places a kernel sends outputs to the page replaced
by recorders: streams (``sys.stdout`` / ``sys.stderr`` while a cell runs), the
display hook (``execute_result``, every format) and the display publisher
(``display_data``). Display updates and ``clear_output`` are dropped, as nbval
drops them; tracebacks are recorded as ``error`` outputs.

``FreshKernel`` gives a notebook what a new kernel would: a new shell, its own
folder as the current folder, an environment set as the laptop suite sets it
(tests/conftest.py, tests/test_notebooks.py), and the course's modules imported
anew (their once-per-kernel notes, caches and counters start over), and puts
the process back afterwards. Python's own modules and the course's
dependencies stay imported: a notebook that changes their state can still
leak into the next one, the price of starting Pyodide once, not per notebook.
"""

from __future__ import annotations

import io
import json
import os
import re
import sys
import warnings
from pathlib import Path

from IPython.core.displayhook import DisplayHook
from IPython.core.displaypub import DisplayPublisher
from IPython.core.interactiveshell import InteractiveShell
from traitlets.config import Config

REPOSITORY = Path(__file__).resolve().parents[2]
RESULTS_FILE = "react-course-check-results.jsonl"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


class StreamRecorder(io.TextIOBase):
    """``sys.stdout`` / ``sys.stderr`` during a cell: each write becomes a stream output."""

    def __init__(self, shell: KernelLikeShell, name: str) -> None:
        super().__init__()
        self.shell, self.name = shell, name

    @property
    def encoding(self) -> str:
        return "utf-8"

    def writable(self) -> bool:
        return True

    def write(self, chunk: str) -> int:
        self.shell.cell_outputs.append({"output_type": "stream", "name": self.name, "text": str(chunk)})
        return len(chunk)


class ResultRecorder(DisplayHook):
    """The last expression's value as an ``execute_result``, with every format the kernel sends."""

    def start_displayhook(self) -> None:
        pass

    def write_output_prompt(self) -> None:
        pass

    def write_format_data(self, format_dict, md_dict=None) -> None:
        self.shell.cell_outputs.append({"output_type": "execute_result", "data": format_dict,
                                        "metadata": md_dict or {}})

    def finish_displayhook(self) -> None:
        pass


class DisplayRecorder(DisplayPublisher):
    """``display()`` as ``display_data``; updates and ``clear_output`` are dropped, as nbval drops them."""

    def publish(self, data, metadata=None, source=None, *, transient=None, update=False, **kwargs) -> None:
        if not update:
            self.shell.cell_outputs.append({"output_type": "display_data", "data": data,
                                            "metadata": metadata or {}})

    def clear_output(self, wait=False) -> None:
        pass


class KernelLikeShell(InteractiveShell):
    """An IPython shell that records a cell's outputs instead of printing them."""

    displayhook_class = ResultRecorder
    display_pub_class = DisplayRecorder

    def __init__(self, **kwargs) -> None:
        self.cell_outputs: list[dict] = []
        super().__init__(**kwargs)

    def _showtraceback(self, etype, evalue, stb) -> None:
        self.cell_outputs.append({"output_type": "error", "ename": etype.__name__, "evalue": str(evalue),
                                  "traceback": [ANSI.sub("", line) for line in stb]})

    def run(self, source: str) -> list[dict]:
        """Run one cell as the kernel's execute request does; its outputs, in order."""
        self.cell_outputs = []
        saved = sys.stdin, sys.stdout, sys.stderr
        # No stdin, as a kernel run without a page to answer (input() fails instead of
        # reading the caller's list of notebooks).
        sys.stdin = io.StringIO()
        sys.stdout, sys.stderr = StreamRecorder(self, "stdout"), StreamRecorder(self, "stderr")
        try:
            self.run_cell(source, store_history=True)
        finally:
            sys.stdin, sys.stdout, sys.stderr = saved
        return self.cell_outputs


def new_shell() -> KernelLikeShell:
    """A fresh shell, the only one ``get_ipython()`` knows (no history file: Pyodide has no sqlite3)."""
    KernelLikeShell.clear_instance()
    config = Config()
    config.HistoryManager.enabled = False
    config.InteractiveShell.colors = "nocolor"
    return KernelLikeShell.instance(config=config)


class FreshKernel:
    """What a new kernel would start with, for the length of one notebook, then put back."""

    def __init__(self, path: Path, kind: str, environment: dict[str, str], scratch: Path) -> None:
        self.folder, self.kind, self.environment = path.parent, kind, environment
        self.results = scratch / RESULTS_FILE

    def __enter__(self) -> FreshKernel:
        self.saved = (os.getcwd(), list(sys.path))
        self.warnings = warnings.catch_warnings()  # the filters, put back as warnings expects
        self.warnings.__enter__()
        self.modules = set(sys.modules)
        os.environ.clear()
        os.environ.update(self.environment)
        if self.kind in ("solution", "exercise"):
            os.environ["REACT_COURSE_RESULTS"] = str(self.results)
            self.results.unlink(missing_ok=True)
        if self.kind == "solution":
            os.environ["REACT_COURSE_STRICT"] = "1"
        os.chdir(self.folder)
        return self

    def check_results(self) -> list[dict]:
        """What the notebook's checks reported (``REACT_COURSE_RESULTS``), one dict per check."""
        if not self.results.exists():
            return []
        return [json.loads(line) for line in self.results.read_text(encoding="utf-8").splitlines() if line]

    def __exit__(self, *exc) -> None:
        cwd, sys.path[:] = self.saved
        os.chdir(cwd)
        self.warnings.__exit__(*exc)
        os.environ.clear()
        os.environ.update(self.environment)
        for name in set(sys.modules) - self.modules:
            if is_course_module(sys.modules[name]):
                del sys.modules[name]
        self.results.unlink(missing_ok=True)


def is_course_module(module) -> bool:
    """The course's own modules (and any imported from the repository), never this harness's."""
    name = getattr(module, "__name__", "") or ""
    where = getattr(module, "__file__", None) or ""
    if name == "react_course" or name.startswith("react_course."):
        return True
    return where.startswith(str(REPOSITORY)) and not where.startswith(str(Path(__file__).parent))
