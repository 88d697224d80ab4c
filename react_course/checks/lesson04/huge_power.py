"""The case that sends ``9 ** 9 ** 9`` to exercise 4.3's calculator, in a separate process.

Computing that power would run inside one C call for hours, where no thread time
limit can stop it, so it goes only to a forked child process that is killed after
``CHILD_SECONDS`` (``_isolated.py``), and only after the calculator refused every
cheap probe it is given. Without ``os.fork`` (Windows, a browser tab) the case is
skipped, and its name says why.
"""

from __future__ import annotations

from collections.abc import Callable

from ... import browser
from ..framework import Case, describe
from . import _isolated

HUGE = "9 ** 9 ** 9"


def _is_error(got: object) -> bool:
    return isinstance(got, str) and got.startswith("Error:")


def huge_power_case(calculate: Callable, gate: dict[str, str]) -> Case:
    """The case for 9 ** 9 ** 9, run only after every probe of ``gate`` got its refusal."""
    if not _isolated.can_fork():
        # The student's function is still called once, on a sum, so that an unwritten one is
        # "not attempted" here as on a laptop, not passed by a case that never ran it.
        return Case(f"{HUGE} is refused ({_skipped()})", lambda: (calculate("1 + 1"), "skipped")[1],
                    test=lambda got: True, given=f"strict_calculate({HUGE!r})")
    return Case(f"{HUGE} is refused, not computed (run in a separate process)", _huge_power(calculate, gate),
                given=f"strict_calculate({HUGE!r}) in a separate process, after the cheap powers above "
                      "were refused",
                test=_huge_power_test, show=_show_huge_power, time_limit=_isolated.CHILD_SECONDS + 3,
                hint=f"{HUGE} is 9 ** 387420489: check the exponent before computing the power.")


def _skipped() -> str:
    """Why the case is not run here."""
    if browser.IN_BROWSER:
        return ("skipped in the browser: no separate process can start in a tab, so a computation stuck "
                "in one C call could not be stopped; the check runs it on a laptop")
    return "skipped: this platform cannot run it in a separate process"


def _huge_power(calculate: Callable, gate: dict[str, str]) -> Callable[[], tuple[str, str, str]]:
    def run() -> tuple[str, str, str]:
        for probe, word in gate.items():
            got = calculate(probe)
            if not (_is_error(got) and word in got.lower()):
                return ("not run", probe, describe(got, 80))
        kind, answer = _isolated.call_in_child(calculate, HUGE)
        return (kind, HUGE, answer)
    return run


def _huge_power_test(got: tuple[str, str, str]) -> bool | str:
    status, expression, answer = got
    if status == "not run":
        return (f"{HUGE} was NOT run: first, strict_calculate({expression!r}) returned {answer} instead "
                f"of the error the cases above ask for, so {HUGE} (about 370 million digits) could hang "
                "your calculator")
    if status == "timed out":
        return (f"no answer within {_isolated.CHILD_SECONDS:g} s, so the separate process was stopped: your "
                "calculator computes the power before it checks the caps")
    if status == "died":
        return "the separate process ended without an answer: strict_calculate must return a text"
    if status != "text":
        return f"strict_calculate({HUGE!r}) {_verb(status)} {answer}: return an error text"
    return (_is_error(answer) and "exponent" in answer.lower()) or (
        f"strict_calculate({HUGE!r}) returned {describe(answer, 80)}: refuse it with an error about the "
        "exponent")


def _show_huge_power(got: tuple[str, str, str]) -> str:
    status, expression, answer = got
    if status == "not run":
        return f"strict_calculate({expression!r}) returned {answer}; {HUGE} was not run"
    if status in ("timed out", "died"):
        return f"no answer from strict_calculate({HUGE!r})"
    return f"strict_calculate({HUGE!r}) {_verb(status)} {describe(answer, 120)}"


def _verb(status: str) -> str:
    return "raised" if status == "raised" else "returned"
