"""Synthetic submissions for the grader's tests and benchmark, made from the real notebooks.

``small_course(root)`` writes a course folder whose lesson 03 is only exercise 3.1
(``cut_at_stop``) taken from ``solutions/03_parsing_and_stops.ipynb``, so that a
submission runs in a couple of seconds; lesson 01's real exercise notebook is there
too, as "another lesson". ``SUBMISSIONS`` maps each kind of submission (complete,
partial, hostile, broken) to a function that writes it.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path

import nbformat

from react_course.course.authoring import make_exercise, notebook_text

ROOT = Path(__file__).resolve().parents[1]
LESSON = "03_parsing_and_stops.ipynb"
PARTIAL = '''def cut_at_stop(text, stops):
    """Cut at the first stop of the list that occurs (not the earliest in the text)."""
    for stop in stops or ():
        if stop and stop in text:
            return text[: text.find(stop)]
    return text
'''


def small_course(root: Path) -> Path:
    """Write the small course under ``root``; return ``root``."""
    full = nbformat.read(ROOT / "solutions" / LESSON, as_version=4)
    cut = next(i for i, c in enumerate(full.cells) if 'check("03.cut_at_stop"' in c.source)
    master = copy.deepcopy(full)
    master.cells = full.cells[: cut + 1]
    for folder in ("solutions", "exercises", "notebooks"):
        (root / folder).mkdir(parents=True, exist_ok=True)
    (root / "solutions" / LESSON).write_text(notebook_text(master), encoding="utf-8")
    (root / "exercises" / LESSON).write_text(notebook_text(make_exercise(master)), encoding="utf-8")
    other = "01_what_is_react.ipynb"
    (root / "exercises" / other).write_text((ROOT / "exercises" / other).read_text(encoding="utf-8"),
                                            encoding="utf-8")
    return root


def _load(root: Path, folder: str) -> dict:
    return json.loads((root / folder / LESSON).read_text(encoding="utf-8"))


def _code(source: str) -> dict:
    return {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
            "source": source}


def _with(notebook: dict, source: str, *, before: str = "def cut_at_stop") -> dict:
    """``notebook`` with a code cell of ``source`` just before the cell that contains ``before``."""
    notebook = copy.deepcopy(notebook)
    at = next(i for i, c in enumerate(notebook["cells"]) if before in "".join(c["source"]))
    notebook["cells"].insert(at, _code(source))
    return notebook


def _write(path: Path, notebook: dict) -> Path:
    path.write_text(json.dumps(notebook, indent=1), encoding="utf-8")
    return path


def _partial(root: Path, comment: str) -> dict:
    notebook = _load(root, "exercises")
    for cell in notebook["cells"]:
        if "def cut_at_stop" in "".join(cell["source"]):
            cell["source"] = f"# {comment}\n{PARTIAL}"
    return notebook


def _answer(notebook: dict, source: str) -> dict:
    notebook = copy.deepcopy(notebook)
    for cell in notebook["cells"]:
        if "def cut_at_stop" in "".join(cell["source"]):
            cell["source"] = source
    return notebook


def _breakers(solved: dict, solutions_file: str) -> dict:
    notebook = solved
    for source in GUARD_BREAKERS:
        notebook = _with(notebook, source.format(solutions=solutions_file))
    return notebook


def _broken_exercise(empty: dict) -> dict:
    notebook = copy.deepcopy(empty)
    for cell in notebook["cells"]:
        if "def cut_at_stop" in "".join(cell["source"]):
            cell["source"] = SYNTAX_IN_EXERCISE
    return notebook


def _escapes(solved: dict, folder: Path) -> dict:
    notebook = solved
    for source in ESCAPES:
        notebook = _with(notebook, source.format(folder=str(folder), daemon=DAEMON, bomb=BOMB))
    return _with(notebook, SPAWN, before=ESCAPES[0][:20])


def submission_kinds(root: Path, outside: Path,
                     folder: Path | None = None) -> dict[str, Callable[[Path], Path]]:
    """Each kind of submission -> a function writing it into a folder (returns the file).

    ``folder``: where the submissions go (the classmates a hostile cell tries to list).
    """
    solved, empty = _load(root, "solutions"), _load(root, "exercises")
    solutions_file = str(root / "solutions" / LESSON)
    no_checks = copy.deepcopy(solved)
    no_checks["cells"] = [c for c in solved["cells"]
                          if c["cell_type"] != "code" or "check(" not in "".join(c["source"])]
    hostile = solved
    for source in HOSTILE_CELLS:
        hostile = _with(hostile, source.format(outside=str(outside)))
    forger = _with(_with(_with(empty, REDEFINE, before='check("03'), PATCH, before='check("03'), FORGE,
                   before='check("03')
    kinds: dict[str, Callable[[Path], dict | str | bytes]] = {
        "complete": lambda: solved,
        "partial": lambda: _partial(root, "mine"),
        "partial_copy": lambda: _partial(root, "written on my own, honest"),
        "empty": lambda: empty,
        "syntax_error": lambda: _with(solved, "def broken(:\n    pass"),
        "infinite_loop": lambda: _with(solved, "while True:\n    pass"),
        "sys_exit": lambda: _with(solved, "import sys\nsys.exit(3)"),
        "os_exit": lambda: _with(solved, OS_EXIT),
        "killed_kernel": lambda: _with(solved, KILL),
        "memory_bomb": lambda: _with(solved, "hoard = [bytes(2**30) for _ in range(200)]"),
        "deleted_checks": lambda: no_checks,
        "stubborn_loop": lambda: _with(solved, STUBBORN),
        "redefined_check": lambda: _with(empty, REDEFINE, before='check("03.cut_at_stop"'),
        "patched_check": lambda: _with(empty, PATCH, before='check("03.cut_at_stop"'),
        "forged_results": lambda: _with(empty, FORGE, before='check("03.cut_at_stop"'),
        "writes_outside": lambda: _with(solved, HOSTILE_CELLS[3].format(outside=str(outside))),
        "reads_solutions": lambda: _with(empty, STEAL.format(path=solutions_file),
                                         before='check("03.cut_at_stop"'),
        "network": lambda: _with(solved, NETWORK),
        "another_lesson": lambda: (root / "exercises" / "01_what_is_react.ipynb").read_text(encoding="utf-8"),
        "corrupt_json": lambda: '{"cells": [{"cell_type": "code", "sour',
        "not_a_notebook": lambda: "my answers: 42\n",
        # two for the tests, each several of the above in one notebook (one kernel start)
        "hostile_cells": lambda: hostile,
        "kernel_killers": lambda: _with(_with(solved, OS_EXIT), KILL),
        "forger": lambda: forger,
        "guard_breakers": lambda: _breakers(solved, solutions_file),
        "syntax_in_exercise": lambda: _broken_exercise(empty),
        "browser_handin": lambda: {**solved, "cells": [INSTALL_CELL, *solved["cells"]]},
        "always_equal": lambda: _answer(empty, ALWAYS_EQUAL),
        "escapes": lambda: _escapes(solved, folder or outside),
        "grader_replaced": lambda: _with(empty, GRADER_REPLACED.format(folder="{folder}"),
                                         before='check("03'),
    }

    def writer(name: str, make: Callable) -> Callable[[Path], Path]:
        def write(folder: Path) -> Path:
            content = make()
            suffix = ".txt" if name == "not_a_notebook" else ".ipynb"
            path = folder / f"{name}{suffix}"
            if isinstance(content, dict):
                return _write(path, content)
            path.write_text(content, encoding="utf-8")
            return path
        return write

    return {name: writer(name, make) for name, make in kinds.items()}


SINGLE = ("complete", "partial", "partial_copy", "empty", "syntax_error", "infinite_loop", "sys_exit",
          "os_exit", "killed_kernel", "memory_bomb", "deleted_checks", "redefined_check", "patched_check",
          "forged_results", "writes_outside", "reads_solutions", "network", "another_lesson",
          "corrupt_json", "not_a_notebook")  # one kind of submission each
OS_EXIT = "import os\nos._exit(1)"
KILL = "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)"
REDEFINE = "def check(*args, **kwargs):\n    return 'all passed'"
STUBBORN = "import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nwhile True:\n    pass"
HOSTILE_CELLS = (  # each raises in its own cell; the solution around them is graded in full
    "def broken(:\n    pass",
    "import sys\nsys.exit(3)",
    "hoard = [bytes(2**30) for _ in range(200)]",
    "open({outside!r} + '/pwned.txt', 'w').write('x')",
    # asked of the guard through the audit event itself: nothing is ever sent past loopback
    "import socket, sys\nsys.audit('socket.connect', socket.socket(), ('192.0.2.1', 80))",
    "import urllib.request\nurllib.request.urlopen('http://example.com', timeout=1)",
    "while True:\n    pass",
)
GUARD_BREAKERS = (  # the audit hook's old holes, each a cell that must raise
    "import socket, sys\nsys.audit('socket.sendmsg', socket.socket(socket.AF_INET, socket.SOCK_DGRAM), "
    "('192.0.2.1', 53))",
    "import os\nos.kill(os.getppid(), 9)",
    "import os\nos.link({solutions!r}, 'key.ipynb')",
    "import ctypes\nctypes.CDLL(None).system(b'true')",
)
ALWAYS_EQUAL = """class Yes(str):
    def __eq__(self, other):
        return True
    __hash__ = str.__hash__


