"""The browser edition's route to the scripted servers: the same answers in-process as over HTTP.

In Pyodide no socket can listen and no thread can start, so ``serve()`` and
``serve_flaky()`` host their handlers in-process there (``scripted_api.in_process``).
Each test here puts the real ``openai`` SDK (or lesson 05's ``HttpModel``) on
both routes and compares what comes back; the ``browser`` fixture makes
CPython behave like the tab (threads and listening sockets fail) so that a
route that still needs them fails the test.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import threading
import time

import httpx2
import openai
import pytest
from test_scripted_api import EIFFEL, TOOLS, client, functions
from test_scripted_api_responses import RESPONSES_TOOLS

import react_course as rc
from react_course.errors import ModelError
from react_course.native import lesson_client, run_native
from react_course.scripted_api import scripted_client, serve
from react_course.scripted_api.app import ScriptedAPI
from react_course.scripted_api.flaky import HttpModel, serve_flaky
from react_course.scripted_api.in_process import hosted, openai_client
from react_course.web import browser


@pytest.fixture
def browser_tab(monkeypatch: pytest.MonkeyPatch) -> None:
    """CPython as Pyodide behaves: IN_BROWSER, and no thread can start, no socket can listen."""

    def no_thread(self: threading.Thread) -> None:
        raise RuntimeError("can't start new thread")

    def no_bind(self: socket.socket, address: object) -> None:
        raise OSError("no socket can listen in a browser tab")

    monkeypatch.setattr(browser, "IN_BROWSER", True)
    monkeypatch.setattr(threading.Thread, "start", no_thread)
    monkeypatch.setattr(socket.socket, "bind", no_bind)
    monkeypatch.setattr(browser, "_THREADS", [False])


@pytest.fixture
def routes():
    """The demo model twice, fresh (so the ids match): over HTTP from serve(), and in-process."""
    with contextlib.ExitStack() as stack:
        over_http = client(stack.enter_context(serve()))
        site = stack.enter_context(hosted(ScriptedAPI().handle, "test"))
        yield over_http, openai_client(site + "/v1", api_key="scripted", max_retries=0)


def without_times(dumped):
    """A dumped reply without its timestamps (the only field that may differ between two servers)."""
    if isinstance(dumped, dict):
        return {k: without_times(v) for k, v in dumped.items() if k not in ("created", "created_at")}
    if isinstance(dumped, list):
        return [without_times(v) for v in dumped]
    return dumped


def chat_loop(api: openai.OpenAI, question: str) -> list[dict]:
    """A minimal native loop over Chat Completions; every reply, dumped."""
    tools, messages, replies = functions(), [{"role": "user", "content": question}], []
    for _ in range(6):
        reply = api.chat.completions.create(model="m", messages=messages, tools=TOOLS)
        replies.append(reply.model_dump())
        message = reply.choices[0].message
        if not message.tool_calls:
            break
        messages.append(message.model_dump(exclude_none=True))
        messages += [{"role": "tool", "tool_call_id": c.id,
                      "content": tools[c.function.name](**json.loads(c.function.arguments))}
                     for c in message.tool_calls]
    return replies


def test_chat_completions_with_tool_calls_are_the_same_in_process(routes):
    over_http, here = routes
    expected, got = chat_loop(over_http, EIFFEL), chat_loop(here, EIFFEL)
    assert len(got) == 3 and got[0]["choices"][0]["message"]["tool_calls"]
    assert without_times(got) == without_times(expected)


def test_streamed_chat_chunks_are_the_same_in_process(routes):
    over_http, here = routes
    request = {"model": "m", "messages": [{"role": "user", "content": EIFFEL}], "tools": TOOLS,
               "stream": True, "stream_options": {"include_usage": True}}
    expected = [c.model_dump() for c in over_http.chat.completions.create(**request)]
    got = [c.model_dump() for c in here.chat.completions.create(**request)]
    assert len(got) > 5 and got[-1]["usage"]["total_tokens"] > 0
    assert without_times(got) == without_times(expected)


def test_responses_with_reasoning_and_streaming_are_the_same_in_process(routes):
    over_http, here = routes

    def run(api):
        first = api.responses.create(model="m", input=EIFFEL, tools=RESPONSES_TOOLS)
        again = api.responses.retrieve(first.id)
        with api.responses.stream(model="m", input=EIFFEL, tools=RESPONSES_TOOLS) as stream:
            kinds = [event.type for event in stream]
            final = stream.get_final_response()
        return [first.model_dump(), again.model_dump(), kinds, final.model_dump()]

    expected, got = run(over_http), run(here)
    assert got[0]["output"][0]["type"] == "reasoning" and got[2][-1] == "response.completed"
    assert without_times(got) == without_times(expected)


def broken_links(api: openai.OpenAI) -> list[tuple[int, dict]]:
    """The 400s of a tool result that answers no call, and of a call passed back without its reasoning."""
    stray = [{"role": "user", "content": "q"}, {"role": "tool", "tool_call_id": "call_x", "content": "r"}]
    first = api.responses.create(model="m", input=EIFFEL, tools=RESPONSES_TOOLS, store=False)
    dropped = [{"role": "user", "content": EIFFEL}]
    dropped += [o.model_dump(exclude_none=True) for o in first.output if o.type != "reasoning"]
    dropped += [{"type": "function_call_output", "call_id": o.call_id, "output": "x"}
                for o in first.output if o.type == "function_call"]
    refused = []
    for send in (lambda: api.chat.completions.create(model="m", messages=stray, tools=TOOLS),
                 lambda: api.responses.create(model="m", input=dropped, tools=RESPONSES_TOOLS, store=False)):
        with pytest.raises(openai.BadRequestError) as caught:
            send()
        refused.append((caught.value.status_code, caught.value.body))
    return refused


def test_the_400s_of_a_broken_tool_link_are_the_same_in_process(routes):
    over_http, here = routes
    expected, got = broken_links(over_http), broken_links(here)
    assert [status for status, _ in got] == [400, 400]
    assert "answers no call" in got[0][1]["message"] and "reasoning" in got[1][1]["message"]
    assert got == expected


def test_run_native_in_the_browser_answers_as_over_http(browser_tab):
    with serve() as url:
        assert ".in-process.invalid" in url  # no thread and no socket were needed
        client_, model, which = lesson_client(url)
        run = run_native(client_, rc.tools.default_tools(), EIFFEL, model=model)
    assert which == "scripted (in-process: the browser edition has no local server)"
    assert run.end_reason == "final_answer" and "237 m" in run.answer
    assert [c.name for c in run.tool_calls] == ["search", "search", "calculate"]


def test_lesson_client_on_a_laptop_still_serves_over_http():
    with serve() as url:
        _, _, which = lesson_client(url)
    assert url.startswith("http://127.0.0.1:") and which == "scripted (served on 127.0.0.1)"


def test_in_the_browser_an_unreachable_real_server_falls_back_to_the_scripted_model(browser_tab):
    with serve() as url:
        client_, model, which = lesson_client(url, "openai-compatible:http://127.0.0.1:9/v1:m")
        reply = client_.chat.completions.create(model=model, messages=[{"role": "user", "content": EIFFEL}],
                                                tools=TOOLS)
    assert which.startswith("scripted, because could not talk to http://127.0.0.1:9/v1")
    assert "CORS" in which and model == "scripted"
    assert reply.choices[0].message.tool_calls  # the in-process demo model answered


def test_in_the_browser_a_fetch_that_cannot_even_start_falls_back_too(browser_tab, monkeypatch):
    def no_xhr(self, request):  # Pyodide under Node: httpx2's fetch transport finds no XMLHttpRequest
        raise AttributeError("XMLHttpRequest")

    monkeypatch.setattr(httpx2.HTTPTransport, "handle_request", no_xhr)
    with serve() as url:
        _, model, which = lesson_client(url, "openai-compatible:http://127.0.0.1:9/v1:m")
    assert model == "scripted"
    assert which.startswith("scripted, because this tab could not send a request to http://127.0.0.1:9/v1/ "
                            "(AttributeError: XMLHttpRequest)")


def test_scripted_client_works_in_the_browser_and_a_closed_address_cannot_be_reached(browser_tab):
    with scripted_client() as api:
        reply = api.chat.completions.create(model="m", messages=[{"role": "user", "content": EIFFEL}],
                                            tools=TOOLS)
    assert reply.choices[0].message.tool_calls[0].function.name == "search"
    with pytest.raises(openai.APIConnectionError):  # its with-block has ended, like a stopped server
        api.chat.completions.create(model="m", messages=[{"role": "user", "content": EIFFEL}])


PLAN = [503, (429, 0.2), ("quota", 0.01), 401, 404, "Final Answer: 2"]


def play(url: str, times: int) -> list[tuple]:
    """What ``HttpModel`` makes of each request: the status and Retry-After of a failure, or the reply."""
    seen = []
    for _ in range(times):
        try:
            seen.append(("reply", HttpModel(url, timeout=2)("prompt")))
        except ModelError as error:
            seen.append((error.status, error.retry_after, str(error)))
    return seen


def test_the_flaky_plan_gives_the_same_statuses_and_retry_after_in_process(monkeypatch):
    with serve_flaky(PLAN) as server:
        expected, served = play(server.url, 7), server.served
    monkeypatch.setattr(browser, "IN_BROWSER", True)
    with serve_flaky(PLAN) as server:
        assert ".in-process.invalid" in server.url
        got = play(server.url, 7)
        assert server.served == served == 7
    assert got[:2] == [(503, None, "HTTP 503: server overloaded"),
                       (429, "0.2", "HTTP 429: rate limit reached")]
    assert got[2][:2] == (429, "0.01") and "insufficient_quota" in got[2][2]
    assert [seen[0] for seen in got[3:]] == [401, 404, "reply", "reply"]
    assert got == expected


def test_a_slow_entry_in_process_times_out_after_the_clients_wait_not_the_servers(browser_tab):
    with serve_flaky([("slow", 0.5), ("slow", 0.05)]) as server:
        began = time.monotonic()
        with pytest.raises(TimeoutError, match=r"no reply within 0\.1 s"):
            HttpModel(server.url, timeout=0.1)("prompt")
        waited = time.monotonic() - began
        assert HttpModel(server.url, timeout=1)("prompt") == "late reply"  # in time: it answers
    assert 0.09 <= waited < 0.4


def sdk_retries(url: str, **options) -> str:
    """The error code the SDK raises for a quota 429 (the plan counts the requests it sent)."""
    sdk = openai_client(url.removesuffix("/complete"), api_key="demo", **options)
    with pytest.raises(openai.RateLimitError) as caught:
        sdk.chat.completions.create(model="m", messages=[{"role": "user", "content": "Hi"}])
    return caught.value.code


def test_the_sdk_retries_the_flaky_plan_alike_in_process(monkeypatch):
    counts = {}
    for where in ("http", "in-process"):
        monkeypatch.setattr(browser, "IN_BROWSER", where == "in-process")
        for options in ({}, {"max_retries": 0}):
            with serve_flaky([("quota", 0.01)]) as server:
                code = sdk_retries(server.url, **options)
                counts[where, options.get("max_retries", 2)] = (server.served, code)
    assert counts[("in-process", 2)] == counts[("http", 2)] == (3, "insufficient_quota")
    assert counts[("in-process", 0)] == counts[("http", 0)] == (1, "insufficient_quota")


def test_a_slow_answer_is_the_sdks_time_out_in_process(browser_tab):
    with serve_flaky([("slow", 0.5)]) as server:
        sdk = openai_client(server.url.removesuffix("/complete"), api_key="demo", max_retries=0, timeout=0.05)
        with pytest.raises(openai.APITimeoutError):
            sdk.chat.completions.create(model="m", messages=[{"role": "user", "content": "Hi"}])
        assert server.served == 1


def test_discover_tools_in_the_browser_hands_over_the_servers_tools(browser_tab, capsys, monkeypatch):
    from react_course.scripted_api.tool_server import POISONED_DESCRIPTION, discover_tools, offered_tools

    def no_loop():
        raise AssertionError("a second event loop breaks Pyodide's own")

    monkeypatch.setattr(asyncio, "new_event_loop", no_loop)
    browser._SAID.clear()
    finder = discover_tools(poisoned=True).start()  # would start a thread and a subprocess on a laptop
    with finder as tools:
        assert tools.names == [t.name for t in offered_tools(poisoned=True)]
        assert tools["forecast"].description == POISONED_DESCRIPTION
        assert tools.run("calculate", "2 + 3") == "5"
    assert capsys.readouterr().out.startswith("Laptop only: an MCP tool server runs as a subprocess")
    with pytest.raises(RuntimeError, match="needs a laptop"):
        discover_tools(url="http://127.0.0.1:1/mcp").start()


def test_framework_reports_are_laptop_only_in_the_browser(browser_tab):
    from react_course.lessons.frameworks import report

    with serve() as url:
        assert report("langgraph", url) == ("langgraph: not run: laptop only (a framework's client "
                                            "needs a server on a port).")
