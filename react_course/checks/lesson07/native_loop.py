"""Check 07.native_loop: the Chat Completions tool-calling loop.

The student's loop talks to ``FakeChat``, which returns the SDK's own reply
objects, refuses (as the API does, with a 400) a conversation where a tool
message answers no call or a call has no result, and stops a loop that does
not stop. The cases then read the requests the loop sent.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import exercise
from ..framework import Case
from .common import FakeChat, arguments, tool_messages
from .generated_turns import NATIVE_LOOP

GENERATED = NATIVE_LOOP.name
RULES = {
    "When the reply has no tool calls, its `content` is the answer": (
        "an answer at once", "a reply with text and calls is not the answer", GENERATED),
    "append the assistant message with its tool calls": (
        "one call, then the answer", "the calls are appended before their results"),
    "one tool message per call, linked by its `tool_call_id`": ("two calls in one turn",
                                                               "results linked by id", GENERATED),
    "one more call with `tool_choice=\"none\"`": ("the step limit: one more call that must answer",),
    "send the tool declarations": ("the tools are declared",
                                   "the step limit: one more call that must answer"),
    "work on a copy": ("the caller's list is left alone",),
}
QUESTION = [{"role": "system", "content": "Use the tools."},
            {"role": "user", "content": "What do 3 notebooks and 2 pens cost?"}]


def _price(item: str) -> str:
    """Return the price of one shop item by its singular name. Example input: pen"""
    return {"pen": "A pen costs 2.", "notebook": "A notebook costs 4."}.get(item, f"No item {item!r}.")


def _total(expression: str) -> str:
    """Evaluate a sum of products such as 3 * 4 + 2 * 2. Example input: 3 * 4 + 2 * 2"""
    return "16" if expression.replace(" ", "") == "3*4+2*2" else "cannot evaluate"


TOOLS = {"price": _price, "calculate": _total}


def _results(messages: list[dict[str, Any]]) -> list[str]:
    return [str(m.get("content")) for m in tool_messages(messages)]


def _shop_model(messages: list[dict[str, Any]], tool_choice: Any) -> Any:
    """asks for both prices in one turn, then the total, then answers"""
    seen = _results(messages)
    if not seen:
        return [("price", arguments(item="notebook")), ("price", arguments(item="pen"))]
    if "16" not in seen:
        return [("calculate", arguments(expression="3 * 4 + 2 * 2"))]
    return "3 notebooks and 2 pens cost 16."


def _hello(messages: list[dict[str, Any]], tool_choice: Any) -> Any:
    """answers at once: Hello."""
    return "Hello."


def _one_call_model(messages: list[dict[str, Any]], tool_choice: Any) -> Any:
    """asks for the price of a pen, then answers"""
    return [("price", arguments(item="pen"))] if not _results(messages) else "A pen costs 2."


def _talks_then_calls(messages: list[dict[str, Any]], tool_choice: Any) -> Any:
    """says 'Let me look that up.' with a call for the price of a pen, then answers"""
    if _results(messages):
        return "A pen costs 2."
    return "Let me look that up.", [("price", arguments(item="pen"))]


def _never_done(messages: list[dict[str, Any]], tool_choice: Any) -> Any:
    """calls a tool on every turn (unless tool_choice is "none")"""
    return [("price", arguments(item="pen"))]


def _run(loop: Callable, model: Callable, max_steps: int, max_calls: int) -> Callable[[], dict]:
    def run() -> dict[str, Any]:
        client, messages = FakeChat(model, max_calls), [dict(m) for m in QUESTION]
        answer = loop(client, TOOLS, messages, model="scripted", max_steps=max_steps)
        return {"answer": answer, "requests": client.requests, "messages": messages}
    return run


def _answer_is(text: str, calls: int | None = None) -> Callable[[dict], bool | str]:
    def test(got: dict[str, Any]) -> bool | str:
        if got["answer"] != text:
            return f"expected the answer {text!r}, got {got['answer']!r}"
        made = len(got["requests"])
        return calls is None or made == calls or f"expected {calls} model calls, the loop made {made}"
    return test


def _linked(got: dict[str, Any]) -> bool | str:
    last = got["requests"][-1]["messages"]
    pairs = {m.get("tool_call_id"): m.get("content") for m in tool_messages(last)}
    calls = {c["id"]: c["function"]["arguments"] for m in last if m.get("role") == "assistant"
             for c in m.get("tool_calls") or []}
    for call_id, args in calls.items():
        item = "notebook" if "notebook" in args else "pen" if "pen" in args else None
        if item and pairs.get(call_id) != _price(item):
            return (f"the result for call {call_id} (price of a {item}) should be {_price(item)!r}; "
                    f"its tool message says {pairs.get(call_id)!r}")
    return _answer_is("3 notebooks and 2 pens cost 16.")(got)


def _appended_in_order(got: dict[str, Any]) -> bool | str:
    second = got["requests"][1]["messages"] if len(got["requests"]) > 1 else []
    roles = [m.get("role") for m in second][len(QUESTION):]
    if roles[:2] != ["assistant", "tool"]:
        return (f"the second request's new messages have the roles {roles}; expected the assistant "
                "message with its tool_calls, then the tool message")
    calls = second[len(QUESTION)].get("tool_calls") or []
    if not calls:
        return "the assistant message must keep its tool_calls (ids, names and arguments)"
    return _answer_is("A pen costs 2.", 2)(got)


def _both_answered(got: dict[str, Any]) -> bool | str:
    second = got["requests"][1]["messages"] if len(got["requests"]) > 1 else []
    answered = [m.get("tool_call_id") for m in tool_messages(second)]
    if len(answered) != 2:
        return (f"the model asked for two prices in one turn; the second request answers {len(answered)} "
                "call(s): keep every call in the assistant message and answer each one")
    return _answer_is("3 notebooks and 2 pens cost 16.", 3)(got)


def _declared(got: dict[str, Any]) -> bool | str:
    tools = got["requests"][0].get("tools")
    names = sorted(t.get("function", {}).get("name", "") for t in tools or [] if isinstance(t, dict))
    return names == ["calculate", "price"] or (
        f"send tools=declare_tools(tools) with every request; the first request's tools: {names}")


def _forced(max_steps: int) -> Callable[[dict], bool | str]:
    def test(got: dict[str, Any]) -> bool | str:
        requests = got["requests"]
        if len(requests) != max_steps + 1:
            return f"with max_steps={max_steps}, expected {max_steps + 1} model calls; got {len(requests)}"
        last = requests[-1].get("tool_choice")
        if last != "none":
            return f"the last call must send tool_choice='none'; it sent {last!r}"
        early = [r.get("tool_choice") for r in requests[:-1] if r.get("tool_choice") == "none"]
        if early:
            return "only the last call sends tool_choice='none'; the others must allow tool calls"
        return _answer_is("Best effort: I ran out of steps.")(got)
    return test


def _untouched(got: dict[str, Any]) -> bool | str:
    return got["messages"] == QUESTION or (
        "the caller's messages changed: copy them first (messages = list(messages))")


@exercise(
    "07.native_loop",
    "the native tool-calling loop over Chat Completions",
    hints=(
        "Each step: response = client.chat.completions.create(model=model, messages=messages, "
        "tools=declarations); message = response.choices[0].message.",
        "Before any result, append {'role': 'assistant', 'content': message.content, 'tool_calls': "
        "[{'id': c.id, 'type': 'function', 'function': {'name': c.function.name, 'arguments': "
        "c.function.arguments}} for c in message.tool_calls]}.",
        "Then for each call c: {'role': 'tool', 'tool_call_id': c.id, 'content': run_tool(tools, "
        "c.function.name, c.function.arguments)}. After the for loop over steps, one more create(..., "
        "tool_choice='none').",
    ),
    rules=RULES,
)
def native_loop_cases(native_loop: Callable):
    import openai.types.chat  # noqa: F401  (imported here, outside the cases' time limits)

    def case(name: str, model: Callable, test: Callable, hint: str, max_steps: int = 4) -> Case:
        return Case(name, _run(native_loop, model, max_steps, max_steps + 2), test=test,
                    given=f"native_loop(client, tools, messages, max_steps={max_steps}) with a model that "
                          f"{model.__doc__}",
                    hint=hint, show=lambda v: repr(v.get("answer")))

    yield case("an answer at once", _hello, _answer_is("Hello.", 1),
               "No tool_calls: return message.content at once.")
    yield case("the tools are declared", _hello, _declared,
               "Pass tools=declare_tools(tools) to every create() call.")
    yield case("one call, then the answer", _one_call_model, _answer_is("A pen costs 2.", 2),
               "Append the assistant message (with its tool_calls), then one tool message per call.")
    yield case("the calls are appended before their results", _one_call_model, _appended_in_order,
               "The API refuses a tool message that does not follow the assistant message that "
               "made the call.")
    yield case("two calls in one turn", _shop_model, _both_answered,
               "Answer every call of the turn, each with its own tool message.")
    yield case("results linked by id", _shop_model, _linked,
               "tool_call_id is the id of the call whose result the message carries.")
    yield case("the step limit: one more call that must answer", _never_done, _forced(2),
               "After max_steps calls, call once more with tool_choice='none' (and the tools, as always) "
               "and return its content.",
               max_steps=2)
    yield case("the caller's list is left alone", _one_call_model, _untouched,
               "Start with messages = list(messages).")
    yield case("a reply with text and calls is not the answer", _talks_then_calls,
               _answer_is("A pen costs 2.", 2),
               "A reply can hold text and tool_calls together: it is the answer only without tool_calls.")
    yield NATIVE_LOOP.case(native_loop)
