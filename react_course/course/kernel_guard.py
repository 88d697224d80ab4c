"""Inside a grading kernel: a guard before the student's first cell, the checkers put back after the last.

The grader (``grade_run.py``) adds two cells to every submission it executes:

- first, ``install(scratch, forbidden)``: an audit hook (``sys.addaudithook``, which
  Python code cannot remove) refuses writes outside the submission's scratch folder,
  reads and listings of the instructor's folders (``solutions/``, the other submissions), sockets
  beyond this machine, and new processes other than the course's own tool server;
  then a snapshot of the checkers' modules and classes;
- last, ``put_back(nonce)``: puts back whatever the student's code replaced in the
  checkers (a monkey-patched ``check``, ``judge`` or ``CheckResult``, a swapped
  ``sys.modules`` entry, a patched ``print``, a spec's ``observe``, the IPython event
  hooks), and prints what it put back as one line that starts with ``nonce`` (a random
  word the student's code never saw). The grader reports it as ``tampered``.

Then the grader asks for the student's answers to its inputs (``kernel_answers.answers``,
which runs the specs put back here) and compares them with the key in its own process.
Nothing here judges.

The hook's folders and its re-entry flag live in a closure (``make_hook``), the flag
per thread: no cell can switch it off, and a second thread is checked while the
first is inside it. It also refuses ``os.link`` from outside the scratch folder,
``os.kill`` of any process but this kernel and its children, UDP ``sendmsg`` past
loopback, ``ctypes`` loading a library or calling a C function that is not Python's.

What it leaves out: being the wall. Python cannot fully watch Python
(``_posixsubprocess`` raises no audit event), so on Linux the kernel runs in
bubblewrap (``sandbox.py``) and this hook is the second layer. What this process
sends are answers, never verdicts: a forged answer is at most the student's own
answer, short of computing it with the key the installed package holds (only an
edition without keys stops that).
"""

from __future__ import annotations

import builtins
import json
import os
import sys
from typing import Any

_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC
_PATH_EVENTS = {"os.remove": (0,), "os.rename": (0, 1), "os.replace": (0, 1), "os.rmdir": (0,),
                "os.mkdir": (0,), "os.symlink": (1,), "os.link": (0, 1), "os.chmod": (0,),
                "os.chown": (0,), "os.truncate": (0,), "os.utime": (0,), "shutil.rmtree": (0,)}
_PROCESS_EVENTS = ("os.system", "os.exec", "os.spawn", "os.posix_spawn", "os.fork", "os.forkpty",
                   "ctypes.dlopen", "os.killpg", "pty.spawn")
_SOCKET_EVENTS = ("socket.connect", "socket.bind", "socket.sendto", "socket.sendmsg")
_LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1", "", None}
_CHECKERS = "react_course.checks"  # what grading depends on; the rest may keep its caches
_state: dict[str, Any] = {"snapshot": {}}


def install(scratch: str, forbidden: list[str], lesson: str) -> None:
    """Guard this kernel: call once, before any of the student's code runs.

    Only ``lesson``'s checkers are loaded (and snapshotted): loading all of them costs
    each submission a second.
    """
    for name in ("REACT_COURSE_STRICT", "REACT_COURSE_RESULTS", "REACT_COURSE_MODEL"):
        os.environ.pop(name, None)  # the scripted model, no strict mode, no results file
    from react_course.checks import _load

    _load(f"react_course.checks.lesson{lesson}")  # before the snapshot, so it is restored later
    _state["snapshot"] = _snapshot()
    sys.addaudithook(make_hook((_real(scratch), _real(os.devnull)),
                               tuple(_real(path) for path in forbidden)))


def _real(path: Any) -> str:
    return os.path.realpath(os.fsdecode(path))


def _inside(path: str, roots: tuple[str, ...]) -> bool:
    """``path`` is one of ``roots`` or below one.

    >>> _inside("/a/b/c", ("/a/b",)), _inside("/a/bc", ("/a/b",))
    (True, False)
    """
    return any(path == root or path.startswith(root.rstrip(os.sep) + os.sep) for root in roots)


