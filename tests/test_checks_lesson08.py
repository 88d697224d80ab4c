"""Lesson 08's checkers, through the one helper (``mutation_suite.exercise_tests``).

Right solutions pass (the notebook's, and others the statements allow), stubs are
"not attempted", and every wrong solution below fails under the rule of the statement
it breaks, each run once. The last group are wrong solutions written from the
statements alone, in the mistake classes the issue names.
"""

import copy
from decimal import Decimal, localcontext

import pytest
from mutation_suite import exercise_tests, result_of

from react_course.checks.lesson08.call_cost import ZERO
from react_course.checks.lesson08.compress_messages import NO_USER, ONLY, OWN, SUMMARY_MESSAGE
from react_course.checks.lesson08.total_tokens import EXACT, LARGE
from react_course.context_cost import context, cost

# ------------------------------------------------------------------- references


def total_input_tokens(n, prompt, per_step):
    return n * prompt + per_step * n * (n - 1) // 2


def total_by_comb(n, prompt, per_step):
    """Also right: the steps part is per_step times n choose 2."""
    from math import comb

    return n * prompt + per_step * comb(n, 2)


def call_cost(input_tokens, cached_tokens, output_tokens, reasoning_tokens, price):
    parts = [(input_tokens - cached_tokens, price.input), (cached_tokens, price.cached_input),
             (output_tokens, price.output)]  # reasoning tokens are part of the output
    if any(tokens and rate is None for tokens, rate in parts):
        return None
    return sum((tokens * rate for tokens, rate in parts if tokens), Decimal(0)) / 1_000_000


def cost_per_token(input_tokens, cached_tokens, output_tokens, reasoning_tokens, price):
    """Also right: each rate divided by a million first (Decimal division is exact here)."""
    total = Decimal(0)
    for tokens, rate in ((input_tokens - cached_tokens, price.input), (cached_tokens, price.cached_input),
                         (output_tokens, price.output)):
        if tokens:
            if rate is None:
                return None
            total += tokens * (rate / 1_000_000)
    return total


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


def compress_copying(messages, summary, keep_last):
    """Also right: copies of the kept messages are the same messages, unchanged."""
    return copy.deepcopy(compress_messages(messages, summary, keep_last))


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
    "prices per token, not per million": ("in dollars per million tokens", _cost_with(scale=1)),
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


# ----------------------------- more wrong solutions, written from the statements alone (issue 27)

def _loop_total(n, prompt, per_step):
    """Right on paper, but a loop over 10**15 calls never ends: the case's time limit stops it."""
    return sum(prompt + (k - 1) * per_step for k in range(1, n + 1))


def _decimal_at_50_digits(n, prompt, per_step):
    with localcontext() as ctx:
        ctx.prec = 50
        return int(Decimal(n) * prompt + Decimal(per_step) * n * (n - 1) / 2)


def _zero_price_unknown(input_tokens, cached_tokens, output_tokens, reasoning_tokens, price):
    parts = [(input_tokens - cached_tokens, price.input), (cached_tokens, price.cached_input),
             (output_tokens, price.output)]
    if any(tokens and not rate for tokens, rate in parts):  # `not rate` is also true of Decimal(0)
        return None
    return sum((tokens * rate for tokens, rate in parts if tokens), Decimal(0)) / 1_000_000


def _reasoning_only_for_reasoners(input_tokens, cached_tokens, output_tokens, reasoning_tokens, price):
    """Reads price.reasoning as 'only these models count their reasoning inside the output'."""
    output = output_tokens if price.reasoning else output_tokens - reasoning_tokens
    return call_cost(input_tokens, cached_tokens, output, 0, price)


def _quantized(*args):
    exact = call_cost(*args)
    return None if exact is None else exact.quantize(Decimal("0.000001"))


def _cached_price_falls_back(input_tokens, cached_tokens, output_tokens, reasoning_tokens, price):
    rate = price.cached_input if price.cached_input is not None else price.input
    return call_cost(input_tokens, cached_tokens, output_tokens, reasoning_tokens,
                     type(price)(price.model, price.as_of, price.input, rate, price.output))


def _summary_with_a_name(messages, summary, keep_last):
    out = compress_messages(messages, summary, keep_last)
    return [{**m, "name": "summary"} if m == {"role": "user", "content": summary} else m for m in out]


def _summary_under_a_header(messages, summary, keep_last):
    out = compress_messages(messages, summary, keep_last)
    return [{"role": "user", "content": f"Summary of the earlier steps:\n{summary}"}
            if m == {"role": "user", "content": summary} else m for m in out]


def _no_question_compressed(messages, summary, keep_last):
    """What context.compress_messages did before: no user message, an empty head, still compressed."""
    roles = [m["role"] for m in messages]
    start = roles.index("user") + 1 if "user" in roles else 0
    turns = _turns(messages[start:])
    if len(turns) <= keep_last:
        return list(messages)
    kept = [m for turn in turns[len(turns) - keep_last:] for m in turn]
    return [*messages[:start], {"role": "user", "content": summary}, *kept]


def _later_messages_join_a_turn(messages, summary, keep_last):
    """Turns start only at an assistant message; a later user or system message joins the one before."""
    roles = [m["role"] for m in messages]
    if "user" not in roles:
        return list(messages)
    start = roles.index("user") + 1
    turns = []
    for message in messages[start:]:
        if message["role"] != "assistant" and turns:
            turns[-1].append(message)
        else:
            turns.append([message])
    if len(turns) <= keep_last:
        return list(messages)
    kept = [m for turn in turns[len(turns) - keep_last:] for m in turn]
    return [*messages[:start], {"role": "user", "content": summary}, *kept]


