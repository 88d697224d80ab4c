"""Check 07.next_input: the Responses protocol's next input, reasoning items passed back.

A reasoning model's output holds reasoning items beside its calls. The API
wants them back, in place, with the next request: dropping one loses the
model's thinking between calls (and some models refuse the request). Results
go back as ``function_call_output`` items linked by ``call_id`` (not by the
item's own ``id``).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from .. import exercise
from ..framework import Case
from .common import arguments
from .generated_turns import NEXT_INPUT

GENERATED = NEXT_INPUT.name
RULES = {
    "every output item, reasoning items included, in the order they came": (
        "a reasoning item is passed back", "two reasoning items, in order", "a message item is passed back",
        GENERATED),
    "one `function_call_output` item per `function_call`": ("two calls, two outputs", GENERATED),
    "linked by its `call_id`": ("linked by call_id, not by id",),
    "the text `run_tool` returns": ("two calls, two outputs",),
    "Do not change `items`": ("the input list is left alone",),
    "a new list": ("the input list is left alone",),
}
QUESTION = [{"role": "user", "content": "What is 15% of the population of Paris?"}]


def _reasoning(n: int, text: str) -> dict[str, Any]:
    return {"type": "reasoning", "id": f"rs_{n}", "summary": [{"type": "summary_text", "text": text}]}


def _call(n: int, name: str, args: str) -> dict[str, Any]:
    return {"type": "function_call", "id": f"fc_{n}", "call_id": f"call_{n}", "name": name,
            "arguments": args, "status": "completed"}


def _message(text: str) -> dict[str, Any]:
    return {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
            "content": [{"type": "output_text", "text": text, "annotations": []}]}


def _sample_run_tool(tools: dict, name: str, args: str) -> str:
    return f"result of {name}({args})"


def _expected(items: list, output: list) -> list:
    outputs = [{"type": "function_call_output", "call_id": o["call_id"],
                "output": _sample_run_tool({}, o["name"], o["arguments"])}
               for o in output if o["type"] == "function_call"]
    return [*items, *output, *outputs]


def _test(items: list, output: list) -> Callable[[Any], bool | str]:
    want = _expected(items, output)

    def test(got: Any) -> bool | str:
        if not isinstance(got, list):
            return f"return a list of input items, not {type(got).__name__}"
        if got == want:
            return True
        kept = [o for o in got if isinstance(o, dict) and o.get("type") == "reasoning"]
        reasoning = [o for o in output if o["type"] == "reasoning"]
        if len(kept) < len(reasoning):
            return (f"{len(reasoning)} reasoning item(s) in the output, {len(kept)} in the next input: "
                    "pass every output item back, reasoning included")
        outputs = [o for o in got if isinstance(o, dict) and o.get("type") == "function_call_output"]
        ids = [o.get("call_id") for o in outputs]
        calls = [o["call_id"] for o in output if o["type"] == "function_call"]
        if ids != calls:
            return (f"the function_call_output items carry the call_ids {ids}; expected {calls} "
                    "(the call's call_id, not its id)")
        if got[:len(items)] != items:
            return "the next input starts with the items sent before, unchanged"
        return _what_differs(got[len(items):], output, want[len(items) + len(output):]) or f"expected {want}"
    return test


def _kinds(items: list) -> list:
    return [i.get("type") if isinstance(i, dict) else type(i).__name__ for i in items]


def _what_differs(rest: list, output: list, results: list) -> str | None:
    """Say which part after the sent items is wrong: the output items, or the results."""
    if rest[:len(output)] != output and _kinds(rest[:len(output)]) == _kinds(output):
        index = next(i for i, (a, b) in enumerate(zip(rest, output, strict=False)) if a != b)
        return (f"pass every output item back unchanged, with all its fields; the {output[index]['type']} "
                f"item {output[index]['id']} came back as {rest[index]!r}")
    if rest[:len(output)] != output:
        return (f"after the items sent before come the output items, every one, as they came and in "
                f"their order: {_kinds(output)}; got {_kinds(rest[:len(output)])}")
    for want, got in zip(results, rest[len(output):], strict=False):
        if isinstance(got, dict) and got.get("output") != want["output"]:
            return (f"the function_call_output for {want['call_id']} should carry the text run_tool "
                    f"returned, {want['output']!r}, as its 'output'; got {got.get('output')!r}")
    return None


@exercise(
    "07.next_input",
    "the next Responses input: output items passed back, reasoning included, results by call_id",
    hints=(
        "new = list(items) + list(output): every output item, as it came, reasoning and all.",
        "Then for each item with item['type'] == 'function_call': append {'type': "
        "'function_call_output', 'call_id': item['call_id'], 'output': run_tool(tools, item['name'], "
        "item['arguments'])}.",
    ),
    rules=RULES,
)
def next_input_cases(next_input: Callable):
    def case(name: str, output: list, hint: str, items: list | None = None) -> Case:
        items = copy.deepcopy(items if items is not None else QUESTION)
        sent = copy.deepcopy(items)

        def run() -> Any:
            return next_input(sent, copy.deepcopy(output), {}, run_tool=_sample_run_tool)

        kinds = ", ".join(o["type"] for o in output)
        return Case(name, run, test=_test(items, output), given=f"output items: [{kinds}]", hint=hint)

    paris = _call(1, "search", arguments(query="Paris"))
    yield case("a reasoning item is passed back", [_reasoning(1, "I need the population."), paris],
               "Append every output item, the reasoning item too, before the results.")
    yield case("two reasoning items, in order",
               [_reasoning(1, "First the city."), _call(1, "search", arguments(query="2024 Olympics")),
                _reasoning(2, "Then its population."), _call(2, "search", arguments(query="Paris"))],
               "Keep the output items in the order they came.")
    yield case("a message item is passed back", [_message("Let me look that up."), paris],
               "A message item the model wrote goes back too.")
    yield case("two calls, two outputs",
               [_call(1, "search", arguments(query="Paris")),
                _call(2, "calculate", arguments(expression="0.15 * 2100000"))],
               "One function_call_output per function_call, with run_tool's text as 'output'.")
    searched = [_reasoning(3, "Search."), _call(3, "search", arguments(query="Paris"))]
    yield case("linked by call_id, not by id", searched,
               "A function_call item has an 'id' (fc_...) and a 'call_id' (call_...): results use call_id.")

    def untouched() -> Any:
        sent = copy.deepcopy(QUESTION)
        next_input(sent, [paris], {}, run_tool=_sample_run_tool)
        return sent

    yield Case("the input list is left alone", untouched, expected=QUESTION,
               given="items after next_input(items, ...)", hint="Start from a copy: new = list(items).")
    yield NEXT_INPUT.case(next_input)
