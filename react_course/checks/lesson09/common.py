"""What lesson 09's checkers share: a seeded comparison with the answer key.

Hand-written cases end where their author's imagination ends. ``against_key``
calls the student's function and the answer key on seeded generated inputs
over the space the statement allows, and fails with the *smallest* input on
which they differ (smallest by the given size), so the feedback is an example
a student can work through by hand. Seeded: the verdict is the same every run.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable
from typing import Any

from ..framework import Case


def first_difference(student: Callable[..., Any], key: Callable[..., Any], inputs: Iterable[tuple],
                     size: Callable[[tuple], Any], same: Callable[[Any, Any], bool]) -> str | None:
    """The smallest input on which the two functions differ, described; None when none does."""
    differing = []
    for args in inputs:
        want = key(*args)
        try:
            got = student(*args)
        except NotImplementedError:
            raise
        except Exception as error:  # shown as a difference, not a crash of the check
            got = f"raised {type(error).__name__}: {error}"
        if not same(got, want):
            differing.append((size(args), repr(args), args, got, want))
    if not differing:
        return None
    _, _, args, got, want = min(differing, key=lambda d: (d[0], d[1]))
    shown = ", ".join(repr(a) for a in args)
    return f"on ({shown}) the answer key gives {want!r}, yours gave {got!r}"


def against_key(name: str, student: Callable[..., Any], key: Callable[..., Any],
                generate: Callable[[random.Random], tuple], *, count: int = 300, seed: int = 9,
                size: Callable[[tuple], Any] = lambda args: len(repr(args)),
                same: Callable[[Any, Any], bool] = lambda got, want: got == want, hint: str = "") -> Case:
    """A case: ``count`` seeded inputs from ``generate``, compared with the answer key."""
    rng = random.Random(seed)
    inputs = [generate(rng) for _ in range(count)]
    return Case(name, lambda: first_difference(student, key, inputs, size, same),
                test=lambda found: True if found is None else f"differs from the answer key {found}",
                given=f"{count} generated inputs (seed {seed})", hint=hint,
                show=lambda found: "no difference" if found is None else found)


def close_to(got: object, want: float) -> bool:
    """A number (not a bool) equal to ``want`` up to float rounding."""
    return (
        isinstance(got, int | float) and not isinstance(got, bool) and math.isclose(got, want, abs_tol=1e-9)
    )


def rate_case(name: str, run: Callable[[], object], want: float, given: str, hint: str) -> Case:
    """A case whose answer is a rate: right when ``close_to`` the answer key's."""
    return Case(
        name,
        run,
        test=lambda got: close_to(got, want) or f"expected {want!r}, got {got!r}",
        given=given,
        hint=hint,
    )
