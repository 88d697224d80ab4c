"""Guards that let a check run a student's loop without trusting it to stop."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .framework import CallBudgetExceeded


class GuardedModel:
    """Wraps a model; the call after ``max_calls`` raises ``CallBudgetExceeded``.

    ``CallBudgetExceeded`` is a ``BaseException``: a loop that catches
    ``Exception`` to keep going still cannot swallow it.
    """

    def __init__(self, model: Callable[..., str], max_calls: int) -> None:
        self.model, self.max_calls = model, max_calls
        self.calls = 0

    def __call__(self, prompt: str, stop: Any = None) -> str:
        self.calls += 1
        if self.calls > self.max_calls:
            times = "time" if self.max_calls == 1 else "times"
            raise CallBudgetExceeded(
                f"your loop called the model more than {self.max_calls} {times}; "
                "a correct loop stops at its step limit"
            )
        return self.model(prompt, stop)

    @property
    def records(self) -> list:
        return getattr(self.model, "calls", [])


def guarded_tools(tools: Mapping[str, Callable[..., Any]], max_calls: int) -> dict[str, Callable]:
    """The same tools, sharing one budget of calls."""
    used = [0]

    def wrap(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def guarded(*args: Any, **kwargs: Any) -> Any:
            used[0] += 1
            if used[0] > max_calls:
                raise CallBudgetExceeded(f"your code called the tools more than {max_calls} times")
            return function(*args, **kwargs)

        guarded.__name__ = name
        guarded.__doc__ = function.__doc__
        return guarded

    return {name: wrap(name, fn) for name, fn in tools.items()}
