"""Check 07.what_remains: which failure classes native tool calling removes, and which it keeps.

The answers are the lesson's side-by-side runs: the text loop's failures
that live in the *format* disappear when calls come back as data; the ones
that live in the model's *choices* remain.
"""

from typing import Any

from .. import exercise
from ..framework import Case, Shown

CLASSES = {
    "unparseable_reply": ("disappears", "Who writes the call's structure in a native reply: the model, "
                                        "as text, or the API, as a JSON object?"),
    "invented_observation": ("disappears", "Where do results come from in the native loop, and can the "
                                           "model write a message with role 'tool'?"),
    "wrong_tool": ("remains", "The API makes the call well-formed; does it make it the right call?"),
    "hallucinated_argument": ("remains", "A schema checks an argument's type, not whether the value is "
                                         "true: could the model still invent an order number?"),
    "answer_without_a_call": ("remains", "Nothing forces a call: a reply without tool_calls is an answer."),
    "ignored_result": ("remains", "The result is in the conversation; does the API make the model use it?"),
}
RULES = {f"`{key}`": (key,) for key in CLASSES}
RULES["either `\"disappears\"` or `\"remains\"`"] = tuple(CLASSES)


@exercise(
    "07.what_remains",
    "which failure classes native tool calling removes, and which it keeps",
    hints=(
        "A failure disappears when it lived in the text format: in reading the model's text.",
        "A failure remains when it is a choice the model makes: which tool, which value, whether "
        "to call at all, whether to use what came back.",
    ),
    rules=RULES,
)
def what_remains_cases(answers: Any):
    if not isinstance(answers, dict):
        yield Case("answers is a dict", lambda: answers, given="answers", test=lambda got: (
            f"answers should be a dict with the keys {list(CLASSES)}, not {type(got).__name__}"))
        return
    for key, (answer, hint) in CLASSES.items():
        yield Case(key, lambda key=key: _given(answers, key), given=f"answers[{key!r}]",
                   test=lambda got, answer=answer: _judge(got, answer), hint=hint)


def _given(answers: dict, key: str) -> Any:
    if key not in answers:
        return Shown("(no such key)")
    if answers[key] is ...:
        raise NotImplementedError(f'write "disappears" or "remains" for {key} in place of ...')
    return answers[key]


def _judge(got: Any, answer: str) -> bool | str:
    if got == "(no such key)":
        return "the dict has no entry with this key: keep the keys as given"
    if got not in ("disappears", "remains"):
        return f'write "disappears" or "remains", not {got!r}'
    return got == answer
