"""The frameworks a student will meet, each asked a worked question against the scripted server.

``run_framework(name, base_url)`` builds the smallest tool-using agent of one
framework over two course tools (``search``, ``calculate``), points it at the
scripted server (``scripted_api.serve``) and returns what it answered and how
many tool calls it made. ``PARTS`` maps each framework's pieces onto the
course's loop: the model, the tools, the loop, the stop rule, the memory.

The clients are the optional ``frameworks`` extra; ``missing(name)`` says
which modules are absent, and ``run_framework`` raises ``MissingExtra`` (a
message a student can act on) instead of an ImportError. Nothing here
touches the network: every client gets the server's URL and a placeholder
key, and the Agents SDK's tracing is off. What it leaves out: each
framework's other agent kinds (graphs, hand-offs, code agents), and streaming
(``tests/test_frameworks.py`` tries every protocol and mode).
"""

from __future__ import annotations

import asyncio
import importlib.util
import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from ..calculator import calculate as course_calculate
from ..tools import Encyclopedia
from ..web import browser

QUESTION = "How much taller is the Eiffel Tower than the Statue of Liberty?"
MODEL, KEY = "react-course-demo", "any-placeholder"  # the server takes any key
MODULES = {"langgraph": ("langchain", "langgraph", "langchain_openai"), "openai-agents": ("agents",),
           "smolagents": ("smolagents",), "pydantic-ai": ("pydantic_ai",)}
_BOOK = Encyclopedia()

# What each framework calls the parts of run_react / run_native.
PARTS = {
    "course (run_native)": ("openai client + model name", "typed functions, schemas.py",
                            "driver.drive", "max_steps + Budget limits", "RunResult.steps"),
    "langgraph": ("ChatOpenAI", "functions, as LangChain tools",
                  "create_agent (a LangGraph graph)", "recursion_limit (10,007 steps)",
                  "the graph state's messages"),
    "openai-agents": ("OpenAIChatCompletionsModel", "function_tool", "Runner.run",
                      "max_turns (10)", "the run's items; Sessions across runs"),
    "smolagents": ("OpenAIServerModel", "tool (or code as the action: CodeAgent)",
                   "MultiStepAgent's step loop", "max_steps (20)", "agent.memory.steps"),
    "pydantic-ai": ("OpenAIChatModel + provider", "functions, schemas from type hints",
                    "a graph of model and tool nodes", "UsageLimits (request_limit 50)",
                    "result.all_messages()"),
}
PART_NAMES = ("model", "tools", "loop", "stop rule", "memory")


class MissingExtra(RuntimeError):
    """A framework's client is not installed: the message says how to install it."""

    def __init__(self, name: str, modules: list[str]) -> None:
        super().__init__(f"{name} needs {', '.join(modules)}, from the optional 'frameworks' extra: "
                         "run `python3 course.py setup --frameworks`, then restart the kernel.")


@dataclass(frozen=True)
class FrameworkRun:
    """What one framework answered, and how many tool calls it made on the way."""

    name: str
    answer: str
    tool_calls: int


def search(query: str) -> str:
    """Search the encyclopedia and return the start of the best matching page.

    Args:
        query: a page title or a few keywords, such as Eiffel Tower
    """
    return _BOOK.search(query)


def calculate(expression: str) -> str:
    """Evaluate an arithmetic expression, such as 330 - 93.

    Args:
        expression: the arithmetic to do, with numbers and + - * / ( )
    """
    return course_calculate(expression)


def missing(name: str) -> list[str]:
    """The modules of ``name``'s client that are not installed."""
    return [m for m in MODULES[name] if importlib.util.find_spec(m) is None]


