"""Lesson 06's checkers, through the one helper (``mutation_suite.exercise_tests``).

Right solutions pass, stubs are "not attempted", and every wrong solution below fails under
the rule of the statement it breaks, each run once. The first wrong solutions of each exercise
are the checkers' old mutants; those after "written from the statements alone" are mistakes a
student makes (a default argument that remembers, keyword calls, ``== True``, Decimal precision,
strip and lower of names, delimiters that collide).
"""

import hashlib
import itertools
import json
import os
import re
import time
import uuid
from decimal import Decimal

import pytest
from mutation_suite import exercise_tests, result_of

from react_course.checks.lesson06 import gate as gate_spec
from react_course.checks.lesson06 import provenance as provenance_spec
from react_course.safety import idempotency_key as library_key

# ------------------------------------------------------------------- references


def check_ids(arguments: str, seen: list):
    known = set()
    for text in seen:
        known |= set(re.findall(r"[0-9]{3,}", text))
    missing = [i for i in re.findall(r"[0-9]{3,}", arguments) if i not in known]
    if not missing:
        return None
    return f"Refused: {', '.join(missing)} never appeared in the question or an observation."


def gate(tool: str, arguments: dict, side_effecting: bool, policy) -> bool:
    if not side_effecting:
        return True
    if policy is None:
        return False
    try:
        return policy(tool, arguments) is True
    except Exception:
        return False


def _tagged(value):
    """JSON-ready data that keeps every value's type; a dict's items sorted by their keys' texts."""
    if isinstance(value, dict):
        items = [[json.dumps(_tagged(k)), _tagged(v)] for k, v in value.items()]
        return ["dict", sorted(items, key=lambda item: item[0])]
    if isinstance(value, list):
        return ["list", [_tagged(v) for v in value]]
    if isinstance(value, Decimal):
        return ["Decimal", _amount(value)]
    return [type(value).__name__, value]


def _amount(value):
    """The same text for equal amounts (2.5 and 2.50, -0 and 0), at any number of digits."""
    sign, digits, exponent = value.as_tuple()
    text = "".join(map(str, digits))
    kept = text.rstrip("0")
    return f"{'-' if sign else ''}{kept}E{exponent + len(text) - len(kept)}" if kept else "0"


def idempotency_key(run_id: str, tool: str, arguments: dict) -> str:
    text = json.dumps([run_id, tool, _tagged(arguments)])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def stub(*args, **kwargs):
    raise NotImplementedError("exercise 6.x: write this function")


# ---------------------------------------------------------------------- mutants


def _substring(arguments, seen):
    missing = [i for i in re.findall(r"\d{3,}", arguments) if not any(i in text for text in seen)]
    return f"Refused: {', '.join(missing)}" if missing else None


def _first_only(arguments, seen):
    ids = re.findall(r"\d{3,}", arguments)
    return check_ids(ids[0], seen) if ids else None


def _observations_only(arguments, seen):
    return check_ids(arguments, seen[1:])


def _every_number(arguments, seen):
    known = set()
    for text in seen:
        known |= set(re.findall(r"\d+", text))
    missing = [i for i in re.findall(r"\d+", arguments) if i not in known]
    return f"Refused: {', '.join(missing)}" if missing else None


PROVENANCE_MUTANTS = {
    "fooled by a substring": ("as a whole number", _substring),
    "checks only the first id": ("every id in the arguments", _first_only),
    "looks only at observations": ("in the question or in an observation", _observations_only),
    "every number is an id": ("ids are runs of three or more digits", _every_number),
    "returns False when all were seen": ("Return `None` when every id was seen",
                                         lambda a, s: check_ids(a, s) or False),
    "a refusal that names nothing": ("names each id that was never seen",
                                     lambda a, s: check_ids(a, s) and "Refused: an unknown id."),
    "names only the first unseen id": ("names each id that was never seen",
                                       lambda a, s: _first_unseen_only(a, s)),
    "ids of four or more digits": ("ids are runs of three or more digits", lambda a, s: _four_digits(a, s)),
    "the question and the latest observation only": ("in the question or in an observation",
                                                      lambda a, s: check_ids(a, [s[0], s[-1]])),
    "\\d matches any script's digits": ("ASCII digits", lambda a, s: _any_digits(a, s)),
    "ids only under keys named *_id": ("whatever key of a JSON object it sits under",
                                       lambda a, s: _id_keys_only(a, s)),
}


