"""05.plan_wait as a spec: how long to wait before retrying a failed model call, or None.

No randomness: the exercise leaves jitter out (the library adds it), so every input has
one right answer. The key is here: the library's retry path (``retry.Backoff``,
``retry.is_retryable``) works on raised errors and draws jitter, where the exercise
takes plain numbers. Generated inputs: every status the statement names and others from
400 to 599, attempts from 1 to 2000, Retry-After and time left at the edges (0, just
under, at and over 8 s, and fractions that ``int()`` or ``round()`` would change).
"""

from __future__ import annotations

from typing import Any

from ..generated import Draw
from ..plain import Raised
from ..predicates import close_to
from ..spec import GENERATED, Example, Fault, Rule, Spec, define

RETRIED = frozenset({408, 409, 429})


def _retried(status: int | None) -> bool:
    return status is None or status in RETRIED or 500 <= status <= 599


def _backoff(attempt: int) -> float:
    """0.5 s doubling, capped at 8 s, without computing 2 ** attempt for a large one (a float overflows)."""
    return 8.0 if attempt > 5 else min(8.0, 0.5 * 2 ** (attempt - 1))


def key(status: int | None, attempt: int, retry_after: float | None, remaining: float,
        code: str | None = None) -> float | None:
    """The answer key."""
    if not _retried(status) or (status == 429 and code == "insufficient_quota"):
        return None
    wait = max(_backoff(attempt), retry_after or 0.0)
    return None if wait >= remaining else wait


def compare(args: tuple, want: float | None, got: Any) -> bool | str:
    if want is None:
        return got is None or f"expected None (do not retry), got {got!r}"
    return close_to(got, want) or f"expected a wait of {want} s, got {got!r}"


def _cut(change: Any, at: int) -> Any:
    """A wrong solution: the key with one argument changed first (``int`` of the time left, ...)."""
    def wrong(*args: Any) -> Any:
        given = list(args)
        given[at] = change(given[at]) if given[at] is not None else None
        return key(*given)
    return wrong


NEVER = "Every other status is never retried"
RETRY = "a time-out (`status=None`), a 408, a 409, a 429 or a 5xx is retried"
QUOTA = 'a 429 whose `code` is `"insufficient_quota"`'
DOUBLING = "0.5 s before the first retry, doubling with each attempt"
CAP = "never more than 8 s"
AFTER = "never less than the server's `Retry-After`"
IN_TIME = "`None` when the wait would not end before the run's time runs out"

FAULTS = (
    Fault(NEVER, "Only a time-out, 408, 409, 429 and 500 to 599 are retried; every other status returns None "
          "(None itself, not 0).", found=lambda args, want, got: not _retried(args[0]) and got is not None),
    Fault(QUOTA, "A 429 whose code is 'insufficient_quota' is out of credit: return None.",
          found=lambda args, want, got: args[0] == 429 and args[4:5] == ("insufficient_quota",)),
    Fault(CAP, "Cap the wait at 8 s first, then compare it with the time left.",
          found=lambda args, want, got: got is None and want is not None and 0.5 * 2.0 ** min(
              args[1] - 1, 60) >= args[3] > 8),
    Fault(IN_TIME, "Keep the time left as it is (no int() or round()): a wait of 8 s fits in 8.01 s.",
          found=lambda args, want, got: got == _cut(int, 3)(*args) or got == _cut(round, 3)(*args)),
    Fault(AFTER, "Keep the server's Retry-After as it is: no int() or round().",
          found=lambda args, want, got: got in (_cut(int, 2)(*args), _cut(round, 2)(*args))),
    Fault(RETRY, "This status is retried and the wait fits in the time left: return the wait.",
          found=lambda args, want, got: want is not None and got is None),
    Fault(IN_TIME, "A wait of the time left or more returns None (>=; a time left of 0 is no time at all).",
          found=lambda args, want, got: want is None and got is not None),
    Fault("with no upper end", "A large attempt: 0.5 * 2 ** (attempt - 1) is too large for a float; cap "
          "first (from attempt 5 on the wait is 8 s) instead of computing the power.",
          found=lambda args, want, got: isinstance(got, Raised)),
    Fault(AFTER, "The server's Retry-After is a floor, above the 8 s cap too, and your back-off still "
          "counts when it asks for less: max(wait, retry_after).",
          found=lambda args, want, got: args[2] is not None),
    Fault(CAP, "The back-off stops growing at 8 s.",
          found=lambda args, want, got: close_to(got, 0.5 * 2.0 ** min(args[1] - 1, 60))),
    Fault(DOUBLING, "0.5 * 2 ** (attempt - 1): 0.5, 1, 2, 4, 8.", found=lambda args, want, got: True),
)


