"""Lesson 03's checkers: the reference solutions pass, stubs are "not attempted", and every
plausible wrong solution in the catalogues below fails.

Most parser mutants are the reference with exactly one behaviour broken (one switch in
``tolerant``), so each one shows that some case of the checker is needed.
"""

from __future__ import annotations

import re
from functools import partial

import pytest

import react_course as rc
from react_course.checks import check
from react_course.checks.lesson03.read_reply import READ_CASES


def stub(*args):
    raise NotImplementedError("exercise 3.x: write it")


# ---------------------------------------------------------------- 03.cut_at_stop


def cut_reference(text, stops):
    positions = [text.find(stop) for stop in stops or () if stop and stop in text]
    return text[: min(positions)] if positions else text


def cut_by_splitting(text, stops):
    """Also right: splitting at each stop in turn keeps the text before the earliest."""
    for stop in stops or ():
        if stop:
            text = text.split(stop, 1)[0]
    return text


def cut_first_listed(text, stops):
    for stop in stops or ():
        if stop and stop in text:
            return text[: text.find(stop)]
    return text


def cut_keeps_stop(text, stops):
    positions = [(text.find(s), s) for s in stops or () if s and s in text]
    if not positions:
        return text
    at, stop = min(positions)
    return text[: at + len(stop)]


def cut_last_occurrence(text, stops):
    positions = [text.rfind(s) for s in stops or () if s and s in text]
    return text[: min(positions)] if positions else text


def cut_crashes_on_none(text, stops):
    positions = [text.find(s) for s in stops if s and s in text]
    return text[: min(positions)] if positions else text


def cut_strips(text, stops):
    return cut_reference(text, stops).strip()


def cut_empty_stop_matches(text, stops):
    positions = [text.find(s) for s in stops or () if s in text]
    return text[: min(positions)] if positions else text


def cut_min_with_minus_one(text, stops):
    if not stops:
        return text
    at = min(text.find(s) for s in stops if s)
    return text if at == len(text) else text[:at]


def cut_zero_is_no_match(text, stops):
    positions = [text.find(s) for s in stops or () if s and text.find(s) > 0]
    return text[: min(positions)] if positions else text


def cut_only_first_stop(text, stops):
    stops = [s for s in stops or () if s][:1]
    return text.split(stops[0], 1)[0] if stops else text


CUT_MUTANTS = {
    "first stop in the list, not the earliest": cut_first_listed,
    "keeps the stop text": cut_keeps_stop,
    "cuts at the last occurrence": cut_last_occurrence,
    "crashes on None": cut_crashes_on_none,
    "strips whitespace": cut_strips,
    "empty stop matches everywhere": cut_empty_stop_matches,
    "min() picks -1 for an absent stop": cut_min_with_minus_one,
    "a stop at position 0 is not a match": cut_zero_is_no_match,
    "only the first stop is used": cut_only_first_stop,
}


@pytest.mark.parametrize("solution", [cut_reference, cut_by_splitting, rc.cut_at_stop],
                         ids=["reference", "splitting", "library"])
def test_cut_at_stop_accepts_right_solutions(solution) -> None:
    result = check("03.cut_at_stop", solution)
    assert result.status == "passed", str(result)


@pytest.mark.parametrize("name", CUT_MUTANTS)
def test_cut_at_stop_rejects_wrong_solutions(name: str) -> None:
    assert check("03.cut_at_stop", CUT_MUTANTS[name]).status == "failed"


def test_cut_at_stop_feedback_names_the_mistake() -> None:
    text = str(check("03.cut_at_stop", cut_keeps_stop))
    assert "the stop sequence itself was kept" in text
    assert "last character was dropped" in str(check("03.cut_at_stop", cut_min_with_minus_one))
    assert "without strip()" in str(check("03.cut_at_stop", cut_strips))
    assert "earliest place" in str(check("03.cut_at_stop", cut_first_listed))


# ---------------------------------------------------------------- 03.parse_step

FORMAT = ("Reply in one of these forms:\nThought: <your reasoning>\nAction: <tool name>\n"
          "Action Input: <the input>\nor\nThought: <your reasoning>\nFinal Answer: <the answer>")