def _any_digits(arguments, seen):
    known = {i for text in seen for i in re.findall(r"\d{3,}", text)}
    missing = [i for i in re.findall(r"\d{3,}", arguments) if i not in known]
    return f"Refused: {', '.join(missing)} never appeared." if missing else None


def _id_keys_only(arguments, seen):
    try:
        values = json.loads(arguments)
    except ValueError:
        return check_ids(arguments, seen)
    if not isinstance(values, dict):
        return check_ids(arguments, seen)
    ids = " ".join(str(v) for k, v in values.items() if k.endswith("_id"))
    return check_ids(ids, seen)


def _first_unseen_only(arguments, seen):
    refusal = check_ids(arguments, seen)
    if refusal is None:
        return None
    first = next(i for i in re.findall(r"\d{3,}", arguments) if check_ids(i, seen))
    return f"Refused: {first} was never seen."


def _four_digits(arguments, seen):
    known = {i for text in seen for i in re.findall(r"\d{4,}", text)}
    missing = [i for i in re.findall(r"\d{4,}", arguments) if i not in known]
    return f"Refused: {', '.join(missing)}" if missing else None


def _trusts_flag(flag):
    def wrong(tool, arguments, side_effecting, policy):
        if arguments.get(flag):
            return True
        return gate(tool, arguments, side_effecting, policy)
    return wrong


GATE_MUTANTS = {
    "trusts an approved flag the model can set": ("counts for nothing", _trusts_flag("approved")),
    "trusts a confirm flag": ("counts for nothing", _trusts_flag("confirm")),
    "asks the policy for every tool": ("A read-only tool runs without asking",
                                       lambda t, a, s, p: bool(p and p(t, a))),
    "no policy means yes": ("With no policy, nothing that changes the world runs",
                            lambda t, a, s, p: True if p is None else gate(t, a, s, p)),
    "ignores the policy": ("only when `policy(tool, arguments)` returns `True`",
                           lambda t, a, s, p: not s or p is not None),
    "a raising policy crashes": ("If the policy raises, the call does not run",
                                 lambda t, a, s, p: (not s) or (p is not None and p(t, a) is True)),
    "a raising policy means yes": ("If the policy raises, the call does not run",
                                   lambda t, a, s, p: _fail_open(t, a, s, p)),
    "decides by a list of tool names": (
        "only when `policy(tool, arguments)` returns `True`",
        lambda t, a, s, p: gate(t, a, t in ("refund", "send_email"), p)),
    "a flag makes it refuse": ("counts for nothing",
                               lambda t, a, s, p: False if s and ("approved" in a or "confirm" in a)
                               else gate(t, a, s, p)),
    "bool() of the policy's answer": (
        "anything else it returns (a text that gives the reason, `1`, `None`) refuses",
        lambda t, a, s, p: _fail_closed(lambda: not s or (p is not None and bool(p(t, a))))),
    "asks the policy with the wrong arguments": (
        "only when `policy(tool, arguments)` returns `True`",
        lambda t, a, s, p: (not s) or (p is not None and p(t, {}) is True)),
}


def _fail_closed(decide):
    try:
        return decide()
    except Exception:
        return False


def _fail_open(tool, arguments, side_effecting, policy):
    try:
        return gate(tool, arguments, side_effecting, policy) if policy is None else (
            not side_effecting or policy(tool, arguments) is True)
    except Exception:
        return True


_counter = itertools.count()

