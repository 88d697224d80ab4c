"""The native loop picks Responses for a model that requires it, and keeps Chat Completions elsewhere."""

import pytest

from react_course.backends.protocols import REQUIRED, protocol_for, why_protocol
from react_course.native import run_native
from react_course.scripted_api import scripted_client
from react_course.scripted_api.models import ChatTurn, ScriptedChatModel


def test_gpt_5_6_requires_responses_and_other_models_keep_chat() -> None:
    assert protocol_for("gpt-5.6") == protocol_for("openai:gpt-5.6-2026-11-20") == "responses"
    assert protocol_for("gpt-4o") == protocol_for("gpt-5.60") == protocol_for("qwen2.5:7b") == "chat"
    assert protocol_for("gpt-5.6", "chat") == "chat"  # an explicit choice wins
    assert "use /v1/responses" in why_protocol("gpt-5.6") and "read 1 December 2026" in REQUIRED["gpt-5.6"][1]


def calculate(expression: str) -> str:
    """Work out an arithmetic expression. Example: 2 + 2"""
    return "4"


@pytest.mark.parametrize(("model", "expected"), [("gpt-5.6", "responses"), ("react-course-demo", "chat")])
def test_run_native_sends_each_model_the_protocol_it_needs(model: str, expected: str) -> None:
    scripted = ScriptedChatModel([ChatTurn.calling("calculate", expression="2 + 2"), "It is 4."])
    with scripted_client(scripted) as client:
        result = run_native(client, {"calculate": calculate}, "What is 2 + 2?", model=model)
    assert result.answer == "It is 4."
    assert [request.protocol for request in scripted.requests] == [expected, expected]
