"""Lesson 07's checkers, through the one helper (``mutation_suite.exercise_tests``).

Right solutions pass, stubs are not attempted, and every wrong solution below fails under the
rule of the statement it breaks, each run once. 07.what_remains asks for values, not a function:
its catalogue has its own stub (the dict of ``...`` the exercise hands out).
"""

import json
from concurrent.futures import ThreadPoolExecutor, as_completed

from mutation_suite import exercise_tests

import react_course as rc
from react_course.checks import check
from react_course.checks.lesson07 import native_loop as loop_spec
from react_course.checks.lesson07 import run_calls as calls_spec
from react_course.checks.lesson07.what_remains import ANSWERS, EITHER

# ------------------------------------------------------------------- references


def run_tool(tools, name, arguments):
    if name not in tools:
        return f"Unknown tool {name!r}. Available tools: {', '.join(tools)}."
    try:
        values = json.loads(arguments)
    except (ValueError, RecursionError) as error:
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
                force="none", link="id", copy=True, declare=True, results_first=False, none_only=False):
    messages = list(messages) if copy else messages
    options = {"tools": declare_tools(tools)} if declare else {}
    for _ in range(max_steps):
        response = client.chat.completions.create(model=model, messages=messages, **options)
        message = response.choices[0].message
        if (message.tool_calls is None) if none_only else not message.tool_calls:
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

def results_cut(tools, name, arguments):
    return run_tool(tools, name, arguments)[:200]


def literal_eval_runner(tools, name, arguments):
    import ast

    if name not in tools:
        return run_tool(tools, name, arguments)
    try:
        values = ast.literal_eval(arguments)
    except (ValueError, SyntaxError, RecursionError, MemoryError):
        return "The arguments are not valid JSON."
    try:
        return str(tools[name](**values))
    except Exception as error:
        return f"{name} failed with {type(error).__name__}: {error}."


def first_arg_of_the_error(tools, name, arguments):
    try:
        return str(tools[name](**json.loads(arguments))) if name in tools else run_tool(tools, name,
            arguments)
    except (ValueError, RecursionError):
        return "The arguments are not valid JSON."
    except Exception as error:
        return f"{name} failed with {type(error).__name__}: {error.args[0]}."


def empty_is_no_arguments(tools, name, arguments):
    return run_tool(tools, name, arguments or "{}")


def only_value_errors(tools, name, arguments):
    if name not in tools:
        return run_tool(tools, name, arguments)
    try:
        values = json.loads(arguments)
    except ValueError:
        return "The arguments are not valid JSON."
    return run_tool(tools, name, json.dumps(values))


def the_notebooks_tools(tools, name, arguments):
    return run_tool({"price": rc.tools.Shop().price}, name, arguments)


def sorted_by_id(calls, tools, side_effects=frozenset()):
    return sorted(run_calls(calls, tools, side_effects), key=lambda m: m["tool_call_id"])


def with_the_tool_name(calls, tools, side_effects=frozenset()):
    return [{**m, "name": c["name"]} for m, c in zip(run_calls(calls, tools, side_effects), calls,
        strict=True)]


def _deep_nesting_raises() -> bool:
    """CPython 3.11 refuses 1,200 levels of JSON with RecursionError; newer ones (Pyodide's too) parse."""
    try:
        json.loads("[" * 1200)
    except RecursionError:
        return True
    except ValueError:
        return False
    return False


