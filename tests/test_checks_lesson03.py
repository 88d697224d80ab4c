"""Lesson 03's checkers, through the one helper (``mutation_suite.exercise_tests``).

Right solutions pass, stubs are "not attempted", and every wrong solution below fails
under the rule of the statement it breaks, each run once. Most parser mutants are the
reference with exactly one behaviour broken (one switch in ``tolerant``).
"""

from __future__ import annotations

import re
from functools import partial

import pytest
from mutation_suite import exercise_tests

import react_course as rc
from react_course.checks import check, exercises
from react_course.checks.lesson03 import read_reply
from react_course.checks.lesson03.cut_at_stop import EARLIEST, EXACT, NO_STRIP, WHOLE
from react_course.checks.lesson03.parse_step import FINISH, FIRST


def stub(*args):
    raise NotImplementedError("exercise 3.x: write it")


# ---------------------------------------------------------------- 03.cut_at_stop

def cut_reference(text, stops):
    positions = [text.find(stop) for stop in stops or () if stop and stop in text]
    return text[: min(positions)] if positions else text


def cut_by_splitting(text, stops):
    """Wrong: splitting at each stop in turn cuts inside a longer stop listed later."""
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


def cut_by_regex(text, stops):
    """The issue's example: the stops joined into one regular expression, unescaped."""
    stops = [s for s in stops or () if s]
    return re.split("|".join(stops), text, maxsplit=1)[0] if stops else text


def cut_strips_stops(text, stops):
    return cut_reference(text, [s.strip() for s in stops or ()])


def cut_rstrips(text, stops):
    return cut_reference(text, stops).rstrip("\n")


def cut_lists_only(text, stops):
    return cut_reference(text, stops) if isinstance(stops, list) else text


def cut_by_regex_literally(text, stops):
    """Exactly the issue's line: re.split on the joined stops, no escaping, no filtering."""
    return re.split("|".join(stops or []), text)[0]


def cut_ignoring_case(text, stops):
    low = text.lower()
    positions = [low.find(s.lower()) for s in stops or () if s and s.lower() in low]
    return text[: min(positions)] if positions else text

REGEX = "plain text, not a regular expression"
CUT_MUTANTS = {
    "stops matched in any case": (EXACT, cut_ignoring_case),
    "stops stripped before the search": (EXACT, cut_strips_stops),
    "re.split on the joined stops, as written in the issue": (REGEX, cut_by_regex_literally),
    "stops joined into one regular expression": (REGEX, cut_by_regex),
    "strips trailing newlines": (NO_STRIP, cut_rstrips),
    "strips whitespace": (NO_STRIP, cut_strips),
    "a tuple of stops is ignored": ("`stops` is a list or tuple of strings", cut_lists_only),
    "first stop in the list, not the earliest": (EARLIEST, cut_first_listed),
    "cuts at each stop in turn ('Observation' inside '\\nObservation')": (EARLIEST, cut_by_splitting),
    "cuts at the last occurrence": (EARLIEST, cut_last_occurrence),
    "keeps the stop text": ("the stop itself is not kept", cut_keeps_stop),
    "crashes on None": ("may be empty or `None`", cut_crashes_on_none),
    "empty stop matches everywhere": ("Skip empty strings", cut_empty_stop_matches),
    "min() picks -1 for an absent stop": (WHOLE, cut_min_with_minus_one),
    "a stop at position 0 is not a match": ("before the earliest place where any of the stops occurs",
                                            cut_zero_is_no_match),
    "only the first stop is used": (WHOLE, cut_only_first_stop),
}


# ---------------------------------------------------------------- 03.parse_step

FORMAT = ("Reply in one of these forms:\nThought: <your reasoning>\nAction: <tool name>\n"
          "Action Input: <the input>\nor\nThought: <your reasoning>\nFinal Answer: <the answer>")


