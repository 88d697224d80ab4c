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
from react_course.checks import _lookup, check, exercises
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


CUT_MUTANTS = {
    "stops matched in any case": cut_ignoring_case,
    "re.split on the joined stops, as written in the issue": cut_by_regex_literally,
    "stops joined into one regular expression": cut_by_regex,
    "stops stripped before the search": cut_strips_stops,
    "strips trailing newlines": cut_rstrips,
    "a tuple of stops is ignored": cut_lists_only,
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
    assert "with no strip() of the result" in str(check("03.cut_at_stop", cut_strips))
    assert "earliest place" in str(check("03.cut_at_stop", cut_first_listed))
    stripped_stops = str(check("03.cut_at_stop", cut_strips_stops))
    assert "it cut at 'Observation', the stop '\\nObservation' without its whitespace" in stripped_stops
    assert "Do not strip() the stops" in stripped_stops
    regex = str(check("03.cut_at_stop", cut_by_regex))
    # re.error is called PatternError from Python 3.13 on: name it as this Python does
    assert "used as a regular expression" in regex and f"raised {re.error.__name__}" in regex


CUT_RULE_MUTANTS = {
    "before the earliest place where any of the stops occurs": ["first stop in the list, not the earliest"],
    "the stop itself is not kept": ["keeps the stop text"],
    "Keep the text exactly as it is (no stripping)": ["strips whitespace", "strips trailing newlines"],
    "Earliest means earliest in the text, not first in the list": [
        "first stop in the list, not the earliest", "cuts at the last occurrence"],
    "the whole text when none occurs": ["min() picks -1 for an absent stop"],
    "matched exactly as given, newlines and case included": ["stops stripped before the search",
                                                              "stops matched in any case"],
    "plain text, not a regular expression": ["stops joined into one regular expression",
                                             "re.split on the joined stops, as written in the issue"],
    "may be empty or `None`": ["crashes on None"],
    "`stops` is a list or tuple of strings": ["a tuple of stops is ignored"],
    "Skip empty strings": ["empty stop matches everywhere"],
}


# ---------------------------------------------------------------- 03.parse_step

FORMAT = ("Reply in one of these forms:\nThought: <your reasoning>\nAction: <tool name>\n"
          "Action Input: <the input>\nor\nThought: <your reasoning>\nFinal Answer: <the answer>")


def tolerant(text, *, ignore_case=True, numbered=True, bold=True, multiline=True, balanced=True,
             action_first=True, observation_is_error=True, show_format=True, guard=True,
             input_line_only=True, paragraphs=True, first_action=True, finish_any_case=True,
             spaces=True, paper_form=True, two_lines=True, final_line=True, lone_input_is_error=True,
             chatter_is_error=True):
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
                "two_lines": two_lines}
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
    if text.strip() and not chatter_is_error:
        return rc.FinalAnswer(text.strip())
    return rc.ParseError("No Action or Final Answer line. " + message)


def _read_action(body, rest, message, balanced, guard, input_line_only=True, paragraphs=True,
                 finish_any_case=True, paper_form=True, two_lines=True):
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
    "the first Action Input anywhere below the Action": next_input_anywhere_below,
    "Observation lines dropped when an action follows": observation_lines_dropped,
    "an empty Final Answer is an answer": empty_answer_is_an_answer,
    "Final Answer only in title case": final_case_sensitive,
    "an Action Input anywhere is the input": input_anywhere,
    "keywords searched anywhere in a line": unanchored,
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
    "the last Action line wins": partial(tolerant, first_action=False),
    "finish only in lower case (Finish[...] read as a tool)": partial(tolerant, finish_any_case=False),
    "no spaces allowed before the colon": partial(tolerant, spaces=False),
    "only the two-line format": partial(tolerant, paper_form=False),
    "only the paper's tool[input] format": partial(tolerant, two_lines=False),
    "Final Answer lines ignored (only finish[...])": partial(tolerant, final_line=False),
    "a lone Action Input is the answer": partial(tolerant, lone_input_is_error=False),
    "a reply without keywords is the answer": partial(tolerant, chatter_is_error=False),
}

