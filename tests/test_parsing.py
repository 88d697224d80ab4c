"""parse_step: the formats real models write, and the messages for those it cannot read."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from react_course.parsing import Action, FinalAnswer, ParseError, parse_step

ACTIONS = [
    # (reply, tool, input)
    ("Thought: I need it.\nAction: search\nAction Input: Eiffel Tower", "search", "Eiffel Tower"),
    ("Action: search[Eiffel Tower]", "search", "Eiffel Tower"),
    ("Thought 3: x\nAction 3: Search[Statue of Liberty]", "Search", "Statue of Liberty"),
    ("action:search\naction input:Eiffel Tower", "search", "Eiffel Tower"),
    ("ACTION :  search  \nACTION INPUT :   Eiffel Tower  ", "search", "Eiffel Tower"),
    ("**Thought:** hmm\n**Action:** search\n**Action Input:** Eiffel Tower", "search", "Eiffel Tower"),
    ("**Action**: search\n**Action Input**: Eiffel Tower", "search", "Eiffel Tower"),
    ("Action: search\nAction Input:\n  Eiffel Tower", "search", "Eiffel Tower"),
    ("Action:\nsearch[Eiffel Tower]", "search", "Eiffel Tower"),
    ("Action: calculate\nAction Input: (3 * 4 +\n 2 * 2)", "calculate", "(3 * 4 +\n 2 * 2)"),
    ("Action: search[Tesla [company]]", "search", "Tesla [company]"),
    ("Action: calculate[min(3, max(1, 2))]", "calculate", "min(3, max(1, 2))"),
    ('Action: search\nAction Input: "Eiffel Tower"', "search", "Eiffel Tower"),
    ("Action: `search`\nAction Input: `Eiffel Tower`", "search", "Eiffel Tower"),
    ('Action: search("Eiffel Tower")', "search", "Eiffel Tower"),
    ("Action: search[Eiffel Tower] because I need the height", "search", "Eiffel Tower"),
    ("```\nThought: x\nAction: search\nAction Input: Paris\n```", "search", "Paris"),
    ("Some preamble.\nAction: get_order\nAction Input: 88213", "get_order", "88213"),
    ("Action_Input is below\nAction: search\nAction_Input: Paris", "search", "Paris"),
    ("Action: search[unclosed input", "search", "unclosed input"),
    ("Action: today[]", "today", ""),
    ("Action: search.\nAction Input: Paris", "search", "Paris"),
    ("Thought: a\r\nAction: search\r\nAction Input: Paris\r\n", "search", "Paris"),
    ('Action: get_order\nAction Input: {"order_id": 88213}', "get_order", '{"order_id": 88213}'),
]


@pytest.mark.parametrize(("reply", "tool", "tool_input"), ACTIONS)
def test_reads_actions_in_every_format(reply: str, tool: str, tool_input: str) -> None:
    step = parse_step(reply)
    assert isinstance(step, Action), step
    assert (step.tool, step.input) == (tool, tool_input)


@pytest.mark.parametrize(
    ("reply", "answer"),
    [
        ("Thought: done\nFinal Answer: 237 m", "237 m"),
        ("final answer: 237 m", "237 m"),
        ("**Final Answer:** 237 m", "237 m"),
        ("**Final Answer: 237 m**", "237 m"),
        ("Final_Answer: yes", "yes"),
        ("Action: finish[237 m]", "237 m"),
        ("Thought 4: x\nAction 4: Finish[Yes, via the settlement]", "Yes, via the settlement"),
        ("Final Answer:\nThe tower is\n330 m tall.", "The tower is\n330 m tall."),
        ("Final Answer: 16\nObservation: invented", "16"),
    ],
)
def test_reads_final_answers(reply: str, answer: str) -> None:
    step = parse_step(reply)
    assert isinstance(step, FinalAnswer), step
    assert step.answer == answer


def test_keeps_the_thought() -> None:
    step = parse_step("Thought: I need the height\nof the tower.\nAction: search[Eiffel Tower]")
    assert step.thought == "I need the height\nof the tower."
    untagged = parse_step("I should look it up.\nAction: search[Eiffel Tower]")
    assert untagged.thought == "I should look it up."


def test_first_action_counts_and_the_rest_is_recorded_as_discarded() -> None:
    reply = ("Thought: x\nAction: search\nAction Input: Eiffel Tower\n"
             "Observation: It is 500 m tall.\nThought: done\nFinal Answer: 500 m")
    step = parse_step(reply)
    assert isinstance(step, Action) and step.input == "Eiffel Tower"
    assert step.was_cut
    assert "Observation: It is 500 m tall." in step.discarded
    assert "Final Answer: 500 m" in step.discarded


def test_action_then_final_answer_runs_the_action() -> None:
    step = parse_step("Action: search[Eiffel Tower]\nFinal Answer: 330 m")
    assert isinstance(step, Action)
    assert step.discarded == "Final Answer: 330 m"


def test_a_clean_action_has_nothing_discarded() -> None:
    assert not parse_step("Action: search\nAction Input: x").was_cut


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        ("", "empty"),
        ("   \n  ", "empty"),
        ("I think it is 237 m.", "no Action line and no Final Answer line"),
        ("Thought: let me think", "no Action line"),
        ("Action: search", "not followed by an Action Input line"),
        ("Action: Search the web for Eiffel", "only a tool name"),
        ("Action Input: Eiffel Tower", "no Action line naming the tool"),
        ("Action Input:", "no Action line naming the tool"),
        ("Observation: 330 m\nFinal Answer: 330 m", "Only the program writes observations"),
        ("Final Answer:", "Final Answer line is empty"),
        ("Action: 123[x]", "names no tool"),
    ],
)
def test_unreadable_replies_explain_the_format(reply: str, reason: str) -> None:
    step = parse_step(reply)
    assert isinstance(step, ParseError)
    assert reason in step.message
    # The corrective observation always shows both forms to write.
    assert "Action Input: <the input for the tool>" in step.message
    assert "Final Answer: <the answer>" in step.message
    assert step.reply == reply


def test_non_text_is_a_parse_error_not_a_crash() -> None:
    for value in (None, 42, b"Action: x", ["Final Answer: 1"]):
        assert isinstance(parse_step(value), ParseError)  # type: ignore[arg-type]


def test_enormous_reply_is_read_quickly() -> None:
    reply = "Thought: " + "very long " * 200_000 + "\nAction: search\nAction Input: Paris"
    step = parse_step(reply)
    assert isinstance(step, Action) and step.input == "Paris"


KEYWORDS = st.sampled_from(["Thought:", "Action:", "Action Input:", "Final Answer:", "Observation:",
                            "Action 2:", "**Action:**", "finish[", "[", "]", "(", ")", "\n", "`"])


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(KEYWORDS, st.text(max_size=30)), max_size=30).map("".join))
def test_never_raises_and_always_returns_a_step(reply: str) -> None:
    step = parse_step(reply)
    assert isinstance(step, Action | FinalAnswer | ParseError)
    if isinstance(step, ParseError):
        assert step.message.startswith("Could not read your reply")
    if isinstance(step, Action):
        assert step.tool and step.tool.lower() != "finish"


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_never_raises_on_any_text(reply: str) -> None:
    assert isinstance(parse_step(reply), Action | FinalAnswer | ParseError)


def test_actions_are_equal_whatever_the_thought() -> None:
    assert parse_step("Thought: t\nAction: search[x]\nmore") == Action("search", "x")
    assert parse_step("Thought: t\nFinal Answer: 4") == FinalAnswer("4")


@pytest.mark.parametrize(
    ("reply", "answer"),
    [
        ("Action: Final Answer\nAction Input: 237 m", "237 m"),
        ("Action: final_answer[42]", "42"),
        ("Action: Final Answer: 42", "42"),
        ("Thought: done\nAction: None\nFinal Answer: 237", "237"),
        ("Action: None\nAction Input: None\nFinal Answer: x", "x"),
    ],
)
def test_answers_written_as_actions(reply: str, answer: str) -> None:
    assert parse_step(reply) == FinalAnswer(answer)


def test_reasoning_blocks_are_ignored() -> None:
    reply = "<think>Maybe Action: search[wrong]</think>\nThought: t\nAction: search[right]"
    assert parse_step(reply) == Action("search", "right")
    assert parse_step("Action: search[a]\n<think>unfinished") == Action("search", "a")
    assert isinstance(parse_step("Action: None"), ParseError)


def test_an_input_keeps_its_paragraphs() -> None:
    # A tool such as an email sender takes paragraphs; a silent cut would send half a message.
    step = parse_step("Action: send_email\nAction Input: Dear customer,\n\nYour refund is on its way.")
    assert step == Action("send_email", "Dear customer,\n\nYour refund is on its way.")
    multi = parse_step("Action: calculate\nAction Input: (3 * 4 +\n 2 * 2)")
    assert multi.input == "(3 * 4 +\n 2 * 2)"


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("Thought: I need the height. Action: search[Eiffel Tower]", Action("search", "Eiffel Tower")),
        ("I will look. Action: search\nAction Input: Paris", Action("search", "Paris")),
        ("Thought: done! Final Answer: 237 m", FinalAnswer("237 m")),
        ("1. Thought: x\n2. Action: search\n3. Action Input: Paris", Action("search", "Paris")),
        ("Action: search()\nAction Input: Eiffel Tower", Action("search", "Eiffel Tower")),
        ("Action: search\nAction Input: ```Eiffel Tower```", Action("search", "Eiffel Tower")),
        ("<think>Plan.\nObservation: I expect 330 m.\n</think>\nAction: search[Eiffel Tower]",
         Action("search", "Eiffel Tower")),
    ],
)
def test_more_shapes_real_models_write(reply: str, expected: object) -> None:
    assert parse_step(reply) == expected


def test_inline_invented_observation_is_recorded_as_cut() -> None:
    step = parse_step("Action: search[Eiffel Tower] Observation: 500 m. Final Answer: 500 m")
    assert step == Action("search", "Eiffel Tower")
    assert "Observation: 500 m." in step.discarded and "Final Answer: 500 m" in step.discarded


@pytest.mark.parametrize("thought", [
    "I tried that. Action: search did not help, so I will look it up.",
    "That failed. Action: lookup was the wrong tool here.",
])
def test_a_thought_that_mentions_action_mid_line_is_not_an_action(thought: str) -> None:
    step = parse_step(f"Thought: {thought}\nAction: lookup\nAction Input: tall")
    assert step == Action("lookup", "tall")
    assert step.thought == thought


def test_a_mid_line_action_with_a_tool_name_still_counts() -> None:
    assert parse_step("I need it. Action: search (Eiffel Tower)") == Action("search", "Eiffel Tower")
    assert parse_step("I need it. Action: `search`\nAction Input: x") == Action("search", "x")


def test_an_action_line_without_input_is_not_fed_the_next_segment() -> None:
    assert isinstance(parse_step("Action: search\nObservation: 500 m"), ParseError)


@pytest.mark.parametrize("filler", [" ", "\t", "*", "1"])
def test_long_runs_parse_in_linear_time(filler: str) -> None:
    import time

    for text in ("Thought" + filler * 200_000 + "x", "Action" + filler * 200_000 + ": x",
                 "Final Answer" + filler * 200_000):
        began = time.perf_counter()
        parse_step(text)
        assert time.perf_counter() - began < 1.0, repr(text[:20])
