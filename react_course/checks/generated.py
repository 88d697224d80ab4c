"""Generated comparison: the student's function against the answer key on seeded inputs.

Hand-written cases end where their author's imagination ends. Here an exercise
gives a ``Comparison``: its answer key, a generator of inputs over the space its
statement allows, and what of the two results to compare. ``Comparison.case``
is one more case of the exercise's check. It draws a few hundred inputs from a
fixed seed (the same inputs, so the same verdict, on every run and every
Python), calls the key and the student's function on each, and on the first
difference shrinks that input to a small one that still differs, shown as an
ordinary failed case: given, expected, got.

How shrinking works (the idea of ``hypothesis``, in a few lines): a generator
takes every decision through a ``Draw``, which records it as a whole number,
0 being the simplest choice. Replaying a shorter or smaller list of numbers
rebuilds a smaller input that the generator itself made, so a shrunk input is
always one the statement allows.

Left out: hypothesis itself (a student's install stays small), shrinking a
value after it was built, and time-based budgets (a verdict must not depend on
the machine's speed).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .framework import Case, Difference
from .values import describe, error_text

__all__ = ["COMPARISONS", "Comparison", "Draw", "call_text", "generate", "register", "same_number",
           "same_value"]

UNICODE = "éßЖ中🙂٣²"
ALPHABET = "abcxyz ABC019" + UNICODE + "\n\t-_.,:'\""


class Draw:
    """Every choice a generator makes, random while generating, replayed while shrinking.

    >>> first = Draw(random.Random(1)); value = first.integer(0, 999)
    >>> Draw(replay=first.choices).integer(0, 999) == value
    True
    """

    def __init__(self, rng: random.Random | None = None, replay: Sequence[int] = ()) -> None:
        self.rng, self.replay, self.choices = rng, list(replay), []

    def below(self, n: int, suggest: int | None = None) -> int:
        """A whole number in range(n); 0 is the simplest. Past a replay's end, always 0."""
        if self.rng is None:
            at = len(self.choices)
            value = min(self.replay[at], n - 1) if at < len(self.replay) else 0
        else:
            value = self.rng.randrange(n) if suggest is None else suggest
        self.choices.append(value)
        return value

    def integer(self, low: int, high: int) -> int:
        """An int in [low, high], often one of the edges; shrinks towards ``low``."""
        edge = self.below(4)
        if edge < 3:
            return (low, high, min(low + 1, high))[edge]
        return low + self.below(high - low + 1)

    def pick(self, options: Sequence[Any]) -> Any:
        """One of ``options``; shrinks towards the first."""
        return options[self.below(len(options))]

    def boolean(self) -> bool:
        return self.below(2) == 1

    def many(self, one: Callable[[Draw], Any], most: int) -> list[Any]:
        """A list of up to ``most`` values, each drawn by ``one``; shrinks by leaving items out."""
        size = self.rng.randrange(most + 1) if self.rng else 0
        items: list[Any] = []
        while len(items) < most and self.below(2, suggest=int(len(items) < size)):
            items.append(one(self))
        return items

    def text(self, alphabet: str = ALPHABET, most: int = 12) -> str:
        return "".join(self.many(lambda d: d.pick(alphabet), most))


@dataclass(frozen=True)
class Comparison:
    """An exercise's generated comparison: its key, its inputs, and what to compare.

    ``inputs(draw)`` returns the arguments of one call, as a tuple; ``compare(args,
    expected, got)`` returns True when ``got`` agrees with the key's ``expected`` on
    what the statement fixes, else False or a message; ``show(args)`` writes the call.
    ``call(student, args)``, when given, is how the student's function is called (by
    default ``student(*args)``): an exercise that compares two calls makes both here.
    """

    exercise: str
    key: Callable[..., Any]
    inputs: Callable[[Draw], tuple]
    compare: Callable[[tuple, Any, Any], bool | str]
    show: Callable[[tuple], str]
    hint: str = ""
    count: int = 300
    seed: int = 16
    name: str = "agrees with the answer key on generated inputs"
    time_limit: float = 6.0
    shrink_attempts: int = 400  # replays spent making a difference small (fewer for slow runs)
    call: Callable[[Callable[..., Any], tuple], Any] | None = None
    # (args, expected, got) -> (rule, hint) of the fault that difference shows, or None: the hint
    # then follows the fault found, not the case (``spec.Fault``)
    diagnose: Callable[[tuple, Any, Any], tuple[str, str] | None] | None = None
    show_value: Callable[[Any], str] = describe  # how an expected or returned value is shown
    show_expected: Callable[[Any], str] | None = None  # the key's value, when a quiz hides it

    def case(self, student: Callable[..., Any]) -> Case:
        return Case(self.name, lambda: _search(self, student), test=lambda found: found is None,
                    given=f"{self.count} generated inputs", hint=self.hint,
                    time_limit=self.time_limit)


COMPARISONS: dict[str, Comparison] = {}


