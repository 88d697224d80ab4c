"""Lesson 10: the support-desk capstone.

Two exercises, one spec each (``checks/spec.py``), in the order the lesson meets them:

- ``citations.py``, ``10.uncited_claims``: the answer's claims that no cited
  observation supports (a number counts only as a whole number, and only in
  an observation the sentence cites);
- ``paging.py``, ``10.page_of``: a table tool's answer, a summary line and one
  page of rows, with the way to the next page.

The answer keys are the library's own (``lessons/capstone.py``), which the lesson
calls the library's versions. Importing this package registers both exercises.
"""

from . import citations, paging

__all__ = ["citations", "paging"]
