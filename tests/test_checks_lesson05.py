"""Lesson 05's checkers, through the one helper (``mutation_suite.exercise_tests``).

Right solutions pass, stubs are "not attempted", and every wrong solution below fails
under the rule of the statement it breaks, each run once. The first mutants of each
exercise are the older catalogue; those after "written from the statements alone" were
written from the notebook's statements, in the mistake classes the issue names.
"""

import dataclasses
import difflib
import json
import textwrap
from decimal import Decimal

import pytest
from mutation_suite import exercise_tests, result_of

from react_course import stopping
from react_course.checks import check
from react_course.checks.generated import generate
from react_course.checks.spec import SPECS
from react_course.stopping import RunState, StopRules

SOURCE = StopRules()

# ------------------------------------------------------------------- references


def should_stop(state: RunState, rules: StopRules = SOURCE):
    if state.interrupted:
        return "interrupted"
    if state.answered:
        return "final_answer"
    if state.handed_over:
        return "hand_over"
    if state.steps >= rules.max_steps:
        return "step_limit"
    if state.cost >= rules.max_cost:
        return "budget"
    if state.seconds >= rules.max_seconds:
        return "time_limit"
    if state.repeats >= rules.max_repeats:
        return "repeating"
    return None


def _distance(a: str, b: str) -> int:
    x, y = a.lower().split(), b.lower().split()
    row = list(range(len(y) + 1))
    for i, word in enumerate(x, 1):
        prev, row[0] = row[0], i
        for j, other in enumerate(y, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (word != other))
    return row[-1]


def near(a, b) -> bool:
    return a.tool == b.tool and _distance(a.input, b.input) <= 1


def find_repeat(history):
    if not history:
        return None
    last = history[-1]
    if any(near(last, old) and old.observation == last.observation for old in history[:-1]):
        return "near_repeat"
    if len(history) >= 4:
        a1, b1, a2, b2 = history[-4:]
        if near(a1, a2) and near(b1, b2) and not near(a1, b1):
            return "alternating"
    return None


def handover(question, done, open_items, reason):
    did = "; ".join(done) if done else "nothing was done"
    todo = "; ".join(open_items) if open_items else "nothing is open"
    return f"Stopped: {reason}. Question: {question} Done: {did}. Still open: {todo}."


def plan_wait(status, attempt, retry_after, remaining, code=None):
    retried = status is None or status in (408, 409, 429) or 500 <= status < 600
    if not retried or (status == 429 and code == "insufficient_quota"):
        return None
    wait = 0.5 * 2 ** min(attempt - 1, 4)
    wait = max(wait, retry_after or 0)
    return None if wait >= remaining else wait


def stub(*args, **kwargs):
    raise NotImplementedError("exercise 5.x: write this function")


# ---------------------------------------------------------------------- mutants
# name -> (the rule it breaks, the wrong function)


def _should_stop_with(**change):
    def wrong(state, rules=SOURCE):
        limits = {"steps": rules.max_steps, "cost": rules.max_cost, "seconds": rules.max_seconds,
                  "repeats": rules.max_repeats}
        limits.update(change.get("fixed", {}))
        order = change.get("order", ("interrupted", "answered", "handed_over"))
        names = {"interrupted": "interrupted", "answered": "final_answer", "handed_over": "hand_over"}
        for flag in order:
            if getattr(state, flag):
                return names[flag]
        reasons = {"steps": "step_limit", "cost": "budget", "seconds": "time_limit", "repeats": "repeating"}
        for field, reason in reasons.items():
            if field in change.get("skip", ()):
                continue
            reached = change.get("reached", lambda count, limit: count >= limit)
            over = getattr(state, field) > limits[field] if field in change.get("strict", ()) else (
                reached(getattr(state, field), limits[field]))
            if over:
                return reason
        return change.get("go_on", None)
    return wrong


def _with(state, **change):
    return dataclasses.replace(state, **change)


