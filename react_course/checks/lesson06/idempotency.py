"""06.idempotency as a spec: one key per side effect, the same on every retry, after a restart too.

The key is the library's ``safety.idempotency_key``. A case is a pair of actions ``(run_id,
tool, arguments)``: the first attempt and a retry (the same action rebuilt, its keys in
another order) or another action that looks alike (2.5 and 2.50 are one amount; ``["a,b"]``
and ``["a", "b"]``, ``{1: "x"}`` and ``{"1": "x"}`` are two). ``restart.first_then_retry``
calls the student's function for both, the retry as after a restart of Python, and the first
again; only whether the keys agree is compared with the library's. Arguments cross as plain
data with every dict written as a tuple of ``(key, value)`` pairs (a key may be a whole number).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from ...safety import idempotency_key
from ..generated import Draw
from ..plain import Raised
from ..spec import GENERATED, Example, Fault, Rule, Spec, define
from .restart import first_then_retry


def plain(value: Any) -> Any:
    """``value`` with every dict written as a tuple of pairs, which plain data can carry."""
    if isinstance(value, dict):
        return tuple((plain(k), plain(v)) for k, v in value.items())
    return [plain(item) for item in value] if isinstance(value, list) else value


def built(value: Any) -> Any:
    """The value ``plain`` wrote: tuples of pairs become dicts again, in their order."""
    if isinstance(value, tuple):
        return {built(k): built(v) for k, v in value}
    return [built(item) for item in value] if isinstance(value, list) else value


def _actions(args: tuple) -> tuple[tuple, tuple]:
    return tuple((run_id, tool, built(arguments)) for run_id, tool, arguments in args)


def observe(function: Any, args: tuple) -> dict[str, Any]:
    return first_then_retry(function, *_actions(args))


def _same(value: dict) -> bool:
    return value["keys"][0] == value["keys"][1]


def compare(args: tuple, want: dict, got: Any) -> bool | str:
    if isinstance(got, Raised):
        return False
    keys = [*got["keys"], got["the first again"]]
    wrong = next((k for k in keys if not isinstance(k, str) or not k), None)
    if wrong is not None:
        return f"the key must be a non-empty text, got {wrong!r}"
    if got["the first again"] != keys[0]:
        return "the same call, made twice in one run of Python, got two keys"
    if _same(got) != _same(want):
        return "two different actions got the same key" if _same(got) else (
            "the same action (rebuilt, as after a restart) got another key")
    return True


def show_value(value: Any) -> str:
    if not isinstance(value, dict):
        return str(value)
    first, second = value["keys"]
    return f"the same key for both: {first!r}" if first == second else f"two keys: {first!r}, {second!r}"


def _show(args: tuple) -> str:
    first, retry = _actions(args)
    return f"idempotency_key{first!r}, then after a restart idempotency_key{retry!r}"


def _walk(value: Any):
    """Every value inside ``value`` (dict keys included), ``value`` too, with its depth."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        yield item, depth
        if isinstance(item, dict):
            stack += [(part, depth + 1) for pair in item.items() for part in pair]
        elif isinstance(item, list):
            stack += [(part, depth + 1) for part in item]


def _decimals(args: tuple, deepest: int = 0) -> list[Decimal]:
    return [v for _, _, a in _actions(args) for v, depth in _walk(a)
            if isinstance(v, Decimal) and depth > deepest]


def _unequal_amounts(args: tuple) -> bool:
    """The two actions hold Decimals, and not the same amounts."""
    first, retry = (sorted(v for v, _ in _walk(a) if isinstance(v, Decimal)) for _, _, a in _actions(args))
    return bool(first) and bool(retry) and first != retry


def _order(value: Any) -> list:
    return [[k, _order(v)] for k, v in value.items()] if isinstance(value, dict) else []


def _mixed_keys(args: tuple) -> bool:
    return any(isinstance(v, dict) and len({type(k) for k in v}) > 1
               for _, _, a in _actions(args) for v, _ in _walk(a))


