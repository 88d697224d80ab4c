"""Check 10.page_of: a table tool answers with a summary and one page, not every row.

The mistakes this catches: pages counted by rounding down (the last, short
page disappears), pages counted from 0, a "More" line on the last page, and a
page out of range answered with an empty page instead of the valid range.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from .. import exercise, hidden_cases
from ..framework import Case
from ..generated import Comparison, Draw, call_text, same_value
from ..lesson05.faults import Diagnosed, Fault
from . import keys

ROWS = [f"order {n}" for n in range(1, 6)]


def _table(draw: Draw) -> tuple:
    """Up to nine rows, a page from -1 to 10 (some out of range), one to ten rows a page."""
    return [f"row {n}" for n in range(draw.integer(0, 9))], draw.integer(-1, 10), draw.integer(1, 10)


def _compare(args: tuple, expected: str, got: object) -> bool:
    return same_value(expected, got)


def _first_line(text: object) -> str:
    return text.split("\n", 1)[0] if isinstance(text, str) else ""


FAULTS = (
    Fault("A page outside 1 to pages", "a page outside 1 to pages",
          lambda args, expected, got: expected.startswith("No page") != str(got).startswith("No page"),
          "Check the page against 1..pages before anything else; outside it, return only "
          "'No page {page}: pages 1 to {pages}.'"),
    Fault("the number of pages needed", "the number of pages",
          lambda args, expected, got: _first_line(expected) != _first_line(got),
          "pages = max(1, ceil(len(rows) / size)): round up, and no rows is still one page."),
    Fault("the last page has no such line", "the More line",
          lambda args, expected, got: ("More:" in expected) != ("More:" in str(got)),
          "Add 'More: page {page + 1}.' only when page < pages."),
    Fault("page 1 holds rows 1 to size", "the rows of the page",
          lambda args, expected, got: expected.splitlines()[1:] != str(got).splitlines()[1:],
          "Page p holds rows[(p - 1) * size : p * size], one a line, joined with '\\n'."),
)
RAISED = "page_of must not raise: a page outside 1 to pages gets the 'No page' line."
COMPARISON = Diagnosed(Comparison(
    "10.page_of", keys.page_of, _table, _compare, call_text("page_of"),
    hint="Compare your text with the expected one line by line.", name="the answer key on generated tables"),
    FAULTS, RAISED)
HIDDEN = Diagnosed(dataclasses.replace(COMPARISON.plain, name="hidden case: more generated inputs",
                                       count=400, seed=1020), FAULTS, RAISED, keep=False)


@exercise(
    "10.page_of",
    "a summary line and one page of rows",
    hints=(
        "pages = max(1, ceil(len(rows) / size)); check the page against 1..pages first.",
        "Page p holds rows[(p - 1) * size : p * size]; add the More line only when p < pages.",
    ),
    rules={
        "the number of pages needed": ("five rows, two a page", "the answer key on generated tables"),
        "at least 1": ("no rows",),
        "page 1 holds rows 1 to size": ("the first page",),
        "one a line": ("the first page",),
        "the last page has no such line": ("the last page",),
        "A page outside 1 to pages": ("page 0", "a page past the end"),
    },
)
def page_of_cases(page_of: Callable):
    def case(name, rows, page, size, want, hint):
        return Case(
            name,
            lambda: page_of(rows, page, size),
            expected=want,
            given=f"page_of({rows!r}, {page!r}, {size!r})",
            hint=hint,
        )

    yield case(
        "the first page",
        ROWS,
        1,
        2,
        "5 rows; page 1 of 3.\norder 1\norder 2\nMore: page 2.",
        "Page 1 holds the first `size` rows, one a line, then the More line.",
    )
    yield case(
        "five rows, two a page",
        ROWS,
        2,
        2,
        "5 rows; page 2 of 3.\norder 3\norder 4\nMore: page 3.",
        "Five rows at two a page need three pages: round up.",
    )
    yield case(
        "the last page",
        ROWS,
        3,
        2,
        "5 rows; page 3 of 3.\norder 5",
        "The last page is short, and says nothing about more.",
    )
    yield case("no rows", [], 1, 3, "0 rows; page 1 of 1.", "No rows is one empty page, not zero pages.")
    yield case("page 0", ROWS, 0, 2, "No page 0: pages 1 to 3.", "Pages count from 1.")
    yield case(
        "a page past the end",
        ROWS,
        4,
        2,
        "No page 4: pages 1 to 3.",
        "Say which pages exist rather than answer with an empty page.",
    )
    yield COMPARISON.case(page_of)


@hidden_cases("10.page_of")
def page_of_hidden(page_of: Callable):
    """For grading: another seed's inputs, which the notebook never shows."""
    yield HIDDEN.case(page_of)