SHOULD_STOP_MUTANTS = {
    "a step limit off by one (> not >=)": (
        "A limit is reached when the count equals it", _should_stop_with(strict=("steps",))),
    "every limit off by one": ("A limit is reached when the count equals it",
                               _should_stop_with(strict=("steps", "cost", "seconds", "repeats"))),
    "returns False while the run goes on": ("return `None` while the run may go on",
                                           _should_stop_with(go_on=False)),
    "no step limit": ("`\"step_limit\"`", _should_stop_with(skip=("steps",))),
    "no money cap": ("`\"budget\"`", _should_stop_with(skip=("cost",))),
    "no time limit": ("`\"time_limit\"`", _should_stop_with(skip=("seconds",))),
    "no repeat limit": ("`\"repeating\"`", _should_stop_with(skip=("repeats",))),
    "fixed thresholds 12 and 20": ("use the thresholds in `rules`, not fixed numbers",
                                   _should_stop_with(fixed={"steps": 12, "cost": 20})),
    "limits before the answer": (
        "the user's interruption first, then the model's answer, then a hand-over, then the limits",
        lambda s, r=SOURCE: ("step_limit" if s.steps >= r.max_steps else should_stop(s, r))),
    "answer before the interruption": (
        "the user's interruption first, then the model's answer, then a hand-over, then the limits",
        _should_stop_with(order=("answered", "interrupted", "handed_over"))),
    "hand-over before the answer": (
        "the user's interruption first, then the model's answer, then a hand-over, then the limits",
        _should_stop_with(order=("interrupted", "handed_over", "answered"))),
    "fixed thresholds 120 s and 3 repeats": ("use the thresholds in `rules`, not fixed numbers",
                                             _should_stop_with(fixed={"seconds": 120, "repeats": 3})),
    "== instead of >= for every limit": (
        "A limit is reached when the count equals it",
        lambda s, r=SOURCE: should_stop(s, r) if s.interrupted or s.answered or s.handed_over else next(
            (reason for count, limit, reason in ((s.steps, r.max_steps, "step_limit"),
             (s.cost, r.max_cost, "budget"), (s.seconds, r.max_seconds, "time_limit"),
             (s.repeats, r.max_repeats, "repeating")) if count == limit), None)),
    "int() on the money": ("A limit is reached when the count equals it",
                           lambda s, r=SOURCE: should_stop(_with(s, cost=int(s.cost)), r)),
    "int() on the seconds": ("A limit is reached when the count equals it",
                             lambda s, r=SOURCE: should_stop(_with(s, seconds=int(s.seconds)), r)),
    "round() on the seconds": ("A limit is reached when the count equals it",
                               lambda s, r=SOURCE: should_stop(_with(s, seconds=round(s.seconds)), r)),
    "money checked before steps": (
        "Then the limits, in this order",
        lambda s, r=SOURCE: ("budget" if s.cost >= r.max_cost and not (s.interrupted or s.answered
                                                                     or s.handed_over)
                             else should_stop(s, r))),
}


def _names_only(history):
    last = history[-1]
    return "near_repeat" if any(old.tool == last.tool for old in history[:-1]) else None


def _exact_only(history):
    last = history[-1]
    same = any(old.tool == last.tool and old.input.lower() == last.input.lower()
               and old.observation == last.observation for old in history[:-1])
    return "near_repeat" if same else None


def _with_near(near_fn, check_obs=True, alternation=True, a_differs=True):
    def wrong(history):
        last = history[-1]
        if any(near_fn(last, old) and (not check_obs or old.observation == last.observation)
               for old in history[:-1]):
            return "near_repeat"
        if alternation and len(history) >= 4:
            a1, b1, a2, b2 = history[-4:]
            if near_fn(a1, a2) and near_fn(b1, b2) and (not a_differs or not near_fn(a1, b1)):
                return "alternating"
        return None
    return wrong


