"""SVG for ``plots_offline``'s figures: panels in a grid, each with its axes, ticks, marks and legend.

Kept apart from the recording side so that each stays short. Coordinates: the
figure is ``figsize`` inches at 80 px per inch; each panel keeps margins for its
tick labels and titles; data coordinates map linearly into the panel.

>>> from react_course.web.plots_offline import Figure
>>> fig = Figure()
>>> _ = fig.axes[0].plot([0, 1, 2], [1, 4, 9], "o-", label="squares")
>>> fig.axes[0].legend()
>>> svg = figure_svg(fig)
>>> svg.startswith("<svg") and "<polyline" in svg and "squares" in svg
True
"""

from __future__ import annotations

import math
from html import escape
from typing import Any

PX = 80  # pixels per inch of ``figsize``
MARGIN = {"left": 52, "right": 12, "top": 26, "bottom": 40}
FONT = 'font-family="sans-serif" font-size="10"'


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values across ``low``..``high``, steps of 1, 2 or 5 times a power of ten.

    >>> nice_ticks(0, 24)
    [0, 5, 10, 15, 20]
    """
    raw = (high - low) / max(count, 1) or 1.0
    power = 10 ** math.floor(math.log10(raw))
    step = next(s * power for s in (1, 2, 5, 10) if s * power >= raw)
    first = math.ceil(low / step - 1e-9) * step
    return [round(first + i * step, 10) for i in range(int((high - first) / step + 1e-9) + 1)]


def figure_svg(fig: Any) -> str:
    """The whole figure as one SVG document."""
    width, height = round(fig.size[0] * PX), round(fig.size[1] * PX)
    top = 20 if fig.title else 0
    cell_w, cell_h = width / fig.columns, (height - top) / fig.rows
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}"><rect width="100%" height="100%" fill="white"/>']
    if fig.title:
        parts.append(f'<text x="{width / 2}" y="14" text-anchor="middle" {FONT}>{escape(fig.title)}</text>')
    for index, axes in enumerate(fig.axes):
        row, column = divmod(index, fig.columns)
        names = axes.ticks.get("y", ([], []))[1]
        left = max(MARGIN["left"], 6 * max(map(len, names), default=0) + 14)  # room for category names
        box = (column * cell_w + left, top + row * cell_h + MARGIN["top"],
               cell_w - left - MARGIN["right"], cell_h - MARGIN["top"] - MARGIN["bottom"])
        parts.append(panel_svg(axes, box))
    return "".join(parts) + "</svg>"


def bounds(axes: Any, axis: str) -> tuple[float, float]:
    """The data range shown on ``axis`` ("x" or "y"): the limits set, else all marks with a margin."""
    if axis in axes.limits:
        return axes.limits[axis]
    first, second = (0, 1) if axis == "x" else (2, 3)
    values = [r[first] for r in axes.rects] + [r[second] for r in axes.rects]
    values += [v for line in axes.lines for v in (line[0] if axis == "x" else line[1])]
    values += [where for kind, where, *_ in axes.rules if (kind == "v") == (axis == "x")]
    if axis in axes.ticks:
        values += axes.ticks[axis][0]
    if not values:
        return 0.0, 1.0
    low, high = min(values), max(values)
    pad = (high - low) * 0.05 or 0.5
    bars_from_zero = axes.rects and low >= 0 and all(r[second - 1] == 0 for r in axes.rects)
    return (0.0 if bars_from_zero else low - pad), high + pad


def panel_svg(axes: Any, box: tuple[float, float, float, float]) -> str:
    """One panel: frame, ticks, marks, labels and legend inside ``box`` (x, y, width, height)."""
    x0, y0, w, h = box
    (xl, xh), (yl, yh) = bounds(axes, "x"), bounds(axes, "y")

    def sx(v: float) -> float:
        return round(x0 + (v - xl) / ((xh - xl) or 1) * w, 1)

    def sy(v: float) -> float:
        share = (v - yl) / ((yh - yl) or 1)
        return round(y0 + (share if axes.flip_y else 1 - share) * h, 1)

    parts = [f'<g><rect x="{x0}" y="{y0}" width="{w}" height="{h}" fill="none" stroke="#333"/>']
    parts += ticks_svg(axes, "x", xl, xh, sx, y0 + h) + ticks_svg(axes, "y", yl, yh, sy, x0)
    for left, right, low, high, colour in axes.rects:
        top, bottom = sorted((sy(low), sy(high)))
        parts.append(f'<rect x="{min(sx(left), sx(right))}" y="{top}" width="{abs(sx(right) - sx(left))}" '
                     f'height="{bottom - top}" fill="{colour}"/>')
    for xs, ys, colour, dash, marker in axes.lines:
        points = " ".join(f"{sx(x)},{sy(y)}" for x, y in zip(xs, ys, strict=False))
        style = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="1.5"{style}/>')
        if marker:
            parts += [f'<circle cx="{sx(x)}" cy="{sy(y)}" r="2.5" fill="{colour}"/>'
                      for x, y in zip(xs, ys, strict=False)]
    for kind, where, colour, dash in axes.rules:
        ends = (x0, sy(where), x0 + w, sy(where)) if kind == "h" else (sx(where), y0, sx(where), y0 + h)
        style = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append('<line x1="{}" y1="{}" x2="{}" y2="{}"'.format(*ends) + f' stroke="{colour}"{style}/>')
    parts += [f'<text x="{sx(x) + 2}" y="{sy(y) - 2}" {FONT}>{escape(s)}</text>' for x, y, s in axes.texts]
    parts += labels_svg(axes, box) + legend_svg(axes, box)
    return "".join(parts) + "</g>"


def ticks_svg(axes: Any, axis: str, low: float, high: float, scale, edge: float) -> list[str]:
    """Tick marks and labels along the bottom (x) or the left (y) edge."""
    places, names = axes.ticks.get(axis) or (ticks := nice_ticks(min(low, high), max(low, high)),
                                             [f"{t:g}" for t in ticks])
    parts = []
    for place, name in zip(places, names, strict=False):
        if not min(low, high) - 1e-9 <= place <= max(low, high) + 1e-9:
            continue
        at = scale(place)
        if axis == "x":
            parts.append(f'<line x1="{at}" y1="{edge}" x2="{at}" y2="{edge + 4}" stroke="#333"/>'
                         f'<text x="{at}" y="{edge + 15}" text-anchor="middle" {FONT}>{escape(name)}</text>')
        else:
            parts.append(f'<line x1="{edge - 4}" y1="{at}" x2="{edge}" y2="{at}" stroke="#333"/>'
                         f'<text x="{edge - 6}" y="{at + 3}" text-anchor="end" {FONT}>{escape(name)}</text>')
    return parts


def labels_svg(axes: Any, box: tuple[float, float, float, float]) -> list[str]:
    x0, y0, w, h = box
    parts = []
    if axes.labels["title"]:
        parts.append(f'<text x="{x0 + w / 2}" y="{y0 - 8}" text-anchor="middle" {FONT}>'
                     f'{escape(axes.labels["title"])}</text>')
    if axes.labels["xlabel"]:
        parts.append(f'<text x="{x0 + w / 2}" y="{y0 + h + 32}" text-anchor="middle" {FONT}>'
                     f'{escape(axes.labels["xlabel"])}</text>')
    if axes.labels["ylabel"]:
        parts.append(f'<text transform="translate({x0 - 40},{y0 + h / 2}) rotate(-90)" text-anchor="middle" '
                     f'{FONT}>{escape(axes.labels["ylabel"])}</text>')
    return parts


def legend_svg(axes: Any, box: tuple[float, float, float, float]) -> list[str]:
    """The labelled marks, one line each, in the panel's top right corner."""
    if not axes.show_legend or not axes.legend_items:
        return []
    x0, y0, w, _ = box
    longest = max(len(label) for label, _ in axes.legend_items)
    left = x0 + w - 24 - 5.5 * longest
    parts = [f'<rect x="{left - 4}" y="{y0 + 4}" width="{w - (left - x0)}" '
             f'height="{14 * len(axes.legend_items) + 4}" fill="white" fill-opacity="0.8" stroke="#ccc"/>']
    for row, (label, colour) in enumerate(axes.legend_items):
        y = y0 + 10 + 14 * row
        parts.append(f'<rect x="{left}" y="{y}" width="10" height="8" fill="{colour}"/>'
                     f'<text x="{left + 14}" y="{y + 8}" {FONT}>{escape(label)}</text>')
    return parts
