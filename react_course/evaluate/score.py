"""Scoring a final answer against a task's gold: text, numbers with units, "no answer", asking.

Four rules, one per kind of gold:

- text: after normalising (lower case, punctuation and articles dropped),
  the gold or one of its aliases appears in the answer as whole words;
- number: some number in the answer equals the gold, within the gold's
  relative ``tolerance`` if it states one (exact otherwise: 2004 is not 2002),
  *and carries a unit of the same dimension* (km and m convert). A bare "330"
  is not "330 m taller": 330 what? Gold without a unit takes any number;
- no_answer: the answer says the data does not hold it ("does not say",
  "no page", "could not find", ...);
- ask_user: the answer asks the user a question (a "?" with a question word).

A run succeeds only when it ended with a final answer that scores: a
best-effort answer at the step limit is not a success, however right it
looks. What it leaves out: partial credit, and judging prose with a model.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

# unit word -> (dimension, factor to the dimension's base unit)
UNITS: dict[str, tuple[str, float]] = {
    "m": ("length", 1.0), "metre": ("length", 1.0), "metres": ("length", 1.0), "meter": ("length", 1.0),
    "meters": ("length", 1.0), "km": ("length", 1000.0), "cm": ("length", 0.01),
    "ft": ("length", 0.3048), "feet": ("length", 0.3048),
    "coin": ("coins", 1.0), "coins": ("coins", 1.0),
    "inr": ("inr", 1.0), "rupees": ("inr", 1.0), "rupee": ("inr", 1.0), "rs": ("inr", 1.0),
    "year": ("years", 1.0), "years": ("years", 1.0),
    "minute": ("minutes", 1.0), "minutes": ("minutes", 1.0), "min": ("minutes", 1.0),
    "hour": ("minutes", 60.0), "hours": ("minutes", 60.0),
    "million": ("count", 1e6), "millions": ("count", 1e6),
}
_NUMBER = re.compile(r"(?<![\w.])(-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)(?:\s*([a-zA-Z₹]+))?")
NO_ANSWER = ("does not say", "doesn't say", "do not know", "don't know", "no information", "not in the",
             "could not find", "cannot find", "can't find", "not found", "no page", "has no", "no order",
             "not available", "not stated", "not mentioned", "does not exist", "no data", "unknown")
QUESTION_WORDS = ("which", "what", "who", "whom", "when", "where", "until", "please", "could you",
                  "can you", "do you mean")


def normalise(text: str) -> str:
    """Lower case, accents and punctuation dropped, articles removed, spaces collapsed.

    >>> normalise("The  Eiffel-Tower!")
    'eiffel tower'
    """
    text = unicodedata.normalize("NFKD", text.lower())
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    words = re.sub(r"[^\w\s]", " ", text).split()
    return " ".join(w for w in words if w not in ("a", "an", "the"))


def quantities(text: str) -> list[tuple[float, str | None]]:
    """The numbers in a text, each in its dimension's base unit (None: no unit after it).

    >>> quantities("It is 0.33 km, about 1,083 feet, or 330")
    [(330.0, 'length'), (330.09..., 'length'), (330.0, None)]
    >>> quantities("1,083.5 m")  # commas between thousands and a decimal point, one number
    [(1083.5, 'length')]
    """
    found = []
    for number, word in _NUMBER.findall(text):
        value = float(number.replace(",", ""))
        unit = UNITS.get(word.lower()) if word else None
        found.append((value * unit[1], unit[0]) if unit else (value, None))
    return found


def number_matches(answer: str, value: float, unit: str, tolerance: float = 0.0) -> bool:
    """Is ``value`` ``unit`` stated in the answer (within ``tolerance``, relative)?

    >>> number_matches("330 m", 330, "m"), number_matches("330", 330, "m")
    (True, False)
    """
    want_dim, factor = UNITS.get(unit.lower(), (None, 1.0)) if unit else (None, 1.0)
    target = value * factor
    for got, dim in quantities(answer):
        close = abs(got - target) <= (tolerance + 1e-9) * abs(target) + 1e-12  # float slack only
        if close and (want_dim is None or dim == want_dim):
            return True
    return False


def says_no_answer(answer: str) -> bool:
    """Does the answer say the data does not hold it?

    >>> says_no_answer("The encyclopedia does not say."), says_no_answer("It is 828 m tall.")
    (True, False)
    """
    text = " ".join(answer.lower().split())
    return any(phrase in text for phrase in NO_ANSWER)


def asks_user(answer: str) -> bool:
    """Does the answer ask the user for what is missing?

    >>> asks_user("Which order do you mean?"), asks_user("It was 62 minutes late.")
    (True, False)
    """
    text = answer.lower()
    return "?" in text and any(word in text for word in QUESTION_WORDS)


def score(answer: str | None, task: Any) -> bool:
    """True when ``answer`` is right for ``task`` (an ``evaluate.Task``)."""
    if not answer:
        return False
    if task.kind == "no_answer":
        return says_no_answer(answer)
    if task.kind == "ask_user":
        return asks_user(answer)
    if task.kind == "number":
        gold = task.answer
        return number_matches(answer, float(gold["value"]), gold.get("unit", ""),
                              float(gold.get("tolerance", 0.0)))
    said = f" {normalise(answer)} "
    return any(f" {normalise(gold)} " in said for gold in (task.answer, *task.aliases))


def run_succeeded(result: Any, task: Any) -> bool:
    """A success: the run ended with a final answer, and the answer scores."""
    return result.end_reason == "final_answer" and score(result.answer, task)
