"""When ReAct is the wrong choice: the refund job as a fixed four-step workflow.

A refund question for late delivery always takes the same calls in the same
order: the order, the late-delivery policy, the sum, then a sentence to the
customer. An "agent" that always does this pays for a model call at every
step to decide what the program already knows. ``refund_workflow`` runs the
four steps in code and calls a model once, to word the answer.

``refund_tasks`` is a family of the evaluation set: the late-delivery
refund question for every delivered order of the desk, with its gold answer
from the data. ``measure`` runs the agent (the simulated model, with
the evaluation's failure knobs) and the workflow on the same tasks and reports
cost (tokens), latency (model calls in a row, and our measured seconds) and
failure rate side by side.

What it leaves out: a model that words the answer badly (the writer here is
scripted and always right), and questions of another shape, on which the
workflow answers the wrong question (the lesson shows it).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..evaluate import TYPICAL, Knobs, load_tasks, run_eval, score, simulated
from ..evaluate.metrics import mean, percentile
from ..evaluate.tasks import Task
from ..tokens import count_tokens
from ..tools import SupportDesk, ToolRegistry, support_tools

WRITER_PROMPT = (
    "Write one sentence to a support-desk customer.\nFacts: {record}\nPolicy: {policy}\n"
    "Refund in total: {total} INR.\nSentence:"
)


def refund_tasks() -> list[Task]:
    """The late-delivery refund question for each delivered order, gold answer from the data."""
    tasks = []
    for order in SupportDesk().orders.values():
        if not order.get("delivered"):
            continue
        late = _late(SupportDesk().get_order(order["id"]))
        refund = order["delivery_fee"] if late > 30 else 0
        tasks.append(
            Task(
                id=f"refund-{order['id']}",
                family="refund",
                split="train",
                kind="number",
                question=f"How much do we refund for late delivery on order {order['id']}?",
                answer={"value": refund, "unit": "INR"},
                calls=(
                    ("get_order", str(order["id"])),
                    ("get_policy", "late delivery"),
                    ("calculate", f"0 + {refund}"),
                ),
                final=f"Refund {refund} INR for order {order['id']}.",
                distractor=f"Refund {order['item_price'] + order['delivery_fee']} INR.",
            )
        )
    return tasks


def _late(record: str) -> int:
    """Minutes late from an order record (0 when on time, early or not delivered).

    >>> _late("delivered 19:02 (62 minutes late)"), _late("delivered 13:05 (10 minutes early)")
    (62, 0)
    """
    found = re.search(r"(\d+) minutes late", record)
    return int(found.group(1)) if found else 0


def template_writer(prompt: str) -> str:
    """The scripted writer: the sentence a model would write from the prompt's facts."""
    total = re.search(r"Refund in total: (\d+) INR", prompt).group(1)
    order = re.search(r"Order (\d+)", prompt)
    return f"Refund {total} INR for order {order.group(1) if order else 'this order'}."


@dataclass
class WorkflowRun:
    """What the workflow did for one question."""

    question: str
    answer: str
    tokens: int
    model_calls: int
    tool_calls: int


def refund_workflow(
    question: str, tools: ToolRegistry | None = None, writer: Callable[[str], str] = template_writer
) -> WorkflowRun:
    """Four fixed steps: the order, the policy, the sum, one model call to word the answer."""
    tools = tools or support_tools()
    number = re.search(r"\b(\d{5})\b", question)
    if number is None:
        return WorkflowRun(question, "Which order do you mean? Please give its number.", 0, 0, 0)
    record = tools.run("get_order", number.group(1))  # step 1
    if record.startswith("No order"):
        return WorkflowRun(question, record, 0, 0, 1)
    policy = tools.run("get_policy", "late delivery")  # step 2
    fee = re.search(r"delivery fee (\d+)", record)
    owed = int(fee.group(1)) if fee and _late(record) > 30 else 0
    total = tools.run("calculate", f"0 + {owed}")  # step 3
    prompt = WRITER_PROMPT.format(record=record, policy=policy, total=total)
    answer = writer(prompt)  # step 4, the only model call
    return WorkflowRun(question, answer, count_tokens(prompt) + count_tokens(answer), 1, 3)


@dataclass
class Measured:
    """One side of the comparison, over every run."""

    name: str
    runs: int
    failure_rate: float
    tokens_per_task: float
    model_calls: float  # in a row, per task: the latency a real model adds
    p95_model_calls: float
    seconds_per_task: float  # ours, on the scripted parts: the program's own overhead


def measure_agent(tasks: list[Task], repeats: int = 10, knobs: Knobs = TYPICAL) -> Measured:
    """The ReAct agent on the simulated model (seeded per repeat), through lesson 09's runner."""
    start = time.perf_counter()
    runs = run_eval(tasks=tasks, repeats=repeats, model_for=simulated(tasks, knobs))
    seconds = (time.perf_counter() - start) / len(runs)
    calls = [float(r.result.model_calls) for r in runs]
    return Measured(
        "ReAct agent",
        len(runs),
        1 - mean([float(r.success) for r in runs]),
        mean([float(r.result.usage.total) for r in runs]),
        mean(calls),
        percentile(calls, 95),
        seconds,
    )


def measure_workflow(tasks: list[Task], repeats: int = 10) -> Measured:
    """The workflow on the same tasks (it has no luck to vary, so every repeat is the same)."""
    start = time.perf_counter()
    done = [(refund_workflow(t.question), t) for _ in range(repeats) for t in tasks]
    seconds = (time.perf_counter() - start) / len(done)
    calls = [float(w.model_calls) for w, _ in done]
    return Measured(
        "workflow",
        len(done),
        1 - mean([float(score(w.answer, t)) for w, t in done]),
        mean([float(w.tokens) for w, _ in done]),
        mean(calls),
        percentile(calls, 95),
        seconds,
    )


def off_shape(family: str = "support") -> list[tuple[str, bool]]:
    """The workflow on every task of a family: right only where the question fits its shape."""
    return [(t.id, score(refund_workflow(t.question).answer, t)) for t in load_tasks(family=family)]
