"""Check 05.plan_wait: how long to wait before retrying a failed model call, or None.

No randomness here: the exercise leaves jitter out (the library adds it), so
every case has one right answer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import exercise
from ..framework import Case
from ..generated import Comparison, Draw, call_text
from .faults import Diagnosed, Fault

GENERATED = "agrees with the answer key on generated inputs"
RULES = {
    "Every other status is never retried": ("404 is not retried", "401 is not retried",
                                            "400 is not retried", "403 is not retried", GENERATED),
    "a time-out (`status=None`), a 408, a 409, a 429 or a 5xx is retried": (
        "a time-out is retried", "429: first retry waits 0.5 s", "503 is retried",
        "any 5xx is retried, 529 too", "409 is retried", GENERATED),
    'a 429 whose `code` is `"insufficient_quota"`': ("a quota 429 is not retried",),
    "0.5 s before the first retry, doubling with each attempt": (
        "429: first retry waits 0.5 s", "third retry waits 2 s", "503 is retried"),
    "with no upper end": ("a large attempt waits 8 s", GENERATED),
    "never more than 8 s": ("the wait is capped at 8 s", "the cap comes before the time check",
                            GENERATED),
    "never less than the server's `Retry-After`": (
        "Retry-After of 3 s is honoured", "a short Retry-After does not shorten the back-off",
        "a Retry-After above the cap wins", GENERATED),
    "`None` when the wait would not end before the run's time runs out": (
        "no time left for the wait", "a wait equal to the time left is too long",
        "a Retry-After past the time left", GENERATED),
}


def _test(expected: float | None):
    def test(got: Any) -> bool | str:
        if expected is None:
            return got is None or f"expected None (do not retry), got {got!r}"
        if isinstance(got, bool) or not isinstance(got, int | float):
            return f"expected a number of seconds, got {got!r}"
        return abs(got - expected) < 1e-9 or f"expected a wait of {expected} s, got {got!r}"
    return test


def _case(plan_wait: Callable, name: str, args: tuple, expected: float | None, hint: str) -> Case:
    status, attempt, after, left, *code = args
    shown = f", code={code[0]!r}" if code else ""
    given = f"plan_wait(status={status}, attempt={attempt}, retry_after={after}, remaining={left}{shown})"
    return Case(name, lambda: plan_wait(*args), test=_test(expected), expected=expected, given=given,
                hint=hint)


@exercise(
    "05.plan_wait",
    "how long to wait before retrying a failed model call",
    hints=(
        "First decide whether to retry at all: None (a time-out), 408, 409, 429 (unless its code "
        "is 'insufficient_quota') and 500-599 are retried; every other status returns None.",
        "wait = min(8, 0.5 * 2 ** (attempt - 1)) (for a large attempt, 8 without computing the power); "
        "then wait = max(wait, retry_after or 0).",
        "Last: if wait >= remaining, return None (the run would end while we wait).",
    ),
    rules=RULES,
)
def plan_wait_cases(plan_wait: Callable):
    yield _case(plan_wait, "429: first retry waits 0.5 s", (429, 1, None, 60), 0.5,
                "The first retry waits the base, 0.5 s.")
    yield _case(plan_wait, "a time-out is retried", (None, 2, None, 60), 1.0,
                "status=None is a time-out: retry it like a 429.")
    yield _case(plan_wait, "503 is retried", (503, 2, None, 60), 1.0,
                "A 5xx may pass: the second retry waits 1 s.")
    yield _case(plan_wait, "third retry waits 2 s", (500, 3, None, 60), 2.0,
                "0.5 * 2 ** (attempt - 1): 0.5, 1, 2, 4, 8.")
    yield _case(plan_wait, "the wait is capped at 8 s", (429, 7, None, 60), 8.0,
                "Cap it: attempt 7 would be 32 s without the cap.")
    yield _case(plan_wait, "a large attempt waits 8 s", (503, 2000, None, 60), 8.0,
                "Cap before you compute: 0.5 * 2 ** 1999 does not fit in a float.")
    yield _case(plan_wait, "any 5xx is retried, 529 too", (529, 1, None, 60), 0.5,
                "Every status from 500 to 599 is retried: 500 <= status <= 599, not a list of a few.")
    yield _case(plan_wait, "the cap comes before the time check", (429, 7, None, 20), 8.0,
                "Cap the wait at 8 s first, then compare it with the time left: 8 s fit in 20 s.")
    yield from _status_cases(plan_wait)
    yield from _wait_cases(plan_wait)
    yield COMPARISON.case(plan_wait)


def _status_cases(plan_wait: Callable):
    """Which failures are retried at all."""
    yield _case(plan_wait, "404 is not retried", (404, 1, None, 60), None,
                "A missing model will still be missing: return None.")
    yield _case(plan_wait, "401 is not retried", (401, 1, None, 60), None,
                "A wrong key stays wrong: return None.")
    yield _case(plan_wait, "400 is not retried", (400, 1, None, 60), None,
                "A bad request stays bad: return None.")
    yield _case(plan_wait, "403 is not retried", (403, 1, None, 60), None,
                "Forbidden stays forbidden: every status not listed as retried returns None.")
    yield _case(plan_wait, "409 is retried", (409, 1, None, 60), 0.5,
                "A conflict may clear by itself: 409 is retried like a 429.")
    yield _case(plan_wait, "a quota 429 is not retried", (429, 1, 2.0, 60, "insufficient_quota"), None,
                "Out of credit is not a rate limit: waiting does not refill the account.")


def _wait_cases(plan_wait: Callable):
    """The server's Retry-After, and the time left in the run."""
    yield _case(plan_wait, "Retry-After of 3 s is honoured", (429, 1, 3.0, 60), 3.0,
                "The server said wait 3 s: wait at least that.")
    yield _case(plan_wait, "a short Retry-After does not shorten the back-off", (429, 3, 1.0, 60),
                2.0, "Take the larger of your back-off and the Retry-After.")
    yield _case(plan_wait, "a Retry-After above the cap wins", (429, 1, 12.0, 60), 12.0,
                "The cap limits your own back-off; the server's Retry-After is a floor above it.")
    yield _case(plan_wait, "no time left for the wait", (429, 4, None, 2.0), None,
                "A 4 s wait with 2 s left would outlive the run: return None.")
    yield _case(plan_wait, "a wait equal to the time left is too long", (503, 2, None, 1.0), None,
                "Waiting exactly the time left leaves nothing for the call: use >=.")
    yield _case(plan_wait, "a Retry-After past the time left", (429, 1, 30.0, 10.0), None,
                "The server asks for 30 s and 10 s are left: give up now, and say why.")


