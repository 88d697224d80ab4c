"""Check 04.predictions: predict the cost and the ending of variations of the slip run.

The answers are what ``tests/test_checks_lesson04.py`` gets by running the
slip run; a prediction left as ``...`` is "not attempted".
"""

from typing import Any

from .. import exercise
from ..framework import Case

_PREDICTIONS = {
    "calls_with_max_steps_5": (6, "After 5 steps without a Final Answer the loop makes one more call, "
                                  "which asks the model for its final answer."),
    "end_reason_with_max_steps_5": ("step_limit", "The end reason says what stopped the run. Did the "
                                                  "model give its Final Answer within its 5 steps?"),
    "total_lines_read": (66, "Call k reads 1 + 4(k - 1) lines: add them up for k = 1 to 6."),
    "total_lines_forgiving": (45, "With the forgiving tool the run takes 5 calls: add 1 + 4(k - 1) "
                                  "for k = 1 to 5."),
}


@exercise(
    "04.predictions",
    "predict the cost and the ending of variations of the slip run",
    hints=(
        "Write your predictions first; run the cells under the check afterwards to see the runs.",
        "A step limit of 5 leaves the run one step short of its Final Answer, and the loop then "
        "makes one extra call that asks for an answer.",
        "Lines read per call: 1, 5, 9, 13, 17, 21 for the slip run.",
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


class _Missing:
    def __repr__(self) -> str:
        return "(no such key)"


def _prediction(got: Any, answer: Any) -> bool | str:
    if isinstance(got, _Missing):
        return "the dict has no entry with this key: keep the keys as given"
    if isinstance(answer, int) and isinstance(got, str) and got.strip().isdigit():
        return f"write the number {got.strip()}, not the text {got!r}"
    return got == answer
