"""Retrying a failed model call: which failures, how long to wait, when to give up.

A model call can fail for reasons that pass (a time-out, HTTP 429 "slow
down", a 5xx server error) and for reasons that do not (400 bad request, 401
bad key, 404 no such model, and a 429 whose code is ``insufficient_quota``:
the account is out of credit or at its spending limit, which no wait clears).
The first kind is retried with exponential back-off and jitter, honouring
the server's ``Retry-After``; the second is not retried at all. Every wait
must fit in what is left of the run's time: a back-off that outlives the
run's budget ends the run instead, saying why.

The ``openai`` SDK retries on its own, every 429 alike, the quota one
included (``sdk_retry_defaults`` reads what the installed SDK does): one reason
the course turns the SDK's retries off and keeps one retry path.

The model is *not* told about a failed call. It never saw the request fail:
the next attempt sends the same prompt, and a note about a 503 would only
cost tokens and invite the model to apologise for something it did not do.
The record keeps every failure for the person reading the trace.

The loop retries by making each attempt a step of its own: before a call
that follows a failure, ``wait_before_retry`` waits the back-off, inside the
run's time. ``call_with_retries`` is the same path for one call on its own
(lesson 05 uses it with a pretend clock), over the same ``guards.Budget``.
A time-out is one more case: a server that serves one request at a time is
still working on the abandoned request, so the call after it first waits for
the server to be free (``wait_for_server``). ``is_call_failure`` tells a failed
call (retried) from a bug in the program (raised).

What it leaves out: circuit breakers shared between runs, and switching to a
fallback model.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .backends.api_errors import tagged
from .errors import LimitReached, ModelConfigError, ModelError, final_code
from .record import Usage

RETRY_STATUSES = frozenset({408, 409, 429, 500, 502, 503, 504})
NEVER_RETRY = frozenset({400, 401, 403, 404, 422})


@dataclass(frozen=True)
class Backoff:
    """Exponential back-off with jitter: ``base * factor ** (attempt - 1)``, capped, then jittered."""

    base: float = 0.5
    factor: float = 2.0
    cap: float = 8.0
    jitter: float = 0.5  # the wait is drawn from [delay * (1 - jitter), delay]

    def delay(self, attempt: int, rng: random.Random) -> float:
        """The wait before retry number ``attempt`` (1 = the first retry).

        >>> b = Backoff(jitter=0)
        >>> [b.delay(n, random.Random(0)) for n in (1, 2, 3, 6)]
        [0.5, 1.0, 2.0, 8.0]
        """
        top = min(self.cap, self.base * self.factor ** (attempt - 1))
        return top * (1 - self.jitter * rng.random())


BACKOFF_VAR = "REACT_COURSE_BACKOFF"  # seconds before a run's first retry


def default_backoff() -> Backoff:
    """A run's back-off: 0.5 s before the first retry, doubling to 8 s at most.

    ``REACT_COURSE_BACKOFF`` sets the first wait (the cap stays 16 times it): a room
    sharing one slow server may want longer waits; tests, where waiting is not the
    point, use a short one.

    >>> default_backoff().base, default_backoff().cap
    (0.5, 8.0)
    """
    from .backends.model_settings import setting

    base = setting(BACKOFF_VAR, 0.5)
    return Backoff(base=base, cap=16 * base)


def status_of(error: BaseException) -> int | None:
    """The HTTP status of a failed call, when there was one."""
    for name in ("status", "status_code", "code"):
        value = getattr(error, name, None)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


def sdk_retry_defaults() -> dict[str, Any]:
    """What the installed ``openai`` SDK retries on its own, read from the SDK itself.

    Read from ``openai._constants`` and ``_base_client.BaseClient._should_retry``
    (openai 3.57, read on 1 December 2026): two retries by default, waits from 0.5 s
    doubling to 8 s, on 408, 409, 429, any 5xx, time-outs and dropped connections,
    unless the server sends ``x-should-retry: false`` or a ``Retry-After`` over 120 s.
    The statuses are the SDK's rule, copied here as data (it has no list to import).
    """
    import openai
    from openai import _constants

    return {"openai": openai.__version__, "max_retries": _constants.DEFAULT_MAX_RETRIES,
            "first_wait": _constants.INITIAL_RETRY_DELAY, "longest_wait": _constants.MAX_RETRY_DELAY,
            "statuses": "408, 409, 429, 500 and above", "also": "time-outs, dropped connections",
            "longest_retry_after": _constants.MAX_RETRY_AFTER_DELAY}


def is_retryable(error: BaseException) -> bool:
    """Can asking again help?

    >>> is_retryable(ModelError("busy", status=429)), is_retryable(ModelError("no", status=404))
    (True, False)
    >>> is_retryable(TimeoutError("slow")), is_retryable(ModelError("full", status=500, retryable=False))
    (True, False)
    >>> is_retryable(ModelError("out of credit", status=429, code="insufficient_quota"))
    False
    """
    if isinstance(error, ModelConfigError) or (isinstance(error, ModelError) and not error.retryable):
        return False  # the library already knows: a full context window, a refused request's shape
    if final_code(error):
        return False  # a quota 429: the account is out of credit, which no wait clears
    status = status_of(error)
    if status is not None:
        return status in RETRY_STATUSES or (status >= 500 and status not in NEVER_RETRY)
    if isinstance(error, ModelError):
        return error.retryable
    return isinstance(error, TimeoutError | ConnectionError | OSError)


def retry_after(error: BaseException) -> float | None:
    """Seconds the server asked us to wait (a ``Retry-After`` header in seconds), if any."""
    value = getattr(error, "retry_after", None)
    if value is None:
        headers = getattr(getattr(error, "response", None), "headers", None) or getattr(
            error, "headers", None) or {}
        value = headers.get("retry-after") or headers.get("Retry-After")
    try:
        return max(0.0, float(value)) if value is not None else None
    except (TypeError, ValueError):  # an HTTP date: not worth parsing here, use our own back-off
        return None


def plan_wait(error: BaseException, attempt: int, remaining: float | None,
              backoff: Backoff, rng: random.Random) -> float | str:
    """Seconds to wait before retry ``attempt``, or the reason not to retry.

    >>> plan_wait(ModelError("x", status=429), 1, 10, Backoff(jitter=0), random.Random(0))
    0.5
    >>> plan_wait(ModelError("x", status=401), 1, 10, Backoff(), random.Random(0))
    'not retried: status 401 will not change on a second try'
    """
    if not is_retryable(error):
        status, code = status_of(error), final_code(error)
        if code:
            return (f"not retried: {status or 'the error'} {code} means the account is out of credit or "
                    "at its spending limit, which no wait clears")
        what = f"status {status}" if status else type(error).__name__
        return f"not retried: {what} will not change on a second try"
    wait = max(backoff.delay(attempt, rng), retry_after(error) or 0.0)
    if remaining is not None and wait >= remaining:
        return f"not retried: waiting {wait:.1f} s would pass the run's time limit ({remaining:.1f} s left)"
    return wait


def call_with_retries(call: Callable[[], Any], budget: Any, *, backoff: Backoff | None = None,
                      rng: random.Random | None = None, sleep: Callable[[float], None] | None = None,
                      attempts: list[str] | None = None) -> Any:
    """``call()``, retried on failures that may pass, within ``budget`` (a ``guards.Budget``).

    The loop's own retry path, usable on its own: before each attempt after a failure,
    ``wait_before_retry`` waits the back-off (or ends the run, saying why); each failure
    is counted by the budget, whose ``max_model_errors`` caps failures in a row.
    ``backoff``, ``rng`` and ``sleep`` replace the budget's own (a lesson passes a
    pretend clock's sleep); ``attempts`` collects each failure's text for the record.
    """
    for name, value in (("backoff", backoff), ("rng", rng), ("sleep", sleep)):
        if value is not None:
            setattr(budget, name, value)
    while True:
        wait_before_retry(budget)
        try:
            result = call()
        except (ModelError, TimeoutError, ConnectionError, OSError) as error:
            if isinstance(error, ModelConfigError):
                raise
            budget.last_model_error = error
            budget.model_failed(Usage(), fatal=not is_retryable(error))
            if attempts is not None:
                attempts.append(f"{type(error).__name__}: {error}")
            budget.check_failures(f"{type(error).__name__}: {error}", fatal_ends=False)
        else:
            budget.after_call(Usage())
            return result


def wait_before_retry(budget: Any, sleep: Callable[[float], None] | None = None) -> float:
    """Before a model call that follows a failed one, wait the back-off; the loop's way to retry.

    Each failed attempt is a step of its own (so retries spend the step budget, and the
    trace shows them); ``budget`` remembers the last failure (``last_model_error``) and
    counts ``failures_in_a_row``. Returns the seconds waited. A failure that will not
    pass, or a wait that would outlive the run, raises ``LimitReached`` saying why.
    """
    error, attempt = budget.last_model_error, budget.failures_in_a_row
    if error is None or attempt == 0:
        return 0.0
    plan = plan_wait(error, attempt, budget.remaining_seconds(), budget.backoff, budget.rng)
    if isinstance(plan, str):
        reason = "time_limit" if "time limit" in plan else "error"
        raise LimitReached(reason, f"the last model call failed ({type(error).__name__}: {error}); {plan}")
    sleep = sleep or budget.sleep
    sleep(plan)
    budget.waited += plan
    return plan


def is_call_failure(error: BaseException) -> bool:
    """Did the call fail (the server, the network, the reply's shape), rather than the program?

    >>> is_call_failure(TimeoutError("slow")), is_call_failure(NameError("x"))
    (True, False)
    """
    if isinstance(error, ModelError | OSError | ValueError):  # ValueError: a reply that is not JSON
        return True
    if status_of(error) is not None:  # an HTTP status: the server answered, with a refusal
        return True
    openai = sys.modules.get("openai")  # only a real call can raise its errors, and imports it
    return openai is not None and isinstance(error, openai.OpenAIError)


def wait_for_server(client: Any, seconds: float, url: str, gave_up_after: float) -> float:
    """After a time-out, wait (at most ``seconds``) until the server takes a request again.

    A server that serves one request at a time keeps working on a request its client
    gave up on. llama-cpp-python answers ``GET /v1/models`` only between requests
    (its handler waits for the same lock as a completion: ``llama_cpp/server/app.py``,
    read on 1 December 2026), so that answer means the abandoned work is done; a server
    that answers it while it works (llama.cpp's own, Ollama, hosted APIs) answers at once.
    Returns the seconds waited; raises ``ModelError`` (not retryable) if still busy.
    """
    import openai

    began = time.monotonic()
    try:
        client.with_options(timeout=max(seconds, 0.1), max_retries=0).models.list()
    except openai.APITimeoutError:
        raise tagged(ModelError(
            f"{url} is still working on the call this run gave up on after {gave_up_after:.0f} s "
            f"(and did not take a request in {seconds:.0f} s more). A server that serves one request "
            "at a time finishes a request before it reads the next, so asking again would only "
            "queue behind it. Give each call longer (REACT_COURSE_TIMEOUT), or ask for less: a "
            "smaller model, a shorter output budget (REACT_COURSE_MAX_TOKENS), a smaller context.",
            retryable=False), "busy") from None
    except openai.OpenAIError:
        pass  # it answered (even with an error), or is down: the call itself will say which
    return time.monotonic() - began
