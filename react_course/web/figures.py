"""Show a matplotlib figure in a notebook with alt text, for readers who cannot see it.

``show_figure(fig, alt)`` displays the figure as a PNG whose output carries ``alt``
twice: as the image's ``alt`` metadata (which nbconvert's HTML and other renderers
write into ``<img alt=...>``) and as the output's plain-text form, which is what a
terminal, a screen reader reading plain text, and ``nbval`` see instead of
``<Figure size 640x480 with 1 Axes>``. The figure is closed afterwards, as
``plt.show()`` does inline.

What it leaves out: describing the figure for you. Write what a reader should take
from it (the trend, the numbers that matter), not "a chart".
"""

from __future__ import annotations

import base64
import io
from typing import Any


def figure_bundle(fig: Any, alt: str) -> tuple[dict[str, str], dict[str, dict[str, str]]]:
    """The display data and metadata for ``fig`` with ``alt`` (a PNG, base64-encoded)."""
    if not alt.strip():
        raise ValueError("a figure needs alt text: say what a reader should take from it")
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", bbox_inches="tight")
    png = base64.b64encode(buffer.getvalue()).decode("ascii")
    return {"image/png": png, "text/plain": alt}, {"image/png": {"alt": alt}}


def show_figure(fig: Any, alt: str) -> None:
    """Display ``fig`` with ``alt`` as its description, then close it."""
    import matplotlib.pyplot as plt
    from IPython.display import display

    from .plots_offline import is_stand_in

    if is_stand_in(fig):  # the browser edition: the course's own plotter, as SVG with the alt text
        data, metadata = fig.bundle(alt)
        display(data, raw=True, metadata=metadata)
        return
    data, metadata = figure_bundle(fig, alt)
    display(data, raw=True, metadata=metadata)
    plt.close(fig)
