"""matplotlib in the browser edition: Pyodide's own build from its CDN, or a stand-in offline.

matplotlib is compiled, so the site does not carry it: ``await plotting()``
(the first cell of a lesson with plots, in the browser) installs Pyodide's
build from the public CDN. Without a network that fails, and every plot cell
would stop Run All at ``import matplotlib.pyplot``. So offline we install a
stand-in under the same name instead: every call returns another stand-in and
draws nothing, and ``show_figure`` shows the figure's alt text (the sentence
that says what the figure shows), as a terminal or a screen reader gets it;
``plotting()`` says once, at the top of the lesson, why. The numbers a lesson prints are
computed by the lesson, not by matplotlib, so they stay the same.

>>> fig, (left, right) = subplots(1, 2)
>>> left.bar([1, 2], [3, 4]).whatever(5) is not None
True
>>> is_stand_in(fig)
True
"""

from __future__ import annotations

import sys
import types
from typing import Any


class Drawing:
    """Any matplotlib object (a figure, axes, bars): each method returns another Drawing."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return _anything

    def __iter__(self):
        return iter(())

    def __getitem__(self, key: Any) -> Drawing:
        return Drawing()


def _anything(*args: Any, **kwargs: Any) -> Drawing:
    return Drawing()


def subplots(nrows: int = 1, ncols: int = 1, **kwargs: Any) -> tuple[Drawing, Any]:
    """A figure and its axes in the shapes matplotlib returns (one, a row, or rows)."""
    if nrows == 1 and ncols == 1:
        return Drawing(), Drawing()
    if nrows == 1 or ncols == 1:
        return Drawing(), [Drawing() for _ in range(nrows * ncols)]
    return Drawing(), [[Drawing() for _ in range(ncols)] for _ in range(nrows)]


def is_stand_in(fig: Any) -> bool:
    return isinstance(fig, Drawing)


def _module(name: str, **names: Any) -> types.ModuleType:
    module = types.ModuleType(name, "matplotlib's stand-in in an offline tab (react_course.plots_offline)")
    module.__dict__.update(names)
    module.__getattr__ = _module_attribute  # PEP 562: any other public name is a no-op
    return module


def _module_attribute(name: str) -> Any:
    if name.startswith("__"):  # __file__, __path__...: absent, as Python's import machinery expects
        raise AttributeError(name)
    return _anything


def install_stand_in() -> None:
    """Put the stand-in where ``import matplotlib.pyplot`` looks first."""
    pyplot = _module("matplotlib.pyplot", subplots=subplots, figure=_anything, gcf=_anything)
    top = _module("matplotlib", pyplot=pyplot, rcParams={}, __version__="0 (stand-in)")
    sys.modules.update({"matplotlib": top, "matplotlib.pyplot": pyplot})


async def plotting() -> bool:
    """Make ``import matplotlib`` work in the browser: the real one if reachable; True if so."""
    from . import browser

    if not browser.IN_BROWSER:
        return True
    try:
        import micropip

        await micropip.install("matplotlib")
        import matplotlib  # noqa: F401
        return True
    except Exception:  # offline: the CDN cannot be reached (the error names the package's URL)
        install_stand_in()
        print("Offline: the plots of this lesson will show their descriptions instead of drawings "
              "(matplotlib comes from Pyodide's public CDN). Everything else runs as on a laptop.")
        return False