FIND_REPEAT_MUTANTS = {
    "compares only tool names": ("the same tool, at most one word added, removed or changed", _names_only),
    "exact repeats only": ("the same tool, at most one word added, removed or changed", _exact_only),
    "ignores the observation": ("and the same observation", _with_near(near, check_obs=False)),
    "case-sensitive words": ("Words are compared without regard to case", _with_near(
        lambda a, b: a.tool == b.tool and _case_distance(a.input, b.input) <= 1)),
    "ignores the tool name": ("different tools are never repeats of each other",
                              _with_near(lambda a, b: _distance(a.input, b.input) <= 1)),
    "no alternation": ("the last four calls take turns, A, B, A, B", _with_near(near, alternation=False)),
    "A may equal B": ("with A and B different", _with_near(near, a_differs=False)),
    "characters, not words": ("two words changed is a new call",
                              _with_near(lambda a, b: a.tool == b.tool and _chars_close(a.input, b.input))),
    "returns False for progress": ("Return `None` when the latest call makes progress",
                                   lambda h: find_repeat(h) or False),
    "compares with the previous call only": (
        "when an earlier call used the same tool", lambda h: _previous_only(h)),
    "words compared by position": (
        "the same tool, at most one word added, removed or changed",
        _with_near(lambda a, b: a.tool == b.tool and _by_position(a.input, b.input))),
    "alternation checked first": ('Otherwise return `"alternating"`', lambda h: _alternation_first(h)),
    "any pair in the history, not the latest call": ("the **latest** call", lambda h: _any_pair(h)),
    "near by word sets": ("the same tool, at most one word added, removed or changed",
                          _with_near(lambda a, b: a.tool == b.tool and len(
                              set(a.input.lower().split()) ^ set(b.input.lower().split())) <= 1)),
    "near by a difflib ratio": ("the same tool, at most one word added, removed or changed",
                                _with_near(lambda a, b: a.tool == b.tool and difflib.SequenceMatcher(
                                    None, a.input.lower(), b.input.lower()).ratio() >= 0.8)),
    "split on one space": ("split the input on whitespace", _with_near(
        lambda a, b: a.tool == b.tool
        and _case_distance(a.input.lower().split(" "), b.input.lower().split(" ")) <= 1)),
    "raises on an empty history": ("An empty history has no latest call",
                                   lambda h: find_repeat(h) if h else h[-1]),
}


def _any_pair(history):
    pairs = [(a, b) for n, a in enumerate(history) for b in history[n + 1:]]
    if any(near(a, b) and a.observation == b.observation for a, b in pairs):
        return "near_repeat"
    return _with_near(near)(history) if history else None


def _by_position(a: str, b: str) -> bool:
    x, y = a.lower().split(), b.lower().split()
    return sum(p != q for p, q in zip(x, y, strict=False)) + abs(len(x) - len(y)) <= 1


def _previous_only(history):
    before, last = history[-2:] if len(history) >= 2 else (None, history[-1])
    if before is not None and near(before, last) and before.observation == last.observation:
        return "near_repeat"
    return _with_near(near)(history[-4:]) if len(history) >= 4 else None


def _alternation_first(history):
    if len(history) >= 4:
        a1, b1, a2, b2 = history[-4:]
        if near(a1, a2) and near(b1, b2) and not near(a1, b1):
            return "alternating"
    return find_repeat(history)


def _case_distance(a, b) -> int:
    x, y = (a.split(), b.split()) if isinstance(a, str) else (a, b)
    row = list(range(len(y) + 1))
    for i, word in enumerate(x, 1):
        prev, row[0] = row[0], i
        for j, other in enumerate(y, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (word != other))
    return row[-1]


def _chars_close(a: str, b: str) -> bool:
    """Too generous: inputs of similar length with most characters shared count as near."""
    a, b = a.lower(), b.lower()
    return abs(len(a) - len(b)) <= 3 and len(set(a) ^ set(b)) <= 12


