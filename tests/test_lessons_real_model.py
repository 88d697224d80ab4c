"""Every lesson and exercise notebook runs to its last cell on a real model that answers badly.

The model setting points at a stub server on 127.0.0.1 (tests/stub_servers.py)
that does what weak or overloaded real models do: empty replies, prose with no
Thought or Action, the prompt echoed back, a tool that does not exist, and a
refusal (400, context full) from the third call of a run on. A notebook may
show odd results; it must not stop with a traceback, and the key must not
appear in any output. Runs alternate between the kinds of failure (see ``answering_badly``).

The lessons run under more settings (``settings_for``): the same stub as a base
model (``openai-compatible-completions:``, the README's advice for base models,
which native tool calls cannot use), for the lessons that talk to the model
first (00, 05 and 07) a server that refuses connections, and for lesson 08 a
server too slow for every call. All the settings of one notebook run in one
kernel, one pass of every cell each (``ran_under``). Every test of one notebook has the
notebook in its id (``per_notebook``): under ``-n`` they run in one worker (tests/scheduling.py),
so its kernel starts once, while the other notebooks run on the other workers.
"""

from __future__ import annotations

from collections.abc import Callable
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


def per_notebook(notebooks: list[Path]) -> list:
    """The notebooks as parameters, with the same id in every test: the group of one kernel."""
    return [pytest.param(p, id=f"{p.parent.name}/{p.name}") for p in notebooks]


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


@pytest.fixture(scope="module")
def ran_under() -> Callable[[Path, str], object]:
    """The run of a notebook under one setting, by what the setting is for (``settings_for``).

    Every setting of one notebook runs in one kernel, the first time a test asks
    for any of them: each pass runs every cell again, from the first, after
    setting the model's environment variables inside the kernel. The library
    reads them on every call (``course_model``, ``native_client``,
    ``model_settings``), so a pass sees its own setting as a fresh kernel would,
    and a kernel start (seconds on a loaded machine) is paid once per notebook
    instead of once per setting. (Under ``-n``, ``per_notebook`` keeps a notebook's tests
    in one worker.)
    """
    done: dict[Path, dict] = {}

    def ran(notebook: Path, how: str):
        if notebook not in done:
            done[notebook] = _run_every_setting(notebook)
        return done[notebook][how]

    return ran


def _run_every_setting(notebook: Path) -> dict:
    """Each of the notebook's settings (``settings_for``) against its own stub, by what it is for."""
    with (StubServer(answering_badly()) as chat, StubServer(answering_badly()) as base,
          StubServer(stub.slow, one_at_a_time=True, finishing=False) as slow,
          pytest.MonkeyPatch.context() as monkeypatch):
        passes = settings_for(notebook, chat.url, base.url, slow.url)
        monkeypatch.setenv("OPENAI_API_KEY", KEY)
        monkeypatch.setenv("REACT_COURSE_BACKOFF", "0.01")  # retries as a real run makes them, no waits
        for name, value in next(iter(passes.values())).items():  # the first pass's, as the kernel starts
            monkeypatch.setenv(name, value)
        return dict(zip(passes, _execute_passes(notebook, list(passes.values())), strict=True))


@pytest.mark.slow
@pytest.mark.parametrize("notebook", per_notebook(NOTEBOOKS))
def test_the_notebook_runs_to_its_end_on_a_bad_real_model(notebook: Path, ran_under) -> None:
    ran = ran_under(notebook, BADLY)
    assert_ran_to_its_end(ran, notebook, BADLY)
    if notebook.name.startswith("06"):  # the refused structured answer: said, and no verdict printed
        said = _output_of(ran, "refused[:300]")
        assert "no structured answer from this server" in said and "check:" not in said, said


@pytest.mark.slow
@pytest.mark.parametrize("notebook", per_notebook(LESSONS))
def test_the_lesson_runs_to_its_end_on_a_bad_base_model(notebook: Path, ran_under) -> None:
    assert_ran_to_its_end(ran_under(notebook, BASE), notebook, BASE)


@pytest.mark.slow
@pytest.mark.parametrize("notebook", per_notebook(FIRST_TO_CALL))
def test_the_lesson_runs_to_its_end_when_the_server_is_down(notebook: Path, ran_under) -> None:
    ran = ran_under(notebook, DOWN)
    assert_ran_to_its_end(ran, notebook, DOWN)
    if notebook.name.startswith("07"):  # it says so, plainly, and goes on with the scripted model
        said = "".join(o.get("text", "") for o in ran.cells[1].outputs)
        assert "could not talk to http://127.0.0.1:9/v1" in said and "scripted" in said