def _key_types(args: tuple) -> bool:
    """1 and "1" as keys of the two actions' arguments, the one where the other has the other."""
    (_, _, a), (_, _, b) = _actions(args)
    return any(str(k) in map(str, b) and k not in b for k in a)


def _retyped(args: tuple) -> bool:
    """A value and its text in the same place (25 and "25", None and "None", True and 1)."""
    (_, _, a), (_, _, b) = _actions(args)
    return any(k in b and _alike(a[k], b[k]) for k in a)


def _alike(x: Any, y: Any) -> bool:
    numbers = isinstance(x, int) and isinstance(y, int) and x == y
    return type(x) is not type(y) and (str(x) == str(y) or numbers)


def _differs(args: tuple, want: dict, got: Any) -> bool:
    return not _same(want) and not isinstance(got, Raised) and _same(got)


def _split(args: tuple, want: dict, got: Any) -> bool:
    return _same(want) and not isinstance(got, Raised) and not _same(got)


TEXT = "a non-empty text"
SAME = "the same for the same run, tool and arguments"
ORDER = "whatever the order of the arguments' keys"
RETRY = "must not change on retry"
DIFFERENT = "different for a different run, tool or arguments"
TYPES = '`25` and `"25"` are different arguments'
KEY_TYPES = 'and so are `1` and `"1"` as keys'
MIXED = "both may appear in one dict"
DECIMAL = "a `Decimal` amount"
EQUAL = "Two `Decimal`s that are equal"
DIGITS = "whatever their number of digits"
NESTED = "lists and dicts of these"
HASH = "Python's `hash()` of a text"
FAULTS = (
    Fault(TEXT, "Return the key as a str (hashlib's hexdigest(), not digest(), which is bytes).",
          found=lambda args, want, got: not isinstance(got, Raised) and compare(args, want, got) not in (
              True, False) and "non-empty text" in compare(args, want, got)),
    Fault(MIXED, "Keys may be texts and whole numbers in one dict, where sorted() of the keys raises: sort "
          "the items by their written texts instead.", found=lambda args, want, got: isinstance(got, Raised)
          and _mixed_keys(args)),
    Fault(NESTED, "A Decimal may sit inside a list or a dict: write every value the same way, at any depth.",
          found=lambda args, want, got: isinstance(got, Raised) and bool(_decimals(args, deepest=1))),
    Fault(DECIMAL, "json.dumps cannot write a Decimal: write each value as text yourself, with its type.",
          found=lambda args, want, got: isinstance(got, Raised) and bool(_decimals(args))),
    Fault(RETRY, "The key read the clock: a retry comes later, so build the key from run_id, tool and "
          "arguments only.", found=lambda args, want, got: "the clock" in got["read"]),
    Fault(HASH, "hash() changes from one run of Python to the next: hash a canonical text with hashlib "
          "instead, or use the text itself.", found=lambda args, want, got: _split(args, want, got)
          and "hash()" in got["read"]),
    Fault(RETRY, "The same call made twice got two keys: no attempt counter, nothing random.",
          found=lambda args, want, got: got["the first again"] != got["keys"][0]),
    Fault(EQUAL, "Equal Decimals (2.5 and 2.50, -0 and 0, 1E+1 and 10) are one amount: give them one form "
          "(strip the trailing zeros of the digits yourself; normalize() keeps -0's sign).",
          found=lambda args, want, got: _split(args, want, got) and bool(_decimals(args))),
    Fault(ORDER, "The same action, its keys in another order, got another key: sort the items (at every "
          "depth) before you write them.", found=lambda args, want, got: _split(args, want, got)
          and _order(_actions(args)[0][2]) != _order(_actions(args)[1][2])),
    Fault(SAME, "The same action got two keys: build the key from run_id, tool and arguments only, "
          "written the same way every time.", found=_split),
    Fault(DIGITS, "Different amounts need different keys at any number of digits: float() keeps 17, "
          "normalize() and arithmetic 28, quantize() the digits you ask for.",
          found=lambda args, want, got: _differs(args, want, got) and _unequal_amounts(args)),
    Fault(KEY_TYPES, "Keep each key's type too: the key 1 and the key '1' are different arguments.",
          found=lambda args, want, got: _differs(args, want, got) and _key_types(args)),
    Fault(TYPES, "Keep each value's type in the key: 25 and '25' (and None and 'None', True and 1) are "
          "different arguments.", found=lambda args, want, got: _differs(args, want, got) and _retyped(args)),
    Fault(DIFFERENT, "Two different actions came out as one text: keep the run, the tool and every "
          "argument's name and value, mark each value's type and escape texts (repr or json.dumps of each "
          "text) so that no text can look like a list, a dict or a delimiter.", found=_differs),
)

