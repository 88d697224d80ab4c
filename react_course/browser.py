"""Where the course runs in a browser tab (JupyterLite's Pyodide kernel), and what differs there.

The browser edition runs the same lessons on Python compiled to WebAssembly.
Three things a laptop has are missing there, and the library asks this module
instead of finding out by failing:

- no threads: ``threading.Thread.start()`` raises ``RuntimeError``;
- no child processes: ``os.fork`` exists but fails, so nothing can be killed;
- no sockets to listen on: a local server cannot start, so the scripted API
  is reached in-process instead.

>>> IN_BROWSER
False
>>> laptop_only("needs a subprocess") is None   # on a laptop: nothing to say
True
"""

from __future__ import annotations

import sys

IN_BROWSER = sys.platform == "emscripten"

_SAID: set[str] = set()


def laptop_only(reason: str) -> str | None:
    """In the browser, print (once per reason) why a cell cannot run here; return the text.

    On a laptop it prints nothing and returns None, so a lesson can call it
    unconditionally before the part that needs a real machine.
    """
    if not IN_BROWSER:
        return None
    text = f"Laptop only: {reason}. The rest of the lesson runs here."
    if reason not in _SAID:
        _SAID.add(reason)
        print(text)
    return text


def cannot_enforce(limit: str, why: str) -> str | None:
    """In the browser, say once that ``limit`` is not enforced there, and why.

    >>> cannot_enforce("the time limit", "no threads") is None
    True
    """
    if not IN_BROWSER:
        return None
    text = f"Note: in the browser {limit} is not enforced: {why}."
    if text not in _SAID:
        _SAID.add(text)
        print(text)
    return text


def on_a_laptop(reason: str) -> bool:
    """True on a laptop; in the browser, say (once) why what follows cannot run there, and return False.

    For a cell whose whole point needs a real machine: ``if on_a_laptop("it listens on a port"):``.

    >>> on_a_laptop("needs a port")
    True
    """
    return laptop_only(reason) is None
