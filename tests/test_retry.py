"""Retries of failed model calls: which are retried, how long we wait, and that we stop in time.

The HTTP tests talk to a server on 127.0.0.1 that fails on purpose (429 with
Retry-After, 500, a reply slower than the client's time-out). Budgets are small,
and sleeping is recorded instead of done wherever the real wait is not the point.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from react_course.errors import LimitReached, ModelConfigError, ModelError
from react_course.guards import Budget, Limits
from react_course.retry import Backoff, call_with_retries, is_retryable, plan_wait, retry_after
from react_course.scripted_api.flaky import HttpModel, serve_flaky


class PretendClock:
    """A clock we move by hand: sleeping moves it, and nothing waits."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


class FakeBudget(Budget):
    """The real budget of a run, on a pretend clock: ``now`` is its time, and waits are not slept."""

    def __init__(self, seconds: float | None = 10.0, max_failures: int = 3) -> None:
        self.pretend = PretendClock()
        super().__init__(Limits(max_seconds=seconds, max_model_errors=max_failures),
                         clock=self.pretend, sleep=self.pretend.sleep)

    @property
    def now(self) -> float:
        return self.pretend.now


def failing(*errors, then="ok"):
    queue = list(errors)

    def call():
        if queue:
            raise queue.pop(0)
        return then
    return call


def test_retryable_and_not() -> None:
    assert is_retryable(ModelError("x", status=429))
    assert is_retryable(ModelError("x", status=503))
    assert is_retryable(TimeoutError())
    for status in (400, 401, 404):
        assert not is_retryable(ModelError("x", status=status))
    assert not is_retryable(ModelConfigError("bad key"))


def test_backoff_doubles_is_capped_and_jittered_within_bounds() -> None:
    rng = random.Random(1)
    b = Backoff(base=0.5, factor=2, cap=4, jitter=0.5)
    for attempt, top in [(1, 0.5), (2, 1.0), (3, 2.0), (4, 4.0), (9, 4.0)]:
        wait = b.delay(attempt, rng)
        assert top * 0.5 <= wait <= top


def test_jitter_is_seeded() -> None:
    b = Backoff()
    assert [b.delay(n, random.Random(7)) for n in range(1, 5)] == [
        b.delay(n, random.Random(7)) for n in range(1, 5)]


def test_retry_after_is_honoured() -> None:
    error = ModelError("slow down", status=429)
    error.retry_after = "3"
    assert retry_after(error) == 3.0
    assert plan_wait(error, 1, 10, Backoff(jitter=0), random.Random(0)) == 3.0


def test_success_after_two_failures_waits_and_resets() -> None:
    budget = FakeBudget()
    call = failing(ModelError("busy", status=503), TimeoutError("slow"))
    assert call_with_retries(call, budget, backoff=Backoff(jitter=0), sleep=budget.sleep) == "ok"
    assert budget.now == 0.5 + 1.0 and budget.failures_in_a_row == 0


def test_not_retryable_ends_at_once_with_the_reason() -> None:
    budget = FakeBudget()
    with pytest.raises(LimitReached) as ended:
        call_with_retries(failing(ModelError("no such model", status=404)), budget, sleep=budget.sleep)
    assert ended.value.end_reason == "error"
    assert "404" in ended.value.detail and "not retried" in ended.value.detail
    assert budget.now == 0


def test_cap_on_failures_in_a_row_ends_with_error() -> None:
    budget = FakeBudget(max_failures=3)
    errors = [ModelError("busy", status=500)] * 5
    with pytest.raises(LimitReached) as ended:
        call_with_retries(failing(*errors), budget, backoff=Backoff(jitter=0), sleep=budget.sleep)
    assert ended.value.end_reason == "error" and "3 times in a row" in ended.value.detail


def test_a_wait_past_the_time_left_ends_with_time_limit() -> None:
    budget = FakeBudget(seconds=2.0, max_failures=10)
    error = ModelError("slow down", status=429)
    error.retry_after = "30"
    with pytest.raises(LimitReached) as ended:
        call_with_retries(failing(error), budget, sleep=budget.sleep)
    assert ended.value.end_reason == "time_limit" and "30.0 s" in ended.value.detail
    assert budget.now == 0  # it did not wait at all


