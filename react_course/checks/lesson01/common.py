"""What lesson 01's exercises share: the Paris question, two observations, reading a quiz answer."""

from __future__ import annotations

from typing import Any

QUESTION = "How tall is the tower in Paris that opened in 1889?"
NO_PAGE = ("No page matches 'Paris tower 1889'. search finds pages by the name of their subject: "
           "try the exact name of the person, place, company or thing, not a description.")
EIFFEL = ("[Eiffel Tower] The Eiffel Tower is a wrought-iron lattice tower in Paris. "
          "With the broadcasting antennas on its top it is 330 m tall.")


def answer_for(answers: dict, key: str) -> Any:
    """``answers[key]``, with a message for a missing key and "not attempted" for ``...``."""
    if key not in answers:
        raise KeyError(f"answers has no key {key!r}; keep the keys the exercise gives")
    if answers[key] is Ellipsis:
        raise NotImplementedError(f"answers[{key!r}] is still ...")
    return answers[key]
