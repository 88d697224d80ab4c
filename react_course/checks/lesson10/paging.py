"""10.page_of as a spec: a table tool answers with a summary and one page, not every row.

The key is the library's ``capstone.page_of``. The mistakes this catches: pages counted by
rounding down or by ``len // size + 1`` (the last, short page disappears, or an empty one
appears), pages counted from 0, a "More" line on the last page, and a page out of range
(0, negative, one past the end) answered with an empty page instead of the valid range.
The generated tables run from no rows to a dozen, sizes from 1 past the number of rows,
rows of any text (spaces, an empty row, other scripts).
"""

from __future__ import annotations

import dataclasses
import random

from ...lessons.capstone import page_of
from ..generated import Draw
from ..spec import GENERATED, Example, Fault, Rule, Spec, define

ROWS = [f"order {n}" for n in range(1, 6)]
PAGES = "the number of pages needed"
OUTSIDE = "A page outside 1 to pages"
TEXTS = ("order 5101: delivered", "", "Bestellung 7 ✓", "  spaced  ", "订单 12", "More: page 9.")


def _pages(args: tuple) -> int:
    return max(1, -(-len(args[0]) // args[2]))


def _first_line(text: object) -> str:
    return text.split("\n", 1)[0] if isinstance(text, str) else ""


FAULTS = (
    Fault("at least 1", "No rows is still one page: max(1, ...).",
          found=lambda args, want, got: not args[0] and ("of 0." in str(got) or "to 0." in str(got))),
    Fault(OUTSIDE, "Check the page against 1..pages before anything else; outside it, return only "
                   "'No page {page}: pages 1 to {pages}.'",
          found=lambda args, want, got: want.startswith("No page") != str(got).startswith("No page")),
    Fault(PAGES, "pages = max(1, ceil(len(rows) / size)): round up; a full last page needs no extra page.",
          found=lambda args, want, got: _first_line(want) != _first_line(got)),
    Fault("the last page has no such line", "Add 'More: page {page + 1}.' only when page < pages.",
          found=lambda args, want, got: want.endswith(f"More: page {args[1] + 1}.")
          != str(got).endswith(f"More: page {args[1] + 1}.")),
    Fault("one a line", "One row a line: join the page's rows with '\\n', each on its own line.",
          found=lambda args, want, got: str(got).count("\n") != want.count("\n")),
    Fault("page 1 holds rows 1 to size", "Page p holds rows[(p - 1) * size : p * size], one a line.",
          found=lambda args, want, got: want.splitlines()[1:] != str(got).splitlines()[1:]),
)

# An error raised, or a value that is no text, is recognised by no fault: the case's own hint shows.
FAULTS = tuple(dataclasses.replace(f, found=lambda a, want, got, found=f.found: isinstance(got, str)
                                   and found(a, want, got)) for f in FAULTS)


def _ex(name: str, rows: list, page: int, size: int, hint: str) -> Example:
    return Example(name, (rows, page, size), hint)


EXAMPLES = (
    _ex("the first page", ROWS, 1, 2, "Page 1 holds the first `size` rows, one a line, then the More line."),
    _ex("five rows, two a page", ROWS, 2, 2, "Five rows at two a page need three pages: round up."),
    _ex("the last page", ROWS, 3, 2, "The last page is short, and says nothing about more."),
    _ex("a full last page", ROWS[:4], 2, 2, "Four rows at two a page fill two pages: no third, empty one."),
    _ex("no rows", [], 1, 3, "No rows is one empty page, not zero pages."),
    _ex("page 0", ROWS, 0, 2, "Pages count from 1."),
    _ex("a page past the end", ROWS, 4, 2, "Say which pages exist rather than answer with an empty page."),
)


def _table(draw: Draw) -> tuple:
    """Up to a dozen rows, one to thirteen a page, and a page at every edge (first, last, 0, -1, past
    the end) or anywhere from -1 to 14."""
    rows = [draw.pick((f"row {n}", *TEXTS)) for n in range(draw.integer(0, 12))]
    size = draw.integer(1, 13)
    pages = max(1, -(-len(rows) // size))
    return rows, draw.pick((1, pages, draw.integer(-1, 14), pages + 1, 0, -1)), size


HIDDEN = tuple(Example(f"hidden case {n}", _table(Draw(random.Random(f"10.page_of:{n}"))),
                       "Round the pages up, check the page first, More only before the last page.")
               for n in range(1, 13))

RULES = (
    Rule(PAGES, ("five rows, two a page", "a full last page", GENERATED),
         edge=lambda a: bool(a[0]) and len(a[0]) % a[2] == 0 and a[1] == _pages(a) > 1),
    Rule("at least 1", ("no rows",), edge=lambda a: not a[0] and a[1] == 1),
    Rule("page 1 holds rows 1 to size", ("the first page",), edge=lambda a: 1 < a[1] <= _pages(a)),
    Rule("one a line", ("the first page",), edge=lambda a: a[2] > 1 and a[1] == 1 and len(a[0]) > 1),
    Rule("the last page has no such line", ("the last page",), edge=lambda a: a[1] == _pages(a) > 1),
    Rule(OUTSIDE, ("page 0", "a page past the end", GENERATED),
         edge=lambda a: a[1] in (0, -1, _pages(a) + 1)),
)

SPEC = define(Spec(
    "10.page_of", "a summary line and one page of rows", "page_of", page_of, EXAMPLES, _table, RULES,
    faults=FAULTS, hidden=HIDDEN,
    hints=("pages = max(1, ceil(len(rows) / size)); check the page against 1..pages first.",
           "Page p holds rows[(p - 1) * size : p * size]; add the More line only when p < pages."),
    generated_hint="Compare your text with the expected one line by line."))
__all__ = ["SPEC"]
