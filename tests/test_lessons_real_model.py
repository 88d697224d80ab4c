"""Every lesson and exercise notebook runs to its last cell on a real model that answers badly.

The model setting points at a stub server on 127.0.0.1 (tests/stub_servers.py)
that does what weak or overloaded real models do: empty replies, prose with no
Thought or Action, the prompt echoed back, or a refusal (400, context full)
from the third call on. A notebook may show odd results; it must not stop with
a traceback, and the key must not appear in any output.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import stub_servers as stub
from stub_servers import KEY, MODEL, StubServer

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted([*ROOT.glob("notebooks/[0-9]*.ipynb"), *ROOT.glob("exercises/[0-9]*.ipynb")])

PROSE = "I think the answer is probably somewhere in the documents, but I am not sure."


def badly(request: stub.Request) -> stub.Reply:
    """Empty, prose, the prompt echoed, then a step that names no real tool; round and round."""
    prompt = (request.body or {}).get("prompt") or str((request.body or {}).get("messages", ""))
    replies = ["", PROSE, prompt[:3000], "Thought: look it up\nAction: google\nAction Input: x"]
    return stub.model_reply(request, replies[(request.number - 1) % len(replies)])


BEHAVIOURS = {
    "answers badly": badly,
    "refuses after two calls": stub.then_fail(badly, 2, stub.context_full),
}


@pytest.mark.slow
@pytest.mark.parametrize("behaviour", BEHAVIOURS, ids=list(BEHAVIOURS))
@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[f"{p.parent.name}/{p.name}" for p in NOTEBOOKS])
def test_the_notebook_runs_to_its_end_on_a_bad_real_model(notebook: Path, behaviour: str,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from react_course.authoring import execute_notebook

    with StubServer(BEHAVIOURS[behaviour]) as server:
        monkeypatch.setenv("REACT_COURSE_MODEL", f"openai-compatible:{server.url}:{MODEL}")
        monkeypatch.setenv("OPENAI_API_KEY", KEY)
        monkeypatch.setenv("REACT_COURSE_TIMEOUT", "5")
        ran = execute_notebook(notebook, save=False, timeout=120, allow_errors=True)
    failures = [failure(number, cell) for number, cell in enumerate(ran.cells)
                if any(o.get("output_type") == "error" for o in cell.get("outputs", []))]
    assert not failures, f"{notebook.name} on a model that {behaviour}:\n" + "\n".join(failures)
    assert KEY not in str([cell.get("outputs", []) for cell in ran.cells])


def failure(number: int, cell) -> str:
    """One line per failing cell: its index, its first line, and the error."""
    error = next(o for o in cell.outputs if o.get("output_type") == "error")
    first = (cell.source.strip().splitlines() or [""])[0][:60]
    return f"  cell {number} ({first!r}): {error.ename}: {str(error.evalue)[:300]}"
