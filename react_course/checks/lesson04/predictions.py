"""Check 04.predictions: predict the cost and the ending of variations of the slip run.

The answers are what ``tests/test_checks_lesson04.py`` gets by running the
slip run (``react_course.lessons.slips``, a scripted model: the same run whatever model
the course is set to use); a prediction left as ``...`` is "not attempted".
A wrong prediction that a known slip of reasoning explains gets that
explanation (``_WRONG``), without giving the answer away.
"""

from typing import Any

from .. import exercise
from ..framework import Case, Shown

_PREDICTIONS = {
    "calls_with_max_steps_5": (6, "Count the steps (Actions) the slip run takes before its Final Answer "
                                  "and compare with the limit. Then re-read what the lesson's "
                                  "max_steps=3 run did when it reached its limit: did it stop at once?"),
    "end_reason_with_max_steps_5": ("step_limit", "The end reason says what stopped the run: the model, "
                                                  "with a Final Answer, or a guard. Did the model answer "
                                                  "within its 5 steps?"),
    "total_lines_read": (66, "Write out 1 + 4(k - 1) for every call of the slip run, k = 1 up to the "
                             "number of calls, and add them up."),
    "total_lines_forgiving": (45, "Which of the two slips does a forgiving price tool remove? Count the "
                                  "calls that are left, then add 1 + 4(k - 1) over them."),
}


# (key, a wrong prediction) -> what that prediction overlooked.
_WRONG = {
    ("calls_with_max_steps_5", 5): "5 would mean the run stops the moment it has used its 5th step; the "
                                   "lesson's max_steps=3 run made one more call than its limit: what for?",
    ("calls_with_max_steps_5", 4): "4 is the perfect run; the slip run spends two calls on its slips.",
    ("calls_with_max_steps_5", 7): "the slip run answers in 6 calls without any limit; can a limit add "
                                   "a call beyond that?",
    ("end_reason_with_max_steps_5", "final_answer"): (
        "the last reply is a Final Answer, but was the model free to answer, or asked to because the "
        "steps ran out? The end reason names what ended the run (see section 6 of the lesson)."),
    ("total_lines_read", 21): "21 is what the last call reads; the total adds up what every call read.",
    ("total_lines_read", 6): "6 is the number of calls; the total counts lines.",
    ("total_lines_read", 28): "28 is the perfect run's total (4 calls); the slip run makes 6.",
    ("total_lines_forgiving", 66): "66 is the slip run's total; the forgiving tool removes one slip, "
                                   "so one call fewer.",
    ("total_lines_forgiving", 28): "28 is the perfect run (4 calls); the forgiving tool removes only the "
                                   "'notebooks' slip: get_price still costs a call.",
}
_END_REASONS = ("final_answer", "step_limit", "budget", "time_limit", "repeating", "hand_over",
                "interrupted", "error")

RULES = {
    "`calls_with_max_steps_5`": ("calls_with_max_steps_5",),
    "`end_reason_with_max_steps_5`": ("end_reason_with_max_steps_5",),
    "`total_lines_read`": ("total_lines_read",),
    "`total_lines_forgiving`": ("total_lines_forgiving",),
    "Write whole numbers as numbers, and the end reason as text": ("total_lines_read",),
}


@exercise(
    "04.predictions",
    "predict the cost and the ending of variations of the slip run",
    rules=RULES,
    hints=(
        "Write your predictions first; run the cells under the check afterwards to see the runs.",
        "For the step limit, count the slip run's Actions: each one is a step, and the Final Answer "
        "comes in the call after the last of them. Section 6 of the lesson shows what the loop does "
        "when a run reaches its limit without an answer.",
        "For the lines, list what each call reads with 1 + 4(k - 1) and add the list up; a sum of "
        "evenly spaced numbers is (how many) x (first + last) / 2.",
    ),
)
def prediction_cases(predictions: Any):
    if not isinstance(predictions, dict):
        yield Case("predictions is a dict", lambda: predictions, given="predictions", test=lambda got: (
            f"predictions should be a dict with the keys {list(_PREDICTIONS)}, not {type(got).__name__}"))
        return
    for key, (answer, hint) in _PREDICTIONS.items():
        yield Case(key, lambda key=key: _predicted(predictions, key), given=f"predictions[{key!r}]",
                   test=lambda got, key=key, answer=answer: _prediction(key, got, answer), hint=hint,
                   expected=Shown("the run's own number (not shown here: the cell under this check "
                                  "runs the variations once all four predictions are written)"))


def _predicted(predictions: dict, key: str) -> Any:
    if key not in predictions:
        return _Missing()
    if predictions[key] is ...:
        raise NotImplementedError(f"write your prediction for {key} in place of ...")
    return predictions[key]


class _Missing(Shown):
    def __new__(cls) -> "_Missing":
        return super().__new__(cls, "(no such key)")


def _prediction(key: str, got: Any, answer: Any) -> bool | str:
    if isinstance(got, _Missing):
        return "the dict has no entry with this key: keep the keys as given"
    if isinstance(answer, int) and isinstance(got, str) and got.strip().isdigit():
        return f"write the number {got.strip()}, not the text {got!r}"
    if got == answer and not isinstance(got, bool):
        return True
    if isinstance(answer, str) and isinstance(got, str) and got not in _END_REASONS:
        return f"{got!r} is not an end reason; the loop's are: {', '.join(_END_REASONS)}"
    try:
        known = _WRONG.get((key, got))
    except TypeError:  # an unhashable prediction
        known = None
    return known or f"not {got!r}: re-read the hint, and work it out on paper before running anything"
