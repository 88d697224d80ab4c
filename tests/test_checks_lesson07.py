"""Lesson 07's checkers: the references pass, stubs are not attempted, plausible mistakes fail.

Each mutant names the rule of the statement it breaks, and every rule has at least one.
"""

import json
from concurrent.futures import ThreadPoolExecutor, as_completed

import pytest
from mutation_suite import caught_under

from react_course.checks import _lookup, check
from react_course.checks.lesson07.what_remains import CLASSES

# ------------------------------------------------------------------- references


def run_tool(tools, name, arguments):
    if name not in tools:
        return f"Unknown tool {name!r}. Available tools: {', '.join(tools)}."
    try:
        values = json.loads(arguments or "{}")
    except ValueError as error:
        return f"The arguments are not valid JSON ({error}). Send a JSON object."
    if not isinstance(values, dict):
        return "The arguments must be a JSON object."
    try:
        return str(tools[name](**values))
    except Exception as error:
        return f"{name} failed with {type(error).__name__}: {error}."


def run_calls(calls, tools, side_effects=frozenset(), *, order="map", parallel="auto", link="id",
              runner=run_tool):
    def one(call):
        return runner(tools, call["name"], call["arguments"])

    serial = parallel is False or (parallel == "auto" and any(c["name"] in side_effects for c in calls))
    if serial:
        texts = [one(c) for c in calls]
        pairs = list(zip(calls, texts, strict=True))
    else:
        with ThreadPoolExecutor() as pool:
            if order == "completed":
                futures = {pool.submit(one, c): c for c in calls}
                pairs = [(futures[f], f.result()) for f in as_completed(futures)]
            else:
                pairs = list(zip(calls, pool.map(one, calls), strict=True))
    key = {"id": lambda c, i: c["id"], "first": lambda c, i: calls[0]["id"],
           "index": lambda c, i: f"call_{i}"}[link]
    return [{"role": "tool", "tool_call_id": key(c, i), "content": t} for i, (c, t) in enumerate(pairs)]


def declare_tools(tools):
    return [{"type": "function", "function": {"name": n, "description": f.__doc__ or "",
                                              "parameters": {"type": "object", "properties": {}}}}
            for n, f in tools.items()]


def native_loop(client, tools, messages, *, model="scripted", max_steps=4, append=True, keep_calls=True,
                force="none", link="id", copy=True, declare=True, results_first=False):
    messages = list(messages) if copy else messages
    options = {"tools": declare_tools(tools)} if declare else {}
    for _ in range(max_steps):
        response = client.chat.completions.create(model=model, messages=messages, **options)
        message = response.choices[0].message
        if not message.tool_calls:
            return message.content
        sent = {"role": "assistant", "content": message.content}
        if keep_calls:
            sent["tool_calls"] = [{"id": c.id, "type": "function",
                                   "function": {"name": c.function.name, "arguments": c.function.arguments}}
                                  for c in message.tool_calls]
        results = [{"role": "tool", "tool_call_id": message.tool_calls[0].id if link == "first" else c.id,
                    "content": run_tool(tools, c.function.name, c.function.arguments)}
                   for c in message.tool_calls]
        if link == "swapped":
            contents = [r["content"] for r in results][::-1]
            results = [{**r, "content": t} for r, t in zip(results, contents, strict=True)]
        if results_first:
            messages += [*results, sent]
        elif append:
            messages += [sent, *results]
        else:
            messages += results
    if force is None:
        return None
    extra = {"tool_choice": force} if force else {}
    response = client.chat.completions.create(model=model, messages=messages, **options, **extra)
    return response.choices[0].message.content


def next_input(items, output, tools, run_tool=run_tool, *, reasoning=True, link="call_id", copy=True,
               outputs_first=False):
    new = list(items) if copy else items
    kept = [o for o in output if reasoning or o["type"] != "reasoning"]
    results = [{"type": "function_call_output", "call_id": o[link],
                "output": run_tool(tools, o["name"], o["arguments"])}
               for o in output if o["type"] == "function_call"]
    new += [*results, *kept] if outputs_first else [*kept, *results]
    return new


ANSWERS = {key: answer for key, (answer, _) in CLASSES.items()}


def passes(exercise_id, obj):
    return check(exercise_id, obj).passed