def _handover_with(done_part=True, open_part="all", reason=True, empty_words=True, question=True):
    def wrong(question_, done, open_items, reason_):
        items = {"all": open_items, "first": open_items[:1], "none": [],
                 "all_but_last": open_items[:-1]}[open_part]
        did = "; ".join(done if done_part else done[-1:])
        todo = "; ".join(items)
        if empty_words:
            did, todo = did or "nothing was done", todo or "nothing is open"
        parts = [f"Stopped: {reason_}." if reason else "Stopped.",
                 f"Question: {question_}" if question else "", f"Done: {did}.", f"Still open: {todo}."]
        return " ".join(p for p in parts if p)
    return wrong


NOTHING_DONE = 'When nothing was done, say so in these words: "nothing was done"'
HANDOVER_MUTANTS = {
    "loses the open items": ("every item still open", _handover_with(open_part="none")),
    "keeps the first open item only": ("every item still open", _handover_with(open_part="first")),
    "drops the last open item": ("every item still open", _handover_with(open_part="all_but_last")),
    "only the last step done": ("every step that was done", _handover_with(done_part=False)),
    "no reason": ("says why the run stopped", _handover_with(reason=False)),
    "no question": ("the question", _handover_with(question=False)),
    "silent on empty lists": (NOTHING_DONE, _handover_with(empty_words=False)),
    "silent when nothing is open": (
        'When nothing is open, say so in these words: "nothing is open"',
        lambda q, d, o, r: handover(q, d, o, r).replace("nothing is open", "")),
    "keeps the first three open items": ("every item still open",
                                         lambda q, d, o, r: handover(q, d, o[:3], r)),
    "keeps the first three done steps": ("every step that was done",
                                         lambda q, d, o, r: handover(q, d[:3], o, r)),
    "returns None when nothing was done": (
        NOTHING_DONE, lambda q, d, o, r: handover(q, d, o, r) if d else None),
}


def _plan_with(never=None, base=0.5, factor=2, cap=8.0, honour=True, strict=False,
               budget=True, exponent_offset=1, quota=True, seconds=lambda s: s):
    """A wrong plan_wait; ``never`` lists the statuses it does not retry (None: the right ones)."""
    def wrong(status, attempt, retry_after, remaining, code=None):
        if never is None and plan_wait(status, 1, None, 60) is None and status != 429:
            return None
        if never is not None and status in never:
            return None
        if quota and status == 429 and code == "insufficient_quota":
            return None
        retry_after = None if retry_after is None else seconds(retry_after)
        wait = base * factor ** min(attempt - exponent_offset, 10)
        wait = min(cap, wait) if cap else wait
        if honour:
            wait = max(wait, retry_after or 0)
        if budget and (wait > remaining if strict else wait >= remaining):
            return None
        return wait
    return wrong


def _overflowing(status, attempt, retry_after, remaining, code=None):
    if plan_wait(status, attempt, retry_after, remaining, code) is None:
        return None
    wait = max(min(8.0, 0.5 * 2 ** (attempt - 1)), retry_after or 0)  # 2 ** 1999 overflows a float
    return None if wait >= remaining else wait


