"""The evaluation set, the scorer, the simulated model, the metrics and the runner."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

import react_course as rc
from react_course import run_react
from react_course.evaluate import (
    ASKS,
    DEFAULT,
    FAMILIES,
    PERFECT,
    TYPICAL,
    Config,
    Knobs,
    SimulatedModel,
    TokenBucket,
    compare,
    load_tasks,
    metrics,
    number_matches,
    pass_at_k,
    pass_hat_k,
    percentile,
    repeat_rate,
    run_eval,
    run_succeeded,
    score,
    simulated,
    table,
    task_tools,
)
from react_course.evaluate.metrics import EvalRun, calls_after_answer
from react_course.evaluate.tasks import Task
from react_course.record import RunResult, Step, ToolCall
from react_course.tracing.trace import read_log

TASKS = load_tasks()


def task(kind: str, answer, **extra) -> Task:
    return Task("t", "f", "train", kind, "q?", answer, **extra)


# ------------------------------------------------------------------- the set


def test_the_set_has_every_family_a_held_out_split_and_unique_questions() -> None:
    assert len(TASKS) >= 60
    assert Counter(t.family for t in TASKS).keys() == set(FAMILIES)
    held = load_tasks("heldout")
    assert 10 <= len(held) < len(TASKS) / 3 and {t.family for t in held} == set(FAMILIES)
    assert len({t.question for t in TASKS}) == len(TASKS)
    assert any("SpaceX" in t.question and "Tesla" in t.question for t in TASKS)
    assert any("promised by 6" in t.question for t in TASKS)


def test_every_task_is_solved_by_its_plan_and_failed_by_its_distractor() -> None:
    model = SimulatedModel(TASKS, PERFECT)
    for t in TASKS:
        result = run_react(t.question, model, task_tools())
        assert run_succeeded(result, t), (t.id, result.answer)
        assert not score(t.distractor, t), (t.id, t.distractor)


# ------------------------------------------------------------------- the scorer


def test_a_bare_number_is_not_an_answer_with_a_unit() -> None:
    taller = task("number", {"value": 330, "unit": "m"})
    assert not score("330", taller)
    assert score("330 m taller", taller) and score("It is 0.33 km taller.", taller)
    assert not score("330 feet", taller) and not score("333 m", taller)


def test_the_library_scorer_reads_whole_unit_words_and_never_rounds() -> None:
    # where it agrees with exercise 9.5; where it differs (units convert, plurals and spellings of
    # one unit, a unitless gold takes a bare number) the solutions' summary says so
    for answer in ("330 mm", "330 miles", "330 ms", "It is 330.4 m"):
        assert not number_matches(answer, 330, "m"), answer
    assert number_matches("12 coins", 12, "coin") and number_matches("0.33 km", 330, "m")


def test_text_numbers_no_answer_and_asking() -> None:
    assert score("It was ELON MUSK.", task("text", "Elon Musk"))
    assert not score("Elon", task("text", "Elon Musk"))
    assert score("About 3.9 million more", task("number", {"value": 3.9, "unit": "million"}))
    assert score("About 4 million", task("number", {"value": 3.9, "unit": "million", "tolerance": 0.03}))
    assert not score("In 2004.", task("number", {"value": 2002, "unit": ""}))
    assert score("The founder turns 60 in 2031.", task("number", {"value": 2031, "unit": ""}))
    assert score("The encyclopedia does not say.", task("no_answer", None))
    assert not score("It is 828 m tall.", task("no_answer", None))
    assert score("Which order do you mean?", task("ask_user", None))
    assert not score("It was late.", task("ask_user", None))


def test_a_step_limit_ending_is_never_a_success() -> None:
    right = RunResult("q?", "Best effort: Elon Musk", "step_limit", [])
    assert not run_succeeded(right, task("text", "Elon Musk"))


# ------------------------------------------------------------------- the simulated model


def test_knobs_are_probabilities_and_runs_repeat_exactly() -> None:
    with pytest.raises(ValueError):
        Knobs(repeat=1.5)
    def runs() -> list[list[tuple]]:
        model = SimulatedModel(TASKS, TYPICAL, 3)
        return [[(s.text, s.observation) for s in run_react(t.question, model, task_tools()).steps]
                for t in TASKS[:20]]

    assert runs() == runs()


@pytest.mark.parametrize(("knob", "error"), [("wrong_tool", "unknown_tool"), ("format_drift", "parse_error"),
                                             ("repeat", "repeat")])
def test_each_failure_knob_shows_up_in_the_runs(knob: str, error: str) -> None:
    model = SimulatedModel(TASKS, Knobs(**{knob: 0.5}), seed=1)
    errors = Counter(s.error for t in TASKS[:20] for s in run_react(t.question, model, task_tools()).steps)
    assert errors[error] > 0


def test_endless_thinking_hits_the_step_limit_unless_the_prompt_permits_the_ending() -> None:
    stuck = Knobs(endless_thinking=1.0)
    asks = [t for t in TASKS if t.kind == "ask_user"]
    runs = run_eval(DEFAULT, asks, model_for=lambda r: SimulatedModel(asks, stuck, r))
    assert {r.result.end_reason for r in runs} == {"step_limit"}
    fixed = run_eval(ASKS, asks, model_for=lambda r: SimulatedModel(asks, stuck, r, permits=ASKS.permits))
    assert all(r.success for r in fixed)
    assert all(r.success for r in run_eval(ASKS, asks, model_for=simulated(asks, stuck, ASKS.permits)))


def outcomes_of(config: Config, tasks=TASKS) -> list[tuple[str, int, bool]]:
    return [(r.task.id, r.repeat, r.success) for r in run_eval(config, tasks, repeats=2)]


REWORDED = """\
Question: Where is my package?
Thought: Nothing here names the order, so I cannot look it up. I ask for it.
Final Answer: Could you tell me the order number, please?

