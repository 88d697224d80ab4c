"""Evaluation: the task set, the scorer, a simulated model with failure knobs, metrics.

Files in reading order: ``tasks`` (the bundled set and its splits), ``score``
(is an answer right?), ``simulated`` (a seeded model that fails on purpose),
``metrics`` (success, pass^k and pass@k, steps, errors, cost), ``compare``
(two configurations, paired by task, with an interval clustered by task), ``runner`` (run a set, log it,
resume it; concurrency and a rate limit for real models), and for lesson 12
``structured`` (plan-and-execute and reflection against the plain loop, imported
on its own: ``from react_course.evaluate.structured import run_structured``).
"""

from .compare import Difference, bootstrap, compare, seed_interval, tasks_needed
from .metrics import (
    EvalRun,
    Metrics,
    metrics,
    pass_at_k,
    pass_at_k_of,
    pass_hat_k,
    pass_hat_k_of,
    percentile,
    repeat_rate,
    table,
)
from .runner import ASKS, DEFAULT, Config, RateLimited, TokenBucket, run_eval, run_task, simulated
from .score import asks_user, normalise, number_matches, run_succeeded, says_no_answer, score
from .simulated import PERFECT, TYPICAL, Knobs, SimulatedModel
from .tasks import FAMILIES, Task, load_tasks, task_tools, today

__all__ = ["ASKS", "DEFAULT", "FAMILIES", "PERFECT", "TYPICAL", "Config", "Difference", "EvalRun",
           "Knobs", "Metrics", "RateLimited", "SimulatedModel", "Task", "TokenBucket", "asks_user",
           "bootstrap", "compare", "load_tasks", "metrics", "normalise", "number_matches", "pass_at_k",
           "pass_at_k_of", "pass_hat_k", "pass_hat_k_of", "percentile", "repeat_rate", "run_eval",
           "run_succeeded", "run_task", "says_no_answer", "score", "seed_interval", "simulated", "table",
           "task_tools", "tasks_needed", "today"]