def fails(exercise_id, obj):
    result = check(exercise_id, obj)
    return result.status == "failed"


# ------------------------------------------------------------------- references pass


@pytest.mark.parametrize("exercise_id, reference", [
    ("07.run_calls", run_calls), ("07.native_loop", native_loop), ("07.next_input", next_input),
    ("07.what_remains", ANSWERS)])
def test_reference_passes(exercise_id, reference):
    result = check(exercise_id, reference)
    assert result.passed, str(result)


def stub(*args, **kwargs):
    raise NotImplementedError("exercise 7.x: write your code here")


@pytest.mark.parametrize("exercise_id", ["07.run_calls", "07.native_loop", "07.next_input"])
def test_stub_is_not_attempted(exercise_id):
    assert check(exercise_id, stub).status == "not attempted"


def test_predictions_left_as_ellipsis_are_not_attempted():
    assert check("07.what_remains", dict.fromkeys(ANSWERS, ...)).status == "not attempted"


# ------------------------------------------------------------------- mutants: run_calls


def crashing_runner(tools, name, arguments):  # a malformed argument string raises
    return str(tools[name](**json.loads(arguments))) if name in tools else f"Unknown tool {name!r}."


def no_unknown_check(tools, name, arguments):
    try:
        return str(tools[name](**json.loads(arguments)))
    except ValueError as error:
        return f"Not valid JSON: {error}"


def no_exception_catch(tools, name, arguments):
    if name not in tools:
        return run_tool(tools, name, arguments)
    try:
        values = json.loads(arguments)
    except ValueError:
        return "Not valid JSON."
    return str(tools[name](**values))


def silent_failures(tools, name, arguments):
    text = run_tool(tools, name, arguments)
    return "" if "failed" in text or "JSON" in text or "Unknown" in text else text


def calls_mutant(**options):
    def mutant(calls, tools, side_effects=frozenset()):
        return run_calls(calls, tools, side_effects, **options)
    return mutant


def reversed_side_effects(calls, tools, side_effects=frozenset()):
    return list(reversed(run_calls(list(reversed(calls)), tools, side_effects)))


def only_successes(calls, tools, side_effects=frozenset()):
    failed = ("JSON", "failed", "Unknown")
    return [m for m in run_calls(calls, tools, side_effects) if not any(w in m["content"] for w in failed)]


def first_call_decides(calls, tools, side_effects=frozenset()):  # only calls[0] is looked at
    serial = bool(calls) and calls[0]["name"] in side_effects
    return run_calls(calls, tools, side_effects, parallel=not serial)


def read_only_first(calls, tools, side_effects=frozenset()):  # reorders the turn: lookups, then effects
    looked = run_calls([c for c in calls if c["name"] not in side_effects], tools, frozenset())
    done = run_calls([c for c in calls if c["name"] in side_effects], tools, side_effects, parallel=False)
    by_id = {m["tool_call_id"]: m for m in looked + done}
    return [by_id[c["id"]] for c in calls]


def side_effects_behind_a_lock(calls, tools, side_effects=frozenset()):  # read-only ones still overlap
    import threading

    lock = threading.Lock()

    def guarded(tools_, name, arguments):
        if name in side_effects:
            with lock:
                return run_tool(tools_, name, arguments)
        return run_tool(tools_, name, arguments)
    return run_calls(calls, tools, side_effects, parallel=True, runner=guarded)


def exception_type_only(tools, name, arguments):
    try:
        return run_tool(tools, name, arguments) if name not in tools else str(
            tools[name](**json.loads(arguments)))
    except ValueError:
        return "Not valid JSON."
    except Exception as error:
        return f"{name} failed with {type(error).__name__}."


