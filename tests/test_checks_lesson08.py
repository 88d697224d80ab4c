"""Lesson 08's checkers: the references pass, stubs are not attempted, plausible mistakes fail.

Each mutant names the rule of the statement it breaks, and every rule has at least one.
"""

from decimal import Decimal

import pytest
from mutation_suite import caught_under, checker_tests

# ------------------------------------------------------------------- references


def total_input_tokens(n, prompt, per_step):
    return n * prompt + per_step * n * (n - 1) // 2


def call_cost(input_tokens, cached_tokens, output_tokens, reasoning_tokens, price):
    parts = [(input_tokens - cached_tokens, price.input), (cached_tokens, price.cached_input),
             (output_tokens, price.output)]  # reasoning tokens are part of the output
    if any(tokens and rate is None for tokens, rate in parts):
        return None
    return sum((tokens * rate for tokens, rate in parts if tokens), Decimal(0)) / 1_000_000


def _turns(messages):
    turns = []
    for message in messages:
        if message["role"] == "tool" and turns:
            turns[-1].append(message)
        else:
            turns.append([message])
    return turns


def compress_messages(messages, summary, keep_last):
    roles = [m["role"] for m in messages]
    if "user" not in roles:
        return list(messages)
    start = roles.index("user") + 1
    head, turns = messages[:start], _turns(messages[start:])
    if len(turns) <= keep_last:
        return list(messages)
    kept = [m for turn in turns[len(turns) - keep_last:] for m in turn]
    return [*head, {"role": "user", "content": summary}, *kept]


def stub(*args, **kwargs):
    raise NotImplementedError("exercise 8.x: write this function")


# ---------------------------------------------------------------------- mutants
# name -> (the rule it breaks, the wrong function)

