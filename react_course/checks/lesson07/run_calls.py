"""Check 07.run_calls: one turn's tool calls become tool messages, linked by id, in call order.

Parallelism is seen without measuring time: read-only sample tools wait at a
barrier that only opens when all of them are running at once, and
side-effecting ones record whether another tool was running while they ran.

In a browser tab no thread can start: the student's pool runs its tasks one
after another there (``browser.inline_pools``, in every check), so whether calls
run at the same time cannot be seen. The parallel case then says so instead of
failing, and every other case (one message per call, ids, order, every failure
as a result) is checked as on a laptop.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from ... import browser
from .. import exercise
from ..framework import Case
from .common import arguments, messages_ok
from .generated_turns import RUN_CALLS

GENERATED = RUN_CALLS.name
RULES = {
    "one tool message per call, in the order of the calls": ("results in the order of the calls",
                                                            "three calls, three messages", GENERATED),
    "linked by its `tool_call_id`": ("each result linked by its id",),
    "When every call in the turn is read-only, run them in parallel": ("read-only calls run in parallel",),
    "When any call names a tool in `side_effects`, run them one at a time, in order": (
        "a side effect: one at a time", "a side effect: in the order of the calls",
        "a side effect after a read-only call"),
    "A partial failure returns every result and every error": ("a partial failure", GENERATED),
    "a malformed argument string": ("malformed arguments",),
    "an unknown tool": ("an unknown tool",),
    "an exception inside a tool": ("a tool that raises",),
    "give its type and message": ("a tool that raises",),
}
WAIT = 0.8  # how long a read-only sample tool waits for the others at the barrier


class _Bench:
    """Sample tools that record how they ran."""

    def __init__(self, together: int = 0) -> None:
        self.barrier = threading.Barrier(together, timeout=WAIT) if together else None
        self.lock = threading.Lock()
        self.active, self.overlapped, self.started = 0, [], []

    def price(self, item: str) -> str:
        """Return the price of one shop item. Example input: pen"""
        prices = {"pen": 2, "notebook": 4, "ruler": 3}
        self._start("price")
        try:
            return self._price(item, prices)
        finally:
            with self.lock:
                self.active -= 1

    def _price(self, item: str, prices: dict[str, int]) -> str:
        if self.barrier is not None:
            try:
                self.barrier.wait()
            except threading.BrokenBarrierError:
                return f"{item}: ran alone"
        return f"A {item} costs {prices[item]}."

    def slow_price(self, item: str) -> str:
        """Return the price of one shop item, slowly. Example input: pen"""
        time.sleep(0.15)
        return self.price(item)

    def charge(self, amount: int) -> str:
        """Charge the customer's card (a side effect). Example input: 16"""
        return self._side("charge", f"Charged {amount}.")

    def email(self, to: str) -> str:
        """Email a receipt (a side effect). Example input: ana@example.com"""
        return self._side("email", f"Receipt sent to {to}.")

    def _start(self, name: str) -> None:
        with self.lock:
            self.active += 1
            self.started.append(name)
            if self.active > 1:
                self.overlapped.append(name)

    def _side(self, name: str, result: str) -> str:
        self._start(name)
        time.sleep(0.3)  # long enough for a parallel neighbour to start, even on a busy machine
        with self.lock:
            self.active -= 1
        return result

    def crash(self, item: str) -> str:
        """A tool that fails. Example input: pen"""
        raise KeyError(item)

    def tools(self) -> dict[str, Callable[..., str]]:
        return {"price": self.price, "slow_price": self.slow_price, "charge": self.charge,
                "email": self.email, "crash": self.crash}


def _call(number: int, name: str, args: str) -> dict[str, str]:
    return {"id": f"call_{number}", "name": name, "arguments": args}


def _shown(calls: list[dict[str, str]]) -> str:
    return "[" + ", ".join(f"{c['name']}({c['arguments']})" for c in calls) + "]"


def _expect(checks: dict[str, Callable[[str], bool | str]], bench: _Bench | None = None,
            no_overlap: bool = False, order: list[str] | None = None) -> Callable:
    def test(value: dict[str, Any]) -> bool | str:
        got, calls = value["messages"], value["calls"]
        problem = messages_ok(got, calls)
        if problem:
            return problem
        by_id = {m["tool_call_id"]: m["content"] for m in got}
        for call_id, check in checks.items():
            verdict = check(by_id[call_id])
            if verdict is not True:
                return f"the message for {call_id}: {verdict or 'not what the call returned'}"
        if no_overlap and bench.overlapped:
            return (f"{bench.overlapped[0]!r} ran while another call was running: a turn with a side "
                    "effect runs all its calls one at a time, read-only ones too")
        if order is not None and bench.started != order:
            return f"the calls ran in the order {bench.started}, not the calls' order {order}"
        return True
    return test


def _is(text: str) -> Callable[[str], bool | str]:
    def test(got: str) -> bool | str:
        if got.endswith("ran alone"):
            return ("this call ran while no other call was running: read-only calls of one turn "
                    "must run at the same time (in parallel)")
        return got == text or f"expected {text!r}, got {got!r}"
    return test


def _mentions(*words: str) -> Callable[[str], bool | str]:
    def test(got: str) -> bool | str:
        missing = [w for w in words if w.lower() not in got.lower()]
        return not missing or f"say what went wrong (mention {', '.join(map(repr, missing))}); got {got!r}"
    return test


# Where no thread can start (a browser tab), the parallel rule cannot be checked: the case says so.
# It still calls the student's function (on three read-only calls, any answer accepted), so
# that an unwritten one counts as not attempted, as on a laptop, rather than as passed.
NOT_CHECKED = ("read-only calls run in parallel (not checked in the browser: a tab cannot start a thread, "
               "so no two calls can run at the same time there, nor be seen to; checked on a laptop)")


