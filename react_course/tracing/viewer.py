"""A trace you can step through: one step at a time, in a notebook or as a static page.

``TraceViewer(run)`` shows a ``RunResult`` (live, or read back from a log with
``trace.read_log``), text or native, as a small widget: previous and next
buttons and a slider over the steps; the current step's thought, its calls
and their observations; the tokens and money so far; and, on the last step,
why the run ended. Reading a failed trace one step at a time is how the
failure is found (the exact thought where "promised by 6" became 6 a.m.)
before anything is changed.

``step_html`` renders one step and ``static_html`` the whole run as plain
HTML, for places without a kernel (a saved notebook, a bug report, CI
artifacts). What it leaves out: editing a trace, and comparing two traces
side by side.
"""

from __future__ import annotations

import html
from decimal import Decimal
from typing import Any

from ..context_cost.cost import cost
from ..record import RunResult, Step, Usage, short

__all__ = ["TraceViewer", "static_html", "step_html"]

_PRE = " style='white-space: pre-wrap'"  # observations keep their line breaks
_STYLE = ("font-family: sans-serif; font-size: 13px; line-height: 1.4; border: 1px solid #ccc; "
          "padding: 8px; border-radius: 4px")


def _so_far(run: RunResult, index: int, price: Any) -> str:
    usage = sum((s.usage for s in run.steps[: index + 1]), Usage())
    money = cost(usage, price) if price is not None else None
    spent = f"${money.quantize(Decimal('0.000001'))}" if money is not None else "no price"
    return f"tokens so far: {usage.input:,} in, {usage.output:,} out; money so far: {spent}"


def _arguments(arguments: str | dict[str, Any]) -> str:
    return arguments if isinstance(arguments, str) else ", ".join(f"{k}={v!r}" for k, v in arguments.items())


def step_html(run: RunResult, index: int, price: Any = None) -> str:
    """One step as HTML: thought, calls and observations, usage so far, and the ending on the last."""
    if not run.steps:
        return f"<div style='{_STYLE}'>No steps: the run ended at once ({html.escape(run.end_reason)}).</div>"
    index = max(0, min(index, len(run.steps) - 1))
    step: Step = run.steps[index]
    e = html.escape
    parts = [f"<b>Step {step.number} of {len(run.steps)}</b> ({run.format} run"
             + (", the forced last call" if step.forced else "") + ")"]
    if step.thought:
        parts.append(f"<div><b>Thought:</b> {e(step.thought)}</div>")
    elif step.text and not step.calls and step.answer is None:  # unreadable: show what it wrote
        parts.append(f"<div{_PRE}><b>The model wrote:</b> {e(short(step.text, 600))}</div>")
    by_id = {o.call_id: o for o in step.observations}
    for call in step.calls:
        parts.append(f"<div><b>Call:</b> <code>{e(call.name)}({e(_arguments(call.arguments))})</code></div>")
        obs = by_id.get(call.id)
        if obs is not None:
            flag = f" <span style='color:#b00'>[{e(obs.error)}]</span>" if obs.error else ""
            parts.append(f"<div{_PRE}><b>Observation:</b>{flag} {e(short(obs.text, 600))}</div>")
    for obs in step.observations:
        if obs.call_id == "" or obs.call_id not in {c.id for c in step.calls}:
            parts.append(f"<div{_PRE}><b>Program:</b> <span style='color:#b00'>[{e(obs.error or '')}]</span> "
                         f"{e(short(obs.text, 300))}</div>")
    if step.answer is not None:
        parts.append(f"<div><b>Final answer:</b> {e(step.answer)}</div>")
    parts.append(f"<div style='color:#555'>{e(_so_far(run, index, price))}</div>")
    if index == len(run.steps) - 1:
        detail = f" ({e(run.detail)})" if run.detail else ""
        parts.append(f"<div><b>Ended:</b> {e(run.end_reason)}{detail}</div>")
    return f"<div style='{_STYLE}'>" + "\n".join(parts) + "</div>"


def static_html(run: RunResult, price: Any = None, title: str = "") -> str:
    """The whole run as one HTML page, every step in order."""
    head = f"<h3>{html.escape(title or run.question)}</h3>"
    body = "\n".join(step_html(run, i, price) for i in range(len(run.steps))) or step_html(run, 0, price)
    answer = f"<p><b>Answer:</b> {html.escape(run.answer)}</p>"
    return f"<div class='react-course-trace'>{head}\n{body}\n{answer}</div>"


class TraceViewer:
    """Step through a run: buttons, a slider, and the current step (ipywidgets)."""

    def __init__(self, run: RunResult, price: Any = None, start: int = 0) -> None:
        import ipywidgets as widgets  # only here: the rest of the course needs no widgets

        self.run, self.price = run, price
        last = max(0, len(run.steps) - 1)
        self.back = widgets.Button(description="previous", icon="arrow-left")
        self.forward = widgets.Button(description="next", icon="arrow-right")
        self.slider = widgets.IntSlider(value=min(start, last), min=0, max=last, description="step",
                                        readout=False)
        self.label = widgets.Label()
        self.body = widgets.HTML()
        self.back.on_click(lambda _: self.go(self.slider.value - 1))
        self.forward.on_click(lambda _: self.go(self.slider.value + 1))
        self.slider.observe(lambda change: self._show(), names="value")
        self.widget = widgets.VBox([widgets.HBox([self.back, self.slider, self.forward, self.label]),
                                    self.body])
        self.widget.add_class("react-course-viewer")
        self._show()

    def go(self, index: int) -> None:
        """Show step ``index`` (0-based), clamped to the run."""
        self.slider.value = max(self.slider.min, min(self.slider.max, index))

    def _show(self) -> None:
        index = self.slider.value
        self.label.value = f"step {index + 1} of {len(self.run.steps)}" if self.run.steps else "no steps"
        self.back.disabled = index <= 0
        self.forward.disabled = index >= self.slider.max
        self.body.value = step_html(self.run, index, self.price)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)
