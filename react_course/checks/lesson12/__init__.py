"""Lesson 12: beyond one loop.

Two exercises, in the order the lesson meets them, in ``structure.py``:

- ``12.read_plan``: a planner's reply read as ``tool: input`` lines;
- ``12.reflection``: which lesson a failed run's trace supports, by the first
  rule that matches (the library's ``structure.reflect`` follows the same order).

Each checker has hand cases and a seeded comparison with the answer key
(``checks.generated``, with the hint of the fault a difference shows:
``lesson05/faults.py``). The key of ``12.read_plan`` is the library's own
``structure.read_plan``. Importing this package registers both.
"""

from . import structure

__all__ = ["structure"]