REFUND = {"order_id": 88213, "amount": 25}
BASE = ("run-7", "refund", REFUND)
THIRTY = Decimal("1." + "0" * 28 + "1")


def _pair(name: str, first: tuple, retry: tuple, hint: str) -> Example:
    return Example(name, tuple((r, t, plain(a)) for r, t, a in (first, retry)), hint)


def _amounts(name: str, a: Any, b: Any, hint: str, where: str = "amount") -> Example:
    return _pair(name, ("run-7", "refund", {where: a}), ("run-7", "refund", {where: b}), hint)


EXAMPLES = (
    _pair("the key is text", BASE, BASE, "Return a str."),
    _pair("a retry gets the same key", BASE, ("run-7", "refund", dict(REFUND)),
          "A retry sends the same action: the key must be the same."),
    _pair("a retry a moment later gets the same key", BASE, BASE,
          "Time must not be part of the key: a retry after a time-out comes later."),
    _pair("the order of the keys does not matter", BASE,
          ("run-7", "refund", {"amount": 25, "order_id": 88213}),
          "Sort the keys before you turn the arguments into text."),
    _pair("another amount, another key", BASE, ("run-7", "refund", {**REFUND, "amount": 480}),
          "A different refund is a different action."),
    _pair("the same value under another name, another key", BASE,
          ("run-7", "refund", {"order_id": 88213, "fee": 25}),
          "The names of the arguments are part of the action: keep keys and values."),
    _pair("the key does not come from hash()", BASE, BASE,
          "hash() changes from one run of Python to the next: hash a canonical text with hashlib instead."),
    _pair("another run, another key", BASE, ("run-8", "refund", REFUND),
          "The same refund in another run is another request: include run_id."),
    _pair("another tool, another key", BASE, ("run-7", "cancel_order", REFUND), "Include the tool's name."),
    _pair("a number is not its text", BASE, ("run-7", "refund", {"order_id": 88213, "amount": "25"}),
          "Keep each value's type in the key: 25 and '25' are different arguments."),
    _pair("the key 1 is not the key '1'", ("run-7", "refund", {1: "x"}), ("run-7", "refund", {"1": "x"}),
          "Keep each key's type too: json.dumps writes the key 1 as \"1\"."),
    _pair("a Decimal amount and mixed keys", ("run-7", "refund", {"amount": Decimal("25.50"), 1: "x"}),
          ("run-7", "refund", {1: "x", "amount": Decimal("25.50")}),
          "json.dumps cannot write a Decimal, and sort_keys cannot sort 1 and 'amount' together: write each "
          "part as text yourself."),
    _amounts("2.5 and 2.50 are one amount", Decimal("2.5"), Decimal("2.50"),
             "Equal Decimals are the same amount: str(Decimal('2.50')) is '2.50'; write a form that equal "
             "amounts share."),
    _amounts("-0 and 0 are one amount", Decimal("-0"), Decimal("0.00"),
             "Decimal('-0') == Decimal('0'), but normalize() keeps the sign: zero needs one form."),
    _amounts("amounts that differ in the 30th digit", THIRTY, Decimal(1),
             "Different amounts, different keys, at any number of digits: normalize() and float() round to "
             "28 and 17 digits."),
    _amounts("a Decimal inside a list", [Decimal("2.5"), "x"], [Decimal("2.50"), "x"],
             "A Decimal may sit inside a list or a dict: write every value the same way, at any depth.",
             where="amounts"),
)
HIDDEN = (
    _amounts("hidden: amounts a cent apart", Decimal("10.01"), Decimal("10.011"), "Every digit counts."),
    _amounts("hidden: True is not 1", True, 1, "True and 1 are different arguments."),
    _pair("hidden: a delimiter inside a run id", ("r:x", "refund", {}), ("r", "x:refund", {}),
          "The run id and the tool must stay apart, whatever characters they hold."),
    _amounts("hidden: nested dicts in another order", {"a": 1, "b": [2]}, {"b": [2], "a": 1},
             "Sort a dict's items at every depth.", where="items"),
)


