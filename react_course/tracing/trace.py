"""Step events: one structured record per step, written as JSON Lines and read back.

The step loop (``driver.drive``) tells a ``StepLog`` about a run three times:
when it starts, after every step (whatever ended the step), and when it ends.
Each becomes one JSON object on one line of a log file::

    {"event": "start", "run_id": ..., "question": ..., "format": "text", "meta": {...}}
    {"event": "step", "run_id": ..., "step": 1, "thought": ..., "calls": [...],
     "observation_chars": 231, "latency": 0.002, "usage": {...}, "money": null,
     "error": null, "record": {the whole Step}}
    {"event": "end", "run_id": ..., "end_reason": "final_answer", "answer": ..., ...}

Why JSON Lines: a line is written and flushed as soon as its step completes,
so a run killed half-way loses no completed step, and a reader needs no
closing bracket. A line the kill cut in half is reported and skipped by
``read_log``, which turns the events back into ``RunResult`` objects (a run
with no ``end`` line comes back as "interrupted").

``OtelSpans`` sends the same events on as OpenTelemetry spans named after
the GenAI semantic conventions (``invoke_agent``, ``chat``, ``execute_tool``,
``gen_ai.usage.*``), through the official SDK, to the console or a file. Those
conventions still have "Development" status (OpenTelemetry's GenAI semantic
conventions, read 1 December 2026): their names may still change between
releases. It is
optional and off by default: the SDK is imported only when you ask for spans
(the course installs it with its test tools; a student needs it only for spans).
What this module leaves out: shipping logs to a server, sampling, and clock
times (latencies are measured; wall-clock stamps would make logs unrepeatable).
"""

from __future__ import annotations

import json
import threading
import time
import uuid
import warnings
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO, Any

from ..context_cost.cost import cost
from ..record import RunResult, Step

__all__ = ["JsonLines", "Log", "OtelSpans", "StepLog", "read_log", "step_event"]


class JsonLines:
    """Appends one JSON object per line to a file; safe to share between threads.

    Each line is written whole, in one call, and flushed at once: a process
    killed later loses nothing written before (an OS crash can, without fsync).
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._file: IO[str] | None = None

    def write(self, event: dict[str, Any]) -> None:
        line = json.dumps(event, ensure_ascii=False, default=str) + "\n"
        with self._lock:
            if self._file is None:
                self._file = self.path.open("a", encoding="utf-8")
                self._seal()
            self._file.write(line)
            self._file.flush()

    def _seal(self) -> None:
        """A log that ends in half a line (a killed writer) gets a newline first, so that
        the next event starts a line of its own instead of joining the broken one."""
        assert self._file is not None
        if self.path.stat().st_size and not self.path.read_bytes().endswith(b"\n"):
            self._file.write("\n")

    def close(self) -> None:
        with self._lock:
            if self._file is not None:
                self._file.close()
                self._file = None


def step_event(run_id: str, step: Step, price: Any = None) -> dict[str, Any]:
    """The event for one step: what a person or a metric reads, and the whole ``Step``."""
    money = cost(step.usage, price) if price is not None else None
    return {
        "event": "step", "run_id": run_id, "step": step.number, "thought": step.thought,
        "calls": [{"id": c.id, "name": c.name, "arguments": c.arguments} for c in step.calls],
        "observation_chars": sum(len(o.text) for o in step.observations),
        "latency": round(step.latency, 6), "usage": asdict(step.usage),
        "money": None if money is None else str(money), "error": step.error,
        "forced": step.forced, "answer": step.answer, "record": step.to_dict(),
    }


class StepLog:
    """A ``driver.Trace`` for one run: keeps its events, and writes them to ``out`` if given.

    ``out`` is a path or a shared ``JsonLines``; ``meta`` (task id, repeat,
    configuration) goes into the start and end events; ``spans`` is an
    ``OtelSpans`` to send the run to when it ends.
    """

    def __init__(self, out: str | Path | JsonLines | None = None, *, run_id: str | None = None,
                 meta: dict[str, Any] | None = None, spans: OtelSpans | None = None) -> None:
        self.out = JsonLines(out) if isinstance(out, str | Path) else out
        self.run_id = run_id or uuid.uuid4().hex[:12]
        self.meta, self.spans = dict(meta or {}), spans
        self.events: list[dict[str, Any]] = []
        self.price: Any = None

    def _emit(self, event: dict[str, Any]) -> None:
        self.events.append(event)
        if self.out is not None:
            self.out.write(event)

    def start(self, question: str, format: str, price: Any = None) -> None:
        self.price = price
        self._emit({"event": "start", "run_id": self.run_id, "question": question,
                    "format": format, "meta": self.meta})

    def step(self, step: Step) -> None:
        self._emit(step_event(self.run_id, step, self.price))

    def end(self, result: RunResult) -> None:
        money = cost(result.usage, self.price) if self.price is not None else None
        self._emit({"event": "end", "run_id": self.run_id, "end_reason": result.end_reason,
                    "answer": result.answer, "detail": result.detail, "steps": len(result.steps),
                    "usage": asdict(result.usage), "money": None if money is None else str(money),
                    "meta": self.meta})
        if self.spans is not None:
            self.spans.export(self.events)


@dataclass
class Log:
    """A log read back: each run's ``RunResult`` and meta, in order, and what could not be read."""

    runs: dict[str, RunResult] = field(default_factory=dict)
    meta: dict[str, dict[str, Any]] = field(default_factory=dict)
    finished: set[str] = field(default_factory=set)  # runs whose end event was written
    problems: list[str] = field(default_factory=list)


