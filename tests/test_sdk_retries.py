"""Retries as the ``openai`` SDK does them, and the 429 that no retry can fix.

The SDK retries on its own (two retries by default, every 429 alike); the
course turns that off so that the run's budget is the one retry path. These
tests show both against a server on 127.0.0.1 that counts the requests it
was sent, and that an account with no quota (``insufficient_quota``) is never
asked again, by either path.
"""

from __future__ import annotations

import openai
import pytest

from react_course.backends.api_errors import explain
from react_course.errors import LimitReached, ModelError, final_code
from react_course.guards import Budget, Limits
from react_course.retry import call_with_retries, is_retryable, plan_wait, sdk_retry_defaults
from react_course.scripted_api.flaky import HttpModel, serve_flaky

QUOTA = ("quota", 0.01)  # a short Retry-After, so that the SDK's own retries take no time


def sdk_client(url: str, **options) -> openai.OpenAI:
    return openai.OpenAI(base_url=url.removesuffix("/complete"), api_key="test-key", timeout=2, **options)


def ask(client: openai.OpenAI) -> None:
    client.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}])


def test_the_installed_sdk_retries_twice_by_default() -> None:
    defaults = sdk_retry_defaults()
    assert defaults["openai"] == openai.__version__
    assert defaults["max_retries"] == 2 and defaults["first_wait"] == 0.5 and defaults["longest_wait"] == 8.0


def test_the_sdk_retries_even_the_quota_429_on_its_own() -> None:
    with serve_flaky([QUOTA]) as server:
        with pytest.raises(openai.RateLimitError) as raised:
            ask(sdk_client(server.url))
    assert server.served == 3  # the first try and the SDK's two retries, all refused the same way
    assert raised.value.code == "insufficient_quota" and final_code(raised.value) == "insufficient_quota"


def test_with_the_sdk_retries_off_one_request_is_sent() -> None:
    with serve_flaky([QUOTA]) as server:
        with pytest.raises(openai.RateLimitError):
            ask(sdk_client(server.url, max_retries=0))
    assert server.served == 1


def test_the_sdk_also_retries_a_500_then_gets_through() -> None:
    with serve_flaky([(500, 0.01), "fine"]) as server:
        ask(sdk_client(server.url))  # the 200 is no chat completion, but the SDK does not check its shape
    assert server.served == 2  # the 500, then the SDK's own retry


def test_explain_says_the_quota_429_will_not_pass_and_what_to_do() -> None:
    with serve_flaky([QUOTA]) as server:
        with pytest.raises(openai.RateLimitError) as raised:
            ask(sdk_client(server.url, max_retries=0))
    error = explain(raised.value, "http://127.0.0.1/v1")
    assert not is_retryable(error)
    assert "no quota left" in str(error) and "add credit" in str(error)


def test_a_rate_limit_429_is_still_retried_and_the_quota_one_is_not() -> None:
    assert is_retryable(ModelError("429: rate limit reached", status=429))
    assert not is_retryable(ModelError("HTTP 429: {'type': 'insufficient_quota'}", status=429))
    import random

    from react_course.retry import Backoff
    plan = plan_wait(ModelError("insufficient_quota", status=429), 1, 10, Backoff(), random.Random(0))
    assert isinstance(plan, str) and "out of credit" in plan


def test_the_runs_retry_path_stops_at_the_first_quota_429() -> None:
    with serve_flaky([QUOTA, "never reached"]) as server:
        budget = Budget(Limits(max_seconds=5, max_model_errors=3))
        with pytest.raises(LimitReached) as ended:
            call_with_retries(lambda: HttpModel(server.url, timeout=1)("q"), budget, sleep=lambda s: None)
    assert "out of credit" in ended.value.detail and server.served == 1


def test_a_run_ends_with_error_after_one_quota_429(monkeypatch: pytest.MonkeyPatch) -> None:
    import react_course as rc

    monkeypatch.setenv("REACT_COURSE_BACKOFF", "0.01")
    with serve_flaky([QUOTA, "Thought: ok\nFinal Answer: 2"]) as server:
        result = rc.run_react("What does a pen cost?", HttpModel(server.url), rc.shop_tools(), max_seconds=5)
    assert result.end_reason == "error" and "quota" in result.detail and server.served == 1
