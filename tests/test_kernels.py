"""The course's kernel client (react_course/course/kernels.py): a reply already in the socket is
read within one turn, whatever happened to pyzmq's wake-up.

The socket here is a stand-in whose wake-up never comes, as in the lesson 08 runs where the
kernel's reply waited 119.5 s in the client: a wait ends only at its own time-out, and then
finds what is queued. The clock is the stand-in's too, so nothing here sleeps or reads the time.
"""

from __future__ import annotations

import asyncio
from queue import Empty
from types import SimpleNamespace

import pytest
from jupyter_client.channels import AsyncZMQSocketChannel

from react_course.course import kernels


class NoWakeUp:
    """A socket whose asyncio wake-up is always missed: ``poll`` returns at the end of its wait."""

    def __init__(self, clock: SimpleNamespace, arrivals: dict[float, str]) -> None:
        self.clock, self.arrivals, self.waits = clock, dict(arrivals), []

    def queued(self) -> list[str]:
        return [message for at, message in sorted(self.arrivals.items()) if at <= self.clock.now]

    async def poll(self, timeout_ms: int | None = None) -> int:
        self.waits.append(timeout_ms)
        self.clock.now += (timeout_ms or 0) / 1000
        return int(bool(self.queued()))

    def take(self) -> str:
        first = self.queued()[0]
        self.arrivals = {at: m for at, m in self.arrivals.items() if m != first}
        return first


def channel(kind: type, socket: NoWakeUp):
    class OnTheStandIn(kind):
        def __init__(self) -> None:  # no zmq socket, no session
            self.socket = socket

        async def _recv(self, **_):
            return {"content": socket.take()}

    return OnTheStandIn()


@pytest.fixture
def clock(monkeypatch) -> SimpleNamespace:
    now = SimpleNamespace(now=0.0)
    monkeypatch.setattr(kernels, "monotonic", lambda: now.now)
    return now


def get(kind: type, socket: NoWakeUp, timeout: float | None):
    return asyncio.run(channel(kind, socket).get_msg(timeout=timeout))


def test_a_reply_already_queued_is_read_after_one_turn_not_the_whole_time_out(clock) -> None:
    socket = NoWakeUp(clock, {0.0: "execute_reply"})
    assert get(kernels.PatientChannel, socket, timeout=120) == {"content": "execute_reply"}
    assert socket.waits == [500], socket.waits
    # jupyter_client's own channel, on the same socket, waits the whole time-out (the bug seen).
    stuck = NoWakeUp(SimpleNamespace(now=0.0), {0.0: "execute_reply"})
    assert get(AsyncZMQSocketChannel, stuck, timeout=120) == {"content": "execute_reply"}
    assert stuck.waits == [120_000]


def test_a_reply_that_comes_later_is_read_at_the_end_of_its_turn(clock) -> None:
    socket = NoWakeUp(clock, {1.7: "execute_reply"})
    assert get(kernels.PatientChannel, socket, timeout=120) == {"content": "execute_reply"}
    assert socket.waits == [500, 500, 500, 500] and clock.now == pytest.approx(2.0)


def test_with_nothing_to_read_it_gives_up_at_the_time_out_exactly(clock) -> None:
    socket = NoWakeUp(clock, {})
    with pytest.raises(Empty):
        get(kernels.PatientChannel, socket, timeout=2.2)
    assert socket.waits == [500, 500, 500, 500, 200] and clock.now == pytest.approx(2.2)


def test_a_zero_time_out_looks_once(clock) -> None:
    socket = NoWakeUp(clock, {})
    with pytest.raises(Empty):
        get(kernels.PatientChannel, socket, timeout=0)
    assert socket.waits == [0]


def test_no_time_out_waits_turn_after_turn_until_a_message_comes(clock) -> None:
    socket = NoWakeUp(clock, {30.2: "status: idle"})
    assert get(kernels.PatientChannel, socket, timeout=None) == {"content": "status: idle"}
    assert len(socket.waits) == 61 and set(socket.waits) == {500}


def test_the_managers_clients_have_the_patient_channels() -> None:
    client = kernels.KernelManager().client()
    assert isinstance(client, kernels.PatientClient)
    for name in ("shell", "iopub", "stdin", "control"):
        assert getattr(client, f"{name}_channel_class") is kernels.PatientChannel, name


def test_every_runner_of_the_course_starts_its_kernel_with_the_patient_manager(monkeypatch, tmp_path) -> None:
    """execute_notebook (lessons, the doctor, benchmarks) and the grader, sandboxed or not."""
    import nbformat
    from nbclient import NotebookClient

    from react_course.course import authoring, grade_ask, grade_run

    managers = []
    monkeypatch.setattr(NotebookClient, "execute", lambda self, **_: managers.append(
        type(self.km) if self.km is not None else self.kernel_manager_class))
    path = tmp_path / "one.ipynb"
    path.write_text(nbformat.writes(nbformat.v4.new_notebook()), encoding="utf-8")
    authoring.execute_notebook(path, save=False)
    job = {"cell_timeout": 5, "check_timeout": 5, "kernel": "python3"}
    monkeypatch.setattr(grade_ask.AskingClient, "execute", NotebookClient.execute)
    grade_run.execute(nbformat.v4.new_notebook(), job, {}, tmp_path, tmp_path)
    monkeypatch.setattr(grade_run, "sandboxed_kernel", lambda *_: kernels.KernelManager())
    grade_run.execute(nbformat.v4.new_notebook(), {**job, "sandbox": True}, {}, tmp_path, tmp_path)
    assert managers == [kernels.KernelManager] * 3, managers