def tolerant(text, *, ignore_case=True, numbered=True, bold=True, multiline=True, balanced=True,
             action_first=True, observation_is_error=True, show_format=True, guard=True,
             input_line_only=True, paragraphs=True):
    """The reference parser; each switch set to False is one typical mistake."""
    skip = r"[\s*#>_`-]*" if bold else r"\s*"
    number = r"\s*\d*" if numbered else ""
    emphasis = r"[*_]*" if bold else ""
    keyword = re.compile(
        rf"^{skip}(thought|action\s*input|action|final\s*answer|observation){number}\s*{emphasis}\s*:"
        rf"{emphasis}\s*(.*)$", re.IGNORECASE if ignore_case else 0)
    message = FORMAT if show_format else "Could not parse."
    segments = []
    for line in text.splitlines():
        found = keyword.match(line)
        if found:
            body = found[2].rstrip(" *_") if bold else found[2]
            segments.append([re.sub(r"\s+", " ", found[1].lower()), body])
        elif segments and multiline:
            segments[-1][1] += "\n" + line
    order = range(len(segments))
    if not action_first:
        order = sorted(order, key=lambda i: segments[i][0] != "final answer")
    for at in order:
        kind, body = segments[at][0], segments[at][1].strip()
        if kind == "observation" and observation_is_error:
            return rc.ParseError("You wrote an Observation; only the program does. " + message)
        if kind == "final answer" and body:
            return rc.FinalAnswer(body)
        if kind == "action":
            return _read_action(body, segments[at + 1:], message, balanced, guard,
                                input_line_only, paragraphs)
    return rc.ParseError("No Action or Final Answer line. " + message)


def _read_action(body, rest, message, balanced, guard, input_line_only=True, paragraphs=True):
    name = re.match(r"(\w+)\s*", body)
    if name is None:
        if not guard:
            raise ValueError("no tool name")
        return rc.ParseError("The Action line names no tool. " + message)
    tool, after = name[1], body[name.end():]
    if after.startswith("["):
        if balanced:
            depth, end = 0, len(after)
            for i, ch in enumerate(after):
                depth += (ch == "[") - (ch == "]")
                if depth == 0:
                    end = i
                    break
            tool_input = after[1:end]
        else:
            tool_input = after[1: after.rfind("]")]
    elif after.strip():
        return rc.ParseError("The Action line holds only the tool name. " + message)
    elif rest and (rest[0][0] == "action input" or not input_line_only):
        tool_input = rest[0][1] if paragraphs else rest[0][1].strip().split("\n\n")[0]
    else:
        return rc.ParseError("No Action Input line. " + message)
    tool_input = tool_input.strip()
    return rc.FinalAnswer(tool_input) if tool.lower() == "finish" else rc.Action(tool, tool_input)


STRICT_BRACKETS = re.compile(r"^Action: (\w+)\[([^\]]*)\]$", re.MULTILINE)
STRICT_TWO_LINES = re.compile(r"^Action: (\w+)\nAction Input: (.*)$", re.MULTILINE)
STRICT_FINAL = re.compile(r"^Final Answer: (.*)$", re.MULTILINE)


def naive_strict(text):
    """The lesson's strict regex parser: answers first, raises when nothing matches."""
    if found := STRICT_FINAL.search(text):
        return rc.FinalAnswer(found[1])
    if found := STRICT_BRACKETS.search(text) or STRICT_TWO_LINES.search(text):
        return rc.Action(found[1], found[2])
    raise ValueError("could not parse the reply")


def greedy_dotall(text):
    """Case-insensitive and tolerant of spaces, but (.*) with DOTALL runs to the last ]."""
    if found := re.search(r"action\s*\d*\s*:\s*(\w+)\s*\[(.*)\]", text, re.I | re.S):
        tool, tool_input = found[1], found[2].strip()
        return rc.FinalAnswer(tool_input) if tool.lower() == "finish" else rc.Action(tool, tool_input)
    if found := re.search(r"action\s*\d*\s*:\s*(\w+)\s*\n\s*action\s*input\s*\d*\s*:\s*(.*)", text,
                          re.I | re.S):
        return rc.Action(found[1], found[2].strip())
    if found := re.search(r"final\s*answer\s*:\s*(.*)", text, re.I | re.S):
        return rc.FinalAnswer(found[1].strip())
    return rc.ParseError(FORMAT)


def lazy_brackets(text):
    """Like the reference, but the input ends at the FIRST ]."""
    step = tolerant(text)
    found = re.search(r"action\s*\d*\s*:\s*\w+\s*\[(.*?)\]", text, re.I | re.S)
    if isinstance(step, rc.Action) and found:
        return rc.Action(step.tool, found[1].strip())
    return step


def input_to_the_end(text):
    """Like the reference, but an Action Input runs to the end of the reply."""
    step = tolerant(text)
    found = re.search(r"action\s*input\s*:\s*(.*)", text, re.I | re.S)
    if isinstance(step, rc.Action) and found:
        return rc.Action(step.tool, found[1].strip())
    return step


def lowercased_tool(text):
    step = tolerant(text)
    return rc.Action(step.tool.lower(), step.input) if isinstance(step, rc.Action) else step


def returns_tuples(text):
    step = tolerant(text)
    if isinstance(step, rc.Action):
        return ("action", step.tool, step.input)
    return step


