"""The library's exceptions, in one place.

Two families, kept apart on purpose:

- *The model got it wrong* (an unreadable reply, an unknown tool, bad
  arguments, a tool that failed) is never an exception here: the loop turns
  it into an observation and goes on.
- *A call failed or the program is wrong* is an exception: a model call that
  did not come back (``ModelError``), a setting that cannot work
  (``ModelConfigError``), a limit that ended the run (``LimitReached``), a
  function that cannot be a tool (``ToolDefinitionError``).

``ModelError.retryable`` says whether asking again can help: a time-out, a
rate limit or a server error may pass; a bad key or a full context window
will not, and nor will an error whose code ``final_code`` finds (a quota 429).
"""

from __future__ import annotations


class ReactCourseError(Exception):
    """Base class of the library's exceptions."""


class ModelError(ReactCourseError):
    """A model call failed: an API error, a time-out, a reply in the wrong shape.

    It carries the HTTP ``status`` (None without one), whether asking again may help
    (``retryable``), the seconds a server asked to wait (``retry_after``, text as sent),
    a ``cause`` for advice: timeout, connection, protocol, empty, budget, status or other,
    and the provider's error ``code`` when it sent one (``"insufficient_quota"``: out of credit).
    """

    retryable = True

    def __init__(self, message: str, *, status: int | None = None, retryable: bool | None = None,
                 retry_after: str | float | None = None, cause: str = "other",
                 code: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after
        self.cause = cause
        self.code = code
        if retryable is not None:
            self.retryable = retryable


class ModelConfigError(ModelError, ValueError):
    """A setting is wrong (key, model name, URL): retrying cannot help.

    Before a run's first successful call it is raised; after one, the loop
    records it and ends the run with the reason, keeping the trace.
    """

    retryable = False


class ContextWindowFull(ModelError):
    """The prompt no longer fits the model's context window."""

    retryable = False


class LimitReached(ReactCourseError):
    """A limit ended the run; ``end_reason`` says which (one of ``END_REASONS``)."""

    def __init__(self, end_reason: str, detail: str) -> None:
        super().__init__(detail)
        self.end_reason = end_reason
        self.detail = detail


LimitExceeded = LimitReached  # the earlier name


class ToolDefinitionError(ReactCourseError, TypeError, ValueError):
    """A function cannot be a tool as written (the program is wrong, not the model).

    A ValueError too, as exercise 4.1's statement asks of a tool list built from such a function.
    """


class ScriptExhausted(ReactCourseError, RuntimeError):
    """A scripted model was called more times than it has replies."""


# Error codes that no second try fixes, whatever the status: OpenAI answers 429 both for
# "too many requests" (passes) and for "insufficient_quota" (out of credit: it does not).
NEVER_RETRY_CODES = frozenset({"insufficient_quota"})


def final_code(error: BaseException) -> str | None:
    """The error code that rules out a retry, from the error's fields, its body or its text.

    The SDK sets ``code`` and ``type`` from the error body; a plain client may only
    have the body's text in its message.

    >>> final_code(ModelError("HTTP 429: You exceeded your current quota", status=429,
    ...                       code="insufficient_quota"))
    'insufficient_quota'
    >>> final_code(ModelError("HTTP 429: rate limit reached", status=429)) is None
    True
    """
    body = getattr(error, "body", None)
    inner = body.get("error", body) if isinstance(body, dict) else {}
    inner = inner if isinstance(inner, dict) else {}
    said = [getattr(error, "code", None), getattr(error, "type", None), inner.get("code"), inner.get("type")]
    found = [c for c in said if isinstance(c, str) and c in NEVER_RETRY_CODES]
    return found[0] if found else next((c for c in NEVER_RETRY_CODES if c in str(error)), None)
