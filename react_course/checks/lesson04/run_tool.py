"""Check 04.run_tool: run a tool by its exact name; every failure becomes an observation.

The sample tools record which of them ran, so a check can tell a tool that
was run by a guessed name (the wrong tool, perhaps a harmful one) from an
unknown name reported back to the model.
"""

import re
from collections.abc import Callable
from typing import Any

from .. import exercise
from ..framework import Case, describe
from ..generated import Comparison, Draw, register


class _Recorder:
    """Sample tools that remember which of them ran."""

    def __init__(self) -> None:
        self.ran: list[str] = []

    def tool(self, name: str, result: Any = None, error: BaseException | None = None) -> Callable:
        def function(text: str) -> Any:
            self.ran.append(name)
            if error is not None:
                raise error
            return result(text) if callable(result) else result
        function.__name__ = name
        return function


def _run_tool_case(name: str, student: Callable, tools: dict[str, tuple], call: tuple[str, str],
                   test: Callable[[str, list[str]], bool | str], hint: str) -> Case:
    def run() -> dict[str, Any]:
        recorder = _Recorder()
        table = {n: recorder.tool(n, *spec) for n, spec in tools.items()}
        observation = student(table, *call)
        return {"observation": observation, "tools run": recorder.ran}

    def judge(got: dict[str, Any]) -> bool | str:
        observation = got["observation"]
        if not isinstance(observation, str):
            return f"run_tool must always return text for the model to read, not {type(observation).__name__}"
        if not observation.strip():
            return "an empty observation: the model would fill the blank with what it expected to see"
        return test(observation, got["tools run"])

    given = f"run_tool({{{', '.join(repr(n) + ': ...' for n in tools)}}}, {call[0]!r}, {call[1]!r})"
    return Case(name, run, test=judge, given=given, hint=hint, show=_show_run)


def _show_run(got: Any) -> str:
    """What run_tool returned, and which sample tools ran."""
    if not isinstance(got, dict):
        return describe(got)
    ran = ", ".join(dict.fromkeys(got["tools run"])) or "none"
    return f"returned {describe(got['observation'], 240)} (tools run: {ran})"


def _lists_tools(unknown: str, real: list[str]) -> Callable[[str, list[str]], bool | str]:
    def test(observation: str, ran: list[str]) -> bool | str:
        if ran:
            return (f"it ran {ran[0]!r} for the unknown name {unknown!r}: run only a tool named "
                    "exactly; a guess hides the model's mistake and can run the wrong tool")
        if unknown not in observation:
            return f"the observation should repeat the unknown name {unknown!r}, so the model sees its slip"
        missing = [n for n in real if n not in observation]
        return not missing or f"the observation should list every real tool; missing: {missing}"
    return test


def _reports_error(kind: str, message: str, tool: str) -> Callable[[str, list[str]], bool | str]:
    def test(observation: str, ran: list[str]) -> bool | str:
        if kind not in observation:
            return f"say which exception it was ({kind}): the type tells the model what went wrong"
        if message not in observation:
            return f"include the exception's message ({message}): it holds the detail the model needs"
        rest = observation.replace(kind, " ").replace(message, " ").replace(tool, " ")
        if len(re.findall(r"[A-Za-z]{2,}", rest)) < 4:
            return "add what to do next (e.g. 'Check the input against the tool description.')"
        return True
    return test


# Any of these, as whole words, says that nothing came back (the library writes "returned no result").
NOTHING_WORDS = ("nothing", "no result", "no value", "no data", "no output", "empty", "returned no")


def _says_nothing(tool: str) -> Callable[[str, list[str]], bool | str]:
    def test(observation: str, ran: list[str]) -> bool | str:
        if not any(re.search(rf"\b{word}\b", observation.lower()) for word in NOTHING_WORDS):
            return ("say in words that nothing came back, using one of: "
                    + ", ".join(repr(w) for w in NOTHING_WORDS))
        return tool in observation or f"name the tool ({tool!r}) in the observation"
    return test


def _is(expected: str) -> Callable[[str, list[str]], bool | str]:
    def test(observation: str, ran: list[str]) -> bool | str:
        if observation == expected:
            return True
        if any(re.search(rf"\b{word}\b", observation.lower()) for word in NOTHING_WORDS):
            return (f"the tool returned {expected}, a real result, but the observation says nothing "
                    f"came back: `if not result` is true for {expected} too; test for None, blank "
                    "text and empty containers only")
        return f"expected exactly {expected!r}, str(result)"
    return test