IDEMPOTENCY_MUTANTS = {
    "includes the time": ("must not change on retry",
                          lambda r, t, a: idempotency_key(r, t, a) + str(time.time())),
    "includes an attempt counter": ("must not change on retry",
                                    lambda r, t, a: idempotency_key(r, t, a) + str(next(_counter))),
    "a random uuid": ("must not change on retry", lambda r, t, a: uuid.uuid4().hex),
    "keys in the order given": ("whatever the order of the arguments' keys",
                                lambda r, t, a: json.dumps([r, t, a])),
    "ignores the run": ("different for a different run, tool or arguments",
                        lambda r, t, a: idempotency_key("", t, a)),
    "ignores the tool": ("different for a different run, tool or arguments",
                         lambda r, t, a: idempotency_key(r, "", a)),
    # its rule was "the same for the same run, tool and arguments"; what it breaks is the next one
    "ignores the arguments": ("different for a different run, tool or arguments",
                              lambda r, t, a: idempotency_key(r, t, {})),
    "keeps the values, not their names": (
        "different for a different run, tool or arguments",
        lambda r, t, a: f"{r}:{t}:" + ",".join(sorted(str(v) for v in a.values()))),
    "Python's hash() of a tuple": ("Python's `hash()` of a text",
                                   lambda r, t, a: str(hash((r, t, frozenset(a.items()))))),
    "hash(frozenset(...)) of the arguments": (
        "Python's `hash()` of a text",
        lambda r, t, a: f"{r}|{t}|{hash(frozenset((k, json.dumps(v, default=str)) for k, v in a.items()))}"),
    "hash() of the canonical JSON text": (
        "Python's `hash()` of a text",
        lambda r, t, a: str(hash(json.dumps([r, t, _tagged(a)])))),
    "no separator between the parts": (
        "different for a different run, tool or arguments",
        lambda r, t, a: r + t + idempotency_key("", "", a)),
    "values written with str(): a type folded away": (
        "`25` and `\"25\"` are different arguments",
        lambda r, t, a: json.dumps([r, t, sorted((str(k), str(v)) for k, v in a.items())])),
    "json.dumps(sort_keys=True) alone": (
        "a `Decimal` amount", lambda r, t, a: json.dumps([r, t, a], sort_keys=True)),
    "returns bytes": ("a non-empty text",
                      lambda r, t, a: hashlib.sha256(json.dumps([r, t, a]).encode()).digest()),
}

# ------------------------------------------- wrong solutions written from the statements alone

def _remembers_ids(arguments, seen, known=set()):  # noqa: B006 - the mistake this solution makes
    for text in seen:
        known |= set(re.findall(r"[0-9]{3,}", text))
    missing = [i for i in re.findall(r"[0-9]{3,}", arguments) if i not in known]
    return None if not missing else f"Refused: {', '.join(missing)} never appeared."


def _keywords(tool, arguments, side_effecting, policy):
    if not side_effecting:
        return True
    try:
        return policy is not None and policy(tool=tool, arguments=arguments) is True
    except Exception:
        return False


def _tagged_with(amount):
    """The reference's canonical form with another way of writing a Decimal."""
    def tagged(value):
        if isinstance(value, dict):
            items = [[json.dumps(tagged(k)), tagged(v)] for k, v in value.items()]
            return ["dict", sorted(items, key=lambda item: item[0])]
        if isinstance(value, list):
            return ["list", [tagged(v) for v in value]]
        if isinstance(value, Decimal):
            return ["Decimal", amount(value)]
        return [type(value).__name__, value]
    return lambda r, t, a: hashlib.sha256(json.dumps([r, t, tagged(a)]).encode()).hexdigest()[:16]


def _top_level_decimals(run_id, tool, arguments):
    plain = {k: str(v.normalize()) if isinstance(v, Decimal) else v for k, v in arguments.items()}
    return json.dumps([run_id, tool, sorted(([type(k).__name__, k], [type(v).__name__, v])
                                            for k, v in plain.items())])


def _joined(value):
    """Texts as they are, containers joined with their delimiters: nothing escapes a delimiter."""
    if isinstance(value, dict):
        return "{" + ",".join(sorted(f"{_joined(k)}:{_joined(v)}" for k, v in value.items())) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_joined(v) for v in value) + "]"
    if isinstance(value, str):
        return value
    if isinstance(value, Decimal):
        return f"Decimal:{_amount(value)}"
    return f"{type(value).__name__}:{value}"


