"""Lesson 04: the tool list, tool errors as observations, a safe calculator, truncation.

Five exercises, one module each, in the order the lesson meets them:

- ``tool_list.py``, ``04.tool_list``: the prompt's tool list from names, type hints and docstrings;
- ``run_tool.py``, ``04.run_tool``: run a tool by exact name; every failure becomes an observation;
- ``strict_calculate.py``, ``04.strict_calculate``: a calculator stricter than ``rc.calculate``
  that parses with ``ast``, never ``eval``, and checks every power against two caps before
  computing it (``huge_power.py`` sends the one probe that could hang, ``9 ** 9 ** 9``, to a
  forked child process that ``_isolated.py`` kills after two seconds);
- ``truncate_within.py``, ``04.truncate_within``: fit a long observation into a hard budget,
  marker included (``rc.truncate`` adds its marker after the cut);
- ``predictions.py``, ``04.predictions``: predict the cost and the ending of the slip run.

Each function's answer key and generated inputs (``checks/generated.py``) sit beside its
checker: ``tool_list_key.py``, ``calculate_key.py``; ``run_tool.py`` and ``truncate_within.py``
hold theirs. Importing this package registers all five exercises.
"""

from . import predictions, run_tool, strict_calculate, tool_list, truncate_within

# The mutation tests compare these with the library and with real runs.
from .predictions import _PREDICTIONS
from .tool_list import _LINES

__all__ = ["_LINES", "_PREDICTIONS", "predictions", "run_tool", "strict_calculate", "tool_list",
           "truncate_within"]
