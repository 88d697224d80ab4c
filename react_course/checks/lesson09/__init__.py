"""Lesson 09: evaluation and observability.

Five exercises, one module each, in the order the lesson meets them:

- ``metrics.py``: ``09.success_rate`` (a step-limit ending is never a success),
  ``09.p95_steps`` (the nearest rank, not a mean), ``09.repeat_rate`` (per run,
  then averaged) and ``09.pass_hat_k`` (every one of k repeats, not any one);
- ``score_number.py``, ``09.score_number``: a number counts only with its unit.

Each checker has hand cases and a seeded comparison with the answer key
(``common.against_key``). Importing this package registers all five exercises.
"""

from . import metrics, score_number

__all__ = ["metrics", "score_number"]