def read_log(path: str | Path, *, quiet: bool = False) -> Log:
    """Read a JSON Lines step log back into runs; a broken line is reported and skipped.

    A run with steps but no end line (its process was killed) comes back with
    every completed step and the end reason "interrupted".
    """
    log, started = Log(), {}
    text = Path(path).read_text(encoding="utf-8") if Path(path).exists() else ""
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except json.JSONDecodeError:
            log.problems.append(f"line {number} is not whole JSON (a writer killed mid-line?): skipped")
            continue
        _apply(log, started, event)
    for run_id, run in log.runs.items():
        if run_id not in log.finished:
            run.end_reason, run.detail = "interrupted", "the log ends before the run did"
    if log.problems and not quiet:
        warnings.warn(f"{path}: " + "; ".join(log.problems), stacklevel=2)
    return log


def _apply(log: Log, started: dict[str, dict[str, Any]], event: dict[str, Any]) -> None:
    run_id, kind = event.get("run_id", ""), event.get("event")
    if kind == "start":
        started[run_id] = event
        log.meta[run_id] = event.get("meta", {})
        log.runs[run_id] = RunResult(event["question"], "", "interrupted", [],
                                     format=event.get("format", "text"))
    elif run_id not in log.runs:
        log.problems.append(f"an event of run {run_id!r} before its start: skipped")
    elif kind == "step":
        log.runs[run_id].steps.append(Step.from_dict(event["record"]))
    elif kind == "end":
        run = log.runs[run_id]
        run.answer, run.end_reason, run.detail = event["answer"], event["end_reason"], event["detail"]
        log.meta[run_id] = event.get("meta", log.meta[run_id])
        log.finished.add(run_id)


class OtelSpans:
    """A run's events as OpenTelemetry spans (GenAI semantic conventions), via the SDK.

    ``to`` is "console" (standard output) or a file path (spans appended as
    JSON, one per line as the SDK's console exporter writes them). One span per
    run (``invoke_agent``), a child per step (``chat``) and a grandchild per
    tool call (``execute_tool``), timed from the measured latencies.
    """

    def __init__(self, to: str | Path = "console", agent_name: str = "react-course",
                 model: str = "") -> None:
        try:
            from opentelemetry.sdk.trace import TracerProvider
            from opentelemetry.sdk.trace.export import ConsoleSpanExporter, SimpleSpanProcessor
        except ImportError:
            raise ImportError("spans need the OpenTelemetry SDK: pip install opentelemetry-sdk "
                              "(the JSON Lines log needs nothing)") from None
        self._stream = None if to == "console" else Path(to).open("a", encoding="utf-8")
        exporter = ConsoleSpanExporter() if self._stream is None else ConsoleSpanExporter(
            out=self._stream, formatter=lambda span: span.to_json(indent=None) + "\n")
        self.provider = TracerProvider()
        self.provider.add_span_processor(SimpleSpanProcessor(exporter))
        self.tracer = self.provider.get_tracer("react_course.tracing.trace")
        self.agent_name, self.model = agent_name, model

    def export(self, events: list[dict[str, Any]]) -> None:
        from opentelemetry import trace as otel

        steps = [e for e in events if e["event"] == "step"]
        end = time.time_ns()
        begin = end - int(sum(s["latency"] for s in steps) * 1e9)
        run = self.tracer.start_span(f"invoke_agent {self.agent_name}", start_time=begin, attributes={
            "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": self.agent_name,
            "gen_ai.conversation.id": events[0]["run_id"]})
        context, at = otel.set_span_in_context(run), begin
        for step in steps:
            at = self._step_span(step, context, at)
        finish = next((e for e in events if e["event"] == "end"), {})
        run.set_attribute("react_course.end_reason", finish.get("end_reason", "interrupted"))
        run.end(end_time=max(at, begin))

    def _step_span(self, step: dict[str, Any], context: Any, at: int) -> int:
        from opentelemetry import trace as otel

        usage, took = step["usage"], int(step["latency"] * 1e9)
        span = self.tracer.start_span(f"chat {self.model}".strip(), context=context, start_time=at,
                                      attributes={
                                          "gen_ai.operation.name": "chat", "gen_ai.request.model": self.model,
                                          "gen_ai.usage.input_tokens": usage["input"],
                                          "gen_ai.usage.output_tokens": usage["output"],
                                          "react_course.step": step["step"]})
        if step["error"]:
            span.set_attribute("error.type", step["error"])
        inner = otel.set_span_in_context(span)
        for call in step["calls"]:
            tool = self.tracer.start_span(f"execute_tool {call['name']}", context=inner, start_time=at,
                                          attributes={"gen_ai.operation.name": "execute_tool",
                                                      "gen_ai.tool.name": call["name"],
                                                      "gen_ai.tool.call.id": call["id"]})
            tool.end(end_time=at + took)
        span.end(end_time=at + took)
        return at + took

    def close(self) -> None:
        self.provider.shutdown()
        if self._stream is not None:
            self._stream.close()
