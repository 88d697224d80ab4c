"""Lesson 12: beyond one loop.

Two exercises, in the order the lesson meets them, each a spec (``checks/spec.py``):

- ``12.read_plan`` (``read_plan.py``): a planner's reply read as ``tool: input`` lines;
  the key is the library's ``structure.read_plan``;
- ``12.reflection`` (``reflection.py``): which lesson a failed run's trace supports, by
  the first rule that matches (the library's ``structure.lesson_for`` follows the same order).

Importing this package registers both.
"""

from . import read_plan, reflection

__all__ = ["read_plan", "reflection"]