RUN_CALLS_MUTANTS = {
    "only the first call decides about side effects": first_call_decides,
    "read-only calls run before the side effects": read_only_first,
    "side effects behind a lock, read-only calls beside them": side_effects_behind_a_lock,
    "a tool's exception reported without its message": calls_mutant(runner=exception_type_only),
    "results in completion order (as_completed)": calls_mutant(order="completed"),
    "side effects run in parallel too": calls_mutant(parallel=True),
    "always one at a time": calls_mutant(parallel=False),
    "every result linked to the first call's id": calls_mutant(link="first"),
    "ids invented from positions": calls_mutant(link="index"),
    "a malformed argument string crashes": calls_mutant(runner=crashing_runner),
    "an unknown tool raises KeyError": calls_mutant(runner=no_unknown_check),
    "a tool's exception is not caught": calls_mutant(runner=no_exception_catch),
    "failures become blank results": calls_mutant(runner=silent_failures),
    "side effects in reverse order": reversed_side_effects,
    "only the successful results": only_successes,
    "only the first three calls answered": lambda calls, tools, side_effects=frozenset(): run_calls(
        calls[:3], tools, side_effects),
}


@pytest.mark.parametrize("name", sorted(RUN_CALLS_MUTANTS))
def test_run_calls_mutant_fails(name):
    assert fails("07.run_calls", RUN_CALLS_MUTANTS[name]), name


# ------------------------------------------------------------------- mutants: native_loop


def first_call_only(client, tools, messages, *, model="scripted", max_steps=4):
    """Keeps and answers only the first call of each turn."""
    messages, declarations = list(messages), declare_tools(tools)
    for _ in range(max_steps):
        message = client.chat.completions.create(model=model, messages=messages,
                                                 tools=declarations).choices[0].message
        if not message.tool_calls:
            return message.content
        call = message.tool_calls[0]
        messages.append({"role": "assistant", "content": message.content, "tool_calls": [
            {"id": call.id, "type": "function",
             "function": {"name": call.function.name, "arguments": call.function.arguments}}]})
        messages.append({"role": "tool", "tool_call_id": call.id,
                         "content": run_tool(tools, call.function.name, call.function.arguments)})
    return client.chat.completions.create(model=model, messages=messages, tools=declarations,
                                          tool_choice="none").choices[0].message.content


def no_tools_on_the_last_call(client, tools, messages, *, model="scripted", max_steps=4):
    """tool_choice='none' sent without tools=: the API answers 400."""
    inner = client.chat.completions.create

    def create(**request):
        if request.get("tool_choice") == "none":
            request.pop("tools", None)
        return inner(**request)
    from types import SimpleNamespace
    stripped = SimpleNamespace(chat=SimpleNamespace(completions=SimpleNamespace(create=create)))
    return native_loop(stripped, tools, messages, model=model, max_steps=max_steps)


def loop_mutant(**options):
    def mutant(client, tools, messages, *, model="scripted", max_steps=4):
        return native_loop(client, tools, messages, model=model, max_steps=max_steps, **options)
    return mutant


def unbounded_loop(client, tools, messages, *, model="scripted", max_steps=4):
    return native_loop(client, tools, messages, model=model, max_steps=10_000)


def text_is_the_answer(client, tools, messages, *, model="scripted", max_steps=4):
    """Returns a reply's text even when the reply also holds tool calls."""
    class Talkative:
        def __init__(self):
            self.chat = type("Chat", (), {"completions": self})()

        def create(self, **request):
            response = client.chat.completions.create(**request)
            if response.choices[0].message.content:
                response.choices[0].message.tool_calls = None
            return response

    return native_loop(Talkative(), tools, messages, model=model, max_steps=max_steps)


NATIVE_LOOP_MUTANTS = {
    "only the first call of a turn kept and answered": first_call_only,
    "the last call sends tool_choice without the tools": no_tools_on_the_last_call,
    "the assistant message is not appended before the results": loop_mutant(append=False),
    "the assistant message loses its tool_calls": loop_mutant(keep_calls=False),
    "results appended before the assistant message": loop_mutant(results_first=True),
    "every result linked to the first call's id": loop_mutant(link="first"),
    "results swapped between calls": loop_mutant(link="swapped"),
    "tool_choice ignored at the limit": loop_mutant(force=""),
    "no last call at the limit": loop_mutant(force=None),
    "tool_choice 'required' at the limit": loop_mutant(force="required"),
    "the caller's list is changed": loop_mutant(copy=False),
    "no tools declared": loop_mutant(declare=False),
    "no step limit": unbounded_loop,
    "a reply with text taken as the answer, calls and all": text_is_the_answer,
}


