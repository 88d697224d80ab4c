"""The frameworks a student meets, run offline against the scripted server: lesson 12's basis.

Each test builds the smallest tool-using agent a framework's own documentation
shows, over two of the course's tools, and asks it a worked example that needs
three calls (two searches, then a subtraction). Every protocol and streaming
mode the client offers is tried. The clients come from the optional
``frameworks`` extra (``python3 course.py test --frameworks`` installs it; CI
does); without it, each test skips and says so. No test touches the network:
the Agents SDK's tracing is off, and every client gets a placeholder key.
"""

from __future__ import annotations

import asyncio
import importlib.util
import logging

import pytest

from react_course.calculator import calculate as course_calculate
from react_course.scripted_api import serve
from react_course.tools import Encyclopedia

EIFFEL = "How much taller is the Eiffel Tower than the Statue of Liberty?"
MODEL = "react-course-demo"
KEY = "any-placeholder"  # the server takes any key; some clients insist on one
BOOK = Encyclopedia()


def needs(*modules: str) -> pytest.MarkDecorator:
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    return pytest.mark.skipif(bool(missing), reason=f"{', '.join(missing)} not installed: the optional "
                              "'frameworks' extra (python3 course.py test --frameworks) brings it")


def search(query: str) -> str:
    """Search the encyclopedia and return the start of the best matching page.

    Args:
        query: a page title or a few keywords, such as Eiffel Tower
    """
    return BOOK.search(query)


def calculate(expression: str) -> str:
    """Evaluate an arithmetic expression, such as 330 - 93.

    Args:
        expression: the arithmetic to do, with numbers and + - * / ( )
    """
    return course_calculate(expression)


@pytest.fixture(scope="module")
def url():
    with serve() as base_url:
        yield base_url


def solved(answer: object) -> bool:
    return "237 m" in str(answer)


# --- the OpenAI Agents SDK -------------------------------------------------------------------

@needs("agents")
@pytest.mark.parametrize("protocol", ["chat", "responses"])
@pytest.mark.parametrize("streamed", [False, True], ids=["whole", "streamed"])
def test_openai_agents_sdk(url, protocol, streamed):
    import openai
    from agents import (
        Agent,
        OpenAIChatCompletionsModel,
        OpenAIResponsesModel,
        RunConfig,
        Runner,
        function_tool,
        set_tracing_disabled,
    )

    set_tracing_disabled(True)  # the SDK otherwise sends traces home
    client = openai.AsyncOpenAI(base_url=url, api_key=KEY, max_retries=0)
    kind = OpenAIChatCompletionsModel if protocol == "chat" else OpenAIResponsesModel
    agent = Agent(name="course", instructions="Answer with the tools.",
                  model=kind(model=MODEL, openai_client=client),
                  tools=[function_tool(search), function_tool(calculate)])
    config = RunConfig(tracing_disabled=True)

    async def run() -> object:
        if not streamed:
            return (await Runner.run(agent, EIFFEL, run_config=config)).final_output
        result = Runner.run_streamed(agent, EIFFEL, run_config=config)
        async for _ in result.stream_events():
            pass
        return result.final_output

    assert solved(asyncio.run(run()))


# --- LangChain's ChatOpenAI with LangChain 1.x's create_agent (a LangGraph graph) ---------------

@needs("langchain", "langgraph", "langchain_openai")
@pytest.mark.parametrize("protocol", ["chat", "responses"])
@pytest.mark.parametrize("streamed", [False, True], ids=["whole", "streamed"])
def test_langchain_create_agent(url, protocol, streamed):
    from langchain.agents import create_agent
    from langchain_openai import ChatOpenAI

    llm = ChatOpenAI(model=MODEL, base_url=url, api_key=KEY, max_retries=0, streaming=streamed,
                     use_responses_api=protocol == "responses")
    agent = create_agent(llm, [search, calculate])
    if streamed:
        streamed_pieces = agent.stream({"messages": [("user", EIFFEL)]}, stream_mode="messages")
        assert [chunk for chunk, _ in streamed_pieces]
    state = agent.invoke({"messages": [("user", EIFFEL)]})
    last = state["messages"][-1]
    assert solved(last.text) and [m.type for m in state["messages"]].count("tool") == 3


