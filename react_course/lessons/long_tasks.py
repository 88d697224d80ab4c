"""Long tasks for lesson 08 and the compression benchmark: ten steps or more, scripted.

Each task asks for the total refund owed on a list of late food orders. The
``order_record`` tool returns what an order system returns: a long record
(customer, address, items, status history, courier notes) that opens with the
order's gist. One order id in some tasks is mistyped on purpose, so a run
also has a failed attempt to remember.

``task_model(task)`` is a scripted model that does what a careful agent
does: it fetches every order it cannot see in its prompt (summary included),
adds the refunds with the calculator, and answers. If compression loses a
finding, the model fetches the order again, the loop refuses the repeat,
and the task is lost: that is how the benchmark tells a summary that kept
the facts from one that did not.

What it leaves out: real order data; every record is generated from its id.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from ..calculator import calculate
from ..models import ReactiveModel
from ..prompts import Scratchpad
from ..tools import ToolRegistry

NAMES = ("Asha Rao", "Ben Okafor", "Chen Wei", "Dana Levi", "Emil Novak", "Farah Aziz", "Goran Ilic",
         "Hana Sato", "Ivan Petrov", "Jia Lin", "Kofi Mensah", "Lena Fischer")
DISHES = ("masala dosa", "paneer tikka", "veg biryani", "dal makhani", "butter naan", "gulab jamun",
          "chole bhature", "idli sambar", "mango lassi", "aloo paratha")


@dataclass(frozen=True)
class LongTask:
    name: str
    orders: tuple[int, ...]
    typo: int | None = None  # an id asked for first by mistake (it does not exist)

    @property
    def question(self) -> str:
        ids = ", ".join(str(o) for o in self.orders)
        return f"What is the total refund owed for orders {ids}? Late orders are owed their refund."

    @property
    def answer(self) -> int:
        return sum(refund(order) for order in self.orders)


TASKS = (
    LongTask("ten orders", tuple(range(5101, 5111))),
    LongTask("twelve orders, one typo", tuple(range(5201, 5213)), typo=52011),
    LongTask("fifteen orders", tuple(range(5301, 5316))),
)


def refund(order: int) -> int:
    """The refund owed on ``order``: 0 when it was on time.

    >>> refund(5101), refund(5102)
    (60, 30)
    """
    rng = random.Random(order)
    late = rng.random() < 0.6
    return rng.choice((30, 45, 60, 75)) if late else 0


def order_record(order_id: str) -> str:
    """Return the full record of one food order: status, lateness, refund owed, items and history.
    Example input: 5101
    """
    text = order_id.strip().lstrip("#")
    if not text.isdigit() or not 5000 <= int(text) < 6000:
        raise ValueError(f"there is no order {text!r}: order ids are four digits, such as 5101")
    order, rng = int(text), random.Random(int(text) * 7)
    owed, name, dishes = refund(order), rng.choice(NAMES), rng.sample(DISHES, 3)
    gist = (f"Order {order} was delivered late; refund owed {owed} INR." if owed
            else f"Order {order} was delivered on time; refund owed 0 INR.")
    placed = rng.randint(18 * 60, 21 * 60)
    stamps = [placed + d for d in (0, 2, rng.randint(6, 12), rng.randint(25, 40), rng.randint(50, 95))]
    history = ", ".join(f"{what} {t // 60:02d}:{t % 60:02d}" for what, t in
                        zip(("placed", "accepted", "preparing", "out for delivery", "delivered"), stamps,
                            strict=True))
    return (f"{gist} Customer: {name}, {rng.randint(1, 99)} {rng.choice(('Lake', 'Hill', 'Park'))} Road, "
            f"Pune {411000 + rng.randint(1, 60)}. Items: " +
            ", ".join(f"{rng.randint(1, 3)} x {d} ({rng.randint(60, 260)} INR)" for d in dishes) +
            f". Status history: {history}. Courier: rider {rng.randint(100, 999)}, "
            f"vehicle MH-12-{rng.randint(1000, 9999)}. Payment: {rng.choice(('card', 'UPI', 'cash'))}. "
            "Notes: the customer asked for no cutlery; the restaurant confirmed the order by phone; "
            "the delivery partner reported traffic near the station; no complaint was filed.")


def task_tools() -> ToolRegistry:
    """The tools of the long tasks: ``order_record`` and ``calculate``."""
    return ToolRegistry([order_record, calculate])


def task_model(task: LongTask, *, careless: bool = False) -> ReactiveModel:
    """A scripted agent for ``task`` that reads its facts from whatever its prompt shows.

    ``careless=True`` plays a weaker model: after a failed call it sends the
    same call again instead of changing course.
    """

    def respond(pad: Scratchpad) -> str:
        failed = pad.steps and re.search(r"there is no order|You already called", pad.last_observation)
        if careless and failed:
            return pad.steps[-1][0]
        seen = "\n".join(f"{text}\n{obs}" for text, obs in pad.steps)
        owed = {int(o): int(r) for o, r in re.findall(r"Order (\d{4}) [^;]*; refund owed (\d+)", seen)}
        if task.typo and not pad.steps:
            return _act(f"I start with order {task.typo}.", "order_record", str(task.typo))
        missing = [o for o in task.orders if o not in owed]
        if missing and not pad.must_answer:
            return _act(f"I need the record of order {missing[0]}.", "order_record", str(missing[0]))
        total = next((obs for text, obs in pad.steps if "Action: calculate" in text and obs.isdigit()), None)
        if missing or total:
            answer = total if total and not missing else "unknown: some orders are missing"
            return f"Thought: I now know the answer\nFinal Answer: The total refund owed is {answer} INR."
        adds = " + ".join(str(owed[o]) for o in task.orders)
        return _act("I have every order; now the total.", "calculate", adds)

    return ReactiveModel(respond=respond)


def _act(thought: str, tool: str, text: str) -> str:
    return f"Thought: {thought}\nAction: {tool}\nAction Input: {text}"


def solved(task: LongTask, run: object) -> bool:
    """Did the run end with a final answer that states the task's total?"""
    answer = getattr(run, "answer", "") or ""
    found = re.search(rf"\b{task.answer}\b", answer) is not None
    return getattr(run, "end_reason", "") == "final_answer" and found