def cut_at_stop(text, stops):
    return Yes(text)
"""
GRADER_REPLACED = """import json, sys, types
import react_course.checks as checks
fake = types.ModuleType("react_course.course.kernel_guard")
fake.put_back = fake.answers = lambda *args, **kwargs: print("all passed")
sys.modules["react_course.course.kernel_guard"] = fake
checks.check.__code__ = (lambda *args, **kwargs: "all passed").__code__
json.dumps = lambda *args, **kwargs: '{{"answers": {{}}, "results": [], "tampered": []}}'
get_ipython().events.register("post_run_cell", lambda result: print(result.info.raw_cell[:40]))
"""
# Processes started with _posixsubprocess.fork_exec, which raises no audit event: only the
# operating system (the sandbox; unsandboxed, the grading process adopting orphans) stops them.
DAEMON, BOMB = "987.654", "876.543"  # seconds of `sleep`: how a test finds what is left running
SPAWN = """import _posixsubprocess, os


def spawn(*argv):
    read, write = os.pipe()
    args = [list(argv), [os.fsencode(argv[0])], True, (), None, None, -1, -1, -1, -1, -1, -1,
            read, write, True, True, -1, None, None, None, -1, None, False]  # Python 3.11 to 3.13
    pid = _posixsubprocess.fork_exec(*args)
    os.close(write)
    os.close(read)
    return pid