def make_hook(writable: tuple[str, ...], forbidden: tuple[str, ...]):
    """The audit hook, its folders and its re-entry flag held in this closure, the flag per thread.

    A flag in a module global could be set by any cell (and then the hook checked
    nothing); one shared by threads would let a second thread act while the first
    is inside the hook. Here the flag is a ``threading.local`` no name reaches.
    """
    import threading

    local = threading.local()

    def hook(event: str, args: tuple) -> None:
        if getattr(local, "busy", False):
            return
        local.busy = True
        try:
            _judge_event(event, args, writable, forbidden)
        finally:
            local.busy = False

    return hook


def _judge_event(event: str, args: tuple, writable: tuple[str, ...], forbidden: tuple[str, ...]) -> None:
    if event == "open" and not isinstance(args[0], int):
        path = _real(args[0])
        mode, flags = args[1], args[2]
        writes = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
            isinstance(flags, int) and flags & _WRITE_FLAGS)
        if _inside(path, forbidden):
            raise PermissionError(f"the grader does not let a submission read {path}")
        if writes and not _inside(path, writable):
            raise PermissionError(f"the grader does not let a submission write outside its folder "
                                  f"(tried {path})")
    elif event in _PATH_EVENTS:
        for index in _PATH_EVENTS[event]:
            if len(args) > index and not isinstance(args[index], int) and args[index] is not None:
                path = _real(args[index])
                if not _inside(path, writable):
                    raise PermissionError(f"the grader does not let a submission change {path}")
    elif event in ("os.listdir", "os.scandir") and isinstance(args[0], str | bytes):
        if _inside(_real(args[0]), forbidden):  # classmates' names are in the submissions folder
            raise PermissionError(f"the grader does not let a submission list {_real(args[0])}")
    elif event == "ctypes.dlsym" and not _python_symbol(args[-1]):
        raise PermissionError(f"the grader does not let a submission call C functions ({args[-1]!r})")
    elif event == "os.kill" and not _own_process(args[0]):
        raise PermissionError(f"the grader does not let a submission signal another process ({args[0]})")
    elif event in _SOCKET_EVENTS:
        address = args[-1]
        if isinstance(address, tuple) and address and not _local(address[0]):
            raise ConnectionRefusedError(f"graded notebooks have no network (tried {address!r})")
    elif event == "socket.getaddrinfo" and not _local(args[0]):
        raise ConnectionRefusedError(f"graded notebooks have no network (tried {args[0]!r})")
    elif event == "subprocess.Popen" and not _course_server(args[1]):
        raise PermissionError("the grader does not let a submission start programs")
    elif event.startswith(_PROCESS_EVENTS):
        raise PermissionError("the grader does not let a submission start programs")


def _python_symbol(name: Any) -> bool:
    """Python's own C API (the checks' time limit uses one of it); ``system``, ``fork`` are not.

    >>> _python_symbol("PyThreadState_SetAsyncExc"), _python_symbol("system")
    (True, False)
    """
    name = name.decode() if isinstance(name, bytes) else str(name)
    return name.startswith(("Py", "_Py"))


def _own_process(pid: Any) -> bool:
    """This kernel, or a process it started (lesson 07's tool server, stopped with ``terminate``)."""
    if pid == os.getpid():
        return True
    try:
        with open(f"/proc/{int(pid)}/stat", "rb") as stat:
            return int(stat.read().rsplit(b")", 1)[1].split()[1]) == os.getpid()
    except (OSError, ValueError, IndexError):
        return False


def _local(host: Any) -> bool:
    host = host.decode() if isinstance(host, bytes) else host
    return host in _LOCAL_HOSTS or (isinstance(host, str) and host.startswith("127."))


def _course_server(argv: Any) -> bool:
    """Lesson 07 starts the course's MCP tool server: this Python, ``-m react_course...``."""
    argv = [os.fsdecode(a) for a in argv] if isinstance(argv, list | tuple) else []
    return (len(argv) == 3 and argv[0] == sys.executable and argv[1] == "-m"
            and argv[2].startswith("react_course.scripted_api."))


