"""What the grader asks of the course's checks registry, in one place.

The checks package is being reshaped (one declarative spec per exercise); the grader
reads it only through these functions, so that only they change when it does. They
run in the grader's own process, never in a submission's kernel.
"""

from __future__ import annotations

import functools
import sys


def _placeholder(*args: object, **kwargs: object) -> object:
    raise RuntimeError("the grader's placeholder: no answer")


# Every exercise with a spec (``checks.spec.SPECS``) is compared in the grader from its spec
# (``trusted_spec.py``), listed here or not. Of the others, the exercises the grader compares
# in its own process through a recording stand-in (``trusted.py``): those whose cases
# call the student's function on plain data and use only what it returns, each verified by
# grading its solution notebook both ways (``tests/test_grade_trusted.py`` for 03 and 09).
# Left in the kernel: exercises handed a model, tools or a class (02.scripted_model), a case
# run in another process (04.strict_calculate), inputs made inside a hidden case (10.page_of).
COMPARED_IN_GRADER = frozenset({
    "01.render_trace", "01.who_wrote", "03.cut_at_stop", "03.parse_step", "03.read_reply",
    "04.truncate_within", "05.handover", "05.plan_wait", "06.provenance", "08.compress_messages",
    "08.total_tokens", "09.p95_steps", "09.pass_hat_k", "09.repeat_rate", "09.score_number",
    "09.success_rate", "12.read_plan", "12.reflection",
})


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


def generated_calls(exercise_id: str, student) -> None:
    """Call ``student`` as the exercise's generated comparison would, on every generated input.

    The grader's recording stand-in learns them all this way, not only those up to the
    first difference (``trusted.inputs``). An exercise without one: nothing is called.
    """
    from react_course.checks import _lookup
    from react_course.checks.generated import COMPARISONS, generate

    _lookup(exercise_id)  # loads the lesson's checkers, which register their comparisons
    comparison = COMPARISONS.get(exercise_id)
    for _, args in generate(comparison) if comparison else ():
        try:
            comparison.call(student, args) if comparison.call else student(*args)
        except Exception:  # the stand-in answers nothing; only the calls matter
            pass
