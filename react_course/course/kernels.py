"""A kernel client that looks at its sockets again, so a reply already sent is read within a second.

jupyter_client's asyncio channels wait for a message on pyzmq's edge-triggered wake-up, for
as long as the caller allows (nbclient: the whole cell time-out). Seen in this course: lesson 08
under nbclient, its widgets cell, about one run in six on a busy 2-core machine; the kernel
replied at once (the reply's own date), and the client read the reply 119.5 s later, when the
120 s time-out ended the wait and pyzmq polled the socket directly. The cell did not fail:
it only cost two minutes. (The kernel side of such a wedge, ipykernel PR #1529, is in the
ipykernel the course locks; this is the client's side.)

``PatientChannel.get_msg`` waits the same time in turns of ``LOOK_AGAIN`` seconds. Each turn
ends with pyzmq's direct poll of the socket, so a missed wake-up costs one turn, not the rest
of the time-out. ``KernelManager`` hands out clients with these channels; every notebook runner
of the course uses it (``execute_notebook``, the grader, the tests' own runners). nbval needs
none: it uses jupyter_client's blocking client, which polls the socket itself.
"""

from __future__ import annotations

import time
from queue import Empty
from typing import Any

from jupyter_client import AsyncKernelManager
from jupyter_client.asynchronous import AsyncKernelClient
from jupyter_client.channels import AsyncZMQSocketChannel
from traitlets import DottedObjectName, Type

LOOK_AGAIN = 0.5  # seconds: the longest a message already in the socket can wait to be read
monotonic = time.monotonic  # the tests give it a clock of their own


class PatientChannel(AsyncZMQSocketChannel):
    """An asyncio channel whose wait for a message is cut into short turns (see the module)."""

    async def get_msg(self, timeout: float | None = None) -> dict[str, Any]:
        """The next message; ``Empty`` once ``timeout`` seconds have passed without one."""
        deadline = None if timeout is None else monotonic() + timeout
        while True:
            left = None if deadline is None else max(0.0, deadline - monotonic())
            turn = LOOK_AGAIN if left is None else min(LOOK_AGAIN, left)
            if await self.socket.poll(int(turn * 1000)):  # a turn ends with a direct poll
                return await self._recv()
            if deadline is not None and monotonic() >= deadline:
                raise Empty


class PatientClient(AsyncKernelClient):
    """jupyter_client's asyncio client with ``PatientChannel`` for every zmq channel."""

    shell_channel_class = Type(PatientChannel)
    iopub_channel_class = Type(PatientChannel)
    stdin_channel_class = Type(PatientChannel)
    control_channel_class = Type(PatientChannel)


class KernelManager(AsyncKernelManager):
    """jupyter_client's asyncio kernel manager, whose clients are ``PatientClient``s."""

    client_class = DottedObjectName(f"{__name__}.PatientClient", config=True)
    client_factory = Type(PatientClient, klass=AsyncKernelClient, config=True)