GENERATED = "agrees with the answer key on generated inputs"
RULES = {
    "always returns text for the model to read": ("a result that is not text becomes text",
                                                   "runs the named tool", GENERATED),
    "it never raises": ("any exception becomes an observation (ZeroDivisionError)", GENERATED,
                        "an exception becomes an observation",
                        "unknown name: say so and list the real tools"),
    "the result as text: `str(result)`": ("a result that is not text becomes text",
                                          "a tool that returns 0: a result, not nothing"),
    "`name` is not in `tools`": ("unknown name: say so and list the real tools",),
    "Run only a tool whose name matches": ("a name in the wrong case is not run",
                                           "the closest name is a different, harmful tool", GENERATED),
    "Do not lower-case the name or look for the closest one": (
        "a name in the wrong case is not run", "the closest name is a different, harmful tool"),
    "the exception's type, its message and a suggestion of what to change": (
        "an exception becomes an observation", "bad input raised inside the tool"),
    "it returned `None`, blank text, or an empty list or dict": (
        "a tool that returns None", "a tool that returns blank text", "a tool that returns an empty list",
        "a tool that returns an empty dict (the lesson's order 88219)", GENERATED),
    "name the tool, and use one of the words": ("a tool that returns None",),
    "A result such as `0` or `False` is a result": ("a tool that returns 0: a result, not nothing",
                                                   "a tool that returns False: a result, not nothing",
                                                   GENERATED),
}