def run_framework(name: str, base_url: str, question: str = QUESTION) -> FrameworkRun:
    """Ask ``question`` through one framework's agent, served by the scripted model at ``base_url``."""
    if name not in MODULES:
        raise ValueError(f"name is one of {', '.join(MODULES)}, not {name!r}")
    absent = missing(name)
    if absent:
        raise MissingExtra(name, absent)
    # In a thread of its own: a notebook's kernel already runs an event loop, and the async
    # clients start theirs with asyncio.run, which refuses to run inside another. Where no
    # thread can start (a browser tab), here: the synchronous clients still work.
    if browser.threads_work():
        with ThreadPoolExecutor(1) as pool:
            answer, calls = pool.submit(RUNNERS[name], base_url, question).result()
    else:
        answer, calls = RUNNERS[name](base_url, question)
    return FrameworkRun(name, str(answer), calls)


def _langgraph(url: str, question: str) -> tuple[str, int]:
    # LangChain 1.x's agent (a LangGraph graph); it replaces langgraph.prebuilt.create_react_agent,
    # which LangGraph 1.x deprecates in its favour.
    from langchain.agents import create_agent
    from langchain_openai import ChatOpenAI

    llm = ChatOpenAI(model=MODEL, base_url=url, api_key=KEY, max_retries=0)
    agent = create_agent(llm, [search, calculate])
    messages = agent.invoke({"messages": [("user", question)]})["messages"]
    return messages[-1].text, sum(m.type == "tool" for m in messages)


def _openai_agents(url: str, question: str) -> tuple[str, int]:
    import openai
    from agents import (
        Agent,
        OpenAIChatCompletionsModel,
        RunConfig,
        Runner,
        function_tool,
        set_tracing_disabled,
    )

    set_tracing_disabled(True)  # the SDK otherwise sends its traces to OpenAI
    client = openai.AsyncOpenAI(base_url=url, api_key=KEY, max_retries=0)
    agent = Agent(name="course", instructions="Answer with the tools.",
                  model=OpenAIChatCompletionsModel(model=MODEL, openai_client=client),
                  tools=[function_tool(search), function_tool(calculate)])
    result = asyncio.run(Runner.run(agent, question, run_config=RunConfig(tracing_disabled=True)))
    return result.final_output, sum(item.type == "tool_call_item" for item in result.new_items)


def _smolagents(url: str, question: str) -> tuple[str, int]:
    from smolagents import OpenAIServerModel, ToolCallingAgent, tool

    logging.getLogger("smolagents").setLevel(logging.WARNING)
    model = OpenAIServerModel(model_id=MODEL, api_base=url, api_key=KEY)
    agent = ToolCallingAgent(tools=[tool(search), tool(calculate)], model=model, max_steps=6,
                             verbosity_level=0)
    answer = agent.run(question)
    calls = sum(len(getattr(s, "tool_calls", None) or []) for s in agent.memory.steps)
    return answer, calls - 1  # its final answer is a call too, to its final_answer tool


def _pydantic_ai(url: str, question: str) -> tuple[str, int]:
    from pydantic_ai import Agent
    from pydantic_ai.models.openai import OpenAIChatModel
    from pydantic_ai.providers.openai import OpenAIProvider

    model = OpenAIChatModel(MODEL, provider=OpenAIProvider(base_url=url, api_key=KEY))
    result = Agent(model, tools=[search, calculate]).run_sync(question)
    parts = [p for m in result.all_messages() for p in m.parts]
    return result.output, sum(p.part_kind == "tool-call" for p in parts)


RUNNERS = {"langgraph": _langgraph, "openai-agents": _openai_agents, "smolagents": _smolagents,
           "pydantic-ai": _pydantic_ai}


def report(name: str, base_url: str, question: str = QUESTION) -> str:
    """One line for the lesson: what ``name`` answered, or what to install to run it."""
    if browser.IN_BROWSER:  # its client needs a real address, and runs in a thread of its own
        return f"{name}: not run: laptop only (a framework's client needs a server on a port)."
    try:
        run = run_framework(name, base_url, question)
    except MissingExtra as absent:
        return f"{name}: not run. {absent}"
    return f"{name}: {run.tool_calls} tool calls, answer: {run.answer}"
