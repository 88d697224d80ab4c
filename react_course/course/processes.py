"""``grade``, 2a: one grading process, limited, and every process it started ended with it.

The grader starts one process per submission (``grade._run_isolated``). Three
things keep a batch safe from one submission: a memory limit set in the child,
a wall time after which the whole tree is killed, and, on Linux, the child's
death with the grader (``PR_SET_PDEATHSIG``), so a grader stopped by Ctrl-C or
a kill leaves nothing running.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

__all__ = ["die_with_the_grader", "kill_tree", "run_limited"]


def run_limited(command: list[str], limits: Any, log: Path, sandboxed: bool) -> int | str:
    """Run ``command`` under the memory limit; past the wall time, or when it ends, kill all it started.

    In the sandbox the kernel's own limits hold and the grading process is not
    limited (a kernel cannot reach it); outside, its address space is, as before.
    """
    def in_the_child() -> None:
        die_with_the_grader()
        if not sandboxed:
            import resource

            size = limits.memory_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (size, size))

    posix = os.name == "posix"
    with open(log, "wb") as sink:
        process = subprocess.Popen(command, stdout=sink, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL, start_new_session=posix,
                                   preexec_fn=in_the_child if posix else None)
        try:
            code: int | str = process.wait(timeout=limits.wall)
        except subprocess.TimeoutExpired:
            code = "timeout"
        kill_tree(process)
        return code


def die_with_the_grader() -> None:
    """On Linux, the grading process is killed when the grader dies (``PR_SET_PDEATHSIG``), and
    bubblewrap's ``--die-with-parent`` then ends the kernel: a grader stopped by Ctrl-C or a kill
    leaves no submission running. Elsewhere the wall time and ``kill_tree`` are all there is."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes
    import signal

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # 1: PR_SET_PDEATHSIG


def kill_tree(process: subprocess.Popen) -> None:
    """The kernel runs in a session of its own: kill every process left in the grading process's sessions."""
    try:
        import psutil

        family = psutil.Process(process.pid).children(recursive=True)
    except Exception:  # psutil missing, or the process just ended
        family = []
    if os.name == "posix":
        with contextlib.suppress(OSError):
            os.killpg(process.pid, 9)
    process.kill()
    for child in family:
        with contextlib.suppress(Exception):  # it may have ended meanwhile
            child.kill()
    process.wait()
