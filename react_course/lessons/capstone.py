"""Lesson 10's scenes: the support-desk agent, a bare loop to break, and its checks.

The capstone puts the course's parts around one question (``QUESTION``: order
88213, 480 plus a 25 fee, promised for 18:00, delivered at 19:02; the
30-minute rule refunds the fee, so 25, not 505). Here:

- ``support_agent``: the scripted model of a careful agent, with switches
  for the ways a model goes wrong (it ignores the stop sequence and writes an
  observation itself, it names a tool that does not exist, it repeats a call);
- ``bare_loop``: the loop as a first tutorial writes it, with its four gaps
  (it trusts "Final Answer" anywhere in a reply, indexes a dict by the tool's
  name, passes a blank result on, and returns nothing at the limit), so the
  failures can be watched before ``run_react`` is shown to close each one;
- ``blank_desk``: the desk whose ``get_order`` says "" for a missing order;
- ``OrderTable.list_orders``: a table tool that answers with a summary and a
  page of the matching rows (``page_of``), not every row;
- ``uncited_claims``: the answer's claims that no cited observation supports;
- ``done_when``: the lesson's checklist, ticked from what the runs show;
- ``native_support_agent``: the same script as a chat model, for the stretch.

What it leaves out: a real model (the scripts only show what real ones do),
and side effects (refunding is lesson 06's approval gate).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping

from ..calculator import calculate
from ..models import ReactiveModel
from ..prompts import Scratchpad, build_prompt, render_action, render_final
from ..record import RunResult
from ..scripted_api.models import ChatRequest, ChatTurn, ReactiveChatModel
from ..tools import SupportDesk, ToolRegistry
from ..tools.support import describe_order

QUESTION = (
    "Order 88213 cost 480 plus a 25 fee. It was promised by 6 and delivered at 19:02. "
    "What should the customer be refunded in total?"
)
GOLD = 25
MISSING = 88231  # a transposed number: no such order

# What a model that ignores the stop sequence writes after its action: an observation of its own.
INVENTED = (
    "\nObservation: Order 88213 was late, and late orders are refunded in full."
    "\nThought: So the customer gets the item and the fee back: 480 + 25."
    "\nFinal Answer: Refund 505 INR."
)


class BlankDesk(SupportDesk):
    """The desk with the bug lesson 10 breaks it with: a missing order gives ""."""

    def get_order(self, order_id: int) -> str:
        """Look up an order by its number: status, times, item price and delivery fee.
        Example input: 88213
        """
        return super().get_order(order_id) if order_id in self.orders else ""


def blank_desk() -> ToolRegistry:
    """The support tools with ``BlankDesk.get_order``."""
    desk = BlankDesk()
    return ToolRegistry([desk.get_order, desk.get_policy, calculate])


def support_agent(
    order: int = 88213, *, ignore_stops: bool = False, first_tool: str = "get_order", repeat: bool = False
) -> ReactiveModel:
    """A careful agent's script: order, policy, arithmetic, then an answer that cites its steps.

    ``ignore_stops``: its first reply runs on into an observation it made up;
    ``first_tool``: the tool it names first (a wrong name, until told the real ones);
    ``repeat``: it asks for the order again and again.
    """

    def respond(pad: Scratchpad) -> str:
        last = pad.steps[-1][1] if pad.steps else ""
        if pad.must_answer:
            return _best_effort(pad)
        if not pad.steps or "Unknown tool" in last or repeat:
            tool = first_tool if not pad.steps else "get_order"
            reply = render_action(
                "First the order record: 'by 6' could mean 6 a.m. or 18:00.", tool, str(order)
            )
            return reply + (INVENTED if ignore_stops and not pad.steps else "")
        if last.startswith("No order"):
            return render_final(
                "The desk has no such order.",
                f"There is no order {order} [{len(pad.steps)}]. Please ask the customer to check the number.",
            )
        if "minutes late" in last or "on time" in last or "early" in last:
            return render_action(
                "The record says 18:00, not 6 a.m. Now the rule.", "get_policy", "late delivery"
            )
        if last.startswith("[late delivery]"):
            late = re.search(r"(\d+) minutes late", pad.steps[-2][1])
            fee = 25 if late and int(late.group(1)) > 30 else 0
            return render_action(
                "Late by more than 30 minutes: the fee back, not the item.", "calculate", f"0 + {fee}"
            )
        if re.fullmatch(r"\d+", last.strip()):
            return render_final(
                "I have every fact, each from an observation.",
                _cited(last.strip(), len(pad.steps), pad.steps[-3][1]),
            )
        # A blank, or a result that says nothing: the model fills the gap with what it expected.
        return render_final(
            "It must have been late.",
            f"Order {order} was delivered 45 minutes late "
            f"[{len(pad.steps)}]. Refund the 25 INR delivery fee.",
        )

    return ReactiveModel(respond=respond, ignore_stops=ignore_stops)


def native_support_agent(first_tool: str = "get_order") -> ReactiveChatModel:
    """The careful script as a chat model, for the native stretch: tool calls, not text.

    Each turn follows from the results so far; ``first_tool`` as in ``support_agent``.
    """

    def respond(request: ChatRequest) -> ChatTurn | str:
        results = [r for r in request.tool_results if not r.startswith("Unknown tool")]
        if not request.tool_results:
            return ChatTurn.calling(first_tool, order_id=88213)
        if not results:
            return ChatTurn.calling("get_order", order_id=88213)
        if len(results) == 1:
            return ChatTurn.calling("get_policy", topic="late delivery")
        if len(results) == 2:
            return ChatTurn.calling("calculate", expression=f"0 + {25 if _late_by(results[0]) > 30 else 0}")
        return _cited(results[2], len(request.tool_results), results[0])

    return ReactiveChatModel(respond=respond)


def _late_by(record: str) -> int:
    found = re.search(r"(\d+) minutes late", record)
    return int(found.group(1)) if found else 0


def _cited(total: str, last: int, record: str) -> str:
    """The answer, citing the steps of the order (last - 2), the policy and the sum (last)."""
    timing = re.search(r"\(([^)]*)\)", record)
    return (
        f"Refund {total} INR [{last}]. The order arrived {timing.group(1) if timing else 'late'} "
        f"[{last - 2}], and more than 30 minutes late refunds the fee but not the item [{last - 1}]."
    )


def _best_effort(pad: Scratchpad) -> str:
    seen = [obs for _, obs in pad.steps if obs]
    return render_final(
        "The step limit: I answer with what I have.",
        "Not finished: " + (" ".join(seen)[:160] if seen else "nothing looked up yet."),
    )


def bare_loop(
    question: str,
    model: Callable[..., str],
    tools: Mapping[str, Callable[[str], str]],
    *,
    max_steps: int = 8,
    stops: Iterable[str] = ("\nObservation",),
) -> str | None:
    """The loop as tutorials first write it. Four gaps, each a failure lesson 10 shows:

    "Final Answer" is looked for anywhere in the reply (so a reply that ran past
    its action into an invented observation ends the run); the tool is
    ``tools[name]`` (an unknown name raises KeyError); a result goes into the
    prompt as it is (a blank stays blank); at the limit it returns None.
    """
    pad = ""
    for _ in range(max_steps):
        reply = model(build_prompt(question, ", ".join(tools), list(tools), pad), list(stops))
        if "Final Answer:" in reply:
            return reply.split("Final Answer:", 1)[1].strip()
        name = re.search(r"Action:\s*(.*)", reply).group(1).strip()
        argument = re.search(r"Action Input:\s*(.*)", reply).group(1).strip()
        pad += f"{reply}\nObservation: {tools[name](argument)}\n"
    return None


def as_functions(registry: ToolRegistry) -> dict[str, Callable[[str], str]]:
    """A registry's tools as the bare loop wants them: name -> function of the input text."""
    return {
        name: (lambda text, tool=registry[name]: str(tool.call(tool.bind(text)))) for name in registry.names
    }


