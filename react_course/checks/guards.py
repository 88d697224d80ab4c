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
        self.prompts: list[str] = []

    def __call__(self, prompt: str, stop: Any = None) -> str:
        self.calls += 1
        self.prompts.append(prompt)
        if self.calls > self.max_calls:
            raise CallBudgetExceeded(self.why())
        return self.model(prompt, stop)

    def repeated_prompt(self) -> int | None:
        """The number of the first call that was sent the same prompt as the call before it."""
        pairs = zip(self.prompts, self.prompts[1:], strict=False)
        return next((n for n, (a, b) in enumerate(pairs, start=2) if a == b), None)

    def why(self) -> str:
        """What a loop that made too many calls did wrong, as far as the calls show.

        >>> guard = GuardedModel(lambda prompt, stop: "x", max_calls=1)
        >>> guard("p"), guard.why()
        ('x', 'your loop called the model more than 1 time; a correct loop stops at its step limit')
        """
        times = "time" if self.max_calls == 1 else "times"
        said = f"your loop called the model more than {self.max_calls} {times}"
        again = self.repeated_prompt()
        if again is not None:
            return (f"{said}, and it sent the same prompt in calls {again - 1} and {again}: call "
                    "the model once per step, and append the reply and its observation before "
                    "the next call")
        return f"{said}; a correct loop stops at its step limit"

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
