"""Every lesson and exercise notebook runs to its last cell on a real model that answers badly.

The model setting points at a stub server on 127.0.0.1 (tests/stub_servers.py)
that does what weak or overloaded real models do: empty replies, prose with no
Thought or Action, the prompt echoed back, a tool that does not exist, and a
refusal (400, context full) from the third call of a run on. A notebook may
show odd results; it must not stop with a traceback, and the key must not
appear in any output. One pass per notebook: runs alternate between the kinds
of failure (see ``answering_badly``).

The lessons run under two more settings: the same stub as a base model
(``openai-compatible-completions:``, the README's advice for base models,
which native tool calls cannot use), and, for the lessons that talk to the
model first (00, 05 and 07), a server that refuses connections.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import stub_servers as stub
from stub_servers import KEY, MODEL, StubServer

ROOT = Path(__file__).resolve().parents[1]
# Exercise notebooks run on scripted models; only those that read the model setting are run here.
READS_THE_SETTING = ("course_model", "native_client", "uses_real_model", "real_model(")
NOTEBOOKS = sorted([*ROOT.glob("notebooks/[0-9]*.ipynb"),
                    *(p for p in ROOT.glob("exercises/[0-9]*.ipynb")
                      if any(name in p.read_text(encoding="utf-8") for name in READS_THE_SETTING))])

LESSONS = sorted(ROOT.glob("notebooks/[0-9]*.ipynb"))
FIRST_TO_CALL = [p for p in LESSONS if p.name[:2] in ("00", "05", "07")]
UNREACHABLE = "openai-compatible:http://127.0.0.1:9/v1:m"  # port 9 (discard): nothing listens

PROSE = "I think the answer is probably somewhere in the documents, but I am not sure."


def _prompt_text(body: dict) -> str:
    if "prompt" in body:
        return str(body["prompt"])
    return "\n".join(str(m.get("content") or "") for m in body.get("messages", []) if isinstance(m, dict))


def _starts_a_run(body: dict) -> bool:
    """A first call: no earlier turn of the model in the messages, no Observation after the question."""
    messages = [m for m in body.get("messages", []) if isinstance(m, dict)]
    if any(m.get("role") in ("assistant", "tool") for m in messages):
        return False
    return "Observation:" not in _prompt_text(body).rpartition("Question:")[2]


def answering_badly() -> stub.Behaviour:
    """Bad answers of every kind, and a refusal in the middle of a run.

    Runs alternate, starting with a refused one, so that a lesson with a single
    run meets the refusal too: a refused run gets the prompt echoed back, then a
    step naming a tool that does not exist, then 400 (context full) from its
    third call on, as a small server's context window fills up. The other runs
    get empty replies, prose, the echo and the unknown tool, round and round.
    A JSON-schema response format is refused with a 500 (lesson 06's structured answer).
    """
    state = {"runs": 0, "calls": 0, "answered": 0}

    @stub.refusing_response_format  # a structured answer refused, as llama-cpp-python refuses it
    def behaviour(request: stub.Request) -> stub.Reply:
        body = request.body if isinstance(request.body, dict) else {}
        if _starts_a_run(body):
            state["runs"], state["calls"] = state["runs"] + 1, 0
        state["calls"] += 1
        echo, unknown = _prompt_text(body)[:3000], "Thought: look it up\nAction: google\nAction Input: x"
        if state["runs"] % 2 == 1:
            if state["calls"] > 2:
                return stub.context_full(request)
            return stub.model_reply(request, [echo, unknown][state["calls"] - 1])
        state["answered"] += 1
        replies = ["", PROSE, echo, unknown]
        return stub.model_reply(request, replies[(state["answered"] - 1) % len(replies)])

    return behaviour


@pytest.mark.slow
@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[f"{p.parent.name}/{p.name}" for p in NOTEBOOKS])
def test_the_notebook_runs_to_its_end_on_a_bad_real_model(notebook: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    with StubServer(answering_badly()) as server:
        ran = _execute_under(monkeypatch, notebook, f"openai-compatible:{server.url}:{MODEL}")
    assert_ran_to_its_end(ran, notebook, "on a model that answers badly")
    if notebook.name.startswith("06"):  # the refused structured answer: said, and no verdict printed
        said = _output_of(ran, "refused[:300]")
        assert "no structured answer from this server" in said and "check:" not in said, said


@pytest.mark.slow
@pytest.mark.parametrize("notebook", LESSONS, ids=[p.name for p in LESSONS])
def test_the_lesson_runs_to_its_end_on_a_bad_base_model(notebook: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    with StubServer(answering_badly()) as server:
        ran = _execute_under(monkeypatch, notebook, f"openai-compatible-completions:{server.url}:{MODEL}")
    assert_ran_to_its_end(ran, notebook, "on a base model (completions) that answers badly")


@pytest.mark.slow
@pytest.mark.parametrize("notebook", FIRST_TO_CALL, ids=[p.name for p in FIRST_TO_CALL])
def test_the_lesson_runs_to_its_end_when_the_server_is_down(notebook: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    ran = _execute_under(monkeypatch, notebook, UNREACHABLE)
    assert_ran_to_its_end(ran, notebook, "with a model server that is down")
    if notebook.name.startswith("07"):  # it says so, plainly, and goes on with the scripted model
        said = "".join(o.get("text", "") for o in ran.cells[1].outputs)
        assert "could not talk to http://127.0.0.1:9/v1" in said and "scripted" in said


@pytest.mark.slow
def test_lesson_08_says_the_model_was_too_slow_on_a_one_request_server(monkeypatch) -> None:
    """Every call too slow for its time-out, on a server that keeps working on it: no "0% fewer"."""
    notebook = ROOT / "notebooks" / "08_token_cost_and_context.ipynb"
    with StubServer(stub.slow, one_at_a_time=True, finishing=False) as server:
        ran = _execute_under(monkeypatch, notebook, f"openai-compatible-completions:{server.url}:{MODEL}",
                             timeout="1")
    assert_ran_to_its_end(ran, notebook, "on a model too slow for its time-out")
    said = _output_of(ran, "with_summaries = ")
    assert "No comparison" in said and "too slow" in said and "fewer" not in said, said


def _output_of(ran, marker: str) -> str:
    """The text output of the one code cell whose source holds ``marker``."""
    cell, = [c for c in ran.cells if c.cell_type == "code" and marker in c.source]
    return "".join(o.get("text", "") for o in cell.get("outputs", []))


def _execute_under(monkeypatch: pytest.MonkeyPatch, notebook: Path, setting: str, timeout: str = "5"):
    monkeypatch.setenv("REACT_COURSE_MODEL", setting)
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("REACT_COURSE_TIMEOUT", timeout)
    monkeypatch.setenv("REACT_COURSE_BACKOFF", "0.01")  # retries as a real run makes them, without the waits
    return _execute(notebook)


def assert_ran_to_its_end(ran, notebook: Path, how: str) -> None:
    """No cell stopped with a traceback, every code cell ran (the last one too), the key never shows."""
    failures = [failure(number, cell) for number, cell in enumerate(ran.cells)
                if any(o.get("output_type") == "error" for o in cell.get("outputs", []))]
    assert not failures, f"{notebook.name} {how}:\n" + "\n".join(failures)
    code = [cell for cell in ran.cells if cell.cell_type == "code"]
    assert all(cell.get("execution_count") for cell in code), f"{notebook.name}: a cell did not run"
    assert KEY not in str([cell.get("outputs", []) for cell in ran.cells])


def test_the_bad_model_gives_every_kind_of_bad_answer() -> None:
    """Fast: what the stub answers, call by call, over two runs of three calls."""
    import json

    behaviour = answering_badly()
    first = "Tools...\nQuestion: q"
    later = first + "\nThought: t\nAction: search\nAction Input: x\nObservation: o"
    replies = []
    for number, prompt in enumerate([first, later, later, first, later, later], start=1):
        request = stub.Request("POST", "/v1/completions", {}, {"prompt": prompt}, number)
        reply = behaviour(request)
        body = json.loads(reply.body)
        replies.append(body["choices"][0]["text"] if reply.status == 200 else reply.status)
    unknown = "Thought: look it up\nAction: google\nAction Input: x"
    assert replies == [first, unknown, 400, "", PROSE, later]


def _execute(notebook: Path):
    """Run the notebook; a kernel that dies while starting (a loaded machine) gets one more try."""
    from react_course.course.authoring import execute_notebook

    try:
        return execute_notebook(notebook, save=False, timeout=120, allow_errors=True)
    except RuntimeError as error:
        if "before replying to kernel_info" not in str(error):
            raise
        return execute_notebook(notebook, save=False, timeout=120, allow_errors=True)


def failure(number: int, cell) -> str:
    """One line per failing cell: its index, its first line, and the error."""
    error = next(o for o in cell.outputs if o.get("output_type") == "error")
    first = (cell.source.strip().splitlines() or [""])[0][:60]
    return f"  cell {number} ({first!r}): {error.ename}: {str(error.evalue)[:300]}"