@exercise(
    "04.run_tool",
    "run a tool by exact name; every failure becomes an observation",
    rules=RULES,
    hints=(
        "Start with `if name not in tools:` and return a text that lists ', '.join(tools). "
        "Never look for a similar name: not lower-casing, not difflib.",
        "Wrap only the call in try/except Exception as error, and use type(error).__name__ and "
        "str(error) in the text you return.",
        "After the call, if the result is None, blank text or an empty list or dict, say in words "
        "that the tool returned nothing (name the tool); otherwise return str(result). Not "
        "`if not result`: 0 and False are results.",
    ),
)
def run_tool_cases(run_tool: Callable):
    shop = {"price": (lambda t: "A pen costs 2." if t == "pen" else "?",), "calculate": ("16",)}
    yield _run_tool_case("runs the named tool", run_tool, shop, ("price", "pen"),
                         _is("A pen costs 2."), "Call tools[name](text) and return its result.")
    yield _run_tool_case("a result that is not text becomes text", run_tool,
                         {"double": (lambda t: 2 * int(t),)}, ("double", "21"), _is("42"),
                         "Return str(result): an observation is always text.")
    yield _run_tool_case("unknown name: say so and list the real tools", run_tool, shop,
                         ("get_price", "pen"), _lists_tools("get_price", ["price", "calculate"]),
                         "Return e.g. \"Unknown tool 'get_price'. Available tools: price, calculate.\"")
    yield _run_tool_case("a name in the wrong case is not run", run_tool, shop, ("Price", "pen"),
                         _lists_tools("Price", ["price", "calculate"]),
                         "Look the name up exactly (`name in tools`), without lower-casing it.")
    policy = {"get_policy": ("[late delivery] The fee is refunded.",), "refund_order": ("Refund issued.",)}
    yield _run_tool_case("the closest name is a different, harmful tool", run_tool, policy,
                         ("refund", "late delivery"), _lists_tools("refund", ["get_policy", "refund_order"]),
                         "'refund' is closest to 'refund_order', which pays money out; the model wanted "
                         "the refund policy. Run only exact names, and let the model correct itself.")
    yield _run_tool_case("an exception becomes an observation", run_tool,
                         {"price": (None, KeyError("pens"))}, ("price", "pens"),
                         _reports_error("KeyError", "'pens'", "price"),
                         "Catch Exception around the call and return e.g. \"price failed with "
                         "KeyError: 'pens'. Check the input against the tool description.\"")
    yield _run_tool_case("bad input raised inside the tool", run_tool,
                         {"get_order": (lambda t: str(int(t)),)}, ("get_order", "eighty-eight"),
                         _reports_error("ValueError", _message_of(lambda: int("eighty-eight")), "get_order"),
                         "Report type(error).__name__ and str(error), then what to change.")
    yield _run_tool_case("a tool that returns None", run_tool, {"get_order": (None,)},
                         ("get_order", "88219"), _says_nothing("get_order"),
                         "Return e.g. \"get_order returned nothing for '88219'.\", never None or ''.")
    yield _run_tool_case("a tool that returns blank text", run_tool, {"get_order": ("  ",)},
                         ("get_order", "88219"), _says_nothing("get_order"),
                         "A blank string is no answer either: check `not str(result).strip()`.")
    yield _run_tool_case("any exception becomes an observation (ZeroDivisionError)", run_tool,
                         {"share": (lambda t: str(100 // int(t)),)}, ("share", "0"),
                         _reports_error("ZeroDivisionError", _message_of(lambda: 100 // int("0")), "share"),
                         "The statement says run_tool never raises: catch Exception, not a list of the "
                         "errors you thought of. A tool can raise anything.")
    yield _run_tool_case("a tool that returns an empty dict (the lesson's order 88219)", run_tool,
                         {"get_order": ({},)}, ("get_order", "88219"), _says_nothing("get_order"),
                         "str({}) is '{}', which reads as 'no error, all is well': check "
                         "`isinstance(result, (list, dict)) and not result` before str().")
    yield _run_tool_case("a tool that returns 0: a result, not nothing", run_tool,
                         {"count_late": (0,)}, ("count_late", "orders today"), _is("0"),
                         "0 is an answer: `if not result` treats it as nothing. Test for None, blank "
                         "text and empty containers only.")
    yield _run_tool_case("a tool that returns False: a result, not nothing", run_tool,
                         {"is_late": (False,)}, ("is_late", "88213"), _is("False"),
                         "False is an answer too: compare with `result is None`, not `not result`.")
    yield _run_tool_case("a tool that returns an empty list", run_tool, {"find_orders": ([],)},
                         ("find_orders", "customer 7"), _says_nothing("find_orders"),
                         "An empty list or dict is no answer either: str([]) is '[]', which a model "
                         "reads as 'all is well'. Check `isinstance(result, (list, dict, tuple, set)) "
                         "and not result` too.")
    yield COMPARISON.case(run_tool)


def _message_of(function: Callable[[], Any]) -> str:
    """The message this Python gives for an error (its wording changes between versions)."""
    try:
        function()
    except Exception as error:
        return str(error)
    raise AssertionError("the function was expected to raise")


def _empty(result: Any) -> bool:
    return result is None or (isinstance(result, list | dict) and not result) or (
        isinstance(result, str) and not result.strip())


def key(tools: dict, name: str, text: str) -> str:
    """The answer key: exact names only; every failure and every empty result said in words."""
    if name not in tools:
        return f"Unknown tool {name!r}. Available tools: {', '.join(tools)}."
    try:
        result = tools[name](text)
    except Exception as error:
        return (f"{name} failed with {type(error).__name__}: {error}. "
                "Check the input against the tool description and try again.")
    return f"{name} returned nothing for {text!r}." if _empty(result) else str(result)


class Oddity(Exception):
    """An exception the student cannot have listed: run_tool must catch Exception itself."""


RESULTS = ("A pen costs 2.", 0, False, 42, 3.5, "0", "  ", "", None, [], {}, [0], {"id": 7}, "Zürich ✓",
           ValueError("bad literal"), KeyError("pens"), Oddity("the tool broke"), ZeroDivisionError("z"),
           RuntimeError("ünïcode fault"))
NAMES = ("price", "get_order", "refund_order", "calculate", "größe")


def _inputs(draw: Draw) -> tuple:
    names = list(dict.fromkeys(draw.pick(NAMES) for _ in range(1 + draw.below(3))))
    tools = {name: draw.pick(RESULTS) for name in names}
    called = draw.pick((names[0], names[-1], names[0].upper(), names[0][:-1], "get_price", f"{names[0]} "))
    return tools, called, draw.pick(("pen", "", "88219", "東京"))


def _tools_of(specs: dict[str, Any], recorder: _Recorder) -> dict[str, Callable]:
    """Sample tools from {name: what it returns, or the exception it raises}."""
    return {n: recorder.tool(n, *((None, r) if isinstance(r, BaseException) else (r,)))
            for n, r in specs.items()}


def _call(student: Callable, args: tuple) -> dict[str, Any]:
    specs, name, text = args
    recorder = _Recorder()
    return {"observation": student(_tools_of(specs, recorder), name, text), "tools run": recorder.ran}


def _show(args: tuple) -> str:
    specs, name, text = args
    tools = ", ".join(f"{n!r}: a tool that {'raises' if isinstance(r, BaseException) else 'returns'} {r!r}"
                      for n, r in specs.items())
    return f"run_tool({{{tools}}}, {name!r}, {text!r})"


def _compare(args: tuple, expected: Any, got: Any) -> bool | str:
    specs, name, _ = args
    observation = got.get("observation") if isinstance(got, dict) else got
    if not isinstance(observation, str) or not observation.strip():
        return "run_tool must always return text for the model to read"
    if name not in specs:
        return _lists_tools(name, list(specs))(observation, got["tools run"])
    result = specs[name]
    if isinstance(result, BaseException):
        return _reports_error(type(result).__name__, str(result), name)(observation, got["tools run"])
    return _says_nothing(name)(observation, []) if _empty(result) else _is(str(result))(observation, [])


COMPARISON = register(Comparison(
    "04.run_tool", lambda specs, name, text: key(_tools_of(specs, _Recorder()), name, text),
    _inputs, _compare, _show, call=_call,
    hint="Exact names only; catch Exception (a tool can raise anything); say 'nothing' for None, blank "
         "text, [] and {}; any other result, 0 and False too, is str(result)."))