EXAMPLES = tuple(Example(name, args, hint) for name, args, hint in (
    ("429: first retry waits 0.5 s", (429, 1, None, 60), "The first retry waits the base, 0.5 s."),
    ("a time-out is retried", (None, 2, None, 60), "status=None is a time-out: retry it like a 429."),
    ("503 is retried", (503, 2, None, 60), "A 5xx may pass: the second retry waits 1 s."),
    ("third retry waits 2 s", (500, 3, None, 60), "0.5 * 2 ** (attempt - 1): 0.5, 1, 2, 4, 8."),
    ("the wait is capped at 8 s", (429, 7, None, 60), "Cap it: attempt 7 would be 32 s without the cap."),
    ("a large attempt waits 8 s", (503, 2000, None, 60),
     "Cap before you compute: 0.5 * 2 ** 1999 does not fit in a float."),
    ("any 5xx is retried, 529 too", (529, 1, None, 60),
     "Every status from 500 to 599 is retried: 500 <= status <= 599, not a list of a few."),
    ("the cap comes before the time check", (429, 7, None, 20),
     "Cap the wait at 8 s first, then compare it with the time left: 8 s fit in 20 s."),
    ("404 is not retried", (404, 1, None, 60), "A missing model will still be missing: return None."),
    ("401 is not retried", (401, 1, None, 60), "A wrong key stays wrong: return None."),
    ("400 is not retried", (400, 1, None, 60), "A bad request stays bad: return None."),
    ("403 is not retried", (403, 1, None, 60),
     "Forbidden stays forbidden: every status not listed as retried returns None."),
    ("409 is retried", (409, 1, None, 60), "A conflict may clear by itself: 409 is retried like a 429."),
    ("a quota 429 is not retried", (429, 1, 2.0, 60, "insufficient_quota"),
     "Out of credit is not a rate limit: waiting does not refill the account."),
    ("Retry-After of 3 s is honoured", (429, 1, 3.0, 60), "The server said wait 3 s: wait at least that."),
    ("a short Retry-After does not shorten the back-off", (429, 3, 1.0, 60),
     "Take the larger of your back-off and the Retry-After."),
    ("a Retry-After above the cap wins", (429, 1, 12.0, 60),
     "The cap limits your own back-off; the server's Retry-After is a floor above it."),
    ("no time left for the wait", (429, 4, None, 2.0),
     "A 4 s wait with 2 s left would outlive the run: return None."),
    ("a wait equal to the time left is too long", (503, 2, None, 1.0),
     "Waiting exactly the time left leaves nothing for the call: use >=."),
    ("a Retry-After past the time left", (429, 1, 30.0, 10.0),
     "The server asks for 30 s and 10 s are left: give up now, and say why."),
))
HIDDEN = tuple(Example(name, args, hint) for name, args, hint in (
    ("hidden: 599 is retried", (599, 4, None, 60), "500 to 599, both ends."),
    ("hidden: a quota code on a 503", (503, 1, None, 60, "insufficient_quota"), "Only a 429's quota code."),
    ("hidden: no time at all", (None, 1, None, 0), "A time left of 0 is no time."),
    ("hidden: Retry-After of 7.5 s", (408, 1, 7.5, 7.6), "The Retry-After as it is."),
))

STATUSES = (429, None, 503, 400, 401, 403, 404, 408, 409, 410, 422, 500, 502, 504, 529, 599, 418, 499)
CODES = (None, "rate_limit_exceeded", "insufficient_quota", "server_error")


def _inputs(draw: Draw) -> tuple:
    status = draw.pick(STATUSES)
    attempt = draw.pick((1, 2, 3, 4, 5, 6, 7, 30, 2000))
    after = draw.pick((None, 0, 0.5, 2.5, 3, 7.9, 8, 8.5, 12.25, 30, 3600))
    remaining = draw.pick((60, 0, 0.5, 1, 2.5, 3, 7.99, 8, 8.01, 12.25, 12.3))
    return status, attempt, after, remaining, draw.pick(CODES)


def _fits(args: tuple) -> bool:
    return key(*args) is not None


RULES = (
    Rule(NEVER, ("404 is not retried", "401 is not retried", "400 is not retried", "403 is not retried",
                 GENERATED), edge=lambda a: not _retried(a[0]) and a[0] not in (400, 401, 403, 404, 422)),
    Rule(RETRY, ("a time-out is retried", "429: first retry waits 0.5 s", "503 is retried",
                 "any 5xx is retried, 529 too", "409 is retried", GENERATED),
         edge=lambda a: a[0] in (None, 408, 599) and _fits(a)),
    Rule(QUOTA, ("a quota 429 is not retried",), edge=lambda a: a[0] == 429 and a[4] == "insufficient_quota"),
    Rule(DOUBLING, ("429: first retry waits 0.5 s", "third retry waits 2 s", "503 is retried"),
         edge=lambda a: _fits(a) and a[1] == 4 and key(*a) == 4.0),
    Rule("with no upper end", ("a large attempt waits 8 s", GENERATED),
         edge=lambda a: a[1] >= 2000 and _fits(a)),
    Rule(CAP, ("the wait is capped at 8 s", "the cap comes before the time check", GENERATED),
         edge=lambda a: _fits(a) and a[1] > 5 and key(*a) == 8.0 and a[3] < 32),
    Rule(AFTER, ("Retry-After of 3 s is honoured", "a short Retry-After does not shorten the back-off",
                 "a Retry-After above the cap wins", GENERATED),
         edge=lambda a: _fits(a) and (a[2] or 0) > 8 and a[2] != int(a[2])),
    Rule(IN_TIME, ("no time left for the wait", "a wait equal to the time left is too long",
                   "a Retry-After past the time left", GENERATED),
         edge=lambda a: _retried(a[0]) and a[4] != "insufficient_quota"
         and max(_backoff(a[1]), a[2] or 0) == a[3]),
)

SPEC = define(Spec(
    "05.plan_wait", "how long to wait before retrying a failed model call", "plan_wait", key, EXAMPLES,
    _inputs, RULES, faults=FAULTS, hidden=HIDDEN, compare=compare,
    hints=(
        "First decide whether to retry at all: None (a time-out), 408, 409, 429 (unless its code is "
        "'insufficient_quota') and 500-599 are retried; every other status returns None.",
        "wait = min(8, 0.5 * 2 ** (attempt - 1)) (for a large attempt, 8 without computing the power); then "
        "wait = max(wait, retry_after or 0).",
        "Last: if wait >= remaining, return None (the run would end while we wait).",
    ),
    generated_hint="Keep the Retry-After and the time left as they are (no int() or round()); compare the "
                   "wait with the time left using >=; and a large attempt still waits 8 s."))
__all__ = ["SPEC", "key"]