@settings(max_examples=60, deadline=None)
@given(statuses=st.lists(st.sampled_from([429, 500, 503, 0]), min_size=0, max_size=12),
       seconds=st.floats(0.5, 20), max_failures=st.integers(1, 6), seed=st.integers(0, 99))
def test_back_off_never_passes_the_budget(statuses, seconds, max_failures, seed) -> None:
    """Whatever fails, the total wait stays under the run's time, and the ending says why."""
    budget = FakeBudget(seconds=seconds, max_failures=max_failures)
    errors = [TimeoutError("slow") if s == 0 else ModelError("x", status=s) for s in statuses]
    try:
        result = call_with_retries(failing(*errors), budget, rng=random.Random(seed), sleep=budget.sleep)
    except LimitReached as ended:
        assert ended.end_reason in ("error", "time_limit")
        assert ended.detail
    else:
        assert result == "ok"
    assert budget.now < seconds
    assert budget.failures_in_a_row <= max_failures


# --------------------------------------------------------------- against real HTTP


def test_http_429_with_retry_after_then_success() -> None:
    with serve_flaky([(429, 0.05), 500, "Final Answer: 42"]) as server:
        budget = FakeBudget(seconds=5)
        waits: list[float] = []
        model = HttpModel(server.url, timeout=1)
        reply = call_with_retries(lambda: model("q"), budget, backoff=Backoff(base=0.01, jitter=0),
                                  sleep=waits.append)
        assert reply == "Final Answer: 42"
        assert waits == [0.05, 0.02]  # Retry-After honoured, then the back-off's second step
        assert server.served == 3


def test_http_time_outs_end_the_run_with_error_and_why() -> None:
    with serve_flaky([("slow", 0.5)]) as server:
        budget = FakeBudget(seconds=5, max_failures=2)
        model = HttpModel(server.url, timeout=0.1)
        with pytest.raises(LimitReached) as ended:
            call_with_retries(lambda: model("q"), budget, backoff=Backoff(base=0.01), sleep=budget.sleep)
        assert ended.value.end_reason == "error"
        assert "TimeoutError" in ended.value.detail


def test_http_retry_after_longer_than_the_run_is_not_waited() -> None:
    with serve_flaky([(429, 60)]) as server:
        budget = FakeBudget(seconds=1, max_failures=5)
        model = HttpModel(server.url, timeout=1)
        with pytest.raises(LimitReached) as ended:
            call_with_retries(lambda: model("q"), budget, sleep=budget.sleep)
        assert ended.value.end_reason == "time_limit"
        assert "429" in ended.value.detail and budget.now == 0


def test_http_401_is_not_retried() -> None:
    with serve_flaky([401, "never reached"]) as server:
        budget = FakeBudget()
        model = HttpModel(server.url, timeout=1)
        with pytest.raises(LimitReached) as ended:
            call_with_retries(lambda: model("q"), budget, sleep=budget.sleep)
        assert "401" in ended.value.detail and server.served == 1


# ------------------------------------------------------ the same servers behind run_react


@pytest.fixture
def quick_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    """Budgets made by run_react back off from 10 ms instead of 0.5 s (keeps the tests fast)."""
    monkeypatch.setenv("REACT_COURSE_BACKOFF", "0.01")


ANSWER = "Thought: I know this.\nFinal Answer: A pen costs 2."


def test_run_retries_a_500_and_a_429_then_answers(quick_backoff) -> None:
    import react_course as rc

    with serve_flaky([500, (429, 0.05), ANSWER]) as server:
        result = rc.run_react("What does a pen cost?", HttpModel(server.url), rc.shop_tools(), max_seconds=5)
    assert result.end_reason == "final_answer" and result.model_calls == 3
    assert [s.error for s in result.steps] == ["model_error", "model_error", None]


