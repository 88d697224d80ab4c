"""06.idempotency as a spec: one key per side effect, the same on every retry, after a restart too.

The key is the library's ``safety.idempotency_key``. A case is a pair of actions ``(run_id,
tool, arguments)``: the first attempt and a retry (the same action rebuilt, its keys in
another order) or another action that looks alike (2.5 and 2.50 are one amount; ``["a,b"]``
and ``["a", "b"]``, ``{1: "x"}`` and ``{"1": "x"}`` are two); generated pairs come from
``idempotency_inputs.py``. ``restart.first_then_retry`` calls the student's function for
both, the retry as after a restart of Python, and the first again; only whether the keys
agree is compared with the library's.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from ...safety import idempotency_key
from ..plain import Raised
from ..spec import GENERATED, Example, Fault, Rule, Spec, define
from .idempotency_inputs import THIRTY, pairs
from .restart import first_then_retry


def observe(function: Any, args: tuple) -> dict[str, Any]:
    return first_then_retry(function, *args)


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


def _parts(value: Any, depth: int = 0) -> list[tuple[Any, int]]:
    """``value`` and every value inside it (dict keys too), each with its depth."""
    inner = [p for pair in value.items() for p in pair] if isinstance(value, dict) else (
        value if isinstance(value, list) else [])
    return [(value, depth), *(found for part in inner for found in _parts(part, depth + 1))]


def _decimals(args: tuple, deepest: int = 0) -> list[Decimal]:
    return [v for _, _, a in args for v, depth in _parts(a) if isinstance(v, Decimal) and depth > deepest]


def _amounts(args: tuple, shown: Any = None) -> list[list]:
    """The Decimals of each action, sorted (or their texts, with ``shown=str``)."""
    return [sorted((shown or Decimal)(v) for v, _ in _parts(a) if isinstance(v, Decimal)) for _, _, a in args]


def _order(value: Any) -> list:
    return [[k, _order(v)] for k, v in value.items()] if isinstance(value, dict) else []


def _mixed_keys(args: tuple) -> bool:
    return any(isinstance(v, dict) and len({type(k) for k in v}) > 1
               for _, _, a in args for v, _ in _parts(a))


def _key_types(args: tuple) -> bool:
    """1 and "1" as keys, one in each action."""
    (_, _, a), (_, _, b) = args
    return any(str(k) in map(str, b) and k not in b for k in a)


def _retyped(args: tuple) -> bool:
    """A value and its text (or bool and int) under one name: 25 and "25", None and "None", True and 1."""
    (_, _, a), (_, _, b) = args
    return any(k in b and type(a[k]) is not type(b[k]) and (str(a[k]) == str(b[k]) or (
        isinstance(a[k], int) and isinstance(b[k], int) and a[k] == b[k])) for k in a)


def _differs(args: tuple, want: dict, got: Any) -> bool:  # two actions, one key
    return not _same(want) and not isinstance(got, Raised) and _same(got)


def _split(args: tuple, want: dict, got: Any) -> bool:  # one action, two keys
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
          found=lambda args, want, got: not all(isinstance(k, str) and k for k in got["keys"])),
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
          and _order(args[0][2]) != _order(args[1][2])),
    Fault(SAME, "The same action got two keys: build the key from run_id, tool and arguments only, "
          "written the same way every time.", found=_split),
    Fault(DIGITS, "Different amounts need different keys at any number of digits: float() keeps 17, "
          "normalize() and arithmetic 28, quantize() the digits you ask for.",
          found=lambda args, want, got: _differs(args, want, got) and all(_amounts(args))
          and _amounts(args)[0] != _amounts(args)[1]),
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


def _pair(name: str, first: Any, retry: Any, hint: str, run: tuple = ("run-7", "refund")) -> Example:
    """Two calls: whole actions, or (given as dicts) two arguments of the same run and tool."""
    first, retry = ((*run, a) if isinstance(a, dict) else a for a in (first, retry))
    return Example(name, (first, retry), hint)


def _amounts_of(name: str, a: Any, b: Any, hint: str, where: str = "amount") -> Example:
    return _pair(name, {where: a}, {where: b}, hint)


EXAMPLES = (
    _pair("the key is text", BASE, BASE, "Return a str."),
    _pair("a retry gets the same key", REFUND, dict(REFUND), "A retry sends the same action: the same key."),
    _pair("a retry a moment later gets the same key", BASE, BASE,
          "Time must not be part of the key: a retry after a time-out comes later."),
    _pair("the order of the keys does not matter", REFUND, {"amount": 25, "order_id": 88213},
          "Sort the keys before you turn the arguments into text."),
    _pair("another amount, another key", REFUND, {**REFUND, "amount": 480}, "Another refund: another key."),
    _pair("the same value under another name, another key", REFUND, {"order_id": 88213, "fee": 25},
          "The names of the arguments are part of the action: keep keys and values."),
    _pair("the key does not come from hash()", BASE, BASE,
          "hash() changes from one run of Python to the next: hash a canonical text with hashlib instead."),
    _pair("another run, another key", BASE, ("run-8", "refund", REFUND), "Include run_id."),
    _pair("another tool, another key", BASE, ("run-7", "cancel_order", REFUND), "Include the tool's name."),
    _pair("a number is not its text", REFUND, {"order_id": 88213, "amount": "25"},
          "Keep each value's type in the key: 25 and '25' are different arguments."),
    _pair("the key 1 is not the key '1'", {1: "x"}, {"1": "x"}, "Keep each key's type (json.dumps: '1')."),
    _pair("a Decimal amount and mixed keys", {"amount": Decimal("25.50"), 1: "x"},
          {1: "x", "amount": Decimal("25.50")}, "json.dumps cannot write a Decimal, and sort_keys cannot "
          "sort 1 and 'amount' together: write each part as text yourself."),
    _amounts_of("2.5 and 2.50 are one amount", Decimal("2.5"), Decimal("2.50"),
                "Equal Decimals are one amount: str(Decimal('2.50')) is '2.50'; write a form they share."),
    _amounts_of("-0 and 0 are one amount", Decimal("-0"), Decimal("0.00"),
                "Decimal('-0') == Decimal('0'), but normalize() keeps the sign: zero needs one form."),
    _amounts_of("amounts that differ in the 30th digit", THIRTY, Decimal(1),
                "Different amounts, different keys: normalize() and float() round to 28 and 17 digits."),
    _amounts_of("a Decimal inside a list", [Decimal("2.5"), "x"], [Decimal("2.50"), "x"],
                "A Decimal may sit in a list or a dict: write every value the same way.", where="amounts"),
)
HIDDEN = (
    _amounts_of("hidden: amounts a cent apart", Decimal("10.01"), Decimal("10.011"), "Every digit counts."),
    _amounts_of("hidden: True is not 1", True, 1, "True and 1 are different arguments."),
    _pair("hidden: a delimiter inside a run id", ("r:x", "refund", {}), ("r", "x:refund", {}),
          "The run id and the tool must stay apart, whatever characters they hold."),
    _amounts_of("hidden: nested dicts in another order", {"a": 1, "b": [2]}, {"b": [2], "a": 1},
                "Sort a dict's items at every depth.", where="items"),
)


def _keyed_alike(args: tuple) -> bool:
    return idempotency_key(*args[0]) == idempotency_key(*args[1])


def _written_apart(args: tuple) -> bool:
    """The same action, its equal Decimals written differently (2.5 and 2.50)."""
    return _keyed_alike(args) and _amounts(args, str)[0] != _amounts(args, str)[1]


RULES = (
    Rule(SAME, ("a retry gets the same key", GENERATED), edge=_keyed_alike),
    Rule(ORDER, ("the order of the keys does not matter", GENERATED),
         edge=lambda a: _keyed_alike(a) and _order(a[0][2]) != _order(a[1][2])),
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

SPEC = define(Spec(
    "06.idempotency", "an idempotency key per side effect that a retry cannot change", "idempotency_key",
    idempotency_key, EXAMPLES, pairs, RULES, faults=FAULTS, hidden=HIDDEN, observe=observe,
    compare=compare, show_value=show_value, time_limit=30.0,  # a run takes 0.6 s here: far from any clock
    show=lambda a: f"idempotency_key{a[0]!r}, then after a restart idempotency_key{a[1]!r}",
    hints=(
        "Build the key only from run_id, tool and arguments: no time, no counter, no random part.",
        "Write one text that keeps every value's type and the boundaries between parts, with a dict's items "
        "sorted by their texts (json.dumps alone cannot: Decimals, and keys 1 and 'b' together).",
        "Hash the text (hashlib.sha256(text.encode()).hexdigest()) to get a short, fixed-size key.",
    ),
    generated_hint="Write every part into one text that keeps the types (25 is not '25', 1 is not '1') and "
                   "the boundaries between parts, equal Decimals in one form; no hash(), which changes when "
                   "Python restarts."))
__all__ = ["SPEC"]
