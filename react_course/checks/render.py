"""HTML for a ``CheckResult``: the same content as its text form, easier to scan."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .framework import CheckResult

MARKS = {"passed": "PASS", "failed": "FAIL", "not attempted": "TODO", "not run": "SKIP"}
# Values wrap at spaces, as the text form does; only a word longer than the whole line is broken
# (Jupyter's own output styles break monospace text anywhere, mid-word).
_PRE = "margin:0;white-space:pre-wrap;word-break:normal;overflow-wrap:break-word"
_COLOURS = {"passed": "#1a7f37", "failed": "#cf222e", "not attempted": "#6e7781",
            "not run": "#9a6700"}


def to_html(result: CheckResult) -> str:
    colour = _COLOURS[result.status]
    parts = [f'<div style="border-left:4px solid {colour};padding:4px 10px;margin:4px 0">',
             f"<b>{escape(result.summary())}</b>"]
    if result.status == "not attempted":
        parts.append("<div>Write your code where the exercise says, then run this cell again.</div>")
    else:
        parts.append('<table style="border-collapse:collapse;margin-top:4px">')
        for case in result.cases:
            mark = f'<span style="color:{_COLOURS[case.status]}">{MARKS[case.status]}</span>'
            parts.append(f"<tr><td style='vertical-align:top;padding-right:8px'>{mark}</td>"
                         f"<td style='text-align:left'>{escape(case.name)}{_details(case)}</td></tr>")
        parts.append("</table>")
        if result.not_run:
            parts.append(f"<div>{escape(result.not_run)}</div>")
    parts.append("</div>")
    return "".join(parts)


def _details(case) -> str:
    if case.status in ("passed", "not run"):
        return ""
    rows = [("rule", case.rule), ("given", case.given), ("expected", case.expected), ("got", case.got),
            ("problem", case.message), ("printed", case.printed), ("hint", case.hint)]
    cells = "".join(
        f"<tr><td style='vertical-align:top;padding-right:6px;color:#57606a'>{label}</td>"
        f"<td style='text-align:left'><pre style='{_PRE}'>{escape(text)}</pre>"
        "</td></tr>"
        for label, text in rows if text
    )
    return f"<table style='margin:2px 0 6px 0'>{cells}</table>"