def _keyed_alike(args: tuple) -> bool:
    return idempotency_key(*_actions(args)[0]) == idempotency_key(*_actions(args)[1])


def _written_apart(args: tuple) -> bool:
    """The same action, its equal Decimals written differently (2.5 and 2.50)."""
    first, retry = (sorted(str(d) for v, _ in _walk(a) if isinstance(d := v, Decimal)) for _, _, a in
                    _actions(args))
    return _keyed_alike(args) and first != retry


RULES = (
    Rule(SAME, ("a retry gets the same key", GENERATED), edge=_keyed_alike),
    Rule(ORDER, ("the order of the keys does not matter", GENERATED),
         edge=lambda a: _keyed_alike(a) and _order(_actions(a)[0][2]) != _order(_actions(a)[1][2])),
    Rule(TYPES, ("a number is not its text", GENERATED), edge=_retyped),
    Rule(KEY_TYPES, ("the key 1 is not the key '1'", GENERATED), edge=_key_types),
    Rule(RETRY, ("a retry a moment later gets the same key", "a retry gets the same key", GENERATED),
         edge=_keyed_alike),
    Rule(HASH, ("the key does not come from hash()", GENERATED), edge=_keyed_alike),
    Rule(DIFFERENT, ("another amount, another key", "another run, another key", "another tool, another key",
                     "the same value under another name, another key", GENERATED),
         edge=lambda a: not _keyed_alike(a)),
    Rule(TEXT, ("the key is text",)),
    Rule(MIXED, ("a Decimal amount and mixed keys", GENERATED), edge=_mixed_keys),
    Rule(DECIMAL, ("a Decimal amount and mixed keys", GENERATED), edge=lambda a: bool(_decimals(a))),
    Rule(EQUAL, ("2.5 and 2.50 are one amount", "-0 and 0 are one amount", GENERATED), edge=_written_apart),
    Rule(DIGITS, ("amounts that differ in the 30th digit", GENERATED),
         edge=lambda a: any(len(d.as_tuple().digits) > 28 for d in _decimals(a))),
    Rule(NESTED, ("a Decimal inside a list", GENERATED), edge=lambda a: bool(_decimals(a, deepest=1))),
)

VALUES = (25, "25", Decimal("25.50"), "25.50", None, "None", True, 1, "true", 0, False, "", "Zürich ✓",
          [1, 2], [2, 1], {"a": 1, "b": [2]}, "a|b", 88213, -1, 10**30, Decimal("-0"), Decimal("1E+1"),
          Decimal("-2.5"), THIRTY, [Decimal("2.5"), "x"], {"n": Decimal("0.10"), 1: "y"}, "a,b", "b:c",
          ["a", "b"], ["a,b"], "[1, 2]", '"quoted"', "back\\slash")