def _last_user_is_the_question(messages, summary, keep_last):
    roles = [m["role"] for m in messages]
    if "user" not in roles:
        return list(messages)
    start = len(roles) - roles[::-1].index("user")
    turns = _turns(messages[start:])
    if len(turns) <= keep_last:
        return list(messages)
    kept = [m for turn in turns[len(turns) - keep_last:] for m in turn]
    return [*messages[:start], {"role": "user", "content": summary}, *kept]


def _head_rebuilt(messages, summary, keep_last):
    """The head copied as role and content only: a message kept 'as it is' loses its other keys."""
    out = compress_messages(messages, summary, keep_last)
    h = next((i + 1 for i, m in enumerate(messages) if m["role"] == "user"), 0)
    return [{"role": m["role"], "content": m["content"]} for m in out[:h]] + out[h:]


def _kept_stripped(messages, summary, keep_last):
    out = compress_messages(messages, summary, keep_last)
    h = next((i + 1 for i, m in enumerate(messages) if m["role"] == "user"), 0) + (out != messages)
    return out[:h] + [{**m, "content": m["content"].strip()} if m.get("content") else m for m in out[h:]]


TOTAL_MUTANTS |= {
    "a loop over the calls": (LARGE, _loop_total),
    "a Decimal at 50 digits, then int()": (EXACT, _decimal_at_50_digits),
}
COST_MUTANTS |= {
    "a price of 0 read as unknown": (ZERO, _zero_price_unknown),
    "reasoning taken out of the output unless price.reasoning": ("are part of `output_tokens`",
                                                                 _reasoning_only_for_reasoners),
    "quantized to millionths of a dollar": ("No `int()` or `round()`: the result is exact", _quantized),
    "an unknown cached price taken as the input price": ("makes the cost `None`, never a guess",
                                                         _cached_price_falls_back),
}
COMPRESS_MUTANTS |= {
    "the summary message with an extra key": (ONLY, _summary_with_a_name),
    "the summary under a header line": (SUMMARY_MESSAGE, _summary_under_a_header),
    "no user message: compressed anyway": (NO_USER, _no_question_compressed),
    "a later user or system message joins the turn before": (OWN, _later_messages_join_a_turn),
    "the head rebuilt from role and content": (HEAD, _head_rebuilt),
    "the kept messages' text stripped": ("then the last `keep_last` turns, unchanged", _kept_stripped),
    "the last user message taken as the question": (
        "keep every message before the first user message (the system messages) and the first user "
        "message (the question) at the start", _last_user_is_the_question),
}

EXERCISES = {
    "08.total_tokens": ((total_input_tokens, total_by_comb, cost.total_input_tokens), TOTAL_MUTANTS),
    "08.call_cost": ((call_cost, cost_per_token), COST_MUTANTS),
    "08.compress_messages": ((compress_messages, compress_copying), COMPRESS_MUTANTS),
}

(test_right_solutions_pass, test_stub_is_not_attempted, test_wrong_solution_fails_under_its_rule,
 test_every_rule_has_a_mutant, test_each_rules_cases_exist) = exercise_tests(EXERCISES, stub)


# ---------------------------------------------------------------- feedback: the fault found, its hint

@pytest.mark.parametrize(("exercise", "name", "says"), [
    ("08.total_tokens", "a Decimal total, then int()", "28"),
    ("08.call_cost", "a reasoning model's hidden tokens billed again", "price.reasoning"),
    ("08.call_cost", "a price of 0 read as unknown", "`rate is None`"),
    ("08.compress_messages", "keep_last=0 read as every turn", "turns[-0:]"),
    ("08.compress_messages", "keep_last=0 keeps every turn", "No user message"),
    ("08.compress_messages", "the summary message with an extra key", "no other key"),
    ("08.compress_messages", "a default list collects every result", "default list")])
def test_a_failure_gets_the_hint_of_its_fault(exercise: str, name: str, says: str) -> None:
    result = result_of(exercise, EXERCISES[exercise][1][name][1])
    assert any(c.status == "failed" and says in c.hint for c in result.cases), result


# ---------------------------------------------------------------- the library and the statement agree

def test_the_library_compresses_as_the_statement_says() -> None:
    """context.compress_messages keeps what the exercise keeps; with no question it changes nothing."""
    from react_course.checks.lesson08.compress_messages import SUMMARY, SYSTEM, TURNS, conversation

    for keep in (0, 1, 2, 3):
        ours, _ = context.compress_messages(conversation(), lambda prompt, stop=None: SUMMARY, keep_last=keep)
        theirs = compress_messages(conversation(), SUMMARY, keep)
        assert ours[:2] + ours[3:] == theirs[:2] + theirs[3:]
        assert ours[2]["role"] == "user" and ours[2]["content"].endswith(SUMMARY)
    no_question = [SYSTEM, *TURNS[2], *TURNS[0]]
    shorter, _ = context.compress_messages(no_question, lambda prompt, stop=None: SUMMARY, keep_last=0)
    assert shorter == no_question



@pytest.mark.parametrize("exercise", list(EXERCISES))
def test_the_hidden_cases_pass_the_notebooks_solution(exercise: str) -> None:
    from react_course.checks import check

    result = check(exercise, EXERCISES[exercise][0][0], hidden=True)
    assert result.status == "passed" and any(c.name.startswith("hidden case") for c in result.cases), result
