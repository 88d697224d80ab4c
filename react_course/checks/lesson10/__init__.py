"""Lesson 10: the support-desk capstone.

Two exercises, one module each, in the order the lesson meets them:

- ``citations.py``, ``10.uncited_claims``: the answer's claims that no cited
  observation supports (a number counts only as a whole number, and only in
  an observation the sentence cites);
- ``paging.py``, ``10.page_of``: a table tool's answer, a summary line and one
  page of rows, with the way to the next page.

Each checker has hand cases and a seeded comparison with the answer key
(``checks.generated``: seeded inputs, a difference shrunk to a small one), and
hidden cases for grading (another seed's inputs, never shown in the notebook).
Importing this package registers both exercises. The answer keys are in
``keys.py``; the generated inputs beside each checker.
"""

from . import citations, paging

__all__ = ["citations", "paging"]
