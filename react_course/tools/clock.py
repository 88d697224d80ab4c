"""A clock tool whose date can be fixed, so that runs and notebooks repeat."""

from __future__ import annotations

import datetime as dt


class Clock:
    """``today`` is its tool. Pass a date to freeze it; leave it out for the real date.

    >>> Clock(dt.date(2024, 7, 26)).today()
    'Today is Friday, 26 July 2024.'
    """

    def __init__(self, today: dt.date | None = None) -> None:
        self.fixed = today

    def today(self) -> str:
        """Return today's date, with the day of the week. Takes no input."""
        day = self.fixed or dt.date.today()
        return f"Today is {day:%A}, {day.day} {day:%B %Y}."