def page_of(rows: list[str], page: int, size: int) -> str:
    """A summary line, one page of rows, and how to ask for the next page.

    >>> print(page_of(["a", "b", "c"], 1, 2))
    3 rows; page 1 of 2.
    a
    b
    More: page 2.
    """
    pages = max(1, -(-len(rows) // size))
    if not 1 <= page <= pages:
        return f"No page {page}: pages 1 to {pages}."
    shown = rows[(page - 1) * size : page * size]
    more = [f"More: page {page + 1}."] if page < pages else []
    return "\n".join([f"{len(rows)} rows; page {page} of {pages}.", *shown, *more])


class OrderTable:
    """The desk's orders as a table tool: a count by status, then a page of matching rows."""

    def __init__(self, size: int = 2) -> None:
        self.orders, self.size = list(SupportDesk().orders.values()), size

    def list_orders(self, query: str) -> str:
        """List orders with a status (delivered, preparing, cancelled or all), a page at a time.
        Example input: delivered page 2
        """
        words = query.lower().split()
        page = int(words[words.index("page") + 1]) if "page" in words[:-1] and words[-1].isdigit() else 1
        status = next((w for w in words if w in {"delivered", "preparing", "cancelled"}), "all")
        rows = [describe_order(o) for o in self.orders if status in ("all", o["status"])]
        counts = Counter(o["status"] for o in self.orders)
        summary = ", ".join(f"{n} {name}" for name, n in sorted(counts.items()))
        return f"Orders: {summary}. Matching {status!r}: " + page_of(rows, page, self.size)


CITATION = re.compile(r"\[(\d+)\]")
NUMBER = re.compile(r"(?<![\d.])\d+(?:\.\d+)?(?![\d])")


def uncited_claims(answer: str, observations: Mapping[int, str]) -> list[str]:
    """The answer's sentences with a number that no observation they cite contains.

    >>> uncited_claims("Refund 25 INR [3]. It was 62 minutes late.", {3: "25"})
    ['It was 62 minutes late.']
    """
    flagged = []
    for sentence in re.split(r"(?<=[.!?])\s+", answer.strip()):
        cited = [observations[n] for n in map(int, CITATION.findall(sentence)) if n in observations]
        numbers = NUMBER.findall(CITATION.sub("", sentence))
        if numbers and not all(any(n in NUMBER.findall(text) for text in cited) for n in numbers):
            flagged.append(sentence)
    return flagged


def observations_of(result: RunResult) -> dict[int, str]:
    """Each step's number and what its tool returned, for ``uncited_claims``."""
    return {step.number: step.observation for step in result.steps if step.observation}


def done_when(runs: Mapping[str, RunResult], seen: Mapping[str, bool], limit: int) -> list[tuple[str, bool]]:
    """The capstone's checklist, each item ticked from the runs (and what the student saw)."""
    reasons = {"final_answer", "step_limit", "repeating", "error"}
    return [
        (
            "every run logs one end reason: final_answer, step_limit, repeating or error",
            all(r.end_reason in reasons for r in runs.values()),
        ),
        (
            f"no run took more than {limit} steps plus the forced answer",
            all(len(r.steps) <= limit + 1 for r in runs.values()),
        ),
        ("you saw an invented observation, and the fix", seen.get("invented observation", False)),
        ("you saw an invented order, and the fix", seen.get("invented order", False)),
        ("the answer cites the observations it rests on", seen.get("cited", False)),
    ]