@needs("langchain_openai", "pydantic")
def test_langchain_structured_output_by_function_calling(url):
    from langchain_openai import ChatOpenAI
    from pydantic import BaseModel

    class Heights(BaseModel):
        """How much taller the first is than the second, in metres."""

        difference_m: int
        explanation: str

    llm = ChatOpenAI(model=MODEL, base_url=url, api_key=KEY, max_retries=0)
    answer = llm.with_structured_output(Heights, method="function_calling").invoke(EIFFEL)
    assert isinstance(answer, Heights) and "237 m" in answer.explanation


# --- pydantic-ai ---------------------------------------------------------------------------------

def pydantic_ai_model(url: str, protocol: str):
    from pydantic_ai.models.openai import OpenAIChatModel, OpenAIResponsesModel
    from pydantic_ai.providers.openai import OpenAIProvider

    provider = OpenAIProvider(base_url=url, api_key=KEY)
    return (OpenAIChatModel if protocol == "chat" else OpenAIResponsesModel)(MODEL, provider=provider)


@needs("pydantic_ai")
@pytest.mark.parametrize("protocol", ["chat", "responses"])
@pytest.mark.parametrize("streamed", [False, True], ids=["whole", "streamed"])
def test_pydantic_ai_agent(url, protocol, streamed):
    from pydantic_ai import Agent

    agent = Agent(pydantic_ai_model(url, protocol), tools=[search, calculate])
    if not streamed:
        assert solved(agent.run_sync(EIFFEL).output)
        return

    async def run() -> str:
        async with agent.run_stream(EIFFEL) as result:
            return await result.get_output()

    assert solved(asyncio.run(run()))


@needs("pydantic_ai")
@pytest.mark.parametrize("protocol", ["chat", "responses"])
def test_pydantic_ai_typed_output_goes_through_final_result(url, protocol):
    from pydantic import BaseModel
    from pydantic_ai import Agent

    class Heights(BaseModel):
        difference_m: int
        explanation: str

    agent = Agent(pydantic_ai_model(url, protocol), tools=[search, calculate], output_type=Heights)
    result = agent.run_sync(EIFFEL)
    assert result.output.difference_m == 237 and solved(result.output.explanation)
    assert result.usage.requests == 3  # both searches at once, the subtraction, then final_result


# --- smolagents -----------------------------------------------------------------------------------

@needs("smolagents")
@pytest.mark.parametrize("streamed", [False, True], ids=["whole", "streamed"])
def test_smolagents_tool_calling_agent(url, streamed):
    from smolagents import OpenAIServerModel, ToolCallingAgent, tool

    logging.getLogger("smolagents").setLevel(logging.WARNING)
    model = OpenAIServerModel(model_id=MODEL, api_base=url, api_key=KEY)
    agent = ToolCallingAgent(tools=[tool(search), tool(calculate)], model=model, max_steps=6,
                             verbosity_level=0, stream_outputs=streamed)
    answer = agent.run(EIFFEL)
    assert solved(answer) and len(agent.memory.steps) <= 6


# --- Simon Willison's llm --------------------------------------------------------------------------

@needs("llm")
@pytest.mark.parametrize("protocol", ["chat", "responses"])
@pytest.mark.parametrize("streamed", [False, True], ids=["whole", "streamed"])
def test_llm_chain_with_tools(url, protocol, streamed, tmp_path, monkeypatch):
    import llm

    # llm reads OpenAI-compatible models from extra-openai-models.yaml in its user folder
    (tmp_path / "extra-openai-models.yaml").write_text(
        f"- model_id: scripted\n  model_name: {MODEL}\n  api_base: {url}\n  supports_tools: true\n"
        + ("  responses: true\n" if protocol == "responses" else ""), encoding="utf-8")
    monkeypatch.setenv("LLM_USER_PATH", str(tmp_path))
    chain = llm.get_model("scripted").chain(EIFFEL, tools=[search, calculate], stream=streamed)
    text = "".join(chain) if streamed else chain.text()
    assert solved(text) and [c.name for r in chain.responses() for c in r.tool_calls()] == [
        "search", "search", "calculate"]
