"""matplotlib in the browser edition: a small pure-Python plotter that draws the lessons' figures as SVG.

matplotlib, numpy and pillow are compiled, and no registry this course can
build from carries their WebAssembly builds for Pyodide 314 (npm's ``pyodide``
holds only the core; PyPI has no such wheels; Pyodide's own CDN is exactly what
a room on venue Wi-Fi must not depend on). So in the tab, ``plotting()`` (the
first cell of a lesson with plots) puts this module under the name
``matplotlib``: the calls the lessons make (``subplots``, ``bar``, ``barh``,
``plot``, ``hist``, ``axhline``, labels, ticks, limits, legends) record what to
draw, ``show_figure`` shows it as an SVG image with the figure's alt text, and
any other call is accepted and draws nothing. The numbers a lesson prints are
computed by the lesson, not by matplotlib, so they stay the same; the drawing
is plainer than matplotlib's.

>>> fig, (left, right) = subplots(1, 2)
>>> bars = left.bar([1, 2], [3, 4], label="runs")
>>> left.legend(); right.tick_params(labelsize=8).whatever(5) is not None   # other calls draw nothing
True
>>> is_stand_in(fig), "<rect" in fig.svg(), "runs" in fig.svg()
(True, True, True)
"""

from __future__ import annotations

import itertools
import sys
import types
from typing import Any

from .plots_svg import figure_svg

COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"]
LETTERS = {"k": "black", "b": "#1f77b4", "r": "#d62728", "g": "#2ca02c", "c": "#17becf", "m": "#e377c2",
           "y": "#bcbd22", "w": "white"}
DASHES = {"--": "6,4", ":": "2,3", "-.": "6,3,2,3", "dashed": "6,4", "dotted": "2,3"}


class Drawing:
    """What any call the plotter does not draw returns: each of its methods returns another Drawing."""

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


