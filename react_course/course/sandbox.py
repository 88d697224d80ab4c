"""``grade``, 3a: each submission's kernel in an operating-system sandbox (bubblewrap, Linux).

The audit hook in the kernel (``kernel_guard.py``) is Python watching Python: ctypes,
``_posixsubprocess`` or a thread can go around it. So on Linux, where Debian's and
Ubuntu's ``bubblewrap`` is installed, the kernel itself runs inside ``bwrap``:

- its own network namespace (loopback only: nothing leaves the machine), pid
  namespace (it sees and can signal only its own processes, never a neighbour's
  kernel or the grader), IPC and host-name namespaces;
- a file system of its own: the system and Python read-only, the course read-only
  with ``solutions/``, ``.git`` and every instructor folder (the submissions, the
  grades) covered by empty folders, and one fresh writable scratch folder per run
  and per restart;
- its own user: ``nobody`` when the grader runs as root, else the grader's user
  mapped to ``nobody`` in a user namespace;
- memory (``RLIMIT_AS``) and processes (``RLIMIT_NPROC``) limited in the child just
  before the kernel starts, and ``--die-with-parent``: when the grader stops, the
  kernel and all it started stop too (no daemon outlives its submission).

The grader talks to the kernel over Unix sockets in a folder of the run (Jupyter's
``ipc`` transport), since its TCP ports are in another network namespace.

Where there is no sandbox (macOS, Windows, no bubblewrap, namespaces refused) the
grader says so once and marks every row ``unsandboxed``. Docker and Podman are not
used yet: a container per kernel start would cost seconds per submission.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/etc")
NOBODY = 65534
PROCESSES = 64  # processes a kernel may have at once: itself, lesson 07's tool server, a few more
# Set in the child, then the kernel replaces it: the limits first, then the user.
_LIMITS = ("import os, resource, sys\n"
           "memory, processes, uid = map(int, sys.argv[1:4])\n"
           "if uid >= 0:\n"
           "    os.setgroups([]); os.setgid(uid); os.setuid(uid)\n"
           "resource.setrlimit(resource.RLIMIT_AS, (memory, memory))\n"
           "resource.setrlimit(resource.RLIMIT_NPROC, (processes, processes))\n"
           "os.execv(sys.argv[4], sys.argv[4:])\n")


@dataclass(frozen=True)
class Sandbox:
    """Which sandbox this machine has: ``kind`` is ``"bubblewrap"``, or ``""`` with the reason."""

    kind: str
    reason: str = ""

    @property
    def label(self) -> str:
        return "sandboxed" if self.kind else "unsandboxed"


def _namespaces(as_root: bool) -> list[str]:
    spaces = ["--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"]
    return spaces if as_root else [*spaces, "--unshare-user", "--uid", str(NOBODY), "--gid", str(NOBODY)]


@functools.cache
def detect() -> Sandbox:
    """Is bubblewrap here and allowed to make namespaces? Tried once per grader process."""
    if not sys.platform.startswith("linux"):
        return Sandbox("", f"no sandbox on {sys.platform}: bubblewrap is Linux's")
    if os.environ.get("REACT_COURSE_NO_SANDBOX") == "1":
        return Sandbox("", "REACT_COURSE_NO_SANDBOX=1 is set")
    bwrap = shutil.which("bwrap")
    if not bwrap:
        return Sandbox("", "bubblewrap is not installed (Debian, Ubuntu: apt install bubblewrap)")
    probe = subprocess.run([bwrap, *_namespaces(os.getuid() == 0), "--ro-bind", "/", "/", "true"],
                           capture_output=True, text=True, timeout=60)
    if probe.returncode != 0:
        return Sandbox("", "bubblewrap cannot make namespaces here: " + probe.stderr.strip()[:200])
    return Sandbox("bubblewrap")


def readable_roots(course: Path) -> list[Path]:
    """What a kernel must read: the system, Python, the installed packages, the course."""
    import site

    roots = [Path(p) for p in SYSTEM if Path(p).exists()]
    roots += [Path(sys.base_prefix).resolve(), Path(sys.prefix).resolve(), course.resolve()]
    roots += [Path(p).resolve() for p in site.getsitepackages() if Path(p).is_dir()]
    roots.append(Path(__file__).resolve().parents[2])  # the package's own checkout
    # Not sys.path itself: under ``python -m`` its first entry is the folder the grader was
    # started in, which may be the instructor's, submissions and all.
    unique: list[Path] = []
    for root in sorted(set(roots), key=lambda p: len(p.parts)):
        if root != Path("/") and not any(root.is_relative_to(u) for u in unique):
            unique.append(root)
    return unique


def hidden_inside(roots: list[Path], forbidden: list[Path]) -> list[Path]:
    """The instructor's folders that a readable root would show: each gets an empty folder over it."""
    covered = []
    for root in roots:
        for name in ("solutions", ".git"):
            if (root / name).is_dir():
                covered.append(root / name)
    covered += [p for p in forbidden if p.is_dir() and any(p.is_relative_to(r) for r in roots)]
    return sorted(set(covered))


def command(argv: list[str], *, scratch: Path, sockets: Path, course: Path, forbidden: list[Path],
            env: dict[str, str], memory_mb: int, uid: int) -> list[str]:
    """``argv`` (the kernel) wrapped in bubblewrap, the limits set in the child."""
    as_root = os.getuid() == 0
    wrapped = [shutil.which("bwrap") or "bwrap", "--die-with-parent", "--new-session",
               *_namespaces(as_root), "--hostname", "grading"]
    if as_root:
        wrapped += ["--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    roots = readable_roots(course)
    wrapped += ["--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"]
    for folder in sorted({p for r in [*roots, scratch, sockets] for p in r.parents if p != Path("/")},
                         key=lambda p: len(p.parts)):  # bubblewrap would make them 0700: another user
        wrapped += ["--perms", "0755", "--dir", str(folder)]  # could not pass through them
    for root in roots:
        wrapped += ["--ro-bind", str(root), str(root)]
    for path in hidden_inside(roots, forbidden):
        wrapped += ["--tmpfs", str(path)]
    wrapped += ["--bind", str(scratch), str(scratch), "--bind", str(sockets), str(sockets),
                "--chdir", str(scratch), "--clearenv"]
    for key, value in sorted(env.items()):
        wrapped += ["--setenv", key, value]
    limits = [str(memory_mb * 1024 * 1024), str(PROCESSES), str(uid if as_root else -1)]
    return [*wrapped, "--", sys.executable, "-I", "-S", "-c", _LIMITS, *limits, *argv]


def hand_over(paths: list[Path], uid: int) -> None:
    """As root, give the kernel's user its scratch and socket folders (else they are ours already)."""
    if os.getuid() == 0:
        for path in paths:
            os.chown(path, uid, uid)


def kernel_pids(bwrap_pid: int | None) -> list[int]:
    """The kernel's process ids outside the sandbox: bubblewrap's descendants running ipykernel."""
    try:
        import psutil

        family = psutil.Process(bwrap_pid).children(recursive=True) if bwrap_pid else []
        return [p.pid for p in family if p.name() != "bwrap" and "ipykernel" in " ".join(p.cmdline())]
    except Exception:  # psutil missing, or the kernel just ended
        return []