PLAN_WAIT_MUTANTS = {
    "retries a 404": ("Every other status is never retried", _plan_with(never=(400, 401, 403, 422))),
    "retries every status": ("Every other status is never retried", _plan_with(never=())),
    "retries a 403": ("Every other status is never retried", _plan_with(never=(400, 401, 404, 422))),
    "gives up on a time-out": ("a time-out (`status=None`), a 408, a 409, a 429 or a 5xx is retried",
                               _plan_with(never=(None, 400, 401, 403, 404))),
    "gives up on a 5xx": ("a time-out (`status=None`), a 408, a 409, a 429 or a 5xx is retried",
                          _plan_with(never=(400, 401, 403, 404, 500, 503))),
    "a constant wait": ("0.5 s before the first retry, doubling with each attempt", _plan_with(factor=1)),
    "starts at 1 s": ("0.5 s before the first retry, doubling with each attempt",
                      _plan_with(exponent_offset=0)),
    "no cap": ("never more than 8 s", _plan_with(cap=None)),
    "ignores Retry-After": ("never less than the server's `Retry-After`", _plan_with(honour=False)),
    "Retry-After replaces the back-off": (
        "never less than the server's `Retry-After`",
        lambda s, a, r, left, c=None: r if r is not None and plan_wait(s, a, r, left, c) is not None
        else plan_wait(s, a, None, left, c)),
    "ignores the time left": ("`None` when the wait would not end before the run's time runs out",
                              _plan_with(budget=False)),
    "retries only 500 to 504": ("a time-out (`status=None`), a 408, a 409, a 429 or a 5xx is retried",
                                lambda s, a, r, left, c=None: plan_wait(s, a, r, left, c)
                                if s in (None, 408, 409, 429, 500, 502, 503, 504) else None),
    "compares the uncapped wait with the time left": (
        "never more than 8 s",
        lambda s, a, r, left, c=None: None if max(0.5 * 2 ** min(a - 1, 30), r or 0) >= left
        else plan_wait(s, a, r, left, c)),
    "caps the Retry-After too": ("never less than the server's `Retry-After`",
                                 lambda s, a, r, left, c=None: plan_wait(s, a, min(r, 8.0) if r else r,
                                                                         left, c)),
    "waits exactly the time left": ("`None` when the wait would not end before the run's time runs out",
                                    _plan_with(strict=True)),
    "retries a quota 429": ('a 429 whose `code` is `"insufficient_quota"`', _plan_with(quota=False)),
    "gives up on a 409": ("a time-out (`status=None`), a 408, a 409, a 429 or a 5xx is retried",
                          lambda s, a, r, left, c=None: None if s == 409 else plan_wait(s, a, r, left, c)),
    "int() on the Retry-After": ("never less than the server's `Retry-After`", _plan_with(seconds=int)),
    "round() on the Retry-After": ("never less than the server's `Retry-After`",
                                   _plan_with(seconds=round)),
    "int() on the time left": ("`None` when the wait would not end before the run's time runs out",
                               lambda s, a, r, left, c=None: plan_wait(s, a, r, int(left), c)),
    "overflows on a large attempt": ("with no upper end", _overflowing),
}

# ------------------------------------------- wrong solutions written from the statements alone

def _remembers_calls(history, seen=[]):  # noqa: B006 - the mistake this wrong solution makes
    seen.extend(c for c in history if c not in seen)
    return find_repeat([c for c in seen if c not in history] + list(history)) if history else None


def _handover_items(change):
    """The reference handover with every list item changed by ``change`` first."""
    return lambda q, d, o, r: handover(q, [change(i) for i in d], [change(i) for i in o], r)


def _repr_of_lists(question, done, open_items, reason):
    did = f"{done}" if done else "nothing was done"
    todo = f"{open_items}" if open_items else "nothing is open"
    return f"Stopped: {reason}. Question: {question} Done: {did}. Still open: {todo}."


def _format_after_joining(question, done, open_items, reason):
    did = "; ".join(done) if done else "nothing was done"
    todo = "; ".join(open_items) if open_items else "nothing is open"
    text = "Stopped: {}. Question: " + question + " Done: " + did + ". Still open: " + todo + "."
    return text.format(reason)


def _lines_kept(question, done, open_items, reason, lines=[]):  # noqa: B006 - the mistake itself
    lines.append(f"Stopped: {reason}. Question: {question}")
    lines.append("Done: " + ("; ".join(done) if done else "nothing was done"))
    lines.append("Still open: " + ("; ".join(open_items) if open_items else "nothing is open"))
    return "\n".join(lines)


def _no_time_left_is_no_limit(status, attempt, retry_after, remaining, code=None):
    return plan_wait(status, attempt, retry_after, remaining if remaining else float("inf"), code)


