"""07.run_calls as a spec: one turn's tool calls become tool messages, linked by id, in call order.

The arguments are plain data (the calls, the side-effecting tool names, whether the
case looks at parallelism); ``observe`` hands the function a ``Bench`` of sample
tools that record how they ran, and reports it with the messages. Parallelism is
seen without measuring time, and a right solution never waits:

- a tool called in the caller's own thread ran one at a time, so it never waits;
- read-only calls of the parallel example meet at a barrier: a pool with a worker
  per call passes it in milliseconds, calls run one by one never reach it together;
- a side-effecting tool run in a pool's thread waits (at most ``WAIT``) for another
  tool to start: a parallel run shows its overlap at once.

In a browser tab no thread starts and the key's pool runs its calls one by one too
(``browser.inline_pools``), so the student's run is compared with what the key
does there: the parallel rule is checked on a laptop only, as the case says.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ...web import browser
from ..generated import Draw
from ..plain import Opaque, Raised
from ..predicates import mentions
from ..spec import GENERATED, Example, Fault, Rule, Spec, define
from ..values import describe
from .bench import Bench
from .common import arguments
from .run_calls_key import NAMES, call_kind, content_problem, key, outcome

KEYS = {"role", "tool_call_id", "content"}


def observe(function: Any, args: tuple) -> dict[str, Any]:
    calls, side, parallel = args
    bench = Bench(len(calls) if parallel else 0, frozenset(side))
    with browser.inline_pools():
        got = function(calls, bench.tools(), frozenset(side))
    plain = isinstance(got, list) and all(isinstance(m, dict) and all(isinstance(k, str) for k in m)
                                          for m in got)
    seen: dict[str, Any] = {"messages": got if plain else Opaque(describe(got))}
    if side and any(c["name"] in side for c in calls):
        seen |= {"ran in the order": bench.started, "two ran at once": bench.overlapped}
    if parallel:
        seen["a call ran alone"] = bench.alone
    return seen


def compare(args: tuple, want: dict, got: Any) -> bool | str:
    if isinstance(got, Raised):
        return "run_calls must not raise: every failure becomes the content of its call's message"
    calls, messages = args[0], got["messages"]
    if isinstance(messages, Opaque):
        return f"return a list of message dicts, not {messages}"
    if len(messages) != len(calls):
        return f"{len(calls)} calls need {len(calls)} tool messages; got {len(messages)}"
    for number, (call, message) in enumerate(zip(calls, messages, strict=True)):
        if set(message) != KEYS or message["role"] != "tool":
            return ("each message is exactly {'role': 'tool', 'tool_call_id': ..., 'content': ...}; "
                    f"got {message}")
        if message["tool_call_id"] != call["id"]:
            ids = [m["tool_call_id"] for m in messages]
            return (f"message {number + 1} answers {ids[number]!r}: the ids {ids} must be the calls' ids, "
                    "in order")
        problem = content_problem(call, message["content"], want["messages"][number]["content"])
        if problem:
            return f"the message for {call['id']}: {problem}"
    extra = [k for k in want if k != "messages" and want[k] != got.get(k)]
    return not extra or f"{extra[0]}: {got.get(extra[0])!r}, expected {want[extra[0]]!r}"


def _call(number: int | str, name: str, args: str) -> dict[str, str]:
    return {"id": f"call_{number}", "name": name, "arguments": args}


PEN, NOTEBOOK, RULER = arguments(item="pen"), arguments(item="notebook"), arguments(item="ruler")
CHARGE, EMAIL = arguments(amount=16), arguments(to="ana@example.com")
SIDE = ["charge", "email"]
PARALLEL = "When every call in the turn is read-only, run them in parallel"
ONE_AT_A_TIME = "When any call names a tool in `side_effects`, run them one at a time, in order"
ORDER = "one tool message per call, in the order of the calls"
PARTIAL = "A partial failure returns every result and every error"
WHOLE = "its `content` is `str(result)`, whole"
TOOLS_GIVEN = "`tools` maps names to functions"
NO_OTHER_KEYS = "no other keys"
TYPE = "give its type and message"
RAISING = ("KeyError", "RuntimeError")  # what the sample tools crash and fail raise
NOT_CHECKED = (" (not checked in the browser: a tab cannot start a thread, so no two calls can run at the "
               "same time there, nor be seen to; checked on a laptop)")


def _example(name: str, calls: list, hint: str, side: list | None = None, parallel: bool = False) -> Example:
    return Example(name, (calls, side or [], parallel), hint)


def _in_this_edition(example: Example) -> Example:
    """In a browser tab the parallel example says that its rule is checked on a laptop only."""
    if example.args[2] and not browser.threads_work():
        return dataclasses.replace(example, name=example.name + NOT_CHECKED)
    return example


EXAMPLES = (
    _example("three calls, three messages", [_call(1, "unit_price", PEN), _call(2, "unit_price", NOTEBOOK),
                                             _call(3, "unit_price", RULER)],
             "One {'role': 'tool', 'tool_call_id': ..., 'content': ...} per call."),
    _example("each result linked by its id", [_call(7, "unit_price", NOTEBOOK), _call(8, "unit_price", PEN)],
             "Take tool_call_id from the call whose result the message carries."),
    _example("results in the order of the calls",
             [_call(1, "slow_price", NOTEBOOK), _call(2, "unit_price", PEN)],
             "The second call finishes first; list the results in the calls' order anyway (pool.map does)."),
    _example("read-only calls run in parallel", [_call(i, "unit_price", PEN) for i in (1, 2, 3)],
             "Three read-only calls wait for each other here: run them at the same time "
             "(concurrent.futures.ThreadPoolExecutor).", parallel=True),
    _example("a side effect: one at a time", [_call(1, "charge", CHARGE), _call(2, "email", EMAIL),
                                              _call(3, "unit_price", PEN)],
             "If any call's tool is in side_effects, run all the calls in a plain for loop.", SIDE),
    _example("a side effect after a read-only call", [_call(1, "unit_price", PEN), _call(2, "charge", CHARGE),
                                                      _call(3, "email", EMAIL)],
             "Look at every call of the turn, not only the first: any side effect means one at a time.",
                 SIDE),
    _example("a side effect: in the order of the calls", [_call(1, "email", EMAIL), _call(2, "charge",
        CHARGE)],
             "Run side-effecting calls in the order the model wrote them.", SIDE),
    _example("malformed arguments", [_call(1, "unit_price", '{"item": "pen"')],
             "Catch the ValueError json.loads raises and say the arguments are not valid JSON."),
    _example("an unknown tool", [_call(1, "get_price", PEN)],
             "Name the unknown tool and list the real ones: \"Unknown tool 'get_price'. Available "
             "tools: ...\""),
    _example("a tool that raises", [_call(1, "crash", PEN)],
             "Catch Exception around the call; say its type and its message "
             "(f'{type(error).__name__}: {error}')."),
    _example("a partial failure", [_call(1, "unit_price", PEN), _call(2, "unit_price", "{item: pen}"),
                                   _call(3, "crash", PEN), _call(4, "unit_price", NOTEBOOK)],
             "One failed call must not lose the others' results: each call gets its own message."),
)


def _says(kind: str) -> Any:
    """A fault: the message for a call that fails in this way does not say what went wrong."""
    return lambda args, want, got: any(
        call_kind(c) == kind and content_problem(c, m.get("content"), "") for c, m in
        zip(args[0], got["messages"], strict=True))


def _broke_order(args: tuple, want: dict, got: dict) -> bool:
    ids = [m.get("tool_call_id") for m in got["messages"]]
    return len(ids) == len(args[0]) and ids != [c["id"] for c in args[0]]


def _raised(kind: str) -> Any:
    """A fault: the function raised, on a turn with a call that fails in this way."""
    return lambda args, want, got: isinstance(got, Raised) and any(
        call_kind(c) == kind for c in args[0])


FAULTS = (
    Fault(TYPE, "A bare exception has no args: say str(error), never error.args[0].",
          found=lambda args, want, got: isinstance(got, Raised) and "IndexError" in got),
    Fault("an unknown tool", "Check that the name is in tools before calling: an unknown tool gets a "
          "message, not a KeyError.", found=_raised("unknown")),
    Fault("a malformed argument string", "json.loads raises on text that is not JSON: catch it, and say "
          "so in the message.", found=_raised("json")),
    Fault("a malformed argument string", "json.loads raises RecursionError, not ValueError, on deeply "
          "nested text: catch both.",
          found=lambda args, want, got: isinstance(got, Raised) and "RecursionError" in got),
    Fault("an exception inside a tool", "Catch Exception around each call: a tool that raises gets a "
          "message too.", found=lambda args, want, got: isinstance(got, Raised)
          and any(call_kind(c) not in ("ok", "unknown", "json") for c in args[0])),
    Fault("Nothing raises", "run_calls never raises: whatever goes wrong becomes the content of a message.",
          found=lambda args, want, got: isinstance(got, Raised)),
    Fault(TOOLS_GIVEN, "Run the tools you were given (the tools argument), not the notebook's.",
          found=lambda args, want, got: any(call_kind(c) != "unknown" and
                                            mentions(m.get("content"), "unknown tool")
                                            for c, m in zip(args[0], got["messages"], strict=False))),
    Fault(NO_OTHER_KEYS, "Each message is exactly {'role': 'tool', 'tool_call_id': ..., 'content': ...}.",
          found=lambda args, want, got: any(set(m) != KEYS for m in got["messages"])),
    Fault(WHOLE, "The content is str(result), whole: never cut it.",
          found=lambda args, want, got: any(len(w["content"]) > len(m.get("content") or "") and
                                            w["content"].startswith(m.get("content") or "\0")
                                            for w, m in zip(want["messages"], got["messages"],
                                                strict=False))),
    Fault(ONE_AT_A_TIME, "A turn with a side effect runs every call one at a time, in the calls' order: a "
          "plain for loop, no pool.", found=lambda args, want, got: got.get("two ran at once")
          or got.get("ran in the order") != want.get("ran in the order")),
    Fault(PARALLEL, "Read-only calls of one turn run at the same time: ThreadPoolExecutor().map(one, calls).",
          found=lambda args, want, got: got.get("a call ran alone") is True),
    Fault("linked by its `tool_call_id`", "Take each message's tool_call_id from its own call.",
          found=lambda args, want, got: len(got["messages"]) == len(args[0])
          and sorted(m.get("tool_call_id") for m in got["messages"])
          != sorted(c["id"] for c in args[0])),
    Fault(ORDER, "List the messages in the calls' order (not by id, not as they finish): pool.map keeps it.",
          found=_broke_order),
    Fault("a malformed argument string",
        "Catch what json.loads raises (ValueError; RecursionError for absurd "
          "nesting) and say the arguments are not valid JSON.", found=_says("json")),
    Fault("an unknown tool", "Name the unknown tool and list the real ones, from the tools you were given.",
          found=_says("unknown")),
    Fault(TYPE, "Say the exception's type and its message: f'{type(error).__name__}: "
          "{error}' (a bare exception has no message; never read error.args[0]).",
          found=lambda args, want, got: any(_says(kind)(args, want, got) for kind in RAISING)),
    Fault(PARTIAL, "Every call gets its message, whatever happened to the others: the failed ones too.",
          found=lambda args, want, got: [m.get("tool_call_id") for m in got["messages"]]
          == [c["id"] for c in args[0] if call_kind(c) == "ok"] != [c["id"] for c in args[0]]),
    Fault(ORDER, "One tool message per call, every call of the turn.",
          found=lambda args, want, got: len(got["messages"]) != len(args[0])),
)
RULES = (
    Rule(ORDER, ("results in the order of the calls", "three calls, three messages", GENERATED),
         edge=lambda a: [c["id"] for c in a[0]] != sorted(c["id"] for c in a[0])),
    Rule("linked by its `tool_call_id`", ("each result linked by its id",), edge=lambda a: len(a[0]) > 1),
    Rule(PARALLEL, ("read-only calls run in parallel",)),
    Rule(ONE_AT_A_TIME, ("a side effect: one at a time", "a side effect: in the order of the calls",
                         "a side effect after a read-only call"),
         edge=lambda a: bool(a[1]) and a[0][:1] != [] and a[0][0]["name"] not in a[1]
         and any(c["name"] in a[1] for c in a[0])),
    Rule(PARTIAL, ("a partial failure", GENERATED),
         edge=lambda a: len({call_kind(c) == "ok" for c in a[0]}) == 2),
    Rule("a malformed argument string", ("malformed arguments",),
         edge=lambda a: any(c["arguments"] in ("", "{'item': 'pen'}") for c in a[0])),
    Rule("an unknown tool", ("an unknown tool",), edge=lambda a: any(c["name"] not in NAMES for c in a[0])),
    Rule("an exception inside a tool", ("a tool that raises",),
         edge=lambda a: any(c["name"] == "fail" for c in a[0])),
    Rule("give its type and message", ("a tool that raises",),
         edge=lambda a: any(call_kind(c) == "KeyError" for c in a[0])),
    Rule(WHOLE, ("three calls, three messages", GENERATED),
         edge=lambda a: any(call_kind(c) == "ok" and len(outcome(c, Bench().tools())[1]) > 200
                            for c in a[0])),
    Rule(TOOLS_GIVEN, ("three calls, three messages", "an unknown tool")),
    Rule(NO_OTHER_KEYS, ("three calls, three messages",)),
    Rule("Nothing raises", (GENERATED,), edge=lambda a: not a[0]),
)
# JSON as the API sends it, and each way the statement says arguments go wrong: text json.loads
# rejects ("" included; a Python literal; nesting that CPython 3.11 refuses with RecursionError,
# which Pyodide reads to its end and refuses with ValueError: 10,000 levels crash a browser tab),
# and a result longer than 200 characters.
ARGUMENTS = (PEN, arguments(item="Zürich ✓"), CHARGE, '{"item": "pen"', "{'item': 'pen'}", "",
             arguments(colour="red"), arguments(item="pen", note=None), arguments(item="x" * 240),
             "[" * 1200, EMAIL, "{}")
IDS = ("9", "10", "2", "Ab", "1")  # not in sorted order: sorting by id reorders them


def _inputs(draw: Draw) -> tuple:
    names = (*(n for n in NAMES if n != "slow_price"), "get_price", "price")  # slow_price: examples only
    calls = [_call(IDS[n], draw.pick(names), draw.pick(ARGUMENTS)) for n in range(draw.below(6))]
    return calls, draw.pick(([], ["charge"], SIDE)), False


SPEC = define(Spec(
    "07.run_calls", "run one turn's tool calls: linked by id, in order, parallel only when read-only",
    "run_calls", key, EXAMPLES, _inputs, RULES, faults=FAULTS, observe=observe, compare=compare,
    adapt=_in_this_edition,
    show=lambda args: f"run_calls({args[0]!r}, tools, side_effects={set(args[1]) or 'set()'})",
    hints=(
        "Write a helper that runs one call and always returns text: parse json.loads(arguments) "
        "in a try/except, check the name is in tools, call tools[name](**values) in a try/except Exception.",
        "Parallel: with ThreadPoolExecutor() as pool: texts = list(pool.map(one, calls)). "
        "pool.map keeps the calls' order, whichever finishes first.",
        "If any(call['name'] in side_effects for call in calls): texts = [one(c) for c in calls]. "
        "Then build {'role': 'tool', 'tool_call_id': call['id'], 'content': text} for each pair.",
    ),
    generated_hint="Every call gets its message, in the calls' order, whatever happened to the others: "
                   "a result as str(result), a failure in words (bad JSON, unknown tool, the exception's "
                   "type).",
    count=200))
__all__ = ["SPEC", "Bench", "key"]
