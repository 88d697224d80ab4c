"""How ``-n`` spreads the suite over pytest-xdist's workers: by file, finer where a file asks,
the longest first.

xdist's ``loadscope`` keeps every test of a file on one worker: a module's fixtures are built
once, and nbval's cells of one notebook share one kernel. But then the largest file (a few
hundred seconds of notebook kernels) bounds the whole run. ``Spread`` is ``loadscope`` with
two changes:

- A file in ``SPLIT`` is cut finer. By ``"parameter"``: one group per parameter id, where
  the tests name the thing they share (``[notebooks/09_evaluation_and_tracing.ipynb]``, one
  notebook's kernel) in their id, so every test of one notebook runs in one worker, and its
  kernel starts once, while the other notebooks run on the other workers. By ``"test"``: one
  group per test function, where the functions share nothing costly (test_lite_site's browser
  sessions, each its own Chromium; the site's build is a no-op when up to date, and locked).
  (xdist's own ``xdist_group`` marks would say this, but ``--dist loadgroup`` groups nothing
  on pytest 9.2: pytest-xdist issue #1386.)
- The groups go out longest first (the longest-processing-time rule): a long group started
  last would run on alone while the other workers sit idle. Expected seconds come from
  ``benchmarks/suite_times.json`` (each file's time at ``-n 0``), shared among a file's groups
  by their number of tests. This orders the work only: no verdict depends on it.

``conftest.py`` makes it the scheduler of ``--dist loadscope`` (pyproject.toml's choice).
"""

from __future__ import annotations

import json
from collections import Counter, OrderedDict
from pathlib import Path

from xdist.scheduler import LoadScopeScheduling

ROOT = Path(__file__).resolve().parents[1]
TIMES = ROOT / "benchmarks" / "suite_times.json"
# Files cut finer than one group: by parameter id (what a notebook's tests share) or by test.
SPLIT = {"tests/test_lessons_real_model.py": "parameter", "tests/test_notebooks.py": "parameter",
         "tests/test_lite_site.py": "test"}
UNKNOWN_SECONDS_PER_TEST = 0.05  # a file not in the table: most tests take milliseconds


def file_of(nodeid: str) -> str:
    """The file part of a test's id.

    >>> file_of("tests/test_x.py::test_y[a::b]")
    'tests/test_x.py'
    """
    return nodeid.split("::", 1)[0]


def group_of(nodeid: str) -> str:
    """The work unit a test belongs to: its file, or a part of it (``SPLIT``).

    >>> group_of("tests/test_notebooks.py::test_solution_passes[07_native_tool_calling.ipynb]")
    'tests/test_notebooks.py[07_native_tool_calling.ipynb]'
    >>> group_of("tests/test_notebooks.py::test_exercises_are_generated_from_solutions")
    'tests/test_notebooks.py'
    >>> group_of("tests/test_lite_site.py::test_a_room_session_offline_and_at_a_second_address[x]")
    'tests/test_lite_site.py::test_a_room_session_offline_and_at_a_second_address'
    >>> group_of("notebooks/00_start_here.ipynb::Cell 3")
    'notebooks/00_start_here.ipynb'
    """
    name, _, test = nodeid.partition("::")
    how = SPLIT.get(name)
    if how == "parameter" and test.endswith("]") and "[" in test:
        return f"{name}[{test.split('[', 1)[1]}"
    if how == "test":
        return f"{name}::{test.split('[', 1)[0]}"
    return name


def load_file_seconds(path: Path = TIMES) -> dict[str, float]:
    """Each file's measured seconds at ``-n 0``; empty when the table is missing."""
    if not path.exists():
        return {}
    files = json.loads(path.read_text(encoding="utf-8"))["files"]
    return {name: float(entry["seconds"]) for name, entry in files.items()}


def expected_seconds(groups: dict[str, list[str]], file_seconds: dict[str, float]) -> dict[str, float]:
    """Each group's expected seconds: its share, by number of tests, of its file's time.

    >>> expected_seconds({"a.py[1]": ["a.py::t[1]"], "a.py[2]": ["a.py::t[2]", "a.py::u[2]"],
    ...                   "b.py": ["b.py::t"]}, {"a.py": 30.0})
    {'a.py[1]': 10.0, 'a.py[2]': 20.0, 'b.py': 0.05}
    """
    per_file = Counter(file_of(nodeid) for nodeids in groups.values() for nodeid in nodeids)
    seconds = {}
    for group, nodeids in groups.items():
        name = file_of(nodeids[0])
        each = file_seconds[name] / per_file[name] if name in file_seconds else UNKNOWN_SECONDS_PER_TEST
        seconds[group] = each * len(nodeids)
    return seconds


def longest_first(names: list[str], seconds: dict[str, float]) -> list[str]:
    """Group names by expected seconds, the longest first; ties keep their order.

    >>> longest_first(["a", "b", "c"], {"a": 1.0, "b": 9.0, "c": 1.0})
    ['b', 'a', 'c']
    """
    return sorted(names, key=lambda name: -seconds[name])


class Spread(LoadScopeScheduling):
    """``loadscope`` with the groups of ``group_of``, handed out longest first."""

    def _split_scope(self, nodeid: str) -> str:
        return group_of(nodeid)

    def _assign_work_unit(self, node) -> None:
        # The base class fills the queue in collection order, then assigns: sort it once, first.
        if not getattr(self, "_ordered", False):
            seconds = expected_seconds({g: list(u) for g, u in self.workqueue.items()}, load_file_seconds())
            self.workqueue = OrderedDict((g, self.workqueue[g])
                                         for g in longest_first(list(self.workqueue), seconds))
            self._ordered = True
        super()._assign_work_unit(node)