SHOULD_STOP_MUTANTS |= {
    # a share of the cap: at 28 digits a hair under the cap rounds up to 1
    "each count as a ratio of its limit": ("A limit is reached when the count equals it", _should_stop_with(
        reached=lambda count, limit: count / limit >= 1 if limit else count >= limit)),
    "counts compared as floats": ("A limit is reached when the count equals it", _should_stop_with(
        reached=lambda count, limit: float(count) >= float(limit))),
    "a threshold of 0 read as no limit": ("A threshold of 0 is a limit too", _should_stop_with(
        reached=lambda count, limit: bool(limit) and count >= limit)),
}
FIND_REPEAT_MUTANTS |= {
    "a default list remembers earlier histories": ("the **latest** call", _remembers_calls),
}
AS_GIVEN = "each list item as it is given"
HANDOVER_MUTANTS |= {
    "items stripped": (AS_GIVEN, _handover_items(str.strip)),
    "items capitalised": (AS_GIVEN, _handover_items(lambda i: i[:1].upper() + i[1:])),
    "line breaks flattened": (AS_GIVEN, _handover_items(lambda i: " ".join(i.splitlines()))),
    "items cut to 80 characters": (AS_GIVEN, _handover_items(lambda i: i[:80])),
    "the lists written with f'{list}'": (AS_GIVEN, _repr_of_lists),
    ".format() after joining the items": (AS_GIVEN, _format_after_joining),
    "a default list keeps earlier hand-overs": ("about this run alone", _lines_kept),
}
PLAN_WAIT_MUTANTS |= {
    "no time left read as no limit": (
        "`None` when the wait would not end before the run's time runs out", _no_time_left_is_no_limit),
}


# ------------------------------------------- more, written from the statements alone (this port)


def _should_stop_optional_rules(state, rules=None):
    """Also right: no rules given means the defaults."""
    return should_stop(state, rules or StopRules())


def _misspelt(state, rules=SOURCE):
    return {"hand_over": "handover", "final_answer": "answered"}.get(should_stop(state, rules),
                                                                      should_stop(state, rules))


def _zero_cap_is_no_cap(state, rules=SOURCE):
    """The issue's class: a limit of 0 read as no limit (`if rules.max_cost and ...`), money only."""
    if rules.max_cost == 0 and not (state.interrupted or state.answered or state.handed_over):
        return should_stop(state, dataclasses.replace(rules, max_cost=Decimal("Infinity")))
    return should_stop(state, rules)


def _zero_steps_is_no_limit(state, rules=SOURCE):
    return should_stop(state, dataclasses.replace(rules, max_steps=rules.max_steps or 10**9))


SHOULD_STOP_MUTANTS |= {
    "the hand-over and the answer misspelt": ('The reasons are `"interrupted"`, `"final_answer"` and '
                                              '`"hand_over"`', _misspelt),
    "'' while the run goes on": ("return `None` while the run may go on", _should_stop_with(go_on="")),
    "money rounded to paise first": ("A limit is reached when the count equals it",
                                     lambda s, r=SOURCE: should_stop(_with(s, cost=round(s.cost, 2)), r)),
    "money through a float and back": ("A limit is reached when the count equals it",
                                       lambda s, r=SOURCE: should_stop(_with(s, cost=Decimal(float(s.cost))),
                                                                       r)),
    "a money cap of 0 read as no cap": ("A threshold of 0 is a limit too", _zero_cap_is_no_cap),
    "a step limit of 0 read as no limit": ("A threshold of 0 is a limit too", _zero_steps_is_no_limit),
}


def _tools_in_any_case(history):
    if not history:
        return None
    near_in_any_case = _with_near(
        lambda a, b: a.tool.lower() == b.tool.lower() and _distance(a.input, b.input) <= 1)
    return near_in_any_case(history)


def _cached(history, answers={}):  # noqa: B006 - the mistake this wrong solution makes
    """A default dict caching the verdict by the latest call: earlier histories decide."""
    return answers.setdefault(tuple(history[-1]), find_repeat(history)) if history else None


def _alternation_needs_same_results(history):
    found = find_repeat(history)
    if found == "alternating":
        a1, b1, a2, b2 = history[-4:]
        return found if a1.observation == a2.observation and b1.observation == b2.observation else None
    return found


