"""The demo models answer only what they can: near misses never get a worked example's answer."""

from __future__ import annotations

import json

import pytest

from react_course import WORKED_EXAMPLES, default_tools, demo_model, run_react
from react_course.course.cli import main
from react_course.lessons.demo import NO_PLAN, plan_for
from react_course.lessons.plans import HEIGHTS, PRICES, order_of
from react_course.scripted_api import serve
from react_course.tools import Encyclopedia

NEAR_MISSES = [  # a worked example with one detail changed: no plan can answer it
    "Order 88214 cost 480 plus a 25 delivery fee and arrived 62 minutes late. "
    "What should the customer be refunded in total?",
    "What is 15% of the population of the city that hosted the 2028 Summer Olympics?",
    "How tall is the tower in Paris that opened in 1973?",
    "Is the founder of SpaceX also a co-founder of the company that makes the Model S?",
    "Who founded SpaceX?",
    "What do 3 notebooks and 2 staplers cost?",
    "What do 0 notebooks cost?",
    "How much taller is the Eiffel Tower than Big Ben?",
    "How much taller is the Eiffel Tower than the Eiffel Tower?",
]


def answer(question: str) -> str:
    return run_react(question, demo_model(), default_tools()).answer


@pytest.mark.parametrize("question", NEAR_MISSES)
def test_a_near_miss_gets_the_plain_offline_reply(question: str) -> None:
    assert plan_for(question) is None
    assert answer(question) == NO_PLAN.split("Final Answer: ")[1]
    assert "knows only its worked examples" in NO_PLAN


@pytest.mark.parametrize("question, expected", [
    ("What do 2 notebooks and 3 pens cost?", "2 notebooks and 3 pens cost 14."),
    ("what do 3 notebooks and 2 pens cost", "3 notebooks and 2 pens cost 16."),
    ("How much do two rulers, an eraser and 1 backpack cost?",
     "2 rulers, 1 eraser and 1 backpack cost 32."),
    ("What does a backpack cost?", "A backpack costs 25."),
    ("What do 5 pens cost?", "5 pens cost 10."),
])
def test_shop_totals_are_computed_from_the_question(question: str, expected: str) -> None:
    result = run_react(question, demo_model(), default_tools())
    assert result.answer == expected and result.end_reason == "final_answer"
    total = sum(n * PRICES[item] for n, item in order_of(question))
    assert str(total) in expected


def test_the_eiffel_question_the_other_way_round_says_which_is_shorter() -> None:
    result = run_react("How much taller is the Statue of Liberty than the Eiffel Tower?",
                       demo_model(), default_tools())
    assert [s.action.input for s in result.steps if s.action] == [
        "Statue of Liberty", "Eiffel Tower", "93 - 330"]
    assert [s.observation for s in result.steps if s.action][-1] == "-237"
    assert "is not taller than the Eiffel Tower" in result.answer and "237 m shorter" in result.answer


def test_other_heights_are_computed_too() -> None:
    assert "304 m taller than the Eiffel Tower" in answer(
        "How much taller is the Tokyo Skytree than the Eiffel Tower?")


@pytest.mark.parametrize("title", HEIGHTS)
def test_every_height_the_plans_know_is_what_the_encyclopedia_says(title: str) -> None:
    metres = HEIGHTS[title][0]
    assert f"{metres} m" in Encyclopedia().search(title.removeprefix("the "))


@pytest.mark.parametrize("question", WORKED_EXAMPLES)
def test_every_worked_example_still_has_its_plan(question: str) -> None:
    assert plan_for(question).example == question


def test_the_chat_demo_computes_a_near_miss_and_refuses_another() -> None:
    import openai

    from react_course.calculator import calculate
    from react_course.tools import Shop

    run = {"price": Shop().price, "calculate": calculate}
    schemas = [s for s in default_tools().schemas() if s["function"]["name"] in run]
    with serve() as url:
        api = openai.OpenAI(base_url=url, api_key="scripted", max_retries=0, timeout=20,
                            http_client=openai.DefaultHttpxClient(trust_env=False))
        messages = [{"role": "user", "content": "What do 2 notebooks and 3 pens cost?"}]
        for _ in range(4):
            message = api.chat.completions.create(model="m", messages=messages,
                                                  tools=schemas).choices[0].message
            messages.append(message.model_dump(exclude_none=True))
            for call in message.tool_calls or ():
                messages.append({"role": "tool", "tool_call_id": call.id, "content":
                                 run[call.function.name](**json.loads(call.function.arguments))})
            if not message.tool_calls:
                break
        assert messages[-1]["content"] == "2 notebooks and 3 pens cost 14."
        date_like = api.chat.completions.create(
            model="m", tools=schemas,
            messages=[{"role": "user", "content": "On what date did the Eiffel Tower open?"}])
        assert "knows only its worked examples" in date_like.choices[0].message.content


def test_the_cli_prints_the_right_total(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "What do 2 notebooks and 3 pens cost?"]) == 0
    assert capsys.readouterr().out.rstrip().endswith("Answer: 2 notebooks and 3 pens cost 14.")
    assert main(["run", "--list"]) == 0
    assert "any shop total" in capsys.readouterr().out


def test_a_question_a_framework_wrapped_on_lines_of_its_own_is_still_recognised() -> None:
    wrapped = "New task:\nWhat do 2 notebooks and 3 pens cost?\nUse the tools."
    assert plan_for(wrapped).answer == "2 notebooks and 3 pens cost 14."
    assert plan_for("New task:\nWho founded SpaceX?") is None