def empty_is_final(text):
    return rc.FinalAnswer("") if not text.strip() else tolerant(text)


PARSE_MUTANTS = {
    "the lesson's strict regex": naive_strict,
    "greedy regex with DOTALL": greedy_dotall,
    "lazy regex: input ends at the first ]": lazy_brackets,
    "case-sensitive keywords": partial(tolerant, ignore_case=False),
    "no numbered form": partial(tolerant, numbered=False),
    "no markdown bold": partial(tolerant, bold=False),
    "no multi-line input": partial(tolerant, multiline=False),
    "input runs to the last ]": partial(tolerant, balanced=False),
    "final answer preferred over an earlier action": partial(tolerant, action_first=False),
    "an invented observation is ignored": partial(tolerant, observation_is_error=False),
    "error message without the format": partial(tolerant, show_format=False),
    "raises on an odd reply": partial(tolerant, guard=False),
    "Action Input runs to the end of the reply": input_to_the_end,
    "the segment after Action: tool is the input, whatever its keyword":
        partial(tolerant, input_line_only=False),
    "a blank line ends the input": partial(tolerant, paragraphs=False),
    "tool name lowercased": lowercased_tool,
    "returns tuples, not rc.Action": returns_tuples,
    "an empty reply is an empty answer": empty_is_final,
}


@pytest.mark.parametrize("solution", [tolerant, rc.parse_step], ids=["reference", "library"])
def test_parse_step_accepts_right_solutions(solution) -> None:
    result = check("03.parse_step", solution)
    assert result.status == "passed", str(result)


@pytest.mark.parametrize("name", PARSE_MUTANTS)
def test_parse_step_rejects_wrong_solutions(name: str) -> None:
    assert check("03.parse_step", PARSE_MUTANTS[name]).status == "failed"


def test_parse_step_feedback_is_specific() -> None:
    text = str(check("03.parse_step", naive_strict))
    assert "FAIL  numbered keywords" in text and "re.IGNORECASE" in text
    assert "raised ValueError: could not parse the reply" in text
    greedy = str(check("03.parse_step", greedy_dotall))
    assert "FAIL  trailing text after the closing bracket" in greedy
    assert "input 'Eiffel Tower] (then I will lookup[height' on that page)" not in greedy
    assert "expected 'Eiffel Tower'" in greedy
    odd = str(check("03.parse_step", partial(tolerant, guard=False)))
    assert "parse_step('Action:') raised ValueError" in odd


# ---------------------------------------------------------------- 03.call_with_stops


def call_reference(model, prompt, stops):
    sent = list(stops)[:4] or None
    return rc.cut_at_stop(model(prompt, stop=sent), stops)


def call_sends_nothing(model, prompt, stops):
    return rc.cut_at_stop(model(prompt), stops)


def call_sends_everything(model, prompt, stops):
    return rc.cut_at_stop(model(prompt, stop=list(stops) or None), stops)


def call_no_client_cut(model, prompt, stops):
    return model(prompt, stop=list(stops)[:4] or None)


def call_cuts_with_first_stop(model, prompt, stops):
    return rc.cut_at_stop(model(prompt, stop=list(stops)[:4] or None), list(stops)[:1])


def call_cuts_with_sent_stops(model, prompt, stops):
    sent = list(stops)[:4] or None
    return rc.cut_at_stop(model(prompt, stop=sent), sent)


def call_twice(model, prompt, stops):
    model(prompt)
    return call_reference(model, prompt, stops)


def call_sends_last_four(model, prompt, stops):
    return rc.cut_at_stop(model(prompt, stop=list(stops)[-4:] or None), stops)


CALL_MUTANTS = {
    "sends no stops": call_sends_nothing,
    "sends more than four": call_sends_everything,
    "no client-side cut": call_no_client_cut,
    "cuts only with the first stop": call_cuts_with_first_stop,
    "cuts only with the stops it sent": call_cuts_with_sent_stops,
    "calls the model twice": call_twice,
    "sends the last four": call_sends_last_four,
}


def test_call_with_stops_accepts_the_reference() -> None:
    result = check("03.call_with_stops", call_reference)
    assert result.status == "passed", str(result)


def test_call_with_stops_accepts_positional_stop_and_empty_list() -> None:
    def positional(model, prompt, stops):
        return rc.cut_at_stop(model(prompt, list(stops)[:4]), stops)

    assert check("03.call_with_stops", positional).status == "passed"


@pytest.mark.parametrize("name", CALL_MUTANTS)
def test_call_with_stops_rejects_wrong_solutions(name: str) -> None:
    assert check("03.call_with_stops", CALL_MUTANTS[name]).status == "failed"