FIND_REPEAT_MUTANTS |= {
    "observations compared in any case": ("and the same observation", lambda h: _seen_loosely(h)),
    "tool names compared in any case": ("different tools are never repeats of each other",
                                        _tools_in_any_case),
    "a default dict caches the verdict": ("the **latest** call", _cached),
    "alternation only with the same results": ("the last four calls take turns, A, B, A, B",
                                               _alternation_needs_same_results),
    "alternation only in a history of four": ("the last four calls take turns, A, B, A, B",
                                              lambda h: None if find_repeat(h) == "alternating" and len(h) > 4
                                              else find_repeat(h)),
}


def _seen_loosely(history):
    loose = [c._replace(observation=c.observation.lower().strip()) for c in history]
    return find_repeat(loose)


def _handover_bulleted(question, done, open_items, reason):
    """Also right: another layout, the fixed phrases capitalised."""
    lines = [f"The run stopped ({reason}).", f"Question: {question}", "Done:"]
    lines += [f"- {step}" for step in done] or ["- Nothing was done."]
    lines += ["Open:"] + ([f"- {item}" for item in open_items] or ["- Nothing is open."])
    return "\n".join(lines)


def _percent_after_joining(question, done, open_items, reason):
    text = "Stopped: %s. Question: " + question + " Done: " + ("; ".join(done) or "nothing was done")
    return (text + ". Still open: " + ("; ".join(open_items) or "nothing is open") + ".") % reason


def _json_lists(question, done, open_items, reason):
    did = json.dumps(done) if done else "nothing was done"
    todo = json.dumps(open_items) if open_items else "nothing is open"
    return f"Stopped: {reason}. Question: {question} Done: {did}. Still open: {todo}."


HANDOVER_MUTANTS |= {
    "items lower-cased": (AS_GIVEN, _handover_items(str.lower)),
    "items title-cased": (AS_GIVEN, _handover_items(str.title)),
    "% after joining the items": (AS_GIVEN, _percent_after_joining),
    "the lists written with json.dumps": (AS_GIVEN, _json_lists),
    "the summary re-wrapped at 70 columns": (AS_GIVEN,
                                             lambda q, d, o, r: textwrap.fill(handover(q, d, o, r))),
}


def _time_checked_before_retry_after(status, attempt, retry_after, remaining, code=None):
    backoff = plan_wait(status, attempt, None, float("inf"), code)
    if backoff is None or backoff >= remaining:
        return None
    return max(backoff, retry_after or 0)


PLAN_WAIT_MUTANTS |= {
    "range(500, 599) leaves out 599": ("a time-out (`status=None`), a 408, a 409, a 429 or a 5xx is retried",
                                       lambda s, a, r, left, c=None: None if s == 599
                                       else plan_wait(s, a, r, left, c)),
    "0 for do not retry": ("Every other status is never retried",
                           lambda s, a, r, left, c=None: 0 if plan_wait(s, a, r, left, c) is None
                           and s in (400, 401, 403, 404) else plan_wait(s, a, r, left, c)),
    "a quota code stops any status": ("a time-out (`status=None`), a 408, a 409, a 429 or a 5xx is retried",
                                      lambda s, a, r, left, c=None: None if c == "insufficient_quota"
                                      else plan_wait(s, a, r, left, c)),
    "the time checked before the Retry-After": ("`None` when the wait would not end before the run's time "
                                                "runs out", _time_checked_before_retry_after),
    "Retry-After honoured for a 429 only": ("never less than the server's `Retry-After`",
                                            lambda s, a, r, left, c=None: plan_wait(
                                                s, a, r if s == 429 else None, left, c)),
}

EXERCISES = {
    "05.should_stop": ((should_stop, _should_stop_optional_rules, stopping.should_stop), SHOULD_STOP_MUTANTS),
    "05.find_repeat": ((find_repeat, stopping.find_repeat), FIND_REPEAT_MUTANTS),
    "05.handover": ((handover, _handover_bulleted), HANDOVER_MUTANTS),
    "05.plan_wait": ((plan_wait,), PLAN_WAIT_MUTANTS),
}

