"""run_native through the real openai SDK, against the scripted model served on 127.0.0.1.

Both protocols, a full run, parallel calls, every error as a tool result, the
step-limit call with tool_choice="none", reasoning items passed back, the
parameters a server refuses, and the MCP round trip (a stdio subprocess).
No wall-clock thresholds: parallelism is seen with a barrier.
"""

import datetime as dt
import json
import threading
import time

import pytest

from react_course.errors import ModelConfigError
from react_course.native import native_client, run_native
from react_course.record import RunResult
from react_course.schemas import declare, docstring_notes, parse_arguments
from react_course.scripted_api import serve
from react_course.scripted_api.models import Call, ChatTurn, ReactiveChatModel, ScriptedChatModel
from react_course.tools import ToolRegistry, default_tools

openai = pytest.importorskip("openai")

PROTOCOLS = ["chat", "responses"]
TODAY = dt.date(2024, 7, 26)
OLYMPICS = "What is 15% of the population of the city that hosted the 2024 Summer Olympics?"
EIFFEL = "How much taller is the Eiffel Tower than the Statue of Liberty?"


@pytest.fixture(scope="module")
def demo_url():
    with serve() as url:
        yield url


def client_for(url):
    return openai.OpenAI(base_url=url, api_key="scripted", max_retries=0, timeout=10)


# ------------------------------------------------------------------- a full run


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_full_run_answers_with_tool_calls(demo_url, protocol):
    result = run_native(client_for(demo_url), default_tools(TODAY), OLYMPICS, model="react-course-demo",
                        protocol=protocol)
    assert result.end_reason == "final_answer" and result.format == "native"
    assert result.answer.startswith("About 315,000") and "metropolitan" in result.answer
    assert [c.name for s in result.steps for c in s.calls] == ["search", "search", "calculate"]
    assert result.steps[2].calls[0].arguments == {"expression": "0.15 * 2100000"}
    assert result.steps[2].observations[0].text == "315000"
    assert result.usage.input > 0 and result.usage.output > 0


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_the_record_round_trips_and_gives_linked_messages(demo_url, protocol):
    result = run_native(client_for(demo_url), default_tools(TODAY), EIFFEL, model="react-course-demo",
                        protocol=protocol)
    assert RunResult.from_json(result.to_json()) == result
    messages = result.to_messages()
    first = messages[1]
    assert first["role"] == "assistant" and len(first["tool_calls"]) == 2
    ids = [c["id"] for c in first["tool_calls"]]
    assert [m["tool_call_id"] for m in messages[2:4]] == ids
    assert all(m["role"] == "tool" for m in messages[2:4])
    assert messages[-1]["role"] == "assistant" and "237 m" in messages[-1]["content"]


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_the_date_question_needs_the_clock(demo_url, protocol):
    seen = []
    messages = [{"role": "system", "content": "Use the tools."},
                {"role": "user", "content": "What is today's date?"}]
    result = run_native(client_for(demo_url), default_tools(TODAY), messages, model="react-course-demo",
                        protocol=protocol, on_step=seen.append)
    assert result.answer == "Today is Friday, 26 July 2024." and result.question == "What is today's date?"
    assert seen == result.steps
    assert result.steps[0].calls[0].name == "today" and result.steps[0].calls[0].arguments == {}


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_the_thought_is_visible_text_over_chat_and_reasoning_over_responses(demo_url, protocol):
    result = run_native(client_for(demo_url), default_tools(TODAY), "What is today's date?",
                        model="react-course-demo", protocol=protocol)
    first = result.steps[0]
    assert first.thought == "I need today's date; the clock tool knows it."
    if protocol == "responses":
        assert first.text == "" and first.usage.reasoning > 0
    else:
        assert first.text == first.thought and first.usage.reasoning == 0


def test_reasoning_items_are_passed_back_between_calls():
    model = ReactiveChatModel(respond=lambda r: "done" if r.tool_results else
                              ChatTurn("", (Call("today", {}),), "I should check the clock."))
    with serve(model) as url:
        run_native(client_for(url), default_tools(TODAY), "Day?", model="m", protocol="responses")
    second = model.requests[1].body["input"]
    kinds = [item.get("type", "message") for item in second]
    assert kinds == ["message", "reasoning", "function_call", "function_call_output"]
    call, output = second[2], second[3]
    assert output["call_id"] == call["call_id"] and output["output"] == "Today is Friday, 26 July 2024."


# ------------------------------------------------------------------- parallel and serial calls


