"""Inside a grading kernel: the student's answers to the grader's inputs, as plain JSON.

``answers(nonce, questions)`` runs in the cell the grader adds for each round of
asking (``grade_ask.py``). For each exercise it calls the notebook's function on each
input, the plain arguments of one of its spec's cases, and prints every answer on one
line that starts with ``nonce``. The answer is ``student_value(spec, function, args)``
(``observe`` builds the scripted model or tools here, from plain arguments); the grader
judges it with the spec (``trusted_spec.py``).

An answer is ``{"value": ...}`` only when it is JSON's own types all the way down (a
subclass of ``str`` whose ``__eq__`` always agrees is not); else it says that the call
ran out of time, was a stub, or gave something that is not plain data. Nothing here
judges: the comparison with the key is the grader's. Each exercise's calls share a time
budget (within its share of the cell's time-out), so a slow function costs its exercise,
never the whole submission.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

ANSWER_SECONDS = 3.0  # per call, as a check's case allows
BUDGET = 4  # an exercise's calls in one round may take this many times its spec's time limit
_JSON = (type(None), bool, int, float, str)


def answers(nonce: str, questions: str) -> None:
    """Call the notebook's functions on the grader's inputs; print the answers as plain data.

    ``questions`` is JSON: ``[[exercise id, name, [input, ...], seconds], ...]``, where
    ``seconds`` is the exercise's share of the cell's time-out (the grader's). A value
    exercise's answer (a quiz's dict) is not callable: its spec's ``observe`` reads it.
    """
    namespace, replies = sys._getframe(1).f_globals, {}
    for exercise_id, name, keys, seconds in json.loads(questions):
        if name not in namespace:
            replies[exercise_id] = {key: {"missing": name} for key in keys}
            continue
        replies[exercise_id] = _answer_all(exercise_id, namespace[name], keys, float(seconds))
    print(nonce + json.dumps({"answers": replies}), flush=True)


def _answer_all(exercise_id: str, function: Any, keys: list[str], seconds: float = 60.0) -> dict[str, dict]:
    from react_course.checks import _lookup
    from react_course.checks.spec import SPECS
    from react_course.checks.timing import run_limited

    _lookup(exercise_id)  # loads the lesson's specs, should the guard not have
    spec = SPECS[exercise_id]
    deadline = time.monotonic() + min(seconds, BUDGET * spec.time_limit)
    found = {}
    for key in keys:
        left = deadline - time.monotonic()
        if left <= 0:
            found[key] = {"timeout": ANSWER_SECONDS}
            continue
        limit = min(ANSWER_SECONDS, left)
        outcome = run_limited(lambda k=key: _spec_call(spec, function, k), limit)
        found[key] = _reply(outcome, limit)
    return found


def _spec_call(spec: Any, function: Any, key: str) -> Any:
    from react_course.checks.spec import student_value

    return student_value(spec, function, json.loads(key))


def _reply(outcome: Any, limit: float) -> dict:
    if outcome.timed_out:
        return {"timeout": round(limit, 2)}
    if isinstance(outcome.error, NotImplementedError):
        return {"not_attempted": str(outcome.error)[:300]}
    if outcome.error is not None:
        return {"raised": [type(outcome.error).__name__, str(outcome.error)[:300]]}
    odd = _not_json(outcome.value)
    return {"not_plain": odd} if odd else {"value": outcome.value}


def _not_json(value: Any, depth: int = 0) -> str:
    """The name of the first type in ``value`` that is not JSON's own, or "" (exact types only).

    >>> _not_json({"a": [1, None]}), _not_json(["x", type("Yes", (str,), {})("y")])
    ('', 'Yes')
    """
    if depth > 200:
        return "data nested more than 200 deep"
    if type(value) in _JSON:
        return ""
    if type(value) is list:
        return next((odd for item in value if (odd := _not_json(item, depth + 1))), "")
    if type(value) is dict and all(type(key) is str for key in value):
        return next((odd for item in value.values() if (odd := _not_json(item, depth + 1))), "")
    return type(value).__qualname__
