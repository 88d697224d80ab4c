"""Structured final answers: the request fields, reading them back, and the grounding check on fields."""

from __future__ import annotations

import json

import openai
import pytest

import react_course as rc
from react_course.answers import ANSWER_SCHEMA, CitedAnswer, answer_options, check_cited, read_answer
from react_course.lessons.cited import citing_model
from react_course.native import run_native
from react_course.scripted_api import serve

ORDER = "Was order 88213 late?"


def run_with(model, protocol: str = "chat"):
    with serve(model) as url:
        client = openai.OpenAI(base_url=url, api_key="scripted", max_retries=0)
        return run_native(client, rc.support_tools(), ORDER, model="m", protocol=protocol,
                          request_options=answer_options(protocol))


def test_the_schema_is_strict_modes_shape() -> None:
    assert set(ANSWER_SCHEMA["required"]) == set(ANSWER_SCHEMA["properties"])
    assert ANSWER_SCHEMA["additionalProperties"] is False


@pytest.mark.parametrize("protocol", ["chat", "responses"])
def test_the_format_reaches_the_server_in_each_protocols_field(protocol: str) -> None:
    model = citing_model("Order 88213 was 62 minutes late.")
    result = run_with(model, protocol)
    body = model.requests[-1].body
    sent = body["response_format"]["json_schema"] if protocol == "chat" else body["text"]["format"]
    assert sent["schema"] == ANSWER_SCHEMA and sent["strict"] is True
    assert check_cited(read_answer(result.answer), result) == []


def test_a_figure_outside_the_cited_results_is_caught() -> None:
    result = run_with(citing_model("Order 88213 was 75 minutes late."))
    assert check_cited(read_answer(result.answer), result) == ["'75' is in none of the observations it cites"]


def test_an_answer_that_cites_nothing_is_not_grounded() -> None:
    result = run_with(citing_model("Order 88213 was 62 minutes late.", cite="nothing"))
    problems = check_cited(read_answer(result.answer), result)
    assert "it cites no observation" in problems and any("'62'" in p for p in problems)


def test_an_invented_citation_is_caught() -> None:
    result = run_with(citing_model("Order 88213 was late.", cite="invented"))
    assert check_cited(read_answer(result.answer), result) == [
        "it cites 'call_never_made', which is no successful tool result of this run"]


def test_a_failed_result_cannot_be_cited() -> None:
    result = run_with(citing_model("No order 99999 exists.", order_id=99999))
    cited = read_answer(result.answer)
    assert isinstance(cited, CitedAnswer) and cited.observations
    # the tool's "no such order" text is a result, not an error: citing it holds
    assert check_cited(cited, result) == []


@pytest.mark.parametrize("text, why", [
    ("It was late.", "not JSON"),
    (json.dumps({"answer": 3, "observations": []}), "no text field"),
    (json.dumps({"answer": "x", "observations": "call_1"}), "not a list"),
])
def test_replies_outside_the_schema_say_why(text: str, why: str) -> None:
    value = read_answer(text)
    assert isinstance(value, str) and why in value
    assert check_cited(value, None) == [value]