Question: What is the population of Atlantis?
Thought: I search first.
Action: search
Action Input: Atlantis
Observation: No page matches 'Atlantis'.
Thought: There is nothing on it in the data.
Final Answer: I could not find Atlantis in the encyclopedia, so I cannot answer."""


def test_rewording_the_fix_keeps_its_effect_and_its_words_alone_have_none() -> None:
    asks = outcomes_of(ASKS)
    reworded = Config("reworded", example=ASKS.example.split("\n\n")[0] + "\n\n" + REWORDED,
                      permits=ASKS.permits)
    assert outcomes_of(reworded) == [(t, r, ok) for t, r, ok in asks]
    words_only = Config("words only", example=ASKS.example)  # the same text, declaring nothing
    assert outcomes_of(words_only) == outcomes_of(DEFAULT)


def test_a_fix_that_should_not_help_does_not() -> None:
    default = outcomes_of(DEFAULT)
    # an example whose answer is a question, about arithmetic: the old rule (a "?" in an example's
    # final answer) took it for permission to ask
    quiz = Config("quiz", example=ASKS.example.split("\n\n")[0] + "\n\nQuestion: What is 2 + 2?\n"
                  "Thought: I know this.\nFinal Answer: 4. Did you mean something harder?")
    assert outcomes_of(quiz) == default
    # a long example that permits nothing costs attention: no better anywhere, worse somewhere
    padded = Config("padded", example=ASKS.example.split("\n\n")[0] + "\n\n" + "Note: be careful. " * 900)
    longer = outcomes_of(padded)
    assert sum(ok for *_, ok in longer) < sum(ok for *_, ok in default)


def test_a_prompt_can_permit_only_the_endings_the_simulator_knows() -> None:
    with pytest.raises(ValueError, match="can permit only"):
        SimulatedModel(TASKS, permits={"anything"})


# ------------------------------------------------------------------- metrics


def fake_run(task_id: str, repeat: int, success: bool, steps: int = 1, end: str = "final_answer",
             calls=()) -> EvalRun:
    made = [Step(i + 1, calls=[ToolCall(f"c{i}", *c)] if c else []) for i, c in
            enumerate(list(calls) + [None] * max(0, steps - len(calls)))]
    t = Task(task_id, "f", "train", "text", "q?", "x")
    return EvalRun(t, repeat, "c", RunResult("q?", "x", end, made), success)


def test_percentile_is_a_rank_not_a_mean() -> None:
    assert percentile([1] * 19 + [20], 95) == 1 and percentile([1] * 18 + [20, 20], 95) == 20


def test_pass_hat_k_needs_every_repeat_pass_at_k_one() -> None:
    runs = [fake_run("a", 0, True), fake_run("a", 1, False), fake_run("b", 0, True), fake_run("b", 1, True)]
    assert pass_hat_k(runs, 2) == 0.5 and pass_at_k(runs, 2) == 1.0


def test_repeat_rate_is_per_run() -> None:
    stuck = fake_run("a", 0, False, calls=[("search", "x")] * 4)
    fine = fake_run("b", 0, True, calls=[("search", "x"), ("search", "y")])
    assert repeat_rate(stuck.result) == 0.75 and repeat_rate(fine.result) == 0.0
    assert metrics([stuck, fine]).repeat_rate == pytest.approx(0.375)


def test_a_run_repeating_one_unreadable_reply_is_counted_as_repeating() -> None:
    unreadable = [Step(n, text="I will search for it now.", error="parse_error") for n in (1, 2, 3, 4)]
    stuck = EvalRun(Task("a", "f", "train", "text", "q?", "x"), 0, "c",
                    RunResult("q?", "", "repeating", unreadable), False)
    pondering = [Step(n, text=f"Thought {n}", error="parse_error") for n in (1, 2, 3)]
    thinking = EvalRun(stuck.task, 1, "c", RunResult("q?", "", "step_limit", pondering), False)
    assert repeat_rate(stuck.result) == 0.75 and repeat_rate(thinking.result) == 0.0
    assert metrics([stuck, thinking]).repeat_rate == pytest.approx(0.375)
    assert "| repeat rate (calls and unreadable replies) | 37.5% |" in table([metrics([stuck, thinking])])


def test_calls_after_the_answer_was_in_an_observation() -> None:
    t = next(t for t in TASKS if t.id == "comparison-01")
    model = SimulatedModel([t], Knobs(extra_call=1.0))
    result = run_react(t.question, model, task_tools())
    assert calls_after_answer(EvalRun(t, 0, "c", result, True)) == 1


def test_metrics_and_comparison_of_two_configurations() -> None:
    a, b = run_eval(DEFAULT, repeats=3), run_eval(ASKS, repeats=3)
    ma, mb = metrics(a), metrics(b)
    assert ma.runs == 3 * len(TASKS) and ma.k == 3
    assert mb.success > ma.success and mb.step_limit_share < ma.step_limit_share
    assert ma.pass_hat_k <= ma.success <= ma.pass_at_k
    diff = compare(a, b)
    assert diff.exceeds_noise and diff.low > 0
    assert "| success (pass@1) |" in table([ma, mb])


# ------------------------------------------------------------------- the runner


def test_a_resumed_evaluation_does_not_rerun_finished_tasks(tmp_path: Path) -> None:
    log, tasks = tmp_path / "eval.jsonl", TASKS[:6]
    made = []

    def model_for(repeat: int) -> SimulatedModel:
        made.append(repeat)
        return SimulatedModel(tasks, TYPICAL, repeat)

    first = run_eval(DEFAULT, tasks[:4], repeats=2, model_for=model_for, log=log)
    assert len(made) == 8
    made.clear()
    both = run_eval(DEFAULT, tasks, repeats=2, model_for=model_for, log=log, resume=True)
    assert len(made) == 4 and len(both) == 12
    assert [r.result.to_json() for r in both if r.task in tasks[:4]] == [r.result.to_json() for r in first]
    assert len(read_log(log).finished) == 12


def test_token_bucket_waits_for_its_rate() -> None:
    now, slept = [0.0], []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        now[0] += seconds

    bucket = TokenBucket(rate=2.0, burst=2, clock=lambda: now[0], sleep=sleep)
    for _ in range(4):
        bucket.take()
    assert slept == [0.5, 0.5]


def test_runs_in_threads_match_runs_in_order() -> None:
    tasks = TASKS[:12]
    alone = run_eval(DEFAULT, tasks, repeats=2)
    threads = run_eval(DEFAULT, tasks, repeats=2, workers=3)
    assert [(r.task.id, r.repeat, r.success, r.result.answer) for r in alone] == \
        [(r.task.id, r.repeat, r.success, r.result.answer) for r in threads]


def test_a_rate_limited_call_is_retried_by_the_run_and_a_refused_one_is_not(monkeypatch) -> None:
    """One retry path: the bucket only paces the calls; the run's budget retries a 429, not a 401."""
    from react_course.errors import ModelError
    from react_course.evaluate import RateLimited

    monkeypatch.setenv("REACT_COURSE_BACKOFF", "0.01")
    failures, calls = [ModelError("slow down", status=429)], []

    def model(prompt, stop=None):
        calls.append(prompt)
        if failures:
            raise failures.pop()
        return "Final Answer: fine"

    bucket = TokenBucket(rate=1000.0, burst=10)
    with pytest.raises(ModelError):
        RateLimited(model, bucket)("p")  # not retried by the wrapper
    failures.append(ModelError("slow down", status=429))
    result = rc.run_react("q", RateLimited(model, bucket), rc.default_tools())
    assert result.end_reason == "final_answer" and [s.error for s in result.steps] == ["model_error", None]
    failures.append(ModelError("bad key", status=401))
    result = rc.run_react("q", RateLimited(model, bucket), rc.default_tools())
    assert result.end_reason == "error" and len(result.steps) == 1


def test_money_per_task_and_per_solved_task_at_a_price() -> None:
    from react_course.context_cost.cost import price_of

    found = metrics(run_eval(DEFAULT, TASKS[:8]), price=price_of("gpt-4o-mini"))
    assert found.money_per_task > 0 and found.money_per_solved >= found.money_per_task
    assert "| money per solved task |" in table([found])