@exercise(
    "07.run_calls",
    "run one turn's tool calls: linked by id, in order, parallel only when read-only",
    hints=(
        "Write a helper that runs one call and always returns text: parse json.loads(arguments) "
        "in a try/except ValueError, check the name is in tools, call tools[name](**values) in a "
        "try/except Exception.",
        "Parallel: with ThreadPoolExecutor() as pool: texts = list(pool.map(one, calls)). "
        "pool.map keeps the calls' order, whichever finishes first.",
        "If any(call['name'] in side_effects for call in calls): texts = [one(c) for c in calls]. "
        "Then build {'role': 'tool', 'tool_call_id': call['id'], 'content': text} for each pair.",
    ),
    rules=RULES,
)
def run_calls_cases(run_calls: Callable):
    def case(name: str, calls: list[dict[str, str]], side: frozenset[str], expect: Callable,
             hint: str, together: int = 0) -> Case:
        bench = _Bench(together)

        def run() -> dict[str, Any]:
            return {"messages": run_calls(calls, bench.tools(), side), "calls": calls}

        return Case(name, run, test=expect(bench), given=f"run_calls({_shown(calls)}, tools, "
                    f"side_effects={set(side) or 'set()'})", hint=hint, show=lambda v: repr(v["messages"]))

    pen, notebook = arguments(item="pen"), arguments(item="notebook")
    ruler = arguments(item="ruler")
    yield case("three calls, three messages",
               [_call(1, "price", pen), _call(2, "price", notebook), _call(3, "price", ruler)], frozenset(),
               lambda b: _expect({"call_1": _is("A pen costs 2."), "call_3": _is("A ruler costs 3.")}),
               "One {'role': 'tool', 'tool_call_id': ..., 'content': ...} per call.")
    yield case("each result linked by its id", [_call(7, "price", notebook), _call(8, "price", pen)],
               frozenset(), lambda b: _expect({"call_7": _is("A notebook costs 4."),
                                               "call_8": _is("A pen costs 2.")}),
               "Take tool_call_id from the call whose result the message carries.")
    yield case("results in the order of the calls",
               [_call(1, "slow_price", notebook), _call(2, "price", pen)], frozenset(),
               lambda b: _expect({"call_1": _is("A notebook costs 4."), "call_2": _is("A pen costs 2.")}),
               "The fast call finishes first; list the results in the calls' order anyway (pool.map does).")
    three = [_call(i, "price", pen) for i in (1, 2, 3)]
    if browser.threads_work():
        yield case("read-only calls run in parallel", three, frozenset(),
                   lambda b: _expect(dict.fromkeys(("call_1", "call_2", "call_3"), _is("A pen costs 2."))),
                   "Three read-only calls wait for each other here: run them at the same time "
                   "(concurrent.futures.ThreadPoolExecutor).", together=3)
    else:
        yield case(NOT_CHECKED, three, frozenset(), lambda b: lambda got: True,
                   "This rule is checked on a laptop, where threads can start.")
    mixed = [_call(1, "charge", arguments(amount=16)), _call(2, "email", arguments(to="ana@example.com")),
             _call(3, "price", pen)]
    side = frozenset({"charge", "email"})
    yield case("a side effect: one at a time", mixed, side,
               lambda b: _expect({"call_1": _is("Charged 16.")}, b, no_overlap=True,
                                 order=["charge", "email", "price"]),
               "If any call's tool is in side_effects, run all the calls in a plain for loop.")
    later = [_call(1, "price", pen), _call(2, "charge", arguments(amount=16)),
             _call(3, "email", arguments(to="ana@example.com"))]
    yield case("a side effect after a read-only call", later, side,
               lambda b: _expect({"call_2": _is("Charged 16.")}, b, no_overlap=True,
                                 order=["price", "charge", "email"]),
               "Look at every call of the turn, not only the first: any side effect means one at a time.")
    reverse = [_call(1, "email", arguments(to="ana@example.com")), _call(2, "charge", arguments(amount=16))]
    yield case("a side effect: in the order of the calls", reverse, side,
               lambda b: _expect({"call_2": _is("Charged 16.")}, b, no_overlap=True,
                                 order=["email", "charge"]),
               "Run side-effecting calls in the order the model wrote them.")
    yield case("malformed arguments", [_call(1, "price", '{"item": "pen"')], frozenset(),
               lambda b: _expect({"call_1": _mentions("json")}),
               "Catch the ValueError json.loads raises and return e.g. 'The arguments are not valid "
               "JSON: ...' as the message's content.")
    yield case("an unknown tool", [_call(1, "get_price", pen)], frozenset(),
               lambda b: _expect({"call_1": _mentions("get_price", "price", "charge")}),
               "Name the unknown tool and list the real ones: \"Unknown tool 'get_price'. "
               "Available tools: ...\"")
    yield case("a tool that raises", [_call(1, "crash", pen)], frozenset(),
               lambda b: _expect({"call_1": _mentions("KeyError", "pen")}),
               "Catch Exception around the call; say the exception's type and its message "
               "(f'{type(error).__name__}: {error}').")
    yield case("a partial failure",
               [_call(1, "price", pen), _call(2, "price", "{item: pen}"), _call(3, "crash", pen),
                _call(4, "price", notebook)], frozenset(),
               lambda b: _expect({"call_1": _is("A pen costs 2."), "call_2": _mentions("json"),
                                  "call_3": _mentions("KeyError", "pen"),
                                  "call_4": _is("A notebook costs 4.")}),
               "One failed call must not lose the others' results: each call gets its own message.")
    yield RUN_CALLS.case(run_calls)