ORDER, PARTIAL = calls_spec.ORDER, calls_spec.PARTIAL
PARALLEL, ONE_AT_A_TIME = calls_spec.PARALLEL, calls_spec.ONE_AT_A_TIME
MALFORMED, TYPE_AND_MESSAGE = "a malformed argument string", "give its type and message"
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
    "results cut to 200 characters": calls_mutant(runner=results_cut),
    "messages sorted by id": sorted_by_id,
    "ast.literal_eval for JSON": calls_mutant(runner=literal_eval_runner),
    "a bare exception's args[0]": calls_mutant(runner=first_arg_of_the_error),
    "'' read as no arguments": calls_mutant(runner=empty_is_no_arguments),
    "a turn with no calls raises": lambda calls, tools, side_effects=frozenset(): run_calls(
        calls, tools, side_effects) if calls else max(calls),
    "the notebook's tools instead of the argument": calls_mutant(runner=the_notebooks_tools),
    "an extra key in each message": with_the_tool_name,
}
RUN_CALLS_RULES = {
    "only the first call decides about side effects": ONE_AT_A_TIME,
    "read-only calls run before the side effects": ONE_AT_A_TIME,
    "side effects behind a lock, read-only calls beside them": ONE_AT_A_TIME,
    "a tool's exception reported without its message": TYPE_AND_MESSAGE,
    "results in completion order (as_completed)": ORDER,
    "side effects run in parallel too": ONE_AT_A_TIME,
    "always one at a time": PARALLEL,
    "every result linked to the first call's id": "linked by its `tool_call_id`",
    "ids invented from positions": "linked by its `tool_call_id`",
    "a malformed argument string crashes": MALFORMED,
    "an unknown tool raises KeyError": "an unknown tool",
    "a tool's exception is not caught": "an exception inside a tool",
    "failures become blank results": PARTIAL,
    "side effects in reverse order": ONE_AT_A_TIME,
    "only the successful results": PARTIAL,
    "only the first three calls answered": ORDER,
    "results cut to 200 characters": calls_spec.WHOLE,
    "messages sorted by id": ORDER,
    "ast.literal_eval for JSON": MALFORMED,
    "a bare exception's args[0]": TYPE_AND_MESSAGE,
    "'' read as no arguments": MALFORMED,
    "a turn with no calls raises": "Nothing raises",
    "the notebook's tools instead of the argument": calls_spec.TOOLS_GIVEN,
    "an extra key in each message": calls_spec.NO_OTHER_KEYS,
}
if _deep_nesting_raises():  # where it raises, a solution that catches only ValueError raises too
    RUN_CALLS_MUTANTS["only ValueError caught (deep nesting raises RecursionError)"] = calls_mutant(
        runner=only_value_errors)
    RUN_CALLS_RULES["only ValueError caught (deep nesting raises RecursionError)"] = MALFORMED


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

def the_notebooks_tools_declared(client, tools, messages, *, model="scripted", max_steps=4):
    book = rc.tools.Encyclopedia()
    return native_loop(client, {**tools, "search": book.search}, messages, model=model, max_steps=max_steps)


ANSWER, APPEND, LINKED, NONE = loop_spec.ANSWER, loop_spec.APPEND, loop_spec.LINKED, loop_spec.NONE
NATIVE_LOOP_MUTANTS = {
    "only the first call of a turn kept and answered": (LINKED, first_call_only),
    "the last call sends tool_choice without the tools": ("send the tool declarations",
        no_tools_on_the_last_call),
    "the assistant message is not appended before the results": (APPEND, loop_mutant(append=False)),
    "the assistant message loses its tool_calls": (APPEND, loop_mutant(keep_calls=False)),
    "results appended before the assistant message": (APPEND, loop_mutant(results_first=True)),
    "every result linked to the first call's id": (LINKED, loop_mutant(link="first")),
    "results swapped between calls": (LINKED, loop_mutant(link="swapped")),
    "tool_choice ignored at the limit": (NONE, loop_mutant(force="")),
    "no last call at the limit": (NONE, loop_mutant(force=None)),
    "tool_choice 'required' at the limit": (NONE, loop_mutant(force="required")),
    "the caller's list is changed": ("work on a copy", loop_mutant(copy=False)),
    "no tools declared": ("send the tool declarations", loop_mutant(declare=False)),
    "no step limit": (NONE, unbounded_loop),
    "a reply with text taken as the answer, calls and all": (ANSWER, text_is_the_answer),
    "tool_calls: [] taken as a tool turn (`is None`)": (ANSWER, loop_mutant(none_only=True)),
    "the notebook's tools declared": ("send the tool declarations", the_notebooks_tools_declared),
}


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

def returns_items_itself(items, output, tools, run_tool=run_tool):
    items += next_input([], output, tools, run_tool)
    return items


def no_call_no_copy(items, output, tools, run_tool=run_tool):
    if not any(o["type"] == "function_call" for o in output) and not output:
        return items
    return next_input(items, output, tools, run_tool) if output else items


def the_notebooks_run_tool(items, output, tools, run_tool=run_tool):
    return next_input(items, output, {"search": rc.tools.Encyclopedia().search}, globals()["run_tool"])