class Axes:
    """One panel: what was drawn on it in data coordinates, and its labels."""

    def __init__(self) -> None:
        self.rects: list[tuple[float, float, float, float, str]] = []  # x0, x1, y0, y1, colour
        self.lines: list[tuple[list[float], list[float], str, str, str]] = []  # xs, ys, colour, dash, marker
        self.rules: list[tuple[str, float, str, str]] = []  # "h" or "v", where, colour, dash
        self.texts: list[tuple[float, float, str]] = []
        self.legend_items: list[tuple[str, str]] = []
        self.show_legend, self.flip_y, self.cycle = False, False, 0
        self.labels = {"title": "", "xlabel": "", "ylabel": ""}
        self.limits: dict[str, tuple[float, float]] = {}
        self.ticks: dict[str, tuple[list[float], list[str]]] = {}

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return _anything

    def _colour(self, colour: Any, label: Any) -> str:
        if colour is None:
            colour, self.cycle = COLOURS[self.cycle % len(COLOURS)], self.cycle + 1
        colour = LETTERS.get(colour, colour)
        if label is not None and not str(label).startswith("_"):
            self.legend_items.append((str(label), colour))
        return colour

    def _places(self, values: Any, axis: str) -> list[float]:
        values = list(values)
        if values and isinstance(values[0], str):
            self.ticks[axis] = (list(range(len(values))), [str(v) for v in values])
            return [float(i) for i in range(len(values))]
        return [float(v) for v in values]

    def bar(self, x: Any, height: Any, width: Any = 0.8, bottom: Any = 0, color: Any = None,
            label: Any = None, **kwargs: Any) -> list:
        xs, heights = self._places(_many(x), "x"), [float(h) for h in _many(height)]
        bottoms, widths = _spread(bottom, len(xs)), _spread(width, len(xs))
        colours = color if isinstance(color, list) else [color] * len(xs)
        first = self._colour(colours[0], label)
        made = [(x - w / 2, x + w / 2, b, b + h, LETTERS.get(c, c) if c else first)
                for x, h, b, w, c in zip(xs, heights, bottoms, widths, colours, strict=False)]
        self.rects += made
        return made

    def barh(self, y: Any, width: Any, height: Any = 0.8, left: Any = 0, color: Any = None,
             label: Any = None, **kwargs: Any) -> list:
        ys, widths = self._places(_many(y), "y"), [float(w) for w in _many(width)]
        lefts, heights = _spread(left, len(ys)), _spread(height, len(ys))
        colours = color if isinstance(color, list) else [color] * len(ys)
        first = self._colour(colours[0], label)
        made = [(lf, lf + w, y - h / 2, y + h / 2, LETTERS.get(c, c) if c else first)
                for y, w, lf, h, c in zip(ys, widths, lefts, heights, colours, strict=False)]
        self.rects += made
        return made

    def bar_label(self, bars: list, fmt: str = "%g", **kwargs: Any) -> None:
        for x0, x1, y0, y1, _ in bars:
            horizontal = self.ticks.get("y") is not None
            value = (x1 - x0) if horizontal else (y1 - y0)
            self.texts.append((x1 if horizontal else (x0 + x1) / 2, (y0 + y1) / 2 if horizontal else y1,
                               fmt % value))

    def plot(self, *args: Any, color: Any = None, label: Any = None, **kwargs: Any) -> list:
        fmt = args[-1] if args and isinstance(args[-1], str) else ""
        numbers = [list(a) for a in args if not isinstance(a, str)]
        xs, ys = (numbers[0], numbers[1]) if len(numbers) > 1 else (list(range(len(numbers[0]))), numbers[0])
        letter = next((c for c in fmt if c in LETTERS), None)
        dash = next((DASHES[d] for d in ("--", "-.", ":") if d in fmt),
                    DASHES.get(kwargs.get("linestyle"), ""))
        marker = "o" if "o" in fmt else "s" if "s" in fmt else ""
        self.lines.append(([float(x) for x in xs], [float(y) for y in ys], self._colour(color or letter,
                                                                                        label),
                           dash, marker))
        return [Drawing()]

    def hist(self, data: Any, bins: Any = 10, label: Any = None, **kwargs: Any) -> tuple:
        sets = data if data and isinstance(data[0], (list, tuple)) else [data]
        edges = [float(b) for b in bins]
        labels = label if isinstance(label, list) else [label] * len(sets)
        for i, (values, name) in enumerate(zip(sets, labels, strict=False)):
            counts = [sum(lo <= v < hi for v in values) for lo, hi in itertools.pairwise(edges)]
            part = [(hi - lo) * 0.8 / len(sets) for lo, hi in itertools.pairwise(edges)]
            centres = [lo + (hi - lo) * 0.1 + w * (i + 0.5) for (lo, hi),
                       w in zip(itertools.pairwise(edges), part, strict=False)]
            self.bar(centres, counts, width=part, label=name)
        return Drawing(), Drawing(), Drawing()

    def axhline(self, y: float = 0, color: str = "black", linestyle: str = "-", **kwargs: Any) -> Drawing:
        self.rules.append(("h", float(y), LETTERS.get(color, color), DASHES.get(linestyle, "")))
        return Drawing()

    def axvline(self, x: float = 0, color: str = "black", linestyle: str = "-", **kwargs: Any) -> Drawing:
        self.rules.append(("v", float(x), LETTERS.get(color, color), DASHES.get(linestyle, "")))
        return Drawing()

    def text(self, x: float, y: float, s: str, **kwargs: Any) -> Drawing:
        self.texts.append((float(x), float(y), str(s)))
        return Drawing()

    def set_title(self, text: str, **kwargs: Any) -> None:
        self.labels["title"] = str(text)

    def set_xlabel(self, text: str, **kwargs: Any) -> None:
        self.labels["xlabel"] = str(text)

    def set_ylabel(self, text: str, **kwargs: Any) -> None:
        self.labels["ylabel"] = str(text)

    def set_xlim(self, low: float, high: float | None = None, **kwargs: Any) -> None:
        self.limits["x"] = (float(low), float(high))

    def set_ylim(self, low: float, high: float | None = None, **kwargs: Any) -> None:
        self.limits["y"] = (float(low), float(high))

    def set_xticks(self, ticks: Any, labels: Any = None, **kwargs: Any) -> None:
        ticks = [float(t) for t in ticks]
        names = [str(x) for x in labels] if labels is not None else [f"{t:g}" for t in ticks]
        self.ticks["x"] = (ticks, names)

    def set(self, **kwargs: Any) -> None:
        for name, value in kwargs.items():
            getattr(self, f"set_{name}")(value)

    def legend(self, *args: Any, **kwargs: Any) -> None:
        self.show_legend = True

    def invert_yaxis(self) -> None:
        self.flip_y = True


def _many(values: Any) -> list:
    return list(values) if isinstance(values, (list, tuple, range)) else [values]


def _spread(value: Any, count: int) -> list[float]:
    return [float(v) for v in value] if isinstance(value, (list, tuple, range)) else [float(value)] * count