PROVENANCE_MUTANTS |= {
    "a default set remembers earlier ids": ("in the question or in an observation", _remembers_ids),
}
GATE_MUTANTS |= {
    "the policy called with keywords": ("two positional arguments", _keywords),
    "a read_only flag obeyed": ("counts for nothing", _trusts_flag("read_only")),
    "a side_effecting flag in the arguments obeyed": (
        "counts for nothing", lambda t, a, s, p: gate(t, a, s and a.get("side_effecting") is not False, p)),
}
EQUAL = "Two `Decimal`s that are equal"
IDEMPOTENCY_MUTANTS |= {
    "a Decimal written with str()": (EQUAL, _tagged_with(str)),
    "a Decimal normalised, its sign kept at 0": (EQUAL, _tagged_with(lambda d: str(d.normalize()))),
    "a Decimal normalised at 28 digits": (
        "whatever their number of digits", _tagged_with(lambda d: str(d.normalize()) if d else "0")),
    "a Decimal as a float": ("whatever their number of digits", _tagged_with(float)),
    "Decimals handled at the top level only": ("lists and dicts of these", _top_level_decimals),
    "containers joined with their own delimiters": (
        "different for a different run, tool or arguments",
        lambda r, t, a: hashlib.sha256(_joined([r, t, a]).encode()).hexdigest()),
}


# ------------------------------------------- more, written from the statements alone (this port)


def check_ids_by_sets(arguments, seen):
    """Also right: set difference, the refusal naming the ids sorted."""
    known = {i for text in seen for i in re.findall("[0-9]{3,}", text)}
    missing = sorted(set(re.findall("[0-9]{3,}", arguments)) - known)
    return f"Unknown ids: {' '.join(missing)}" if missing else None


def _ids_with(pattern):
    def wrong(arguments, seen):
        known = {i for text in seen for i in re.findall(pattern, text)}
        missing = [i for i in re.findall(pattern, arguments) if i not in known]
        return f"Refused: {', '.join(missing)}" if missing else None
    return wrong


def _isdigit_runs(text):
    runs, run = [], ""
    for char in text + " ":
        if char.isdigit():
            run += char
        else:
            runs.append(run)
            run = ""
    return [r for r in runs if len(r) >= 3]


def _isdigit_ids(arguments, seen):
    known = {i for text in seen for i in _isdigit_runs(text)}
    missing = [i for i in _isdigit_runs(arguments) if i not in known]
    return f"Refused: {', '.join(missing)}" if missing else None


def _as_numbers(arguments, seen):
    known = {int(i) for text in seen for i in re.findall("[0-9]{3,}", text)}
    missing = [i for i in re.findall("[0-9]{3,}", arguments) if int(i) not in known]
    return f"Refused: {', '.join(missing)}" if missing else None


def _split_words(arguments, seen):
    known = {i for text in seen for i in re.findall("[0-9]{3,}", text)}
    missing = [w for w in arguments.split() if w.isdigit() and len(w) >= 3 and w not in known]
    return f"Refused: {', '.join(missing)}" if missing else None


PROVENANCE_MUTANTS |= {
    "ids with \\b around them": ("as a whole number", _ids_with(r"\b[0-9]{3,}\b")),
    "ids of at most five digits": ("ids are runs of three or more digits", _ids_with(r"[0-9]{3,5}")),
    "str.isdigit() finds the digits": ("ASCII digits", _isdigit_ids),
    "ids are the words that are all digits": ("whatever key of a JSON object it sits under", _split_words),
    "an empty text when every id was seen": ("Return `None` when every id was seen",
                                             lambda a, s: check_ids(a, s) or ""),
    "the seen texts run together": ("as a whole number", lambda a, s: check_ids(a, ["".join(s)])),
    "ids compared as numbers": ("compared digit for digit", _as_numbers),
}


def gate_by_identity(tool, arguments, side_effecting, policy):
    """Also right: the same rules, written the other way round."""
    if side_effecting and policy is not None:
        try:
            answer = policy(tool, arguments)
        except Exception:
            answer = None
        return answer is True
    return not side_effecting


def _equals_true(tool, arguments, side_effecting, policy):
    if not side_effecting:
        return True
    try:
        return policy is not None and policy(tool, arguments) == True  # noqa: E712 - the mistake
    except Exception:
        return False


def _policy_answer(tool, arguments, side_effecting, policy):
    if not side_effecting:
        return True
    try:
        return False if policy is None else policy(tool, arguments)
    except Exception:
        return False


def _some_errors(tool, arguments, side_effecting, policy):
    if not side_effecting:
        return True
    try:
        return policy is not None and policy(tool, arguments) is True
    except (RuntimeError, ValueError, ConnectionError):
        return False


