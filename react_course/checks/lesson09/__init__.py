"""Lesson 09: evaluation and observability.

Five exercises in three modules, in the order the lesson meets them:

- ``metrics.py``: ``09.success_rate`` (a step-limit ending is never a success),
  ``09.p95_steps`` (the nearest rank, not a mean) and ``09.repeat_rate`` (per
  run, then averaged);
- ``pass_hat_k.py``, ``09.pass_hat_k``: C(c, k) / C(n, k) per task, then the
  mean over tasks (tau-bench's estimator, not "the first k runs succeed");
- ``score_number.py``, ``09.score_number``: a number counts only with its unit.

Each checker has hand cases and a seeded comparison with the answer key
(``common.against_key``, where the cases of a rate are built too). Importing
this package registers all five exercises.
"""

from . import metrics, pass_hat_k, score_number

__all__ = ["metrics", "pass_hat_k", "score_number"]
