"""The values the ``react-course`` command accepts, each checked with an error in words.

``argparse`` calls these as option types; a wrong value gets one sentence that says what
was expected and what came, e.g. ``--date yesterday`` (never ``invalid fromisoformat value``).
What it leaves out: the options themselves (``cli.py``).
"""

from __future__ import annotations

import argparse
import datetime as dt


def steps(text: str) -> int:
    """A step limit from the command line: a whole number, 0 or more."""
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"expected a whole number of steps, 0 or more, got {text!r}")
    return int(text)


def port(text: str) -> int:
    """A port from the command line: 0 (any free one) to 65535."""
    if not text.isdigit() or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"expected a port from 0 to 65535, got {text!r}")
    return int(text)


def seconds(text: str) -> float:
    """A time limit from the command line: a positive number of seconds."""
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}")
    return value


def date(text: str) -> dt.date:
    """A date from the command line, in the one form it accepts.

    >>> date("2026-12-01")
    datetime.date(2026, 12, 1)
    """
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a date as YEAR-MONTH-DAY, e.g. 2026-12-01, "
                                         f"got {text!r}") from None