(test_right_solutions_pass, test_stub_is_not_attempted, test_wrong_solution_fails_under_its_rule,
 test_every_rule_has_a_mutant, test_each_rules_cases_exist) = exercise_tests(EXERCISES, stub)


# ---------------------------------------------------------------- feedback: the fault found, its hint


@pytest.mark.parametrize(("exercise", "name", "says"), [
    ("05.handover", "the lists written with f'{list}'", "repr"),
    ("05.handover", "line breaks flattened", "line breaks"),
    ("05.handover", "a default list keeps earlier hand-overs", "afresh"),
    ("05.handover", ".format() after joining the items", "braces"),
    ("05.handover", "items lower-cased", "Keep an item's case"),
    ("05.should_stop", "each count as a ratio of its limit", "ratio"),
    ("05.should_stop", "a threshold of 0 read as no limit", "threshold of 0"),
    ("05.should_stop", "fixed thresholds 12 and 20", "caller's rules"),
    ("05.find_repeat", "split on one space", "any whitespace"),
    ("05.find_repeat", "raises on an empty history", "IndexError"),
    ("05.plan_wait", "overflows on a large attempt", "too large for a float"),
    ("05.plan_wait", "int() on the time left", "no int()"),
])
def test_the_hint_names_the_fault_found(exercise: str, name: str, says: str) -> None:
    result = result_of(exercise, EXERCISES[exercise][1][name][1])  # the run the catalogue test made
    assert any(says in case.hint for case in result.cases if case.status == "failed"), result


def test_a_handover_that_empties_its_lists_does_not_break_the_checker() -> None:
    """Each call gets fresh lists: a solution that empties its arguments cannot change later cases."""
    def emptying(question, done, open_items, reason):
        text = handover(question, list(done), list(open_items), reason)
        done.clear()
        open_items.clear()
        return text

    assert check("05.handover", emptying).status == "passed"


def test_the_keys_are_the_librarys_where_it_has_them() -> None:
    assert SPECS["05.should_stop"].key is stopping.should_stop
    assert SPECS["05.find_repeat"].key is stopping.find_repeat


def _cap(args):
    return StopRules(**(args[1] or {})).max_cost


# Edges past the ones the rules name (tests/test_rule_tables.py holds those): a hair either side
# of a money cap, and the item forms the statement's "as it is given" covers.
EDGES = {
    "05.should_stop": {
        "money a hair under its cap": lambda a: 0 < _cap(a) - a[0]["cost"] < Decimal("1E-20"),
        "money a hair over its cap": lambda a: 0 < a[0]["cost"] - _cap(a) < Decimal("1E-20"),
        "the default rules": lambda a: a[1] is None,
    },
    "05.handover": {
        "an item with outer spaces": lambda a: any(i != i.strip() for i in a[1] + a[2]),
        "an item with a line break": lambda a: any("\n" in i for i in a[1] + a[2]),
        "an item with braces and %s": lambda a: any("{" in i and "%s" in i for i in a[1] + a[2]),
        "an item with quotes and a backslash": lambda a: any("\\" in i for i in a[1] + a[2]),
        "an item of 300 characters": lambda a: any(len(i) > 300 for i in a[1] + a[2]),
    },
    "05.find_repeat": {
        "tools differing in case only": lambda a: {"search", "Search"} <= {c[0] for c in a[0]},
        "an observation differing in case only": lambda a: {"No flights found.", "NO FLIGHTS FOUND."}
        <= {c[2] for c in a[0]},
    },
    "05.plan_wait": {
        "no time left": lambda a: a[3] == 0, "a quota code on a 5xx": lambda a: a[0] == 503
        and a[4] == "insufficient_quota", "599": lambda a: a[0] == 599 and a[3] == 60,
    },
}


@pytest.mark.parametrize(("exercise", "edge"), [(e, n) for e, edges in EDGES.items() for n in edges])
def test_the_generated_inputs_reach_every_edge(exercise: str, edge: str) -> None:
    assert any(EDGES[exercise][edge](args) for _, args in generate(SPECS[exercise].comparison)), edge