def test_run_ends_with_error_and_why_after_failures_in_a_row(quick_backoff) -> None:
    import react_course as rc

    with serve_flaky([503]) as server:
        result = rc.run_react("What does a pen cost?", HttpModel(server.url), rc.shop_tools(),
                              max_seconds=5, max_model_errors=3)
    assert result.end_reason == "error" and "3 times in a row" in result.detail and "503" in result.detail
    assert server.served == 3


def test_run_ends_with_time_limit_when_retry_after_outlives_it(quick_backoff) -> None:
    import react_course as rc

    with serve_flaky([(429, 30), ANSWER]) as server:
        result = rc.run_react("What does a pen cost?", HttpModel(server.url), rc.shop_tools(), max_seconds=2)
    assert result.end_reason == "time_limit"
    assert "429" in result.detail and "30.0 s" in result.detail
    assert server.served == 1


def test_run_does_not_retry_a_404(quick_backoff) -> None:
    import react_course as rc

    with serve_flaky([404, ANSWER]) as server:
        result = rc.run_react("What does a pen cost?", HttpModel(server.url), rc.shop_tools(), max_seconds=5)
    assert result.end_reason == "error" and "cannot help" in result.detail and server.served == 1


def test_run_time_outs_stay_within_the_run_budget(quick_backoff) -> None:
    import react_course as rc

    with serve_flaky([("slow", 1.0)]) as server:
        result = rc.run_react("What does a pen cost?", HttpModel(server.url, timeout=5), rc.shop_tools(),
                              max_seconds=0.5, max_model_errors=5)
    # the run's clock (0.5 s), not the client's 5 s time-out, bounded the call in flight
    assert result.end_reason == "time_limit" and "still running" in result.detail


QUOTA_BODY = {"message": "You exceeded your current quota, please check your plan and billing details.",
              "type": "insufficient_quota", "param": None, "code": "insufficient_quota"}


def test_a_quota_429_is_never_retried_a_rate_limit_429_is() -> None:
    quota = ModelError("HTTP 429: out of quota", status=429, code="insufficient_quota")
    assert not is_retryable(quota) and is_retryable(ModelError("HTTP 429: slow down", status=429))
    assert not is_retryable(ModelError("HTTP 429: {'code': 'insufficient_quota'}", status=429))
    said = plan_wait(quota, 1, 60, Backoff(), random.Random(0))
    assert said.startswith("not retried: 429 insufficient_quota") and "no wait clears" in said
    budget = FakeBudget(seconds=60)
    with pytest.raises(LimitReached) as ended:
        call_with_retries(failing(quota), budget, rng=random.Random(0), sleep=budget.sleep)
    assert ended.value.end_reason == "error" and budget.failures_in_a_row == 1 and budget.now == 0


def test_the_sdks_quota_error_is_explained_and_not_retried() -> None:
    import httpx2  # what openai 3.x is built on (not httpx)
    import openai

    from react_course.backends.api_errors import explain

    request = httpx2.Request("POST", "http://127.0.0.1:9/v1/chat/completions")
    response = httpx2.Response(429, request=request, json={"error": QUOTA_BODY})
    sdk_error = openai.RateLimitError("Error code: 429", response=response, body=QUOTA_BODY)
    assert not is_retryable(sdk_error)
    error = explain(sdk_error, "http://127.0.0.1:9/v1")
    assert not is_retryable(error) and error.code == "insufficient_quota" and error.status == 429
    assert "Waiting will not help" in str(error) and "billing" in str(error)
    assert not is_retryable(explain(error, "http://127.0.0.1:9/v1"))  # explained twice: still final


def test_a_run_stops_at_the_first_quota_429() -> None:
    import react_course as rc

    calls = []

    def out_of_credit(prompt, stop=None):
        calls.append(prompt)
        raise ModelError("HTTP 429: You exceeded your current quota", status=429, code="insufficient_quota")

    result = rc.run_react("What does a pen cost?", out_of_credit, rc.shop_tools(), max_model_errors=3)
    assert result.end_reason == "error" and len(calls) == 1 and "cannot help" in result.detail