class Figure:
    """A figure of panels in a grid; ``svg()`` draws it, ``bundle(alt)`` is what a notebook shows."""

    def __init__(self, rows: int = 1, columns: int = 1, figsize: tuple[float, float] = (6.4, 4.8)) -> None:
        self.rows, self.columns, self.size = rows, columns, figsize
        self.axes = [Axes() for _ in range(rows * columns)]
        self.title = ""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return _anything

    def suptitle(self, text: str, **kwargs: Any) -> None:
        self.title = str(text)

    def svg(self) -> str:

        return figure_svg(self)

    def savefig(self, target: Any, format: str | None = None, **kwargs: Any) -> None:
        """Writes SVG when asked for SVG (by ``format`` or a ``.svg`` name); any other format is skipped."""
        if (format or str(getattr(target, "name", target)).rsplit(".", 1)[-1]) != "svg":
            return
        if hasattr(target, "write"):
            target.write(self.svg().encode("utf-8") if "b" in getattr(target, "mode", "b") else self.svg())
        else:
            with open(target, "w", encoding="utf-8") as handle:
                handle.write(self.svg())

    def bundle(self, alt: str) -> tuple[dict[str, str], dict[str, dict[str, str]]]:
        """The display data of the figure: its SVG, and ``alt`` as its plain text and description."""
        return {"image/svg+xml": self.svg(), "text/plain": alt}, {"image/svg+xml": {"alt": alt}}


_CURRENT: list[Figure] = []


def subplots(nrows: int = 1, ncols: int = 1, figsize: tuple[float, float] = (6.4, 4.8), **kwargs: Any):
    """A figure and its axes in the shapes matplotlib returns (one, a row, or rows)."""
    fig = figure(figsize=figsize, rows=nrows, columns=ncols)
    if nrows == 1 and ncols == 1:
        return fig, fig.axes[0]
    if nrows == 1 or ncols == 1:
        return fig, list(fig.axes)
    return fig, [fig.axes[r * ncols:(r + 1) * ncols] for r in range(nrows)]


def figure(figsize: tuple[float, float] = (6.4, 4.8), rows: int = 1, columns: int = 1,
           **kwargs: Any) -> Figure:
    _CURRENT[:] = [Figure(rows, columns, figsize)]
    return _CURRENT[0]


def gcf() -> Figure:
    return _CURRENT[0] if _CURRENT else figure()


def gca() -> Axes:
    return gcf().axes[0]


def is_stand_in(fig: Any) -> bool:
    return isinstance(fig, (Figure, Drawing))


def _on_current(name: str):
    """pyplot's ``plt.bar(...)``, ``plt.xlabel(...)``: the method of the current axes."""
    renames = {"xlabel": "set_xlabel", "ylabel": "set_ylabel", "title": "set_title", "xlim": "set_xlim",
               "ylim": "set_ylim", "xticks": "set_xticks"}
    return lambda *args, **kwargs: getattr(gca(), renames.get(name, name))(*args, **kwargs)


def _module(name: str, **names: Any) -> types.ModuleType:
    module = types.ModuleType(name, "matplotlib in the browser edition (react_course.web.plots_offline)")
    module.__dict__.update(names)
    module.__getattr__ = _module_attribute  # PEP 562: any other public name is a no-op
    return module


def _module_attribute(name: str) -> Any:
    if name.startswith("__"):  # __file__, __path__...: absent, as Python's import machinery expects
        raise AttributeError(name)
    return _anything


def install_stand_in() -> None:
    """Put the plotter where ``import matplotlib.pyplot`` looks first."""
    drawn = ["bar", "barh", "plot", "hist", "axhline", "axvline", "text", "legend", "xlabel", "ylabel",
             "title", "xlim", "ylim", "xticks"]
    pyplot = _module("matplotlib.pyplot", subplots=subplots, figure=figure, gcf=gcf, gca=gca,
                     **{name: _on_current(name) for name in drawn})
    top = _module("matplotlib", pyplot=pyplot, rcParams={}, __version__="0 (react_course.web.plots_offline)")
    sys.modules.update({"matplotlib": top, "matplotlib.pyplot": pyplot})


def plotting() -> None:
    """In the browser, make ``import matplotlib.pyplot`` draw with this module, and say so once."""
    from . import browser

    if not browser.IN_BROWSER:
        return
    install_stand_in()
    print("Plots in the browser are drawn by the course's own small plotter "
          "(react_course.web.plots_offline): the same data as on a laptop, drawn more plainly.")