@pytest.mark.parametrize("name", sorted(NATIVE_LOOP_MUTANTS))
def test_native_loop_mutant_fails(name):
    assert fails("07.native_loop", NATIVE_LOOP_MUTANTS[name]), name


# ------------------------------------------------------------------- mutants: next_input

def input_mutant(**options):
    def mutant(items, output, tools, run_tool=run_tool):
        return next_input(items, output, tools, run_tool, **options)
    return mutant


def only_calls_back(items, output, tools, run_tool=run_tool):
    calls = [x for x in output if x["type"] == "function_call"]
    return [*items, *calls, *next_input([], output, tools, run_tool)[len(output):]]


def results_after_each_call(items, output, tools, run_tool=run_tool):
    new = list(items)
    for item in output:
        new.append(item)
        if item["type"] == "function_call":
            new.append({"type": "function_call_output", "call_id": item["call_id"],
                        "output": run_tool(tools, item["name"], item["arguments"])})
    return new


def output_wrapped_in_json(items, output, tools, run_tool=run_tool):
    new = next_input(items, output, tools, run_tool)
    return [{**i, "output": json.dumps({"result": i["output"]})} if i.get("type") == "function_call_output"
            else i for i in new]


def message_items_dropped(items, output, tools, run_tool=run_tool):
    return [i for i in next_input(items, output, tools, run_tool) if i.get("type") != "message"]


def reasoning_summary_emptied(items, output, tools, run_tool=run_tool):
    return [{**i, "summary": []} if i.get("type") == "reasoning" else i
            for i in next_input(items, output, tools, run_tool)]


NEXT_INPUT_MUTANTS = {
    "each result right after its call": results_after_each_call,
    "run_tool's text wrapped in JSON": output_wrapped_in_json,
    "message items dropped": message_items_dropped,
    "reasoning items sent back without their summary": reasoning_summary_emptied,
    "a reasoning item dropped between calls": input_mutant(reasoning=False),
    "results linked by the item's id": input_mutant(link="id"),
    "results before the output items": input_mutant(outputs_first=True),
    "the caller's list is changed": input_mutant(copy=False),
    "only the calls passed back": only_calls_back,
    "only the first three output items passed back": lambda items, output, tools, run_tool=run_tool: (
        next_input(items, output[:3], tools, run_tool)),
}


@pytest.mark.parametrize("name", sorted(NEXT_INPUT_MUTANTS))
def test_next_input_mutant_fails(name):
    assert fails("07.next_input", NEXT_INPUT_MUTANTS[name]), name


# ------------------------------------------------------------------- mutants: what_remains


@pytest.mark.parametrize("key", sorted(ANSWERS))
def test_each_wrong_answer_fails(key):
    wrong = {**ANSWERS, key: "remains" if ANSWERS[key] == "disappears" else "disappears"}
    assert fails("07.what_remains", wrong)


def test_everything_disappears_fails():
    assert fails("07.what_remains", dict.fromkeys(ANSWERS, "disappears"))


# ------------------------------------------------------------------- every rule has a mutant


def test_every_rule_is_exercised_by_a_case_the_mutants_reach():
    for exercise_id in ("07.run_calls", "07.native_loop", "07.next_input", "07.what_remains"):
        spec = _lookup(exercise_id)
        assert spec.rules, exercise_id
        for rule, names in spec.rules:
            assert names, (exercise_id, rule)


# ------------------------------------------------- mutants the generated comparison catches

CAUGHT_UNDER = [
    ("07.native_loop", "a reply with text taken as the answer, calls and all",
     "When the reply has no tool calls, its `content` is the answer"),
    ("07.run_calls", "only the first three calls answered",
     "one tool message per call, in the order of the calls"),
    ("07.next_input", "only the first three output items passed back",
     "every output item, reasoning items included, in the order they came"),
]


@pytest.mark.parametrize(("exercise_id", "name", "rule"), CAUGHT_UNDER)
def test_a_mutant_is_caught_under_its_rule(exercise_id, name, rule):
    catalogue = {"07.native_loop": NATIVE_LOOP_MUTANTS, "07.run_calls": RUN_CALLS_MUTANTS,
                 "07.next_input": NEXT_INPUT_MUTANTS}[exercise_id]
    problem = caught_under(exercise_id, catalogue[name], rule)
    assert not problem, problem