D = Decimal
# Pairs that look alike: equal amounts written differently (one action), and different actions
# that a text without escapes, types or enough digits would write the same way.
LOOKALIKES = (
    ({"x": D("2.5")}, {"x": D("2.50")}), ({"x": [D("-0")]}, {"x": [D("0.00")]}),
    ({"x": D("1E+1")}, {"x": D(10)}),
    ({"x": {"y": D("7")}}, {"x": {"y": D("7.0")}}), ({"x": THIRTY}, {"x": D(1)}),
    ({"x": D("2.5")}, {"x": D(2)}), ({"x": D("10.01")}, {"x": D("10.011")}),
    ({"x": D("-2.5")}, {"x": D("2.5")}),
    ({"x": ["a", "b"]}, {"x": ["a,b"]}), ({"a": "b:c"}, {"a:b": "c"}),
    ({"x": [["a"], "b"]}, {"x": ["a", ["b"]]}),
    ({"x": "[1, 2]"}, {"x": [1, 2]}), ({"x": "a", "y": "b"}, {"x": "a,y:b"}), ({1: "x"}, {"1": "x"}),
    ({"x": None}, {"x": "None"}), ({"x": True}, {"x": 1}), ({"x": False}, {"x": 0}),
    ({"x": {"a": 1, "b": 2}}, {"x": {"b": 2, "a": 1}}),
    ({"x": {"a": [1], 2: "z"}}, {"x": {2: "z", "a": [1]}}),
)
NAMES = ("order_id", "amount", "note", "a", "b", "ab", 1, "1", "", "ключ")
MOVED = ((("r:x", "refund"), ("r", "x:refund")), (("r|x", "refund"), ("r", "x|refund")),
         (("r", "x,refund"), ("r,x", "refund")), (("r-7", "refund"), ("r", "7-refund")))


def _arguments(draw: Draw) -> dict:
    return {draw.pick(NAMES): draw.pick(VALUES) for _ in range(draw.below(4))}


def _changed(draw: Draw, action: tuple) -> tuple:
    """The same action rebuilt (its keys in another order), or one that differs in one clear way."""
    run_id, tool, arguments = action
    how = draw.below(7)
    if how == 0:
        return run_id, tool, dict(reversed(list(arguments.items())))
    if how == 1:  # the boundary between run id and tool moved: needs a separator
        return run_id + tool[:1], tool[1:], arguments
    if how == 2:
        return draw.pick(("run-7", "run-8", "run-7 ", "r:x")), tool, arguments
    if how == 3:
        return run_id, draw.pick(("refund", "cancel_order", "Refund", "x:refund")), arguments
    changed = dict(arguments)
    name = draw.pick(NAMES)
    if how == 4:
        changed.pop(name, None)
    else:
        changed[name] = draw.pick(VALUES)
    return run_id, tool, changed


def _inputs(draw: Draw) -> tuple:
    run_id, tool = draw.pick(("run-7", "r", "运行-1", "r:x")), draw.pick(("refund", "efund", "send_email"))
    way = draw.below(8)
    if way == 7:  # a delimiter moved from the run id into the tool's name
        first, second = draw.pick(MOVED)
        actions = (*first, {}), (*second, {})
    elif way >= 5:  # a look-alike pair, either way round
        pair = draw.pick(LOOKALIKES)
        first, second = pair if draw.boolean() else pair[::-1]
        actions = (run_id, tool, first), (run_id, tool, second)
    else:
        first = (run_id, tool, _arguments(draw))
        actions = first, _changed(draw, first)
    return tuple((r, t, plain(a)) for r, t, a in actions)


SPEC = define(Spec(
    "06.idempotency", "an idempotency key per side effect that a retry cannot change", "idempotency_key",
    idempotency_key, EXAMPLES, _inputs, RULES, faults=FAULTS, hidden=HIDDEN, observe=observe,
    compare=compare, show=_show, show_value=show_value,
    hints=(
        "Build the key only from run_id, tool and arguments: no time, no counter, no random part.",
        "Write one text that keeps every value's type and the boundaries between parts, with a dict's items "
        "sorted by their texts (json.dumps alone cannot: Decimals, and keys 1 and 'b' together).",
        "Hash the text (hashlib.sha256(text.encode()).hexdigest()) to get a short, fixed-size key.",
    ),
    generated_hint="Write every part into one text that keeps the types (25 is not '25', 1 is not '1') and "
                   "the boundaries between parts, equal Decimals in one form; no hash(), which changes when "
                   "Python restarts."))
__all__ = ["SPEC", "built", "plain"]
