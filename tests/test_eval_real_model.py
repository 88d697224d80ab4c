"""``react-course eval --model``: the evaluation on a real model's path, offline.

The "real" model here is the careful agent (``evaluate.careful``) behind the
scripted server, or behind a stub that behaves like a slow, rate-limited
server (one request at a time, 429 with Retry-After). Everything listens on
127.0.0.1; no verdict depends on how fast anything ran.
"""

from __future__ import annotations

import _thread
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from react_course.course.cli import main
from react_course.course.eval_command import chosen_tasks, evaluate_command
from react_course.evaluate import DEFAULT, load_tasks, run_eval
from react_course.evaluate.careful import CarefulModel, careful_chat_model, estimate_cost
from react_course.evaluate.runner import EvalInterrupted, subset
from react_course.loop import run_react
from react_course.models import ScriptedModel
from react_course.scripted_api import serve
from react_course.tools import default_tools

TASKS = load_tasks()


def setting(url: str) -> str:
    return f"openai-compatible:{url}:careful"


@pytest.fixture(scope="module")
def careful_url():
    with serve(careful_chat_model(TASKS)) as url:
        yield url


@pytest.mark.parametrize("loop", ["text", "native"])
def test_eval_on_a_served_model_runs_every_chosen_task_in_both_loops(careful_url, tmp_path, capsys,
                                                                     loop) -> None:
    log = tmp_path / "eval.jsonl"
    code = main(["eval", "--model", setting(careful_url), "--loop", loop, "--tasks", "7", "--repeats", "1",
                 "--log", str(log), "--workers", "2", "--rate", "100"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "| success (pass@1) | 100% |" in out and "| ended: final_answer | 7/7 |" in out
    assert f"on {setting(careful_url)} ({loop} loop), 7 runs: at least " in err
    events = [json.loads(line) for line in log.read_text().splitlines()]
    assert {e["meta"]["task"] for e in events if "meta" in e} == {t.id for t in subset(TASKS, 7)}


def test_the_native_loop_refuses_a_configuration_that_only_changes_the_text_prompt(careful_url,
                                                                                   capsys) -> None:
    code = main(["eval", "--model", setting(careful_url), "--loop", "native", "--config", "asks",
                 "--tasks", "1"])
    assert code == 2 and "use --loop text" in capsys.readouterr().err


def test_the_native_loop_on_the_simulated_model_is_refused_in_words(capsys) -> None:
    assert main(["eval", "--loop", "native", "--tasks", "1"]) == 2
    assert "--loop native needs a real model" in capsys.readouterr().err


def test_a_task_count_takes_tasks_from_every_family_in_turn() -> None:
    picked = chosen_tasks(count=14)
    assert len(picked) == 14 and len({t.family for t in picked}) == 7
    assert chosen_tasks("heldout", "dates") == load_tasks("heldout", "dates")
    with pytest.raises(ValueError, match="the families are multi_hop"):
        chosen_tasks(family="weather")


def test_a_family_and_split_with_no_task_in_common_is_said(capsys) -> None:
    assert main(["eval", "--family", "nonsense"]) == 2
    assert "no family 'nonsense'" in capsys.readouterr().err
    for wrong in ("0", "none"):
        with pytest.raises(SystemExit):
            main(["eval", "--tasks", wrong])


def test_the_estimate_counts_a_careful_run_and_bounds_the_worst(capsys) -> None:
    tasks = load_tasks("heldout")
    once, three = estimate_cost(tasks, 1), estimate_cost(tasks, 3)
    careful = run_eval(DEFAULT, tasks, model_for=lambda _r: CarefulModel(tasks))
    assert once.calls == sum(len(r.result.steps) for r in careful)
    assert once.tokens == sum(r.result.usage.total for r in careful)
    assert (three.runs, three.calls, three.tokens) == (45, 3 * once.calls, 3 * once.tokens)
    assert once.most_calls == 15 * (DEFAULT.max_steps + 1) and once.most_tokens > once.tokens
    assert main(["eval", "--estimate", "--split", "heldout", "--repeats", "3"]) == 0
    assert capsys.readouterr().out.startswith("45 runs: at least ")


# ------------------------------------------------- a slow server that rate-limits


class SlowLimitedServer(ThreadingHTTPServer):
    """One request at a time (as llama.cpp serves them), each answered slowly; every fifth is a
    429 with Retry-After: 1. Answers as the careful model would, in the text format. ``times``
    holds when each request arrived and whether it was refused."""

    def __init__(self, tasks: list, delay: float = 0.1) -> None:
        super().__init__(("127.0.0.1", 0), _SlowHandler)
        self.model, self.delay, self.one_at_a_time = CarefulModel(tasks), delay, threading.Lock()
        self.count, self.refused, self.times = 0, 0, []

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_port}/v1"


class _SlowHandler(BaseHTTPRequestHandler):
    server: SlowLimitedServer

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        with self.server.one_at_a_time:
            self.server.count += 1
            self.server.times.append((time.monotonic(), self.server.count % 5 == 0))
            if self.server.count % 5 == 0:
                self.server.refused += 1
                return self._send(429, {"error": {"message": "Rate limit reached", "type": "rate_limit"}},
                                  {"Retry-After": "1"})
            time.sleep(self.server.delay)
            text = self.server.model(body["messages"][-1]["content"])
        self._send(200, {"id": "slow", "object": "chat.completion", "created": 0, "model": body["model"],
                         "choices": [{"index": 0, "finish_reason": "stop",
                                      "message": {"role": "assistant", "content": text}}],
                         "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}})

    def _send(self, status: int, payload: dict, headers: dict | None = None) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        for name, value in {"Content-Type": "application/json", "Content-Length": str(len(data)),
                            **(headers or {})}.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


def test_a_slow_rate_limited_server_gets_every_run_done_by_waiting_out_its_429s(tmp_path) -> None:
    tasks = subset(TASKS, 3)
    server = SlowLimitedServer(tasks)
    threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
    try:  # one worker: the order of the requests, and so which are refused, is fixed
        found, text = evaluate_command(model=setting(server.url), repeats=1, log=tmp_path / "e.jsonl",
                                       workers=1, rate=100, quiet=True, tasks=3, say=lambda _t: None)
    finally:
        server.shutdown()
        server.server_close()
    assert server.refused >= 2 and found.success == 1.0
    assert "| ended: final_answer | 3/3 |" in text
    gaps = [later[0] - at for (at, refused), later in zip(server.times, server.times[1:], strict=False)
            if refused]
    assert gaps and min(gaps) >= 0.9  # each retry waited the server's Retry-After (a sleep's lower bound)


# ------------------------------------------------------------------ Ctrl-C


COUNT_LOCK = threading.Lock()


class InterruptedModel:
    """The careful model, until its ``at``-th call, which is where the user presses Ctrl-C."""

    def __init__(self, at: int, count: list[int], how=None) -> None:
        self.inner, self.at, self.count, self.how = CarefulModel(TASKS), at, count, how

    def __call__(self, prompt: str, stop=None) -> str:
        with COUNT_LOCK:  # two workers share the count: read it under the lock, or both may miss ``at``
            self.count[0] += 1
            nth = self.count[0]
        if nth == self.at:
            if self.how is None:
                raise KeyboardInterrupt
            self.how()
        return self.inner(prompt, stop)


def test_ctrl_c_in_one_thread_stops_the_evaluation_and_resume_runs_the_cut_run_again(tmp_path) -> None:
    tasks, log, count = load_tasks("heldout"), tmp_path / "e.jsonl", [0]
    with pytest.raises(EvalInterrupted) as stopped:
        run_eval(DEFAULT, tasks, model_for=lambda _r: InterruptedModel(8, count), log=log)
    assert 0 < stopped.value.done < stopped.value.total == 15
    runs = run_eval(DEFAULT, tasks, model_for=lambda _r: CarefulModel(tasks), log=log, resume=True)
    assert len(runs) == 15 and all(r.result.end_reason == "final_answer" for r in runs)


def test_ctrl_c_while_workers_run_ends_once_the_runs_in_flight_have_ended(tmp_path) -> None:
    tasks, count = load_tasks("heldout"), [0]
    with pytest.raises(EvalInterrupted) as stopped:
        run_eval(DEFAULT, tasks, model_for=lambda _r: InterruptedModel(5, count, _thread.interrupt_main),
                 log=tmp_path / "e.jsonl", workers=2, rate=1000)
    assert stopped.value.done < 15


def test_ctrl_c_in_the_command_is_one_line_naming_resume(monkeypatch, tmp_path, capsys) -> None:
    from react_course.evaluate import runner

    count = [0]
    monkeypatch.setattr(runner, "simulated", lambda tasks, **_: lambda _r: InterruptedModel(6, count))
    code = main(["eval", "--split", "heldout", "--repeats", "1", "--log", str(tmp_path / "e.jsonl")])
    err = capsys.readouterr().err
    assert code == 130 and "Traceback" not in err
    last = err.strip().splitlines()[-1]
    assert last.startswith("interrupted after ") and "--resume" in last


# ------------------------------------------------------------ the hand-over's words


def test_an_unreadable_reply_sent_again_is_not_called_a_repeated_call() -> None:
    result = run_react("How tall is it?", ScriptedModel(["I am not sure what to do here."] * 9),
                       default_tools(), max_steps=8)
    assert result.end_reason == "repeating" and not result.tool_calls
    assert "repeated a call" not in result.detail and "no call was made" in result.detail
    assert "repeated a call" not in (result.answer or "")


def test_without_the_inspect_extra_the_inspect_task_says_what_to_install(monkeypatch) -> None:
    from react_course.evaluate import inspect_task

    monkeypatch.setitem(__import__("sys").modules, "inspect_ai", None)  # as if not installed
    with pytest.raises(ModuleNotFoundError, match=r'pip install -c constraints.txt -e "\.\[inspect\]"'):
        inspect_task.eval_task("heldout")