TOTAL_MUTANTS = {
    "forgets the fixed prompt": ("is sent on every call", lambda n, p, s: s * n * (n - 1) // 2),
    "sends the prompt once": ("is sent on every call", lambda n, p, s: p + s * n * (n - 1) // 2),
    "linear: n calls of the last size": ("call k also resends the k − 1 earlier steps",
                                         lambda n, p, s: n * p + (n - 1) * s),
    "the N squared / 2 rule": ("call k also resends the k − 1 earlier steps",
                               lambda n, p, s: n * p + s * n * n // 2),
    "call 1 already reads a step": ("call 1 reads no steps", lambda n, p, s: n * p + s * n * (n + 1) // 2),
    "a float": ("Return a whole number (an `int`)", lambda n, p, s: n * p + s * n * (n - 1) / 2),
    "round() of the float formula": ("exact: not the N²/2 rule of thumb, and no rounding",
                                     lambda n, p, s: round(n * p + s * n * (n - 1) / 2)),
    "no calls answered as one": ("`n` is 0 or more", lambda n, p, s: total_input_tokens(max(n, 1), p, s)),
    "a float turned back into an int": ("exact: not the N²/2 rule of thumb, and no rounding",
                                        lambda n, p, s: int(n * p + s * n * (n - 1) / 2)),
    "rounded to thousands": ("Return a whole number (an `int`)",
                             lambda n, p, s: round(total_input_tokens(n, p, s), -3)),
}


def _cost_with(cached="once", reasoning=False, money="decimal", unknown="none", scale=1_000_000):
    def wrong(input_tokens, cached_tokens, output_tokens, reasoning_tokens, price):
        full = input_tokens if cached != "once" else input_tokens - cached_tokens
        cached_rate = price.input if cached == "full price" else price.cached_input
        out = output_tokens + (reasoning_tokens if reasoning else 0)
        parts = [(full, price.input), (cached_tokens if cached != "full price" else 0, cached_rate),
                 (out, price.output)]
        if unknown == "any" and None in (price.input, price.cached_input, price.output):
            return None
        if any(t and r is None for t, r in parts):
            if unknown == "zero":
                parts = [(t, r) for t, r in parts if r is not None]
            else:
                return None
        total = sum((t * r for t, r in parts if t), Decimal(0)) / scale
        return float(total) if money == "float" else total
    return wrong


def _float_then_decimal(input_tokens, cached_tokens, output_tokens, reasoning_tokens, price):
    exact = call_cost(input_tokens, cached_tokens, output_tokens, reasoning_tokens, price)
    if exact is None:
        return None
    rates = [float(r or 0) for r in (price.input, price.cached_input, price.output)]
    dollars = ((input_tokens - cached_tokens) * rates[0] + cached_tokens * rates[1]
               + output_tokens * rates[2]) / 1e6
    return Decimal(str(dollars))


COST_MUTANTS = {
    "floats inside, a Decimal at the end": ("build no float on the way", _float_then_decimal),
    "cached tokens counted twice": ("`cached_tokens` are part of `input_tokens`", _cost_with(cached="twice")),
    "cached tokens at the full price": ("bill them once, at the cached price",
                                        _cost_with(cached="full price")),
    "reasoning tokens counted twice": ("are part of `output_tokens`", _cost_with(reasoning=True)),
    "output left out for a reasoning model": (
        "are part of `output_tokens`", lambda i, c, o, r, p: call_cost(i, c, r if r else o, r, p)),
    "rounded to cents": ("No `int()` or `round()`: the result is exact",
                         lambda *args: None if call_cost(*args) is None else round(call_cost(*args), 2)),
    "all-or-nothing prices": ("one known price is enough for a call that needs only it",
                              _cost_with(unknown="any")),
    "float money": ("money is a `Decimal`, never a `float`", _cost_with(money="float")),
    "an unknown price counts as zero": ("makes the cost `None`, never a guess", _cost_with(unknown="zero")),
    "None whenever any price is unknown": ("a `None` price that is not needed (no cached tokens) does not",
                                           _cost_with(unknown="any")),
    "prices per token, not per million": ("`cached_tokens` are part of `input_tokens`", _cost_with(scale=1)),
}


def _drops_question(messages, summary, keep_last):
    out = compress_messages(messages, summary, keep_last)
    return [m for m in out if m is not messages[[x["role"] for x in messages].index("user")]]


def _drops_system(messages, summary, keep_last):
    return [m for m in compress_messages(messages, summary, keep_last) if m["role"] != "system"]


def _counts_messages(messages, summary, keep_last):
    start = next(i for i, m in enumerate(messages) if m["role"] == "user") + 1
    if len(messages) - start <= keep_last:
        return list(messages)
    return [*messages[:start], {"role": "user", "content": summary}, *messages[len(messages) - keep_last:]]


def _summary_as_system_last(messages, summary, keep_last):
    out = compress_messages(messages, summary, keep_last)
    if out == messages:
        return out
    return [*(m for m in out if m.get("content") != summary), {"role": "system", "content": summary}]


def _keeps_one_more(messages, summary, keep_last):
    return compress_messages(messages, summary, keep_last + 1) if keep_last < 3 else compress_messages(
        messages, summary, keep_last)


def _always_summarises(messages, summary, keep_last):
    start = next(i for i, m in enumerate(messages) if m["role"] == "user") + 1
    turns = _turns(messages[start:])
    kept = [m for turn in turns[max(0, len(turns) - keep_last):] for m in turn]
    return [*messages[:start], {"role": "user", "content": summary}, *kept]


def _in_place(messages, summary, keep_last):
    result = compress_messages(messages, summary, keep_last)
    messages[:] = result
    return messages


def _splits_last_turn(messages, summary, keep_last):
    out = compress_messages(messages, summary, keep_last)
    return out[:-1] if out is not messages and out != messages else out


def _head_is_two_messages(messages, summary, keep_last):
    head = messages[:2] if messages[0]["role"] == "system" else messages[:1]
    turns = _turns(messages[len(head):])
    if len(turns) <= keep_last:
        return list(messages)
    return [*head, {"role": "user", "content": summary}, *(m for t in turns[-keep_last:] for m in t)]


def _negative_slice(messages, summary, keep_last):  # turns[-0:] is every turn
    start = next(i for i, m in enumerate(messages) if m["role"] == "user") + 1
    turns = _turns(messages[start:])
    if len(turns) <= keep_last:
        return list(messages)
    kept = [m for t in turns[-keep_last:] for m in t]
    return [*messages[:start], {"role": "user", "content": summary}, *kept]


HEAD = ("keep every message before the first user message (the system messages) and the first user "
        "message (the question) at the start")


def _pins_every_system(messages, summary, keep_last):
    pinned = [m for m in messages if m["role"] == "system"]
    rest = [m for m in messages if m["role"] != "system"]
    out = compress_messages(rest, summary, keep_last)
    return [*pinned, *out] if out != rest else list(messages)


def _first_turns(messages, summary, keep_last):
    roles = [m["role"] for m in messages]
    if "user" not in roles:
        return list(messages)
    start = roles.index("user") + 1
    turns = _turns(messages[start:])
    if len(turns) <= keep_last:
        return list(messages)
    kept = [m for t in turns[:keep_last] for m in t]
    return [*messages[:start], {"role": "user", "content": summary}, *kept]


COMPRESS_MUTANTS = {
    "every system message pinned, later ones too": (
        "a system message later in the conversation is a turn like any other", _pins_every_system),
    "raises without a user message": ("A conversation with no user message", _negative_slice),
    "the first turns, not the last": ("then the last `keep_last` turns, unchanged", _first_turns),
    "a second system message pushes the question out": (
        HEAD,
        _head_is_two_messages),
    "keep_last=0 keeps every turn": ("then the last `keep_last` turns, unchanged", _negative_slice),
    "drops the question": (HEAD,
                           _drops_question),
    "drops the system message": (
        HEAD, _drops_system),
    "counts messages, not turns": ("never separate them", _counts_messages),
    "loses the last tool result": ("never separate them", _splits_last_turn),
    "summary as a system message at the end": ("then one user message holding the summary",
                                               _summary_as_system_last),
    "keeps one turn too many": ("then the last `keep_last` turns, unchanged", _keeps_one_more),
    "summarises a short conversation": ("comes back unchanged (no summary)", _always_summarises),
    "changes the given list": ("Do not change the list you are given", _in_place),
}

# ------------------------------------------- wrong solutions written from the statements alone

def _decimal_total(n, prompt, per_step):
    """Exact-looking, but a Decimal rounds at 28 digits before int() sees it."""
    return int(Decimal(n) * prompt + Decimal(per_step) * n * (n - 1) / 2)


def _reasoning_billed_again(input_tokens, cached_tokens, output_tokens, reasoning_tokens, price):
    cost = call_cost(input_tokens, cached_tokens, output_tokens, reasoning_tokens, price)
    if cost is not None and price.reasoning and reasoning_tokens:
        cost += reasoning_tokens * price.output / 1_000_000
    return cost


def _int_of_the_total(input_tokens, cached_tokens, output_tokens, reasoning_tokens, price):
    cost = call_cost(input_tokens, cached_tokens, output_tokens, reasoning_tokens, price)
    return None if cost is None else Decimal(int(cost * 1_000_000)) / 1_000_000


def _given_list_when_unchanged(messages, summary, keep_last):
    result = compress_messages(messages, summary, keep_last)
    return messages if result == messages else result


def _zero_as_every_turn(messages, summary, keep_last):
    roles = [m["role"] for m in messages]
    if "user" not in roles:
        return list(messages)
    start = roles.index("user") + 1
    head, turns = messages[:start], _turns(messages[start:])
    if len(turns) <= keep_last:
        return list(messages)
    return [*head, {"role": "user", "content": summary}, *(m for turn in turns[-keep_last:] for m in turn)]


def _collects(messages, summary, keep_last, result=[]):  # noqa: B006 - the mistake this solution makes
    result.extend(compress_messages(messages, summary, keep_last))
    return result


TOTAL_MUTANTS |= {
    "a Decimal total, then int()": ("exact: not the N²/2 rule of thumb, and no rounding", _decimal_total),
}
COST_MUTANTS |= {
    "a reasoning model's hidden tokens billed again": ("bill them once, as output, and not a second time",
                                                      _reasoning_billed_again),
    "int() of the total in millionths": ("No `int()` or `round()`: the result is exact", _int_of_the_total),
}
COMPRESS_MUTANTS |= {
    "the given list returned when nothing changes": ("returns a new list", _given_list_when_unchanged),
    "a default list collects every result": ("returns a new list", _collects),
    "keep_last=0 read as every turn": ("then the last `keep_last` turns, unchanged", _zero_as_every_turn),
}


EXERCISES = {
    "08.total_tokens": (total_input_tokens, TOTAL_MUTANTS),
    "08.call_cost": (call_cost, COST_MUTANTS),
    "08.compress_messages": (compress_messages, COMPRESS_MUTANTS),
}

# ------------------------------------------------------------------------ tests

(test_reference_passes, test_stub_is_not_attempted, test_wrong_solution_fails,
 test_every_rule_has_a_mutant_and_every_mutant_a_rule, test_each_rules_cases_exist,
 ) = checker_tests(EXERCISES, stub)


def test_the_library_agrees_with_the_references() -> None:
    from react_course.checks.lesson08.compress_messages import SUMMARY, conversation
    from react_course.context import compress_messages as library
    from react_course.cost import total_input_tokens as closed_form

    assert all(closed_form(n, 300, 190) == total_input_tokens(n, 300, 190) for n in range(1, 30))
    for keep in (1, 2, 3):
        ours, _ = library(conversation(), lambda prompt, stop=None: SUMMARY, keep_last=keep)
        theirs = compress_messages(conversation(), SUMMARY, keep)
        assert ours[:2] + ours[3:] == theirs[:2] + theirs[3:]
        assert ours[2]["role"] == "user" and ours[2]["content"].endswith(SUMMARY)


@pytest.mark.parametrize(("exercise", "name"), [(e, n) for e, (_, m) in EXERCISES.items() for n in m])
def test_each_wrong_solution_is_caught_under_its_rule(exercise: str, name: str) -> None:
    rule, wrong = EXERCISES[exercise][1][name]
    assert caught_under(exercise, wrong, rule) == ""


@pytest.mark.parametrize(("exercise", "name", "says"), [
    ("08.total_tokens", "a Decimal total, then int()", "28"),
    ("08.call_cost", "a reasoning model's hidden tokens billed again", "price.reasoning"),
    ("08.compress_messages", "keep_last=0 read as every turn", "turns[-0:]"),
    ("08.compress_messages", "keep_last=0 keeps every turn", "must not raise")])
def test_the_generated_failure_gets_the_hint_of_its_fault(exercise: str, name: str, says: str) -> None:
    from react_course.checks import check

    result = check(exercise, EXERCISES[exercise][1][name][1])
    generated = next(c for c in result.cases if c.name == "agrees with the answer key on generated inputs")
    assert generated.status == "failed" and says in generated.hint, generated


EDGES = {
    "08.total_tokens": {"past 28 digits": lambda args: len(str(total_input_tokens(*args))) > 28,
                        "no calls": lambda args: args[0] == 0},
    "08.call_cost": {"a reasoning model with hidden tokens": lambda args: args[4].reasoning and args[3] > 0,
                     "an unknown price": lambda args: None in (args[4].input, args[4].cached_input,
                                                               args[4].output)},
    "08.compress_messages": {"keep_last=0": lambda args: args[2] == 0,
                             "no user message": lambda args: all(m["role"] != "user" for m in args[0])},
}


@pytest.mark.parametrize(("exercise", "edge"), [(e, n) for e, edges in EDGES.items() for n in edges])
def test_the_generated_inputs_reach_every_edge(exercise: str, edge: str) -> None:
    from react_course.checks import exercises
    from react_course.checks.generated import COMPARISONS, generate

    exercises("08")  # loads the lesson's checkers, which register the comparisons
    assert any(EDGES[exercise][edge](args) for _, args in generate(COMPARISONS[exercise])), edge
