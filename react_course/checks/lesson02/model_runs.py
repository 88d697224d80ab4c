"""02.scripted_model's key and observation: the calls made to the models, as plain data.

``observe`` builds the models with the student's ``make_scripted_model``, makes the
calls (``stop`` left out, by position or by name) and reports what each gave (a reply,
or which error and whether it said anything), ``model.prompts`` at the start and the
end, and the caller's lists afterwards.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...models import ScriptedModel
from ..plain import Opaque, Raised
from ..values import describe

__all__ = ["key", "observe"]


def key(replies: list[str]) -> Callable[..., str]:
    """The answer key: ``rc.ScriptedModel`` over a copy of the replies, every prompt recorded."""
    library = ScriptedModel(replies)

    def model(prompt: str, stop: list[str] | None = None) -> str:
        model.prompts.append(prompt)
        return library(prompt, stop)

    model.prompts = []
    return model


def _outcome(model: Any, prompt: str, stop: Any, how: str) -> Any:
    try:
        got = (model(prompt) if how == "none" else model(prompt, stop) if how == "position"
               else model(prompt, stop=stop))
    except NotImplementedError:
        raise
    except Exception as error:  # which error, and whether it says anything, is what is compared
        if isinstance(error, RuntimeError):
            said = " with a message" if str(error).strip() else ", no message"
            return Raised("raised RuntimeError" + said)
        return Raised.of(error)
    return got if isinstance(got, str) else Opaque(describe(got))


def _prompts(model: Any) -> Any:
    prompts = getattr(model, "prompts", None)
    if isinstance(prompts, list) and all(isinstance(p, str) for p in prompts):
        return list(prompts)
    return Opaque("model.prompts is " + describe(prompts))


def observe(make: Callable[..., Any], args: tuple) -> dict[str, Any]:
    scripts, calls = args
    given = [list(script) for script in scripts]
    models = [make(script) for script in given]
    seen: dict[str, Any] = {"model.prompts at the start": [_prompts(m) for m in models]}
    seen["replies"] = [_outcome(models[which], prompt, stop, how) for which, prompt, stop, how in calls]
    return seen | {"model.prompts": [_prompts(m) for m in models], "the caller's lists": given}