class Meter:
    """Tools that wait at a barrier (read-only) or record overlaps (side effects)."""

    def __init__(self, together):
        self.barrier = threading.Barrier(together, timeout=5)
        self.lock, self.active, self.overlaps, self.order = threading.Lock(), 0, 0, []

    def lookup_a(self, key: str) -> str:
        """Look up a value. Example input: a"""
        self.barrier.wait()  # opens only when every read-only call of the turn is running
        return f"a={key}"

    def lookup_b(self, key: str) -> str:
        """Look up another value. Example input: b"""
        self.barrier.wait()
        return f"b={key}"

    def write(self, note: str) -> str:
        """Write a note (a side effect). Example input: hello"""
        with self.lock:
            self.active += 1
            self.overlaps += self.active > 1
            self.order.append(note)
        time.sleep(0.05)
        with self.lock:
            self.active -= 1
        return f"wrote {note}"


def _two_then_done(*calls):
    return ScriptedChatModel([ChatTurn("", tuple(calls)), "done"])


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_read_only_calls_of_one_turn_run_in_parallel(protocol):
    meter = Meter(together=2)
    model = _two_then_done(Call("lookup_a", {"key": "x"}), Call("lookup_b", {"key": "y"}))
    with serve(model) as url:
        result = run_native(client_for(url), ToolRegistry([meter.lookup_a, meter.lookup_b]), "Both?",
                            model="m", protocol=protocol)
    # Run one at a time, the first call would wait at the barrier until it broke: a tool error.
    assert [o.text for o in result.steps[0].observations] == ["a=x", "b=y"]


def test_a_turn_with_a_side_effect_runs_one_call_at_a_time_in_order():
    from react_course.tools.definition import side_effect

    meter = Meter(together=2)

    @side_effect
    def write(note: str) -> str:
        """Write a note (a side effect). Example input: hello"""
        return meter.write(note)

    model = _two_then_done(Call("write", {"note": "first"}), Call("write", {"note": "second"}),
                           Call("write", {"note": "third"}))
    with serve(model) as url:
        result = run_native(client_for(url), ToolRegistry([write]), "Write.", model="m",
                            policy=lambda name, arguments: True)
    assert meter.overlaps == 0 and meter.order == ["first", "second", "third"]
    assert [o.call_id for o in result.steps[0].observations] == [c.id for c in result.steps[0].calls]


def test_parallel_tool_calls_false_is_sent_and_honoured(demo_url):
    result = run_native(client_for(demo_url), default_tools(TODAY), EIFFEL, model="react-course-demo",
                        parallel_tool_calls=False)
    assert result.succeeded and all(len(s.calls) <= 1 for s in result.steps)


# ------------------------------------------------------------------- errors become tool results


def _crash(order_id: int) -> str:
    """Cancel nothing; always fails. Example input: 88213"""
    raise RuntimeError("the order database is down")


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_every_failure_is_a_tool_result_linked_to_its_call(protocol):
    tools = default_tools(TODAY)
    tools.register(_crash, "crash")
    bad = ChatTurn("", (Call("search", '{"query": "Paris"'), Call("get_price", {"item": "pen"}),
                        Call("get_order", {"order_id": "eighty"}), Call("crash", {"order_id": 1}),
                        Call("search", {"query": "Paris"})))
    model = ScriptedChatModel([bad, "I have what I need."])
    with serve(model) as url:
        result = run_native(client_for(url), tools, "Go.", model="m", protocol=protocol)
    step = result.steps[0]
    assert [o.error for o in step.observations] == ["bad_input", "unknown_tool", "bad_input",
                                                     "tool_error", None]
    assert [o.call_id for o in step.observations] == [c.id for c in step.calls]
    assert step.calls[0].arguments == '{"query": "Paris"'  # the raw text, kept for the record
    texts = [o.text for o in step.observations]
    assert "not a JSON object" in texts[0] and "Available tools" in texts[1]
    assert "order_id" in texts[2] and "RuntimeError" in texts[3] and texts[4].startswith("[Paris]")
    # The model read all five results, each linked to its call.
    sent = model.requests[1].messages
    assert len([m for m in sent if m.get("role") == "tool"]) == 5
    assert result.end_reason == "final_answer"


def test_a_failed_model_call_after_a_success_ends_the_run_with_error():
    model = ScriptedChatModel([ChatTurn.calling("today")])  # the second request finds no turn: a 500
    with serve(model) as url:
        result = run_native(client_for(url), default_tools(TODAY), "Day?", model="m", max_model_errors=2)
    assert result.end_reason == "error" and [s.error for s in result.steps][1:] == ["model_error"] * 2


def test_a_wrong_address_before_any_success_raises(demo_url):
    with pytest.raises(ModelConfigError):
        run_native(client_for(demo_url.removesuffix("/v1") + "/nowhere"), default_tools(TODAY), "Day?",
                   model="m")


