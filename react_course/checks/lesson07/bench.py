"""The sample tools of 07.run_calls: each records when it ran and on which thread, so that the
check can tell parallel from one-at-a-time without timing anything a loaded machine could change.

Kept apart from the spec (``run_calls.py``) so that each stays short.
"""

from __future__ import annotations

import threading
from typing import Any

WAIT = 0.5  # the most a tool in a pool's thread waits for the others (a right solution never does)


class Bench:
    """Sample tools that record how they ran (see the module docstring)."""

    def __init__(self, together: int = 0, side: frozenset[str] = frozenset()) -> None:
        self.caller, self.lock, self.side = threading.get_ident(), threading.Lock(), side
        self.barrier = threading.Barrier(together, timeout=WAIT) if together else None
        self.active, self.started, self.overlapped, self.alone, self.waits = 0, [], False, False, 0
        self.changed, self.finished = threading.Condition(self.lock), threading.Event()

    def _run(self, name: str, work: Any) -> str:
        with self.changed:
            self.active += 1
            self.started.append(name)
            at = len(self.started)
            self.overlapped |= self.active > 1
            self.changed.notify_all()
        try:
            with self.changed:
                if threading.get_ident() != self.caller and name in self.side:
                    self.waits += 1  # only a run in a pool's thread waits: a right solution never does
                    self.changed.wait_for(lambda: len(self.started) > at, WAIT)
                self.overlapped |= self.active > 1
            return work()
        finally:
            with self.lock:
                self.active -= 1
            self.finished.set()

    def unit_price(self, item: str, note: str | None = None) -> str:
        """Return the price of one shop item. Example input: pen"""
        return self._run("unit_price", lambda: self._meet() + self._price(item))

    def _price(self, item: str) -> str:
        return f"A {item} costs {({'pen': 2, 'notebook': 4, 'ruler': 3}).get(item, len(item))}."

    def _meet(self) -> str:
        if self.barrier is None:
            return ""
        if threading.get_ident() == self.caller:
            self.alone = True
            return ""
        try:
            self.barrier.wait()
        except threading.BrokenBarrierError:
            self.alone = True
        return ""

    def slow_price(self, item: str) -> str:
        """Return the price of one shop item, after the other calls of a parallel turn. Example input: pen"""
        if threading.get_ident() != self.caller:
            self.finished.wait(WAIT)  # in a pool, the next call finishes first
        return self._run("slow_price", lambda: self._price(item))

    def charge(self, amount: int) -> str:
        """Charge the customer's card (a side effect). Example input: 16"""
        return self._run("charge", lambda: f"Charged {amount}.")

    def email(self, to: str) -> str:
        """Email a receipt (a side effect). Example input: ana@example.com"""
        return self._run("email", lambda: f"Receipt sent to {to}.")

    def crash(self, item: str) -> str:
        """A tool that fails. Example input: pen"""
        raise KeyError(item)

    def fail(self) -> str:
        """A tool that fails without a message."""
        raise RuntimeError

    def tools(self) -> dict[str, Any]:
        return {"unit_price": self.unit_price, "slow_price": self.slow_price, "charge": self.charge,
            "email": self.email,
                "crash": self.crash, "fail": self.fail}
