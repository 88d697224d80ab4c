"""The answer keys of lesson 10's exercises: the library's own (``lessons/capstone.py``).

The lesson calls them the library's versions, so the checker holds a student to them
directly: a copy could drift from the library without any test seeing it.
"""

from __future__ import annotations

from ...lessons.capstone import CITATION, NUMBER, page_of, uncited_claims

__all__ = ["CITATION", "NUMBER", "page_of", "uncited_claims"]