def tolerant(text, *, ignore_case=True, numbered=True, bold=True, multiline=True, balanced=True,
             action_first=True, observation_is_error=True, show_format=True, guard=True,
             input_line_only=True, paragraphs=True, first_action=True, finish_any_case=True,
             spaces=True, paper_form=True, two_lines=True, final_line=True, lone_input_is_error=True,
             chatter_is_error=True, finish_two_lines=True, stray_input_skipped=True):
    """The reference parser; each switch set to False is one typical mistake."""
    skip = r"[\s*#>_`-]*" if bold else r"\s*"
    number = (r"\s*\d*" if spaces else r"(?: \d+)?") if numbered else ""
    gap = r"\s*" if spaces else ""
    emphasis = r"[*_]*" if bold else ""
    keyword = re.compile(
        rf"^{skip}(thought|action\s*input|action|final\s*answer|observation){number}{gap}{emphasis}{gap}:"
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
    order = list(range(len(segments)))
    if not action_first:
        order = sorted(order, key=lambda i: segments[i][0] != "final answer")
    if not first_action:  # the last Action line wins
        actions = [i for i in order if segments[i][0] == "action"]
        order = [i for i in order if i not in actions[:-1]]
    switches = {"balanced": balanced, "guard": guard, "input_line_only": input_line_only,
                "paragraphs": paragraphs, "finish_any_case": finish_any_case, "paper_form": paper_form,
                "two_lines": two_lines, "finish_two_lines": finish_two_lines}
    for at in order:
        kind, body = segments[at][0], segments[at][1].strip()
        if kind == "observation" and observation_is_error:
            return rc.ParseError("You wrote an Observation; only the program does. " + message)
        if kind == "final answer" and final_line:  # the first answer line decides, even empty
            return rc.FinalAnswer(body) if body else rc.ParseError("Your Final Answer is empty. " + message)
        if kind == "action":
            return _read_action(body, segments[at + 1:], message, **switches)
        if kind == "action input" and body and not lone_input_is_error:
            return rc.FinalAnswer(body)
        if kind == "action input" and not stray_input_skipped:
            return rc.ParseError("An Action Input with no Action. " + message)
    if text.strip() and not chatter_is_error:
        return rc.FinalAnswer(text.strip())
    return rc.ParseError("No Action or Final Answer line. " + message)


def _read_action(body, rest, message, balanced, guard, input_line_only=True, paragraphs=True,
                 finish_any_case=True, paper_form=True, two_lines=True, finish_two_lines=True):
    name = re.match(r"(\w+)\s*", body)
    if name is None:
        if not guard:
            raise ValueError("no tool name")
        return rc.ParseError("The Action line names no tool. " + message)
    tool, after = name[1], body[name.end():]
    if after.startswith("[") and not paper_form:
        return rc.ParseError("The Action line holds only the tool name. " + message)
    if not after.startswith("[") and not two_lines:
        return rc.ParseError("Write Action: tool[input]. " + message)
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
    finish = tool.lower() == "finish" if finish_any_case else tool == "finish"
    finish = finish and (finish_two_lines or after.startswith("["))
    return rc.FinalAnswer(tool_input) if finish else rc.Action(tool, tool_input)


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


def input_anywhere(text):
    """Like the reference, but an Action Input line anywhere in the reply is the input."""
    step = tolerant(text)
    found = re.search(r"^action\s*input\s*:\s*(.*)$", text, re.I | re.M)
    action = re.search(r"^action\s*:\s*(\w+)\s*$", text, re.I | re.M)
    if isinstance(step, rc.ParseError) and found and action:
        return rc.Action(action[1], found[1].strip())
    return step


def unanchored(text):
    """Keywords searched anywhere in a line, not at its start."""
    if found := re.search(r"action\s*\d*\s*:\s*(\w+)\s*\[([^\]]*)\]", text, re.I):
        tool = found[1]
        return rc.FinalAnswer(found[2]) if tool.lower() == "finish" else rc.Action(tool, found[2].strip())
    return tolerant(text)


def final_case_sensitive(text):
    """Case-insensitive keywords, except Final Answer, which must be written so."""
    def unless_title_case(found):
        return found[0] if found[2] == "Final Answer" else found[1] + "said"

    return tolerant(re.sub(r"(?im)^(\W*)(final\s*answer)", unless_title_case, text))


def observation_lines_dropped(text):
    """An Observation line is deleted when an Action line exists, instead of being an error."""
    if re.search(r"(?im)^\W*action", text):
        text = re.sub(r"(?im)^\W*observation.*$", "", text)
    return tolerant(text)


def empty_answer_is_an_answer(text):
    step = tolerant(text)
    if isinstance(step, rc.ParseError) and re.search(r"(?im)^\W*final\s*answer\s*:\W*$", text):
        return rc.FinalAnswer("")
    return step


def next_input_anywhere_below(text):
    """The first Action Input below the Action is its input, whatever lies between."""
    step = tolerant(text)
    found = re.search(r"(?ims)^\W*action\s*:\s*(\w+)\s*$.*?^\W*action\s*input\s*:\s*(.*?)$", text)
    if isinstance(step, rc.ParseError) and found:
        return rc.Action(found[1], found[2].strip())
    return step

PARSE_MUTANTS = {
    "returns tuples, not rc.Action": ("It returns one of the library's three classes", returns_tuples),
    "only the paper's tool[input] format": ("`Action: search` + `Action Input: Eiffel Tower` on two lines",
                                            partial(tolerant, two_lines=False)),
    "only the two-line format": ("the paper's `Action: search[Eiffel Tower]`",
                                 partial(tolerant, paper_form=False)),
    "Final Answer lines ignored (only finish[...])": ("gives the answer (`Final Answer: ...`",
                                                      partial(tolerant, final_line=False)),
    "finish only in lower case (Finish[...] read as a tool)": (
        FINISH, partial(tolerant, finish_any_case=False)),
    "finish only in the bracket form": ("`Action: finish` with an `Action Input` line",
                                        partial(tolerant, finish_two_lines=False)),
    "no numbered form": ("numbered keywords", partial(tolerant, numbered=False)),
    "case-sensitive keywords": ("any case (`action input:`)", partial(tolerant, ignore_case=False)),
    "Final Answer only in title case": ("any case (`action input:`)", final_case_sensitive),
    "no spaces allowed before the colon": ("extra spaces", partial(tolerant, spaces=False)),
    "no markdown bold": ("markdown bold", partial(tolerant, bold=False)),
    "no multi-line input": ("the input on the next line", partial(tolerant, multiline=False)),
    "Action Input runs to the end of the reply": ("or over several lines", input_to_the_end),
    "a blank line ends the input": ("newlines and blank lines kept", partial(tolerant, paragraphs=False)),
    "lazy regex: input ends at the first ]": ("brackets inside the input", lazy_brackets),
    "greedy regex with DOTALL": ("text after the closing bracket", greedy_dotall),
    "input runs to the last ]": ("the input ends at the `]` that matches the first `[`",
                                 partial(tolerant, balanced=False)),
    "final answer preferred over an earlier action": (FIRST, partial(tolerant, action_first=False)),
    "the last Action line wins": (FIRST, partial(tolerant, first_action=False)),
    "an invented observation is ignored": ("An `Observation` line *before* any action",
                                           partial(tolerant, observation_is_error=False)),
    "Observation lines dropped when an action follows": ("An `Observation` line *before* any action",
                                                         observation_lines_dropped),
    "answers after an action read as the answer": (
        "Anything after an action was written before its observation existed", greedy_dotall),
    "an empty Final Answer is an answer": ("a `Final Answer:` with nothing after it",
        empty_answer_is_an_answer),
    "an empty reply is an empty answer": ("an empty reply", empty_is_final),
    "a lone Action Input is the answer": ("an `Action Input` with no `Action`",
                                          partial(tolerant, lone_input_is_error=False)),
    "a stray Action Input before the answer is an error": ("skipped, like a thought",
                                                           partial(tolerant, stray_input_skipped=False)),
    "the segment after Action: tool is the input, whatever its keyword": (
        "neither `[input]` nor an `Action Input` line right after it",
        partial(tolerant, input_line_only=False)),
    "an Action Input anywhere is the input": ("neither `[input]` nor an `Action Input` line right after it",
                                              input_anywhere),
    "the first Action Input anywhere below the Action": (
        "neither `[input]` nor an `Action Input` line right after it", next_input_anywhere_below),
    "keywords searched anywhere in a line": ("a line that starts with a keyword", unanchored),
    "a reply without keywords is the answer": ("a reply with neither keyword",
                                               partial(tolerant, chatter_is_error=False)),
    "error message without the format": ("whose message shows the format",
                                         partial(tolerant, show_format=False)),
    "tool name lowercased": ("Keep the tool name as written", lowercased_tool),
    "raises on an odd reply": ("Never raise.", partial(tolerant, guard=False)),
    "the lesson's strict regex": ("Never raise.", naive_strict),
}


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


def call_sends_empty_list(model, prompt, stops):
    """The issue's example: [] sent when there are no stops."""
    return rc.cut_at_stop(model(prompt, stop=list(stops)[:4]), stops)


def call_primes_the_prompt(model, prompt, stops):
    return rc.cut_at_stop(model(prompt + "\nThought:", stop=list(stops)[:4] or None), stops)


def call_strips_the_reply(model, prompt, stops):
    return call_reference(model, prompt, stops).strip()

FOUR = "sends the first four stops"
CUT = "cuts the reply on the client side with all the stops"
CALL_MUTANTS = {
    "calls the model twice": ("calls the model once", call_twice),
    "primes the prompt with 'Thought:'": ("with the prompt unchanged", call_primes_the_prompt),
    "sends more than four": (FOUR, call_sends_everything),
    "sends the last four": (FOUR, call_sends_last_four),
    "sends no stops": (FOUR, call_sends_nothing),
    "sends [] when there are no stops": ("when there are no stops it sends `None`", call_sends_empty_list),
    "no client-side cut": (CUT, call_no_client_cut),
    "cuts only with the stops it sent": (CUT, call_cuts_with_sent_stops),
    "cuts only with the first stop": (CUT, call_cuts_with_first_stop),
    "strips the reply": ("returns the cut reply, exactly as it is", call_strips_the_reply),
}


def positional(model, prompt, stops):
    return rc.cut_at_stop(model(prompt, tuple(stops)[:4] or None), stops)


def with_api_stops(model, prompt, stops):
    return rc.cut_at_stop(model(prompt, stop=rc.stops.api_stops(stops)), stops)


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
    "no stop cut before parsing": ("`rc.parse_step` of the reply after the client-side cut",
                                   read_without_stop_cut),
    "parses the raw reply and records twice": ("`rc.parse_step` of the reply after the client-side cut",
                                               read_parses_raw_and_adds_both),
    "ignores what the parser discarded": ("its `.discarded`", read_only_stop_cut),
    "strips the parts": ("strip nothing", read_strips_the_parts),
    "returns the whole reply as the cut": ("the text after the stop, `raw[len(kept):]`, exactly as it is",
                                           read_raw_as_cut),
    "cuts with the first stop only": ("`rc.parse_step` of the reply after the client-side cut",
                                      read_first_stop_only),
    "the text after the stop first": ("in the order the library's loop records it", read_stop_text_first),
    "joined without a newline": ("Join the non-empty parts with", read_concatenated),
    "records only one of the two cuts": ("Join the non-empty parts with", read_either_cut),
    "None instead of '' when nothing was cut": ("the cut is `''` when nothing was thrown away",
                                                read_returns_none_for_no_cut),
}


