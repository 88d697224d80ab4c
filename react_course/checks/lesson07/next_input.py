"""07.next_input as a spec: the Responses protocol's next input, reasoning items passed back.

A reasoning model's output holds reasoning items beside its calls. The API wants them
back, in place, with the next request: dropping one loses the model's thinking between
calls (and some models refuse the request). Results go back as ``function_call_output``
items linked by ``call_id`` (not by the item's own ``id``).

The arguments are plain data (the items sent, the output items); ``observe`` passes
tools and a ``run_tool`` of its own, whose text names the tools it was given (so a
function that uses the notebook's tools instead of the argument shows), and reports the
next input, whether ``items`` was left alone, and whether the list returned is new.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..generated import Draw
from ..spec import GENERATED, Example, Fault, Rule, Spec, define
from .common import arguments

TOOLS = {"lookup": len, "convert": len}  # never run: run_tool below only names them


def run_tool(tools: dict, name: str, text: str) -> str:
    return f"{name}({text}) run with the tools {'+'.join(sorted(tools))}"


def key(items: list[dict], output: list[dict], tools: dict, run_tool: Callable = run_tool) -> list[dict]:
    """The answer key: what was sent, every output item as it came, then one result per call."""
    results = [{"type": "function_call_output", "call_id": item["call_id"],
                "output": run_tool(tools, item["name"], item["arguments"])}
               for item in output if item["type"] == "function_call"]
    return [*items, *output, *results]


def observe(function: Callable[..., Any], args: tuple) -> dict[str, Any]:
    items, output = args
    sent = [dict(item) for item in items]
    got = function(sent, output, dict(TOOLS), run_tool=run_tool)
    return {"next input": got, "items left alone": sent == items, "a new list": got is not sent}


def compare(args: tuple, want: Any, got: Any) -> bool | str:
    if got == want:
        return True
    if not isinstance(got, dict):
        return f"next_input {got}"
    if not got["items left alone"] or not got["a new list"]:
        return "items changed, or came back as the list returned: build a new list, leave items alone"
    sent, output, rest = len(args[0]), args[1], got["next input"]
    if not isinstance(rest, list) or rest[:sent] != args[0]:
        return "the next input is a list that starts with the items sent before, unchanged"
    if rest[sent:sent + len(output)] != output:
        return f"after the items sent come every output item, as they came, in order: {_kinds(output)}"
    return f"the function_call_output items: expected {want['next input'][sent + len(output):]!r}"


def _kinds(items: list) -> list:
    return [item.get("type") if isinstance(item, dict) else type(item).__name__ for item in items]


def _reasoning(n: int, text: str) -> dict[str, Any]:
    return {"type": "reasoning", "id": f"rs_{n}", "summary": [{"type": "summary_text", "text": text}]}


def _call(n: int, name: str, args: str) -> dict[str, Any]:
    return {"type": "function_call", "id": f"fc_{n}", "call_id": f"call_{n}", "name": name,
            "arguments": args, "status": "completed"}


def _message(text: str, n: int = 1) -> dict[str, Any]:
    return {"type": "message", "id": f"msg_{n}", "role": "assistant", "status": "completed",
            "content": [{"type": "output_text", "text": text, "annotations": []}]}


QUESTION = [{"role": "user", "content": "What is 15% of the population of Paris?"}]
PARIS = _call(1, "lookup", arguments(query="Paris"))
EXAMPLES = (
    Example("a reasoning item is passed back", (QUESTION, [_reasoning(1, "I need the population."), PARIS]),
            "Append every output item, the reasoning item too, before the results."),
    Example("two reasoning items, in order",
            (QUESTION, [_reasoning(1, "First the city."), _call(1, "lookup",
                arguments(query="2024 Olympics")),
                        _reasoning(2, "Then its population."), _call(2, "lookup", arguments(query="Paris"))]),
            "Keep the output items in the order they came."),
    Example("a message item is passed back", (QUESTION, [_message("Let me look that up."), PARIS]),
            "A message item the model wrote goes back too."),
    Example("two calls, two outputs", (QUESTION, [PARIS, _call(2, "convert", arguments(expression="0.15"))]),
            "One function_call_output per function_call, with run_tool's text as 'output'."),
    Example("linked by call_id, not by id", (QUESTION, [_reasoning(3, "Search."), _call(3, "lookup", "{}")]),
            "A function_call item has an 'id' (fc_...) and a 'call_id' (call_...): results use call_id."),
    Example("the input list is left alone", (QUESTION, [PARIS]), "Start from a copy: new = list(items)."),
    Example("nothing to run: still a new list", ([], [_message("Paris has 2.1 million people.")]),
            "Return a new list even when there is no call: [*items, *output]."),
)
def _passed_back(args: tuple, got: dict) -> list:
    return [o for o in got["next input"][len(args[0]):] if o.get("type") != "function_call_output"]


def _linked_to(args: tuple, got: dict) -> list:
    rest = got["next input"][len(args[0]):]
    return [o.get("call_id") for o in rest if o.get("type") == "function_call_output"]


def _results_misplaced(args: tuple, got: dict) -> bool:
    """Are the results not one per call, by call_id, after all the output items?"""
    tail = got["next input"][len(args[0]) + len(args[1]):]
    return _linked_to(args, got) != _ids(args[1], "call_id") or any(
        o.get("type") != "function_call_output" for o in tail)


def _ids(output: list, field: str) -> list:
    return [o[field] for o in output if o["type"] == "function_call"]


ORDERED = "every output item, reasoning items included, in the order they came"
FAULTS = (
    Fault("Do not change `items`", "items changed: start from a copy, new = list(items), and add to that.",
          found=lambda args, want, got: not got["items left alone"]),
    Fault("a new list", "The list returned is items itself: return a new list, [*items, *output, *results].",
          found=lambda args, want, got: not got["a new list"]),
    Fault(ORDERED, "Pass every output item back, as it came and in its order, reasoning and messages too.",
          found=lambda args, want, got: _passed_back(args, got) != args[1]),
    Fault("linked by its `call_id`", "Results use the call's call_id (call_...), not its id (fc_...).",
          found=lambda args, want, got: _linked_to(args, got) == _ids(args[1], "id") != []),
    Fault("one `function_call_output` item per `function_call`", "One function_call_output per "
          "function_call, after all the output items.",
          found=lambda args, want, got: _results_misplaced(args, got)),
    Fault("the text `run_tool` returns",
        "Each output is run_tool(tools, name, arguments), with the tools and "
          "the run_tool you were given.",
          found=lambda args, want, got: len(got["next input"]) == len(want["next input"])),
    Fault("one `function_call_output` item per `function_call`",
        "One function_call_output per function_call, "
          "after all the output items.", found=lambda args, want, got: True),
)
RULES = (
    Rule(ORDERED, ("a reasoning item is passed back", "two reasoning items, in order",
                   "a message item is passed back", GENERATED),
         edge=lambda a: [o["type"] for o in a[1]].count("reasoning") > 1),
    Rule("one `function_call_output` item per `function_call`", ("two calls, two outputs", GENERATED),
         edge=lambda a: [o["type"] for o in a[1]].count("function_call") > 1),
    Rule("linked by its `call_id`", ("linked by call_id, not by id",)),
    Rule("the text `run_tool` returns", ("two calls, two outputs",)),
    Rule("Do not change `items`", ("the input list is left alone",), edge=lambda a: bool(a[0])),
    Rule("a new list", ("the input list is left alone", "nothing to run: still a new list"),
         edge=lambda a: not a[0] and all(o["type"] != "function_call" for o in a[1])),
)


def _output_item(draw: Draw, number: int) -> dict[str, Any]:
    kind = draw.below(3)
    if kind == 0:
        return _call(number, draw.pick(("lookup", "convert", "search")), draw.pick(('{"q": "x"}', "{", "")))
    if kind == 1:
        return _reasoning(number, draw.pick(("Search first.", "Dann rechnen.")))
    return _message("Let me look.", number)


def _inputs(draw: Draw) -> tuple:
    items = [{"role": "user", "content": draw.pick(("Paris?", "東京の人口は?"))}
             for _ in range(draw.below(3))]
    numbers = iter(range(1, 20))
    return items, draw.many(lambda d: _output_item(d, next(numbers)), 6)


SPEC = define(Spec(
    "07.next_input",
        "the next Responses input: output items passed back, reasoning included, results by call_id",
    "next_input", key, EXAMPLES, _inputs, RULES, faults=FAULTS, observe=observe, compare=compare,
    show=lambda args: f"next_input({args[0]!r}, {args[1]!r}, tools, run_tool=run_tool)",
    hints=(
        "new = list(items) + list(output): every output item, as it came, reasoning and all.",
        "Then for each item with item['type'] == 'function_call': append {'type': "
        "'function_call_output', 'call_id': item['call_id'], 'output': run_tool(tools, item['name'], "
        "item['arguments'])}.",
    ),
    generated_hint="items, then every output item in order (reasoning and messages too), then one "
                   "function_call_output per function_call, by call_id; never change items."))
__all__ = ["SPEC", "key"]
