"""Lesson 04: the tool list, tool errors as observations, a safe calculator, truncation.

Five exercises, one spec each (``checks/spec.py``), in the order the lesson meets them:

- ``tool_list.py``, ``04.tool_list``: the prompt's tool list from names, type hints and
  docstrings; the key is the library's ``ToolRegistry.describe``;
- ``run_tool.py``, ``04.run_tool``: run a tool by exact name; every failure becomes an
  observation; the key is the library's ``ToolRegistry.run``;
- ``strict_calculate.py``, ``04.strict_calculate``: a calculator stricter than ``rc.calculate``
  that parses with ``ast``, never ``eval``, and checks every power against two caps before
  computing it (``expressions.py``: its inputs, rules and faults; ``9 ** 9 ** 9`` goes only to a
  forked child process that ``_isolated.py`` limits in CPU time);
- ``truncate_within.py``, ``04.truncate_within``: fit a long observation into a hard budget,
  marker included (``rc.truncate`` adds its marker after the cut);
- ``predictions.py``, ``04.predictions``: predict the cost and the ending of the slip run; the
  key is the run itself.

Importing this package registers all five exercises.
"""

from . import predictions, run_tool, strict_calculate, tool_list, truncate_within

__all__ = ["predictions", "run_tool", "strict_calculate", "tool_list", "truncate_within"]