# ------------------------------------------------------------------- the step limit


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_at_the_step_limit_one_more_call_with_tool_choice_none(protocol):
    def respond(request):
        if request.tool_choice == "none":
            return "Paris has about 2.1 million people (city proper)."
        return ChatTurn.calling("search", query=f"Paris {len(request.tool_results)}")

    model = ReactiveChatModel(respond=respond)
    with serve(model) as url:
        result = run_native(client_for(url), default_tools(TODAY), "Paris?", model="m", max_steps=2,
                            protocol=protocol)
    assert [r.tool_choice for r in model.requests] == ["auto", "auto", "none"]
    assert result.end_reason == "step_limit" and result.steps[-1].forced
    assert result.answer.startswith("Best effort (step limit of 2 reached; not verified): Paris has")


# ------------------------------------------------------------------- parameters a server refuses


class Refusal(Exception):
    status_code = 400


class PickyCompletions:
    """Refuses temperature (as reasoning models do), then answers."""

    def __init__(self):
        self.requests = []

    def create(self, **request):
        from openai.types.chat import ChatCompletion

        self.requests.append(request)
        if "temperature" in request:
            raise Refusal("Unsupported parameter: 'temperature' is not supported with this model.")
        return ChatCompletion.model_validate({
            "id": "c", "object": "chat.completion", "created": 0, "model": "m",
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": "Hi."}}]})


def test_a_refused_parameter_is_dropped_and_remembered():
    class Client:
        chat = type("Chat", (), {"completions": PickyCompletions()})()

    result = run_native(Client(), default_tools(TODAY), "Hi?", model="o-mini")
    sent = Client.chat.completions.requests
    assert result.answer == "Hi." and "temperature" in sent[0] and "temperature" not in sent[1]


def test_a_bug_inside_the_model_client_raises_from_run_native():
    class Buggy:
        def create(self, **request):
            return reply_text  # noqa: F821 - the bug under test: a name never defined

    class Client:
        chat = type("Chat", (), {"completions": Buggy()})()

    with pytest.raises(NameError, match="reply_text"):
        run_native(Client(), default_tools(TODAY), "Hi?", model="m")


# ------------------------------------------------------------------- schemas


def test_schemas_come_from_the_typed_function_with_descriptions_and_an_example():
    def price(item: str, count: int = 1) -> str:
        """Price of some items.

        item: the singular name, e.g. notebook
        count: how many
        """
        return item

    chat = declare(ToolRegistry([price])["price"])
    body = chat["function"]
    assert body["strict"] is True and body["parameters"]["additionalProperties"] is False
    assert body["parameters"]["required"] == ["item", "count"]
    assert body["parameters"]["properties"]["item"] == {"type": "string",
                                                         "description": "the singular name, e.g. notebook"}
    assert {"type": "null"} in body["parameters"]["properties"]["count"]["anyOf"]
    responses = declare(ToolRegistry([price])["price"], "responses", strict=False)
    assert responses["name"] == "price" and "strict" not in responses
    assert docstring_notes("Find a page. Example input: Paris", ["query"]) == {"query": "Example: Paris"}


def test_arguments_that_are_not_an_object_stay_raw():
    assert parse_arguments('["pen"]') == '["pen"]' and parse_arguments(None) == {}
    assert json.loads('{"a": 1}') == parse_arguments('{"a": 1}')


def test_an_unknown_protocol_is_a_clear_error():
    with pytest.raises(ValueError, match="protocol"):
        run_native(object(), {}, "Hi", model="m", protocol="grpc")


# ------------------------------------------------------------------- configuration


def test_native_client_by_configuration(monkeypatch, demo_url):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    client, name = native_client("scripted", base_url=demo_url)
    assert name == "scripted" and str(client.base_url).startswith(demo_url)
    with pytest.raises(ModelConfigError, match="serve"):
        native_client("scripted")
    with pytest.raises(ModelConfigError, match="OPENAI_API_KEY"):
        native_client("openai:gpt-4o-mini")
    client, name = native_client("ollama:qwen2.5:7b")
    assert name == "qwen2.5:7b" and "11434" in str(client.base_url)
    with pytest.raises(ModelConfigError, match="chat model"):
        native_client("openai-compatible-completions:http://127.0.0.1:9/v1:base")


# ------------------------------------------------------------------- tools from a tool server (MCP)


def test_tools_discovered_over_mcp_give_the_same_run_as_local_tools(demo_url):
    from react_course.scripted_api.tool_server import discover_tools

    local = run_native(client_for(demo_url), default_tools(TODAY), EIFFEL, model="react-course-demo")
    with discover_tools(today=TODAY) as tools:
        assert tools.names == default_tools(TODAY).names
        assert [declare(t) for t in tools] == [declare(t) for t in default_tools(TODAY)]
        remote = run_native(client_for(demo_url), tools, EIFFEL, model="react-course-demo")
        date = run_native(client_for(demo_url), tools, "What is today's date?", model="react-course-demo")
        assert tools.run("get_order", "abc").startswith("Bad input")
    assert remote.answer == local.answer and remote.model_calls == local.model_calls
    assert [o.text for s in remote.steps for o in s.observations] == \
        [o.text for s in local.steps for o in s.observations]
    assert date.answer == "Today is Friday, 26 July 2024."


def test_a_tool_server_started_early_is_entered_later_and_started_once():
    from react_course.scripted_api.tool_server import discover_tools

    early = discover_tools(today=TODAY, poisoned=True)
    assert early.start() is early and early.start() is early  # a second start() does nothing
    with early as tools:
        assert "forecast" in tools.names
        assert tools.run("today", "") == "Today is Friday, 26 July 2024."


def test_a_null_for_an_optional_parameter_means_its_default():
    def convert(amount: float, currency: str = "EUR") -> str:
        """Convert rupees. Example input: 480"""
        return f"{amount * 0.011:.2f} {currency}"

    model = ScriptedChatModel([ChatTurn.calling("convert", amount=480, currency=None), "5.28 EUR"])
    with serve(model) as url:
        result = run_native(client_for(url), [convert], "480 INR in EUR?", model="m")
    assert result.steps[0].calls[0].arguments == {"amount": 480}
    assert result.steps[0].observations[0].text == "5.28 EUR"


class LaxCompletions:
    """A local server's habits: a call without an id, its arguments as an object, no usage."""

    def __init__(self):
        self.requests = []

    def create(self, **request):
        from types import SimpleNamespace as Obj

        self.requests.append(request)
        if len(self.requests) == 1:
            call = Obj(id=None, function=Obj(name="today", arguments={}))
            message = Obj(content=None, tool_calls=[call], model_extra={})
        else:
            message = Obj(content="It is Friday.", tool_calls=None, model_extra={})
        return Obj(choices=[Obj(message=message, finish_reason="stop")], usage=None)


def test_a_call_without_an_id_or_with_object_arguments_is_mended():
    class Client:
        chat = type("Chat", (), {"completions": LaxCompletions()})()

    result = run_native(Client(), default_tools(TODAY), "Day?", model="local")
    sent = Client.chat.completions.requests[1]["messages"]
    assert sent[1]["tool_calls"][0]["id"] == sent[2]["tool_call_id"] != ""
    assert sent[1]["tool_calls"][0]["function"]["arguments"] == "{}"
    assert result.answer == "It is Friday."


@pytest.mark.real_model
def test_a_real_model_answers_with_native_tool_calls():
    client, name = native_client()  # REACT_COURSE_MODEL names the real model
    result = run_native(client, default_tools(), "What do 3 notebooks and 2 pens cost?", model=name)
    assert result.end_reason == "final_answer" and "16" in result.answer
    assert {c.name for c in result.tool_calls} & {"price", "calculate"}


def test_the_budget_ends_a_run_before_a_call_too_big_for_it(demo_url):
    result = run_native(client_for(demo_url), default_tools(TODAY), EIFFEL, model="m", max_tokens=100)
    assert result.end_reason == "budget" and result.model_calls == 0
    assert "Hand this to a person" in result.answer


def test_a_slow_tool_is_stopped_at_its_time_limit():
    released = threading.Event()  # the tool hangs until the run is over, however long that takes

    def slow(query: str) -> str:
        """A lookup that hangs. Example input: x"""
        released.wait(60)
        return "late"

    model = ScriptedChatModel([ChatTurn.calling("slow", query="x"), "gave up"])
    try:
        with serve(model) as url:
            result = run_native(client_for(url), [slow], "Go.", model="m", tool_timeout=0.2)
    finally:
        released.set()
    assert result.steps[0].observations[0].error == "tool_timeout" and result.answer == "gave up"


@pytest.mark.parametrize("protocol", ["chat", "responses"])
def test_an_empty_reply_is_told_to_the_model_and_not_resent_unchanged(protocol):
    model = ScriptedChatModel([ChatTurn(""), ChatTurn("It is Tuesday.")])
    with serve(model) as url:
        result = run_native(client_for(url), default_tools(TODAY), "Day?", model="m", protocol=protocol)
    assert result.end_reason == "final_answer" and result.answer == "It is Tuesday."
    assert result.steps[0].error == "parse_error" and "Your reply was empty" in result.steps[0].observation
    told = model.requests[1].messages[-1]
    assert told["role"] == "user" and "Your reply was empty" in told["content"]