"""
# A bounded fork bomb that ends what it started (else, the process limit reached, its own kernel
# can start no thread and stops answering): in the sandbox it must meet the limit.
BOMB_CELL = """import os, signal
started = []
try:
    for _ in range(150):
        started.append(spawn('/bin/sleep', '{bomb}'))
finally:
    for pid in started:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
"""
ESCAPES = (  # each must leave nothing running and cost no point
    "spawn('/bin/sleep', '{daemon}')  # a daemon in a session of its own",
    BOMB_CELL,
    "import os\nnames = os.listdir({folder!r})\nassert not any(n.endswith('.ipynb') for n in names), names",
)
SYNTAX_IN_EXERCISE = "def cut_at_stop(text, stops:\n    return text\n"
INSTALL_CELL = {"cell_type": "code", "execution_count": None, "id": "browser-setup",
                "metadata": {"tags": ["browser-setup"]}, "outputs": [],
                "source": "# Browser edition: install the course\n%pip install -q react-course"}
PATCH = """import react_course.checks as checks
import react_course.checks.framework as framework
checks.check = lambda *args, **kwargs: 'all passed'
framework.judge = lambda case: framework.CaseResult(case.name, 'passed', case.points, case.points)
framework.CheckResult.points = property(lambda self: 999)
"""
FORGE = """import json, os
line = {"exercise": "03.cut_at_stop", "status": "passed", "points": 22, "max_points": 22, "cases": []}
for path in ("results.jsonl", os.environ.get("REACT_COURSE_RESULTS") or "forged.jsonl"):
    with open(path, "a") as out:
        out.write(json.dumps(line) + "\\n")
print("Check 03.cut_at_stop (keep the text before the earliest stop sequence): all passed [22/22 points]")
"""
STEAL = """import json
key = json.load(open({path!r}))
for cell in key["cells"]:
    if cell["cell_type"] == "code" and "def cut_at_stop" in "".join(cell["source"]):
        exec("".join(cell["source"]))
"""
NETWORK = """import urllib.request
urllib.request.urlopen("http://example.com", timeout=1)
"""