PARSE_RULE_MUTANTS = {
    "It returns one of the library's three classes": ["returns tuples, not rc.Action"],
    "`Action: search` + `Action Input: Eiffel Tower` on two lines": ["only the paper's tool[input] format"],
    "the paper's `Action: search[Eiffel Tower]`": ["only the two-line format"],
    "gives the answer (`Final Answer: ...`": ["Final Answer lines ignored (only finish[...])"],
    "the paper's `finish[...]` in any case": ["finish only in lower case (Finish[...] read as a tool)"],
    "numbered keywords": ["no numbered form"],
    "any case (`action input:`)": ["case-sensitive keywords", "Final Answer only in title case"],
    "extra spaces": ["no spaces allowed before the colon"],
    "markdown bold": ["no markdown bold"],
    "the input on the next line": ["no multi-line input"],
    "or over several lines": ["no multi-line input"],
    "newlines and blank lines kept": ["a blank line ends the input"],
    "brackets inside the input": ["lazy regex: input ends at the first ]"],
    "text after the closing bracket": ["greedy regex with DOTALL", "input runs to the last ]"],
    "the input ends at the `]` that matches the first `[`": ["input runs to the last ]",
                                                            "lazy regex: input ends at the first ]"],
    "The first `Action` or `Final Answer` line decides": ["final answer preferred over an earlier action",
                                                          "the last Action line wins"],
    "Anything after an action was written before its observation existed": [
        "Action Input runs to the end of the reply", "final answer preferred over an earlier action"],
    "An `Observation` line *before* any action": ["an invented observation is ignored",
                                                  "Observation lines dropped when an action follows"],
    "a `Final Answer:` with nothing after it": ["an empty Final Answer is an answer"],
    "an empty reply": ["an empty reply is an empty answer"],
    "an `Action Input` with no `Action`": ["a lone Action Input is the answer"],
    "neither `[input]` nor an `Action Input` line right after it": [
        "the segment after Action: tool is the input, whatever its keyword",
        "an Action Input anywhere is the input", "the first Action Input anywhere below the Action"],
    "a line that starts with a keyword": ["keywords searched anywhere in a line", "no markdown bold"],
    "a reply with neither keyword": ["a reply without keywords is the answer"],
    "whose message shows the format": ["error message without the format"],
    "Keep the tool name as written": ["tool name lowercased"],
    "Never raise.": ["raises on an odd reply", "the lesson's strict regex"],
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
    last = str(check("03.parse_step", PARSE_MUTANTS["the last Action line wins"]))
    assert "that is the LAST Action line: the first one decides" in last
    finish = str(check("03.parse_step",
                       PARSE_MUTANTS["finish only in lower case (Finish[...] read as a tool)"]))
    assert "Finish[...] was read as a tool" in finish
    chatter = str(check("03.parse_step", PARSE_MUTANTS["a reply without keywords is the answer"]))
    assert "a reply without a Final Answer line is not an answer" in chatter


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


CALL_MUTANTS = {
    "sends [] when there are no stops": call_sends_empty_list,
    "primes the prompt with 'Thought:'": call_primes_the_prompt,
    "strips the reply": call_strips_the_reply,
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


def test_call_with_stops_accepts_a_positional_stop_and_a_tuple() -> None:
    def positional(model, prompt, stops):
        return rc.cut_at_stop(model(prompt, tuple(stops)[:4] or None), stops)

    assert check("03.call_with_stops", positional).status == "passed"
    assert check("03.call_with_stops", lambda m, p, s: rc.cut_at_stop(m(p, stop=rc.stops.api_stops(s)), s)
                 ).status == "passed"


def test_call_with_stops_feedback_on_an_empty_list() -> None:
    text = str(check("03.call_with_stops", call_sends_empty_list))
    assert "FAIL  no stops: None sent, nothing cut" in text and "send None" in text
    assert "(or an empty list)" not in text


@pytest.mark.parametrize("name", CALL_MUTANTS)
def test_call_with_stops_rejects_wrong_solutions(name: str) -> None:
    assert check("03.call_with_stops", CALL_MUTANTS[name]).status == "failed"


def test_call_with_stops_feedback_says_what_to_send() -> None:
    assert "at most 4" in str(check("03.call_with_stops", call_sends_everything))
    assert "cut the reply yourself" in str(check("03.call_with_stops", call_no_client_cut))
    assert "no stop sequences reached the model" in str(check("03.call_with_stops", call_sends_nothing))


CALL_RULE_MUTANTS = {
    "calls the model once": ["calls the model twice"],
    "with the prompt unchanged": ["primes the prompt with 'Thought:'"],
    "sends the first four stops": ["sends more than four", "sends the last four", "sends no stops"],
    "when there are no stops it sends `None`": ["sends [] when there are no stops"],
    "cuts the reply on the client side with all the stops": [
        "no client-side cut", "cuts only with the stops it sent", "cuts only with the first stop"],
    "returns the cut reply, exactly as it is": ["strips the reply"],
}


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


READ_RULE_MUTANTS = {
    "`rc.parse_step` of the reply after the client-side cut": ["no stop cut before parsing"],
    "its `.discarded`": ["ignores what the parser discarded"],
    "the text after the stop, `raw[len(kept):]`, exactly as it is": ["strips the parts"],
    "in the order the library's loop records it": ["the text after the stop first"],
    "Join the non-empty parts with": ["joined without a newline", "records only one of the two cuts"],
    "strip nothing": ["strips the parts"],
    "the cut is `''` when nothing was thrown away": ["None instead of '' when nothing was cut"],
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


# ---------------------------------------------------------------- rules: a mutant for each
# (tests/test_rule_tables.py checks that each rule is quoted from the statement and names cases)

RULE_MUTANTS = {
    "03.cut_at_stop": (CUT_RULE_MUTANTS, CUT_MUTANTS, cut_reference),
    "03.parse_step": (PARSE_RULE_MUTANTS, PARSE_MUTANTS, tolerant),
    "03.call_with_stops": (CALL_RULE_MUTANTS, CALL_MUTANTS, call_reference),
    "03.read_reply": (READ_RULE_MUTANTS, READ_MUTANTS, read_reference),
}


@pytest.mark.parametrize("exercise", list(RULE_MUTANTS))
def test_every_rule_has_a_mutant_that_fails_its_cases(exercise: str) -> None:
    """A solution that ignores a rule fails, and a failed case is one the rule names."""
    table, catalogue, _ = RULE_MUTANTS[exercise]
    rules = dict(_lookup(exercise).rules)
    assert set(table) == set(rules)
    for rule, mutants in table.items():
        for name in mutants:
            failed = {c.name for c in check(exercise, catalogue[name]).cases if c.status == "failed"}
            assert failed & set(rules[rule]), f"{name!r} breaks {rule!r} but fails none of its cases"


def test_library_functions_that_share_an_exercise_name_pass_it() -> None:
    shared = [e for e in exercises("03") if callable(getattr(rc, e.split(".", 1)[1], None))]
    assert shared == ["03.cut_at_stop", "03.parse_step"]
    for exercise in shared:
        result = check(exercise, getattr(rc, exercise.split(".", 1)[1]))
        assert result.status == "passed", str(result)
