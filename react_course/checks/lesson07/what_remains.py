"""07.what_remains as a spec: which failure classes native tool calling removes, and which it keeps.

The answers are the lesson's side-by-side runs: the text loop's failures that live in
the *format* disappear when calls come back as data; the ones that live in the
model's *choices* remain. The student's object is a dict, not a function: a case's
argument is one failure class, and ``observe`` reads the student's answer for it
(``...`` is "not attempted"). The key is the same kind of dict, ``ANSWERS``.
"""

from __future__ import annotations

from typing import Any

from ..plain import Opaque, Raised
from ..spec import GENERATED, Example, Fault, Rule, Spec, define

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
ANSWERS = {name: answer for name, (answer, _) in CLASSES.items()}
WORDS = ("disappears", "remains")
EITHER = 'either `"disappears"` or `"remains"`'
MISSING = Opaque("(no such key)")


def observe(answers: Any, args: tuple) -> Any:
    """The answer given for one failure class; ``...`` there means not attempted yet."""
    (name,) = args
    if not isinstance(answers, dict):
        raise TypeError(f"answers should be a dict with the keys {list(CLASSES)}, "
                        f"not {type(answers).__name__}")
    if name not in answers:
        return MISSING
    if answers[name] is ...:
        raise NotImplementedError(f'write "disappears" or "remains" for {name} in place of ...')
    return answers[name]


def compare(args: tuple, want: str, got: Any) -> bool | str:
    if isinstance(got, Raised):
        return False
    if isinstance(got, Opaque):
        return "the dict has no entry with this key: keep the keys as given"
    if got not in WORDS or not isinstance(got, str):
        return f'write "disappears" or "remains", exactly, not {got!r}'
    return got == want


FAULTS = (
    Fault(EITHER, 'Write one of the two words exactly, in lower case: "disappears" or "remains".',
          found=lambda args, want, got: not isinstance(got, Opaque)
          and (not isinstance(got, str) or got not in WORDS)),
    *(Fault(f"`{name}`", hint, found=lambda args, want, got, name=name: args[0] == name and got in WORDS)
      for name, (_, hint) in CLASSES.items()),
)
RULES = (
    *(Rule(f"`{name}`", (name, GENERATED), edge=lambda a, name=name: a[0] == name) for name in CLASSES),
    Rule(EITHER, tuple(CLASSES)),
)

SPEC = define(Spec(
    "07.what_remains", "which failure classes native tool calling removes, and which it keeps",
    "answers", ANSWERS, tuple(Example(name, (name,), hint) for name, (_, hint) in CLASSES.items()),
    lambda draw: (draw.pick(tuple(CLASSES)),), RULES, faults=FAULTS, observe=observe, compare=compare,
    count=24, show=lambda args: f"answers[{args[0]!r}]",
    hints=(
        "A failure disappears when it lived in the text format: in reading the model's text.",
        "A failure remains when it is a choice the model makes: which tool, which value, whether "
        "to call at all, whether to use what came back.",
    ),
    generated_hint="Format failures disappear with native calls; the model's choices remain."))
__all__ = ["ANSWERS", "CLASSES", "SPEC"]