def _snapshot() -> dict[str, Any]:
    modules = {name: module for name, module in sys.modules.items()
               if name == _CHECKERS or name.startswith(_CHECKERS + ".")}
    classes = {}
    for module in modules.values():
        for value in list(vars(module).values()):
            if isinstance(value, type) and value.__module__.startswith(_CHECKERS):
                classes[value] = dict(vars(value))
    from react_course.checks.spec import SPECS

    return {"modules": {name: (module, dict(vars(module))) for name, module in modules.items()},
            "classes": classes, "builtins": dict(vars(builtins)),
            "streams": (sys.stdout, sys.stderr), "events": _events(),
            "specs": dict(SPECS), "spec_fields": [(spec, dict(vars(spec))) for spec in SPECS.values()]}


def _events() -> dict[str, list] | None:
    """IPython's event callbacks (a hook could rewrite the grader's cells' output), or None."""
    try:
        from IPython import get_ipython

        return {name: list(found) for name, found in get_ipython().events.callbacks.items()}
    except (ImportError, AttributeError):  # not in IPython
        return None


def _put_back_specs(snap: dict) -> list[str]:
    """The specs as they were: ``student_value`` in the kernel reads them (``kernel_answers.py``)."""
    from react_course.checks.spec import SPECS

    changed = []
    for exercise_id, spec in snap["specs"].items():  # a lesson loaded later adds its own: allowed
        if SPECS.get(exercise_id) is not spec:
            changed.append(f"react_course.checks.spec.SPECS[{exercise_id!r}]")
            SPECS[exercise_id] = spec
    for spec, fields in snap["spec_fields"]:
        for key, value in fields.items():
            if vars(spec).get(key, _quietly) is not value:
                changed.append(f"spec {spec.id}.{key}")
                object.__setattr__(spec, key, value)
    if snap["events"] is not None:  # put back silently: plotting registers its own, legitimately
        from IPython import get_ipython

        get_ipython().events.callbacks.update({k: list(v) for k, v in snap["events"].items()})
    return changed


def restore() -> list[str]:
    """Put back what the student's code replaced; return what was replaced, in words."""
    snap, changed = _state["snapshot"], []
    if not snap:
        return ["the grader's guard (it did not run)"]
    for name, (module, namespace) in snap["modules"].items():
        if sys.modules.get(name) is not module:
            changed.append(f"sys.modules[{name!r}]")
            sys.modules[name] = module
        changed += _put_back(vars(module), namespace, name, lambda key, m=module: delattr(m, key),
                             lambda key, value, m=module: setattr(m, key, value))
    for cls, namespace in snap["classes"].items():
        changed += _put_back(dict(vars(cls)), namespace, f"{cls.__module__}.{cls.__qualname__}",
                             lambda key, c=cls: delattr(c, key),
                             lambda key, value, c=cls: setattr(c, key, value))
    changed += _put_back(vars(builtins), snap["builtins"], "builtins",
                         lambda key: delattr(builtins, key),
                         lambda key, value: setattr(builtins, key, value))
    if (sys.stdout, sys.stderr) != snap["streams"]:
        changed.append("sys.stdout")
        sys.stdout, sys.stderr = snap["streams"]
    return changed + _put_back_specs(snap)


def _put_back(now: dict, then: dict, where: str, remove, put) -> list[str]:
    changed = []
    for key in set(now) - set(then):
        if not _ignored(key) and not isinstance(now[key], type(sys)):  # a submodule imported later
            changed.append(f"{where}.{key}")
            _quietly(remove, key)
    for key, value in then.items():
        if now.get(key, _quietly) is not value and not _ignored(key):
            changed.append(f"{where}.{key}")
            _quietly(put, key, value)
    return changed


def _ignored(key: str) -> bool:
    """Names Python and IPython change on their own (``_``, ``input`` per cell, ``__builtins__``...).

    >>> [_ignored(k) for k in ("_", "___", "__dict__", "check")]
    [True, True, True, False]
    """
    return key.strip("_") == "" or key in ("input", "__dict__", "__weakref__", "__builtins__", "__loader__",
                                           "__spec__", "__cached__")


def _quietly(action, *args) -> None:
    try:
        action(*args)
    except (AttributeError, TypeError):
        pass


def put_back(nonce: str) -> None:
    """Put back what the notebook replaced (``restore``); print what it was, on one nonce line.

    Run once, after the student's last cell and before the grader's questions, so every
    answer is computed by the checkers as they were installed.
    """
    tampered = restore()
    print(nonce + json.dumps({"tampered": sorted(set(tampered))}), flush=True)