ORDERED = "every output item, reasoning items included, in the order they came"
PER_CALL = "one `function_call_output` item per `function_call`"
NEXT_INPUT_MUTANTS = {
    "each result right after its call": (PER_CALL, results_after_each_call),
    "run_tool's text wrapped in JSON": ("the text `run_tool` returns", output_wrapped_in_json),
    "message items dropped": (ORDERED, message_items_dropped),
    "reasoning items sent back without their summary": (ORDERED, reasoning_summary_emptied),
    "a reasoning item dropped between calls": (ORDERED, input_mutant(reasoning=False)),
    "results linked by the item's id": ("linked by its `call_id`", input_mutant(link="id")),
    "results before the output items": (PER_CALL, input_mutant(outputs_first=True)),
    "the caller's list is changed": ("Do not change `items`", input_mutant(copy=False)),
    "only the calls passed back": (ORDERED, only_calls_back),
    "only the first three output items passed back": (ORDERED, lambda items, output, tools,
        run_tool=run_tool: (
        next_input(items, output[:3], tools, run_tool))),
    "the input list returned, extended": ("Do not change `items`", returns_items_itself),
    "the input list itself when there is nothing to add": ("a new list", no_call_no_copy),
    "the notebook's tools and run_tool instead of the arguments": ("the text `run_tool` returns",
                                                                   the_notebooks_run_tool),
}


def stub(*args, **kwargs):
    raise NotImplementedError("exercise 7.x: write your code here")


EXERCISES = {
    "07.run_calls": ((run_calls, calls_spec.key),
                     {name: (RUN_CALLS_RULES[name], wrong) for name, wrong in RUN_CALLS_MUTANTS.items()}),
    "07.native_loop": ((native_loop, loop_spec.key), NATIVE_LOOP_MUTANTS),
    "07.next_input": ((next_input,), NEXT_INPUT_MUTANTS),
}
(test_right_solutions_pass, test_stub_is_not_attempted, test_wrong_solution_fails_under_its_rule,
 test_every_rule_has_a_mutant, test_each_rules_cases_exist) = exercise_tests(EXERCISES, stub)


def test_a_right_solution_never_waits() -> None:
    """Parallelism is seen without a clock: no tool of a right solution waits, so no case of it can
    run out of time on a loaded machine (what the check costs is measured, not asserted)."""
    benches = []
    real = calls_spec.Bench.__init__

    def recording(self, *args, **kwargs):
        real(self, *args, **kwargs)
        benches.append(self)

    calls_spec.Bench.__init__ = recording
    try:
        assert check("07.run_calls", run_calls).passed
    finally:
        calls_spec.Bench.__init__ = real
    assert benches and sum(bench.waits for bench in benches) == 0


# ------------------------------------------------------------------- 07.what_remains (values)


def _flipped(name):
    return {**ANSWERS, name: "remains" if ANSWERS[name] == "disappears" else "disappears"}


WHAT_REMAINS_MUTANTS = {
    **{f"{name} the other way": (f"`{name}`", _flipped(name)) for name in ANSWERS},
    "everything disappears": (tuple(f"`{n}`" for n, a in ANSWERS.items() if a == "remains"),
                              dict.fromkeys(ANSWERS, "disappears")),
    # written from the statement alone
    "capitalised words": (EITHER, {name: answer.capitalize() for name, answer in ANSWERS.items()}),
    "a space after the word": (EITHER, {**ANSWERS, "wrong_tool": "remains "}),
    "the plural's s left off": (EITHER, {**ANSWERS, "ignored_result": "remain"}),
    "True for disappears": (EITHER, {name: answer == "disappears" for name, answer in ANSWERS.items()}),
    "a key renamed": ("`hallucinated_argument`", {**{k: v for k, v in ANSWERS.items()
                                                     if k != "hallucinated_argument"},
                                                  "hallucinated_arguments": "remains"}),
    "a list, not a dict": (None, list(ANSWERS.values())),
}
(test_answers_pass, test_the_handout_is_not_attempted, test_wrong_answers_fail_under_their_rule,
 test_every_what_remains_rule_has_a_wrong_answer, test_each_what_remains_case_exists) = exercise_tests(
    {"07.what_remains": (ANSWERS, WHAT_REMAINS_MUTANTS)}, dict.fromkeys(ANSWERS, ...))
