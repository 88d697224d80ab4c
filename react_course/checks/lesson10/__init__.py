"""Lesson 10: the support-desk capstone.

Two exercises, one module each, in the order the lesson meets them:

- ``citations.py``, ``10.uncited_claims``: the answer's claims that no cited
  observation supports (a number counts only as a whole number, and only in
  an observation the sentence cites);
- ``paging.py``, ``10.page_of``: a table tool's answer, a summary line and one
  page of rows, with the way to the next page.

Each checker has hand cases and a seeded comparison with the answer key
(lesson 09's ``against_key``), and hidden cases for grading (another seed's
inputs, never shown in the notebook). Importing this package registers both exercises.
"""

from . import citations, paging

__all__ = ["citations", "paging"]