def _none_on_error(tool, arguments, side_effecting, policy):
    if not side_effecting:
        return True
    try:
        return policy is not None and policy(tool, arguments) is True
    except Exception:
        return None


def _remembers_yes(tool, arguments, side_effecting, policy, approved=set()):  # noqa: B006 - the mistake
    if not side_effecting:
        return True
    if tool in approved:
        return True
    if gate(tool, arguments, side_effecting, policy):
        approved.add(tool)
        return True
    return False


GATE_MUTANTS |= {
    "== True lets 1 approve": ("anything else it returns (a text that gives the reason, `1`, `None`) refuses",
                               _equals_true),
    "returns the policy's answer itself": (
        "returns `True` when a tool call may run and `False` when it may not", _policy_answer),
    "catches only some errors": ("If the policy raises, the call does not run", _some_errors),
    "None when the policy raises": ("If the policy raises, the call does not run", _none_on_error),
    "a yes remembered for the tool (a default argument)": (
        "only when `policy(tool, arguments)` returns `True`", _remembers_yes),
    "the policy asked with the arguments first": (
        "only when `policy(tool, arguments)` returns `True`", lambda t, a, s, p: gate(a, t, s, p)),
    "the tool name lower-cased for the policy": (
        "only when `policy(tool, arguments)` returns `True`",
        lambda t, a, s, p: gate(t.lower(), a, s, p) if s else True),
}


def key_from_ratios(run_id, tool, arguments):
    """Also right: a Decimal as its exact ratio, every other value as type and repr."""
    def text(value):
        if isinstance(value, dict):
            return "{" + ",".join(sorted(f"{text(k)}:{text(v)}" for k, v in value.items())) + "}"
        if isinstance(value, list):
            return "[" + ",".join(map(text, value)) + "]"
        if isinstance(value, Decimal):
            return "Decimal({}/{})".format(*value.as_integer_ratio())
        return f"{type(value).__name__}:{value!r}"
    return hashlib.sha256(text([run_id, tool, arguments]).encode()).hexdigest()


def key_by_exact_types(run_id, tool, arguments):
    """Also right: each value's exact type (``type(v) is str``), anything else refused."""
    def text(value):
        kind = type(value)
        if kind is dict:
            return "{" + ",".join(sorted(f"{text(k)}:{text(v)}" for k, v in value.items())) + "}"
        if kind is list:
            return "[" + ",".join(map(text, value)) + "]"
        if kind is Decimal:
            return "Decimal({}/{})".format(*value.as_integer_ratio())
        if kind in (str, int, bool, type(None)):
            return kind.__name__ + repr(value)
        raise TypeError(f"an argument of type {kind.__name__}")
    return hashlib.sha256(text([run_id, tool, arguments]).encode()).hexdigest()


def _joined_with(separator):
    return lambda r, t, a: hashlib.sha256(f"{r}{separator}{t}{separator}{json.dumps(_tagged(a))}".encode()
                                          ).hexdigest()


def _cached_per_tool(run_id, tool, arguments, cache={}):  # noqa: B006 - the mistake this solution makes
    return cache.setdefault((run_id, tool), idempotency_key(run_id, tool, arguments))


def _as_int(value):
    return ["int", int(value)] if isinstance(value, bool | int) else _tagged(value)


def _sorted_at_the_top(run_id, tool, arguments):
    def tagged(value):  # the reference's form, but a nested dict's items stay in their order
        if isinstance(value, dict):
            return ["dict", [[json.dumps(tagged(k)), tagged(v)] for k, v in value.items()]]
        return ["list", [tagged(v) for v in value]] if isinstance(value, list) else _tagged(value)
    items = sorted([json.dumps(tagged(k)), tagged(v)] for k, v in arguments.items())
    return hashlib.sha256(json.dumps([run_id, tool, items]).encode()).hexdigest()


def _as_int_all(value):
    if isinstance(value, dict):
        return ["dict", sorted([json.dumps(_as_int_all(k)), _as_int_all(v)] for k, v in value.items())]
    if isinstance(value, list):
        return ["list", [_as_int_all(v) for v in value]]
    return _as_int(value)