def register(comparison: Comparison) -> Comparison:
    """Keep ``comparison`` where the tests find it (every key on every input, without raising)."""
    COMPARISONS[comparison.exercise] = comparison
    return comparison


def generate(comparison: Comparison) -> list[tuple[list[int], tuple]]:
    """The generated inputs of a comparison, each with the choices that build it again."""
    rng, made = random.Random(f"{comparison.exercise}:{comparison.seed}"), []
    for _ in range(comparison.count):
        draw = Draw(rng)
        args = comparison.inputs(draw)
        made.append((draw.choices, args))
    return made


def _search(comparison: Comparison, student: Callable[..., Any]) -> Difference | None:
    for number, (choices, _) in enumerate(generate(comparison), 1):
        found = _differ(comparison, student, choices)
        if found is not None:
            return _shrink(comparison, student, found, number, comparison.shrink_attempts)
    return None


def _differ(comparison: Comparison, student: Callable[..., Any],
            choices: Sequence[int]) -> tuple[list[int], tuple, Any, str, str, Any] | None:
    """(choices, args, expected, got shown, message, got) when the student differs on this input."""
    draw = Draw(replay=choices)
    given = comparison.inputs(draw)  # the student's copy, which the student may change
    args = comparison.inputs(Draw(replay=choices))
    expected = comparison.key(*comparison.inputs(Draw(replay=choices)))
    try:
        got = comparison.call(student, given) if comparison.call else student(*given)
    except NotImplementedError:
        raise
    except Exception as error:  # the student's error is a difference, shown as what came back
        return draw.choices, args, expected, f"raised {error_text(error)}", "", error
    verdict = _verdict(comparison, args, expected, got)
    if verdict is True:
        return None
    return draw.choices, args, expected, comparison.show_value(got), verdict or "", got


def _verdict(comparison: Comparison, args: tuple, expected: Any, got: Any) -> bool | str:
    try:
        verdict = comparison.compare(args, expected, got)
    except Exception as error:  # a strange value must not crash the check
        return f"could not compare the result ({type(error).__name__}: {error})"
    return verdict if isinstance(verdict, str) and verdict else verdict is True


def _shrink(comparison: Comparison, student: Callable[..., Any], found: tuple, number: int,
            attempts: int = 400) -> Difference:
    """Make the differing input smaller while it still differs, in at most ``attempts`` replays."""
    best, tried, improved = found, 0, True
    while improved and tried < attempts:
        improved = False
        for candidate in _smaller(best[0]):
            tried += 1
            smaller = _differ(comparison, student, candidate)
            if smaller is not None and _simpler(smaller[0], best[0]):
                best, improved = smaller, True
                break
            if tried >= attempts:
                break
    _, args, expected, got, message, value = best
    note = f"input {number} of {comparison.count} differs; shown shrunk to a small example"
    rule, hint = (comparison.diagnose(args, expected, value) if comparison.diagnose else None) or ("", "")
    shown = (comparison.show_expected or comparison.show_value)(expected)
    return Difference(comparison.show(args), shown, got,
                      f"{message}. {note}" if message else note, hint=hint, rule=rule)


def _smaller(choices: list[int]):
    """Candidate choice lists, each simpler than ``choices``: chunks left out, then values cut."""
    for size in (8, 4, 2, 1):
        for at in range(len(choices) - size, -1, -1):
            yield choices[:at] + choices[at + size:]
    for at, value in enumerate(choices):
        for less in sorted({0, value // 2, value - 1}):
            if 0 <= less < value:
                yield [*choices[:at], less, *choices[at + 1:]]


def _simpler(a: list[int], b: list[int]) -> bool:
    return (len(a), a) < (len(b), b)


def call_text(name: str) -> Callable[[tuple], str]:
    """How a generated call is shown: ``name(arg, ...)``, each argument a short repr.

    >>> call_text("plan_wait")((429, 1, None, 2.5))
    'plan_wait(429, 1, None, 2.5)'
    """
    return lambda args: f"{name}({', '.join(describe(arg, 160) for arg in args)})"


def same_value(expected: Any, got: Any) -> bool:
    """Equal, and of the same types all the way down (``25`` is not ``"25"``, ``True`` not ``1``).

    >>> same_value({"a": [1, None]}, {"a": [1, None]}), same_value(2, 2.0), same_value(1, True)
    (True, False, False)
    """
    if type(expected) is not type(got):
        return False
    if isinstance(expected, dict):
        return expected.keys() == got.keys() and all(same_value(expected[k], got[k]) for k in expected)
    if isinstance(expected, list | tuple):
        return len(expected) == len(got) and all(map(same_value, expected, got))
    return bool(expected == got)


def same_number(expected: Any, got: Any) -> bool:
    """The same number (an int or a float, never a bool), or both None.

    >>> same_number(8.0, 8), same_number(None, 0), same_number(1.0, True)
    (True, False, False)
    """
    if expected is None or got is None:
        return expected is got
    return not isinstance(got, bool) and isinstance(got, int | float) and got == expected

