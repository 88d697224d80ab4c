"""The browser edition's parts, and a figure shown with its alt text.

``browser`` (are we in Pyodide, do threads start, where the work is kept),
``figures`` (``show_figure(fig, alt)``), ``plots_offline`` and ``plots_svg`` (the
small pure-Python plotter that draws the lessons' figures as SVG in a tab).
"""
