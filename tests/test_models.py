"""Scripted models: replies in order, stop sequences honoured, every call recorded."""

from __future__ import annotations

import pytest

from react_course.models import ReactiveModel, ScriptedModel, ScriptExhausted
from react_course.prompts import read_prompt

REPLY = "Thought: t\nAction: search\nAction Input: Paris\nObservation: invented\nFinal Answer: x"


def test_scripted_model_replays_in_order_and_records_calls() -> None:
    model = ScriptedModel(["one", "two"])
    assert model("p1") == "one"
    assert model("p2", stop=["\nObservation"]) == "two"
    assert [c.prompt for c in model.calls] == ["p1", "p2"]
    assert model.calls[1].stop == ("\nObservation",)
    assert model.replies_left == 0


def test_scripted_model_honours_stop_sequences_like_an_api() -> None:
    model = ScriptedModel([REPLY])
    assert model("p", ["\nObservation"]) == "Thought: t\nAction: search\nAction Input: Paris"
    assert model.calls[0].reply.endswith("Paris")


def test_ignore_stops_returns_the_invented_observation() -> None:
    model = ScriptedModel([REPLY], ignore_stops=True)
    assert "Observation: invented" in model("p", ["\nObservation"])


def test_running_out_of_replies_says_so() -> None:
    model = ScriptedModel(["only"])
    model("p")
    with pytest.raises(ScriptExhausted, match="given 1 and this is call 2"):
        model("p")


def test_reactive_model_reads_the_latest_observation() -> None:
    model = ReactiveModel([(r"No page", "retry"), (r"330 m", "done"), (r"tower", "first")],
                          default="lost")
    assert model("Question: Which tower?") == "first"
    assert model("Question: Which tower?\nThought: a\nObservation: No page matches.") == "retry"
    prompt = "Question: q\nThought: a\nObservation: No page\nThought: b\nObservation: 330 m tall"
    assert model(prompt) == "done"
    assert model("Question: something else") == "lost"
    assert len(model.calls) == 4


def test_reactive_model_with_functions() -> None:
    model = ReactiveModel([(lambda pad: len(pad.steps) >= 2, lambda pad: f"{len(pad.steps)} steps")],
                          default=lambda pad: f"asked: {pad.question}")
    assert model("Question: hi") == "asked: hi"
    assert model("Question: hi\nObservation: a\nThought: b\nObservation: c") == "2 steps"


def test_reactive_model_respond_function_and_stops() -> None:
    model = ReactiveModel(respond=lambda pad: REPLY)
    assert model("Question: q", ["\nObservation"]).endswith("Action Input: Paris")


def test_reactive_model_needs_rules_or_a_function() -> None:
    with pytest.raises(ValueError):
        ReactiveModel()


def test_read_prompt_skips_the_example_and_splits_steps() -> None:
    prompt = ("Question: example\nThought: e\nObservation: example obs\n\n"
              "Question: real?\nThought: one\nAction: search\nAction Input: x\n"
              "Observation: first\nline two\nThought: two\nAction: lookup\nAction Input: y\n"
              "Observation: second")
    pad = read_prompt(prompt)
    assert pad.question == "real?"
    assert pad.observations == ["first\nline two", "second"]
    assert pad.steps[1][0].startswith("Thought: two")
    assert not pad.must_answer


def test_a_single_stop_string_is_one_sequence() -> None:
    model = ScriptedModel(["Thought: a\nAction: search\nAction Input: x\nObservation: y"])
    assert model("p", "\nObservation") == "Thought: a\nAction: search\nAction Input: x"
    prompt, stop, reply = model.calls[0]
    assert stop == ("\nObservation",) and prompt == "p" and reply.endswith("x")