def test_call_with_stops_feedback_says_what_to_send() -> None:
    assert "at most 4" in str(check("03.call_with_stops", call_sends_everything))
    assert "cut the reply yourself" in str(check("03.call_with_stops", call_no_client_cut))
    assert "no stop sequences reached the model" in str(check("03.call_with_stops", call_sends_nothing))


# ---------------------------------------------------------------- 03.read_reply


def read_reference(raw, stops):
    kept = rc.cut_at_stop(raw, stops)
    step = rc.parse_step(kept)
    discarded = step.discarded if isinstance(step, rc.Action) else ""
    return step, "\n".join(part for part in (discarded, raw[len(kept):]) if part)


def read_without_stop_cut(raw, stops):
    step = rc.parse_step(raw)
    return step, step.discarded if isinstance(step, rc.Action) else ""


def read_only_stop_cut(raw, stops):
    kept = rc.cut_at_stop(raw, stops)
    return rc.parse_step(kept), raw[len(kept):]


def read_either_cut(raw, stops):
    kept = rc.cut_at_stop(raw, stops)
    step = rc.parse_step(kept)
    discarded = step.discarded if isinstance(step, rc.Action) else ""
    return step, discarded or raw[len(kept):]


def read_first_stop_only(raw, stops):
    return read_reference(raw, list(stops)[:1])


def read_raw_as_cut(raw, stops):
    step, cut = read_reference(raw, stops)
    return step, raw if cut else ""


def read_parses_raw_and_adds_both(raw, stops):
    kept = rc.cut_at_stop(raw, stops)
    step = rc.parse_step(raw)
    discarded = step.discarded if isinstance(step, rc.Action) else ""
    return step, "\n".join(part for part in (discarded, raw[len(kept):]) if part)


def read_returns_none_for_no_cut(raw, stops):
    step, cut = read_reference(raw, stops)
    return step, cut or None


def read_strips_the_parts(raw, stops):
    """The old answer key: right pieces, but a single newline where the loop has a blank line."""
    kept = rc.cut_at_stop(raw, stops)
    step = rc.parse_step(kept)
    parts = [step.discarded if isinstance(step, rc.Action) else "", raw[len(kept):]]
    return step, "\n".join(part.strip() for part in parts if part.strip())


def read_stop_text_first(raw, stops):
    kept = rc.cut_at_stop(raw, stops)
    step = rc.parse_step(kept)
    discarded = step.discarded if isinstance(step, rc.Action) else ""
    return step, "\n".join(part for part in (raw[len(kept):], discarded) if part)


def read_concatenated(raw, stops):
    kept = rc.cut_at_stop(raw, stops)
    step = rc.parse_step(kept)
    return step, (step.discarded if isinstance(step, rc.Action) else "") + raw[len(kept):]


READ_MUTANTS = {
    "no stop cut before parsing": read_without_stop_cut,
    "ignores what the parser discarded": read_only_stop_cut,
    "records only one of the two cuts": read_either_cut,
    "cuts with the first stop only": read_first_stop_only,
    "returns the whole reply as the cut": read_raw_as_cut,
    "parses the raw reply and records twice": read_parses_raw_and_adds_both,
    "None instead of '' when nothing was cut": read_returns_none_for_no_cut,
    "strips the parts": read_strips_the_parts,
    "the text after the stop first": read_stop_text_first,
    "joined without a newline": read_concatenated,
}


def test_read_reply_accepts_the_reference() -> None:
    result = check("03.read_reply", read_reference)
    assert result.status == "passed", str(result)


@pytest.mark.parametrize("name", READ_MUTANTS)
def test_read_reply_rejects_wrong_solutions(name: str) -> None:
    assert check("03.read_reply", READ_MUTANTS[name]).status == "failed"


def test_read_reply_feedback_names_the_mistake() -> None:
    assert "no strip()" in str(check("03.read_reply", read_strips_the_parts))
    assert "the order is reversed" in str(check("03.read_reply", read_stop_text_first))


@pytest.mark.parametrize("case", READ_CASES, ids=[case[0] for case in READ_CASES])
def test_read_reply_expects_the_loops_own_cut(case) -> None:
    """Each expected cut is what rc.run_react records in step.cut for that reply."""
    _, reply, stops, _, want, _ = case
    model = rc.ScriptedModel([reply, "Final Answer: done", "Final Answer: done"], ignore_stops=True)
    result = rc.run_react("How tall is the Eiffel Tower?", model, rc.default_tools(), stops=stops)
    assert result.steps[0].cut == want


# ---------------------------------------------------------------- every exercise


@pytest.mark.parametrize("exercise", ["03.cut_at_stop", "03.parse_step", "03.call_with_stops",
                                      "03.read_reply"])
def test_stubs_and_ellipsis_are_not_attempted(exercise: str) -> None:
    assert check(exercise, stub).status == "not attempted"
    assert check(exercise, ...).status == "not attempted"