RETRIED = frozenset({408, 409, 429})


def key(status: int | None, attempt: int, retry_after: float | None, remaining: float,
        code: str | None = None) -> float | None:
    """The answer key. A large attempt is 8 s without computing 2 ** attempt (a float overflows)."""
    if status is not None and status not in RETRIED and not 500 <= status <= 599:
        return None
    if status == 429 and code == "insufficient_quota":
        return None
    wait = 8.0 if attempt > 5 else min(8.0, 0.5 * 2 ** (attempt - 1))
    wait = max(wait, retry_after or 0.0)
    return None if wait >= remaining else wait


STATUSES = (429, None, 503, 400, 401, 403, 404, 408, 409, 410, 422, 500, 502, 504, 529, 599, 418, 499)
CODES = (None, "rate_limit_exceeded", "insufficient_quota", "server_error")


def _inputs(draw: Draw) -> tuple:
    status = draw.pick(STATUSES)
    attempt = draw.pick((1, 2, 3, 4, 5, 6, 7, 30, 2000))
    after = draw.pick((None, 0, 0.5, 2.5, 3, 7.9, 8, 8.5, 12.25, 30, 3600))
    remaining = draw.pick((60, 0, 0.5, 1, 2.5, 3, 7.99, 8, 8.01, 12.25, 12.3))
    return status, attempt, after, remaining, draw.pick(CODES)


def _compare(args: tuple, expected: float | None, got: Any) -> bool | str:
    return _test(expected)(got)


def _backoff(attempt: int) -> float:
    return 8.0 if attempt > 5 else min(8.0, 0.5 * 2 ** (attempt - 1))


def _retried(status: int | None) -> bool:
    return status is None or status in RETRIED or 500 <= status <= 599


FAULTS = (
    Fault("Every other status is never retried", "a status that is never retried",
          lambda args, expected, got: not _retried(args[0]) and got is not None,
          "Only a time-out, 408, 409, 429 and 500 to 599 are retried; every other status returns None."),
    Fault('a 429 whose `code` is `"insufficient_quota"`', "a quota 429",
          lambda args, expected, got: args[0] == 429 and args[4] == "insufficient_quota",
          "A 429 whose code is 'insufficient_quota' is out of credit: return None."),
    Fault("a time-out (`status=None`), a 408, a 409, a 429 or a 5xx is retried", "a status that is retried",
          lambda args, expected, got: _retried(args[0]) and expected is not None and got is None
          and max(_backoff(args[1]), args[2] or 0) < args[3],
          "This status is retried and the wait fits in the time left: return the wait."),
    Fault("`None` when the wait would not end before the run's time runs out", "a wait that outlives the run",
          lambda args, expected, got: _retried(args[0]) and expected is None and got is not None,
          "A wait of the time left or more returns None (>=, and a time left of 0 is no time at all)."),
    Fault("never less than the server's `Retry-After`", "the Retry-After",
          lambda args, expected, got: args[2] is not None and args[2] > _backoff(args[1]),
          "The server's Retry-After is a floor, above the 8 s cap too; keep it as it is (no int())."),
    Fault("never more than 8 s", "the back-off", lambda args, expected, got: True,
          "0.5 * 2 ** (attempt - 1), at most 8 s, without computing a huge power for a large attempt."),
)

COMPARISON = Diagnosed(Comparison(
    "05.plan_wait", key, _inputs, _compare, call_text("plan_wait"),
    hint="Keep the Retry-After and the time left as they are (no int() or round()); compare the wait "
         "with the time left using >=; and a large attempt still waits 8 s."), FAULTS,
    raised="A large attempt: 0.5 * 2 ** (attempt - 1) is too large for a float; cap first (from "
           "attempt 5 on the wait is 8 s) instead of computing the power.")