IDEMPOTENCY_MUTANTS |= {
    "the library's old key: json.dumps with sort_keys and default=str": (
        ("Two `Decimal`s that are equal", "both may appear in one dict"),
        lambda r, t, a: hashlib.sha256(json.dumps([r, t, a], sort_keys=True, default=str).encode()
                                       ).hexdigest()),
    "items sorted as they are": ("both may appear in one dict",
                                 lambda r, t, a: repr([r, t, sorted(a.items())])),
    "a Decimal rounded to cents": ("whatever their number of digits",
                                   _tagged_with(lambda d: str(d.quantize(Decimal("0.01")).normalize() + 0))),
    "a Decimal as int()": ("whatever their number of digits", _tagged_with(int)),
    "+ 0 and normalize() for a Decimal (28 digits)": ("whatever their number of digits",
                                                       _tagged_with(lambda d: str((d + 0).normalize()))),
    "the parts joined with ':'": ("different for a different run, tool or arguments", _joined_with(":")),
    "the run id stripped": ("different for a different run, tool or arguments",
                            lambda r, t, a: idempotency_key(r.strip(), t, a)),
    "the tool name lower-cased": ("different for a different run, tool or arguments",
                                  lambda r, t, a: idempotency_key(r, t.lower(), a)),
    "one key per run and tool (a default argument)": ("different for a different run, tool or arguments",
                                                      _cached_per_tool),
    "keys written with str()": ('and so are `1` and `"1"` as keys',
                                lambda r, t, a: idempotency_key(r, t, {str(k): v for k, v in a.items()})),
    "True written as the whole number 1": ('`25` and `"25"` are different arguments',
                                           lambda r, t, a: json.dumps([r, t, _as_int_all(a)])),
    "nested dicts kept in their order": ("whatever the order of the arguments' keys", _sorted_at_the_top),
    "the process id": ("the same for the same run, tool and arguments",
                       lambda r, t, a: f"{os.getpid()}-{idempotency_key(r, t, a)}"),
}


EXERCISES = {
    "06.provenance": ((check_ids, provenance_spec.key, check_ids_by_sets), PROVENANCE_MUTANTS),
    "06.gate": ((gate, gate_spec.key, gate_by_identity), GATE_MUTANTS),
    "06.idempotency": ((idempotency_key, library_key, key_from_ratios, key_by_exact_types),
                       IDEMPOTENCY_MUTANTS),
}
(test_right_solutions_pass, test_stub_is_not_attempted, test_wrong_solution_fails_under_its_rule,
 test_every_rule_has_a_mutant, test_each_rules_cases_exist) = exercise_tests(EXERCISES, stub)


@pytest.mark.parametrize(("exercise", "name", "says"), [
    ("06.gate", "the policy called with keywords", "positional"),
    ("06.gate", "a read_only flag obeyed", "model's word"),
    ("06.gate", "== True lets 1 approve", "== True"),
    ("06.idempotency", "a Decimal written with str()", "one amount"),
    ("06.idempotency", "a Decimal as int()", "at any number of digits"),
    ("06.idempotency", "containers joined with their own delimiters", "escape"),
    ("06.idempotency", "nested dicts kept in their order", "every depth"),
    ("06.idempotency", "includes the time", "clock"),
    ("06.provenance", "a default set remembers earlier ids", "between calls")])
def test_the_generated_failure_gets_the_hint_of_its_fault(exercise: str, name: str, says: str) -> None:
    result = result_of(exercise, EXERCISES[exercise][1][name][1])  # the run the test above made
    generated = next(c for c in result.cases if c.name == "agrees with the answer key on generated inputs")
    assert generated.status == "failed" and says in generated.hint, generated


def test_the_library_key_gives_equal_amounts_one_key_and_different_amounts_two() -> None:
    run = ("run-7", "refund")
    assert library_key(*run, {"a": [Decimal("-0")]}) == library_key(*run, {"a": [Decimal("0.00")]})
    assert library_key(*run, {"a": Decimal("1." + "0" * 28 + "1")}) != library_key(*run, {"a": Decimal(1)})
    mixed, reordered = {1: "x", "b": Decimal("2.5")}, {"b": Decimal("2.50"), 1: "x"}
    assert library_key(*run, mixed) == library_key(*run, reordered)
    assert library_key(*run, {1: "x"}) != library_key(*run, {"1": "x"})