EXERCISES = {
    "03.cut_at_stop": ((cut_reference, rc.cut_at_stop), CUT_MUTANTS),
    "03.parse_step": ((tolerant, rc.parse_step), PARSE_MUTANTS),
    "03.call_with_stops": ((call_reference, positional, with_api_stops), CALL_MUTANTS),
    "03.read_reply": ((read_reference,), READ_MUTANTS),
}
(test_right_solutions_pass, test_stub_is_not_attempted, test_wrong_solution_fails_under_its_rule,
 test_every_rule_has_a_mutant, test_each_rules_cases_exist) = exercise_tests(EXERCISES, stub)


# ---------------------------------------------------------------- feedback: the fault found, its hint


@pytest.mark.parametrize(("exercise", "wrong", "says"), [
    ("03.cut_at_stop", cut_keeps_stop, "The stop sequence itself was kept"),
    ("03.cut_at_stop", cut_min_with_minus_one, "text[:-1] is not 'no cut'"),
    ("03.cut_at_stop", cut_strips, "no strip() of the result"),
    ("03.cut_at_stop", cut_strips_stops, "Do not strip() the stops"),
    ("03.cut_at_stop", cut_by_regex, "used as a regular expression"),
    ("03.parse_step", partial(tolerant, first_action=False), "That is the LAST Action line"),
    ("03.parse_step", partial(tolerant, finish_any_case=False), "Finish[...] was read as a tool"),
    ("03.parse_step", partial(tolerant, chatter_is_error=False), "A reply without a Final Answer line"),
    ("03.call_with_stops", call_sends_everything, "Send at most four"),
    ("03.call_with_stops", call_no_client_cut, "cut the reply yourself"),
    ("03.call_with_stops", call_sends_empty_list, "send stop=None (not [])"),
    ("03.read_reply", read_stop_text_first, "The order is reversed"),
    ("03.read_reply", read_strips_the_parts, "no strip()"),
])
def test_the_hint_names_the_fault_found(exercise, wrong, says) -> None:
    assert says in str(check(exercise, wrong))


def test_a_regex_stop_that_raises_is_shown_as_raised() -> None:
    # re.error is called PatternError from Python 3.13 on: name it as this Python does
    assert f"raised {re.error.__name__}" in str(check("03.cut_at_stop", cut_by_regex))


@pytest.mark.parametrize("example", read_reply.EXAMPLES, ids=[e.name for e in read_reply.EXAMPLES])
def test_read_reply_expects_the_loops_own_cut(example) -> None:
    """Each example's expected cut (the key's) is what rc.run_react records in step.cut."""
    reply, stops = example.args
    model = rc.ScriptedModel([reply, "Final Answer: done", "Final Answer: done"], ignore_stops=True)
    result = rc.run_react("How tall is the Eiffel Tower?", model, rc.default_tools(), stops=stops)
    assert result.steps[0].cut == read_reply.key(reply, stops)[1]


def test_library_functions_that_share_an_exercise_name_pass_it() -> None:
    shared = [e for e in exercises("03") if callable(getattr(rc, e.split(".", 1)[1], None))]
    assert shared == ["03.cut_at_stop", "03.parse_step"]