@pytest.mark.slow
@pytest.mark.parametrize("notebook", per_notebook([ROOT / "notebooks" / "08_token_cost_and_context.ipynb"]))
def test_lesson_08_says_the_model_was_too_slow_on_a_one_request_server(notebook: Path, ran_under) -> None:
    """Every call too slow for its time-out, on a server that keeps working on it: no "0% fewer"."""
    ran = ran_under(notebook, TOO_SLOW)
    assert_ran_to_its_end(ran, notebook, TOO_SLOW)
    said = _output_of(ran, "with_summaries = ")
    assert "No comparison" in said and "too slow" in said and "fewer" not in said, said


BADLY = "on a model that answers badly"
BASE = "on a base model (completions) that answers badly"
DOWN = "with a model server that is down"
TOO_SLOW = "on a model too slow for its time-out"


def settings_for(notebook: Path, chat: str, base: str, slow: str) -> dict[str, dict[str, str]]:
    """The environment of each pass, by what it proves: every notebook on a chat model that answers
    badly; the lessons also as a base model (``openai-compatible-completions:``, the README's advice
    for base models, which native tool calls cannot use); the lessons that talk to the model first
    (00, 05, 07) with the server down; lesson 08 on a one-request server too slow for every call.
    """
    passes = {BADLY: _setting(f"openai-compatible:{chat}:{MODEL}")}
    if notebook in LESSONS:
        passes[BASE] = _setting(f"openai-compatible-completions:{base}:{MODEL}")
    if notebook in FIRST_TO_CALL:
        passes[DOWN] = _setting(UNREACHABLE)
    if notebook.parent.name == "notebooks" and notebook.name.startswith("08"):
        passes[TOO_SLOW] = _setting(f"openai-compatible-completions:{slow}:{MODEL}", timeout="1")
    return passes


def _setting(model: str, timeout: str = "5") -> dict[str, str]:
    return {"REACT_COURSE_MODEL": model, "REACT_COURSE_TIMEOUT": timeout}


def _output_of(ran, marker: str) -> str:
    """The text output of the one code cell whose source holds ``marker``."""
    cell, = [c for c in ran.cells if c.cell_type == "code" and marker in c.source]
    return "".join(o.get("text", "") for o in cell.get("outputs", []))


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


def _execute_passes(notebook: Path, passes: list[dict[str, str]]) -> list:
    """The notebook run once per pass in one kernel; a kernel that dies while starting (a loaded
    machine) gets one more try."""
    try:
        return _run_passes(notebook, passes)
    except RuntimeError as error:
        if "before replying to kernel_info" not in str(error):
            raise
        return _run_passes(notebook, passes)


def _run_passes(notebook: Path, passes: list[dict[str, str]]) -> list:
    """Start the kernel in the test's environment (the first pass's), then before each later pass set its
    environment (and the notebook's folder) inside the kernel and run every cell again."""
    import copy

    import nbformat
    from nbclient import NotebookClient

    from react_course.course.authoring import KERNEL_NAME, clean_cell
    from react_course.course.kernels import KernelManager

    original = nbformat.read(notebook, as_version=4)
    runs = [copy.deepcopy(original) for _ in passes]
    client = NotebookClient(runs[0], timeout=120, kernel_name=KERNEL_NAME, allow_errors=True,
                            resources={"metadata": {"path": str(notebook.parent)}},
                            record_timing=False, coalesce_streams=True, kernel_manager_class=KernelManager)
    with client.setup_kernel():
        for number, (environment, ran) in enumerate(zip(passes, runs, strict=True)):
            if number:
                reset = nbformat.v4.new_code_cell(
                    f"import os\nos.chdir({str(notebook.parent)!r})\nos.environ.update({environment!r})")
                client.nb = nbformat.v4.new_notebook(cells=[reset])  # nbclient stores the cell at its index
                client.execute_cell(reset, 0)
                assert not reset.outputs, f"the pass's set-up failed: {reset.outputs}"
            client.nb = ran
            for index, cell in enumerate(ran.cells):
                clean_cell(cell)
                client.execute_cell(cell, index)
    return runs


def failure(number: int, cell) -> str:
    """One line per failing cell: its index, its first line, and the error."""
    error = next(o for o in cell.outputs if o.get("output_type") == "error")
    first = (cell.source.strip().splitlines() or [""])[0][:60]
    return f"  cell {number} ({first!r}): {error.ename}: {str(error.evalue)[:300]}"
