"""Lesson 09: evaluation and observability, five exercises, each one spec (``checks/spec.py``).

In the order the lesson meets them: ``success_rate`` (a step-limit ending is never a
success), ``p95_steps`` (the nearest rank, not a mean), ``repeat_rate`` (per run, then
averaged), ``pass_hat_k`` (tau-bench's C(c, k) / C(n, k) per task, then the mean) and
``score_number`` (a number counts only with its unit, the whole word). Importing this
package registers all five.
"""

from . import p95_steps, pass_hat_k, repeat_rate, score_number, success_rate

__all__ = ["p95_steps", "pass_hat_k", "repeat_rate", "score_number", "success_rate"]
