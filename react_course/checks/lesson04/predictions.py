"""Check 04.predictions: predict the cost and the ending of variations of the slip run.

The answers are what ``tests/test_checks_lesson04.py`` gets by running the
slip run; a prediction left as ``...`` is "not attempted".
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


@exercise(
    "04.predictions",
    "predict the cost and the ending of variations of the slip run",
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
                   test=lambda got, answer=answer: _prediction(got, answer), hint=hint)


def _predicted(predictions: dict, key: str) -> Any:
    if key not in predictions:
        return _Missing()
    if predictions[key] is ...:
        raise NotImplementedError(f"write your prediction for {key} in place of ...")
    return predictions[key]


class _Missing(Shown):
    def __new__(cls) -> "_Missing":
        return super().__new__(cls, "(no such key)")


def _prediction(got: Any, answer: Any) -> bool | str:
    if isinstance(got, _Missing):
        return "the dict has no entry with this key: keep the keys as given"
    if isinstance(answer, int) and isinstance(got, str) and got.strip().isdigit():
        return f"write the number {got.strip()}, not the text {got!r}"
    return got == answer
