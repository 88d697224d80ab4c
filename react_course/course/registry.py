"""What the grader asks of the course's checks registry, in one place.

The grader's scale and titles come from the checks registry, through these functions;
the comparison itself reads each exercise's spec (``trusted_spec.py``). They run in the
grader's own process, never in a submission's kernel.
"""

from __future__ import annotations

import functools
import sys


def _placeholder(*args: object, **kwargs: object) -> object:
    raise RuntimeError("the grader's placeholder: no answer")


@functools.cache
def maximum(exercise_id: str) -> int:
    """An exercise's case points when every case passes, hidden cases included.

    Run in the grader on a placeholder that answers nothing: every case still says
    what it is worth, so the maximum never comes from a submission's own results
    (where a cell that did not compile would leave a one-point stub).
    """
    from react_course.checks import check

    streams = sys.stdout, sys.stderr
    try:
        return check(exercise_id, _placeholder, hidden=True).max_points
    finally:
        sys.stdout, sys.stderr = streams


@functools.cache
def title(exercise_id: str) -> str:
    """The exercise's title as the registry has it.

    >>> title("03.cut_at_stop")
    'keep the text before the earliest stop sequence'
    """
    from react_course.checks import _lookup

    return _lookup(exercise_id).title
