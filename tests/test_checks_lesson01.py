"""Lesson 01's checkers: the reference passes, stubs are "not attempted", every mutant fails.

The two function exercises go through the one helper (``mutation_suite.exercise_tests``):
each wrong solution runs once and fails under the rule it breaks; the tests that read its
feedback get the same result (``result_of``). The quizzes keep their own tests.
"""

from __future__ import annotations

import re

import pytest
from mutation_suite import exercise_tests, from_rule_table, result_of

import react_course as rc
from react_course.checks import check
from react_course.checks.lesson01 import QUESTION, _library_run, who_wrote_key
from react_course.checks.spec import GENERATED, SPECS


def by_rule(table: dict[str, list[str]]) -> list[tuple[str, str]]:
    return [(rule, name) for rule, names in table.items() for name in names]


# ---------------------------------------------------------------- 01.who_wrote

KEYWORD = re.compile(r"\s*(question|observation|thought|action\s+input|action|final\s+answer)\s*\d*\s*:",
                     re.IGNORECASE)


def who_wrote(transcript: str, *, keyword=KEYWORD, program=("question", "observation"),
              brackets=True, carry_on=True, unknown="program", anywhere=False,
              split=str.splitlines) -> list[str]:
    """The reference; the keyword arguments let each mutant change one thing."""
    labels, author = [], unknown
    for line in split(transcript):
        find = keyword.search if anywhere else keyword.match
        found = keyword(line) if callable(keyword) else find(line)
        if found:
            author = "program" if found[1].lower() in program else "model"
        elif brackets and line.lstrip().startswith("["):
            author = "program"
        elif not carry_on:
            author = unknown
        labels.append(author)
    return labels


def _prefix(line: str):
    """Matches the keyword by its first letters only, with no colon needed."""
    text = line.lstrip().lower()
    for word in ("question", "observation", "thought", "action input", "action", "final answer"):
        if text.startswith(word):
            return [line, word]
    return None


WHO_WROTE_MUTANTS = {
    "question_is_the_models": lambda t: who_wrote(t, program=("observation",)),
    "action_input_is_the_programs": lambda t: who_wrote(t, program=("question", "observation",
                                                                     "action input")),
    "first_word_only_other_lines_model": lambda t: who_wrote(t, carry_on=False, unknown="model"),
    "other_lines_always_program": lambda t: who_wrote(t, carry_on=False, unknown="program"),
    "case_sensitive_keywords": lambda t: who_wrote(t, keyword=re.compile(
        r"\s*(Question|Observation|Thought|Action Input|Action|Final Answer)\s*\d*\s*:")),
    "no_numbered_keywords": lambda t: who_wrote(t, keyword=re.compile(
        r"\s*(question|observation|thought|action\s+input|action|final\s+answer)\s*:", re.IGNORECASE)),
    "prefix_without_colon": lambda t: who_wrote(t, keyword=_prefix),
    "ignores_bracketed_notes": lambda t: who_wrote(t, brackets=False),
    "capitalised_labels": lambda t: [label.title() for label in who_wrote(t)],
    "one_label_per_step": lambda t: who_wrote(t)[::2],
    "no_spaces_before_keywords": lambda t: who_wrote(t, keyword=re.compile(
        r"(question|observation|thought|action\s+input|action|final\s+answer)\s*\d*\s*:",
        re.IGNORECASE)),
    "lines_before_first_keyword_are_the_models": lambda t: who_wrote(t, unknown="model"),
    "keyword_searched_anywhere": lambda t: who_wrote(t, anywhere=True),
    "blank_lines_are_the_programs": lambda t: [
        "program" if not line.strip() else label
        for label, line in zip(who_wrote(t), t.splitlines(), strict=True)],
    "split_on_newline": lambda t: who_wrote(t, split=lambda text: text.split("\n")),
    "blank_lines_skipped": lambda t: [label for label, line in zip(who_wrote(t), t.splitlines(),
                                                                    strict=True) if line.strip()],
}

WHO_WROTE_RULE_MUTANTS = {
    "one label per line": ["one_label_per_step", "blank_lines_skipped"],
    "Split the transcript with transcript.splitlines()": ["split_on_newline"],
    "A line that starts with a keyword": ["keyword_searched_anywhere"],
    "Question and Observation lines are the program's": ["question_is_the_models"],
    "Thought, Action, Action Input and Final Answer lines are the model's": [
        "action_input_is_the_programs"],
    "then an optional step number": ["no_numbered_keywords"],
    "spaces before the keyword are allowed": ["no_spaces_before_keywords"],
    "Keywords may be in any case": ["case_sensitive_keywords"],
    "count only as whole words": ["prefix_without_colon"],
    'A line that starts with "[" is a note by the program': ["ignores_bracketed_notes"],
    "continues the line before it and has the same author": [
        "first_word_only_other_lines_model", "other_lines_always_program",
        "blank_lines_are_the_programs"],
    "Lines before the first keyword are the program's": ["lines_before_first_keyword_are_the_models"],
}


# Each wrong solution that no rule above lists, with the rule it breaks.
WHO_WROTE_OTHER_RULES = {"capitalised_labels": "one label per line"}


@pytest.mark.parametrize("kind", ["react", "act_only"])
def test_the_checkers_labels_agree_with_the_library(kind: str) -> None:
    result = _library_run(kind)
    authors = [line.split(" | ", 1)[0].strip() for line in result.render(authors=True).splitlines()]
    assert authors == who_wrote_key(result.transcript)
    assert authors == who_wrote(result.transcript)


def test_who_wrote_feedback_names_the_line() -> None:
    text = str(result_of("01.who_wrote", WHO_WROTE_MUTANTS["question_is_the_models"]))
    assert "line 1 ('Question: How tall" in text and "was written by the program" in text


# ------------------------------------------------------------ 01.render_trace

def render_trace(question, steps, answer, final_thought="I now know the answer", *,
                 order=("thought", "action", "observation"), obs_prefix="Observation: ",
                 final=True, keep=slice(None), gap="", end="", empty_thought=False,
                 none_answer=False, paper=False, fixed_thought=False, empty_final=False,
                 observe=lambda text: text, truthy_answer=False, head="Question: ") -> str:
    """The reference; the keyword arguments let each mutant change one thing."""
    blocks = [f"{head}{question}"]
    if truthy_answer and not answer:
        answer = None
    for step in steps[keep]:
        parts = {
            "thought": [f"Thought: {step.get('thought', '')}"]
            if step.get("thought") or empty_thought else [],
            "action": ([f"Action: {step['tool']}[{step['input']}]"] if paper
                       else [f"Action: {step['tool']}", f"Action Input: {step['input']}"]),
            "observation": [f"{obs_prefix}{observe(step['observation'])}"],
        }
        blocks.append("\n".join(line for part in order for line in parts[part]) + gap)
    if final and (answer is not None or none_answer):
        thought = "I now know the answer" if fixed_thought else final_thought
        blocks.append("\n".join(([f"Thought: {thought}"] if thought or empty_final else [])
                                 + [f"Final Answer: {answer}"]))
    return "\n".join(blocks) + end


RENDER_MUTANTS = {
    "observation_before_action": lambda *a: render_trace(*a, order=("thought", "observation", "action")),
    "thought_after_action": lambda *a: render_trace(*a, order=("action", "thought", "observation")),
    "no_observation_prefix": lambda *a: render_trace(*a, obs_prefix=""),
    "obs_prefix_without_space": lambda *a: render_trace(*a, obs_prefix="Observation:"),
    "no_final_answer_line": lambda *a: render_trace(*a, final=False),
    "last_step_dropped": lambda *a: render_trace(*a, keep=slice(0, -1)),
    "first_step_dropped": lambda *a: render_trace(*a, keep=slice(1, None)),
    "blank_line_after_each_step": lambda *a: render_trace(*a, gap="\n"),
    "trailing_newline": lambda *a: render_trace(*a, end="\n"),
    "empty_thought_line": lambda *a: render_trace(*a, empty_thought=True),
    "final_answer_none": lambda *a: render_trace(*a, none_answer=True),
    "paper_bracket_format": lambda *a: render_trace(*a, paper=True),
    "ignores_final_thought": lambda *a: render_trace(*a, fixed_thought=True),
    "calls_step_thought_key": lambda q, steps, answer, *rest: render_trace(
        q, [{**s, "thought": s["thought"]} for s in steps], answer, *rest),
    "empty_final_thought_line": lambda *a: render_trace(*a, empty_final=True),
    "observation_first_line_only": lambda *a: render_trace(*a, observe=lambda t: t.splitlines()[0]),
    "observation_lines_joined": lambda *a: render_trace(*a, observe=lambda t: t.replace("\n", " ")),
    "observation_lines_indented": lambda *a: render_trace(*a, observe=lambda t: t.replace("\n", "\n  ")),
    "observation_stripped": lambda *a: render_trace(*a, observe=str.strip),
    "if_answer_drops_an_empty_answer": lambda *a: render_trace(*a, truthy_answer=True),
    "question_without_its_keyword": lambda *a: render_trace(*a, head=""),
}

RENDER_RULE_MUTANTS = {
    "Question: <question>": ["question_without_its_keyword"],
    "then for each step": ["last_step_dropped", "first_step_dropped"],
    "(left out when the thought is empty or missing)": ["empty_thought_line",
                                                        "calls_step_thought_key"],
    'Action Input: <step["input"]>': ["paper_bracket_format"],
    "exactly as given, even over several lines": [
        "observation_first_line_only", "observation_lines_joined", "observation_lines_indented",
        "observation_stripped"],
    "unless answer is None": ["final_answer_none", "if_answer_drops_an_empty_answer"],
    "Thought: <final_thought>": ["ignores_final_thought"],
    "(left out when final_thought is empty)": ["empty_final_thought_line"],
    "No blank lines, and no newline after the last line": ["blank_line_after_each_step",
                                                           "trailing_newline"],
}


# Mutants that make exactly one mistake fail exactly the case that checks it, so its hint fits.
ONLY_CASE = {
    "final_answer_none": ("no answer: the run ended without one", "Final Answer: None"),
    "empty_final_thought_line": ("an empty final thought: no final Thought line", "final_thought"),
    "observation_first_line_only": ("a multi-line observation, kept as it is", "newlines included"),
    "observation_lines_joined": ("a multi-line observation, kept as it is", "newlines included"),
    "observation_lines_indented": ("a multi-line observation, kept as it is", "newlines included"),
}


@pytest.mark.parametrize("name", ONLY_CASE)
def test_render_trace_mutant_fails_only_its_case_with_a_fitting_hint(name: str) -> None:
    case, said = ONLY_CASE[name]
    failed = [c for c in result_of("01.render_trace", RENDER_MUTANTS[name]).cases if c.status != "passed"]
    generated = [c for c in failed if c.name == GENERATED]  # it finds the mistake too, on its inputs
    failed = [c for c in failed if c.name != GENERATED]
    assert [c.name for c in failed] == [case]
    assert said in failed[0].hint
    assert generated


def test_render_trace_cases_answer_their_questions() -> None:
    """Every case's answer fits its question (the data is a coherent run, not filler)."""
    from react_course.checks.lesson01 import render_trace as module

    rows = [*module._shop_rows(), *module._edge_rows()]
    for name, (question, _steps, answer, *_), *_ in rows:
        if answer is not None:
            assert answer != "A notebook costs 4.", name
            assert ("cost" in question) == answer.isdigit(), name


RENDER_OTHER_RULES = {
    "observation_before_action": "then for each step", "thought_after_action": "then for each step",
    "no_observation_prefix": "exactly as given, even over several lines",
    "obs_prefix_without_space": "exactly as given, even over several lines",
    "no_final_answer_line": "unless answer is None",
}


def test_render_trace_matches_the_library_format() -> None:
    step = {"thought": "I need the height.", "tool": "search", "input": "Eiffel Tower",
            "observation": "330 m"}
    expected = "\n".join(["Question: q",
                          rc.prompts.render_action("I need the height.", "search", "Eiffel Tower"),
                          "Observation: 330 m",
                          rc.prompts.render_final("I now know the answer", "330 m")])
    assert render_trace("q", [step], "330 m") == expected


def test_render_trace_feedback_points_at_the_first_wrong_line() -> None:
    text = str(result_of("01.render_trace", RENDER_MUTANTS["observation_before_action"]))
    assert "line 3 should be 'Action: price' but is 'Observation: A notebook costs 4.'" in text
    text = str(result_of("01.render_trace", RENDER_MUTANTS["trailing_newline"]))
    assert "ends with a newline" in text


# ------------------------------------------------------------- 01.paper_facts

ANSWERS = {
    "hotpotqa_react": 27.4,
    "best_hotpotqa": "D",
    "react_beats_cot_hotpotqa": False,
    "react_beats_cot_fever": True,
    "reasoning_error_share": 47,
    "switch_trigger": "B",
    "alfworld_react": 71,
}

WRONG_ANSWERS = {
    "gpt3_rerun_number": ("hotpotqa_react", 30.4, "GPT-3"),
    "appendix_or_cot_number": ("hotpotqa_react", 29.4, "CoT's score"),
    "combination_number": ("hotpotqa_react", 35.1, "ReAct→CoT-SC"),
    "number_as_text": ("hotpotqa_react", "27.4", "write a number"),
    "best_is_the_other_switch": ("best_hotpotqa", "C", "other direction"),
    "best_is_react_alone": ("best_hotpotqa", "b", "below CoT"),
    "react_beats_cot_on_hotpotqa": ("react_beats_cot_hotpotqa", True, "ReAct alone loses"),
    "yes_as_text": ("react_beats_cot_hotpotqa", "no", "True or False"),
    "react_loses_on_fever": ("react_beats_cot_fever", False, "other way round"),
    "search_share_instead": ("reasoning_error_share", 23, "nothing useful"),
    "label_ambiguity_share": ("reasoning_error_share", 29, "label ambiguity"),
    "cot_hallucination_share": ("reasoning_error_share", 56, "chain of thought"),
    "react_hallucination_share": ("reasoning_error_share", 0, "hallucination"),
    "share_as_fraction": ("reasoning_error_share", 0.47, "in percent"),
    "hotpotqa_as_fraction": ("hotpotqa_react", 0.274, "in percent"),
    "hotpotqa_rounded_up": ("hotpotqa_react", 28, "not ReAct's"),
    "alfworld_as_fraction": ("alfworld_react", 0.71, "in percent"),
    "alfworld_one_off": ("alfworld_react", 72, "not ReAct's headline"),
    "alfworld_webshop": ("alfworld_react", 40, "not ReAct's headline"),
    "switch_on_weak_majority": ("switch_trigger", "A", "other direction"),
    "switch_reads_thoughts": ("switch_trigger", "D", "never reads the thoughts"),
    "switch_on_empty_search": ("switch_trigger", "C", "not the trigger"),
    "alfworld_average": ("alfworld_react", 57, "average"),
    "alfworld_act": ("alfworld_react", 45, "Act"),
    "alfworld_gain_not_rate": ("alfworld_react", 34, "gain"),
    "two_letters": ("switch_trigger", "AB", "one letter"),
    "appendix_gpt3_number": ("hotpotqa_react", 30.8, "GPT-3"),
    "fever_as_text": ("react_beats_cot_fever", "True", "True or False"),
    "best_as_a_name": ("best_hotpotqa", "ReAct→CoT-SC", "one letter"),
    "alfworld_as_text": ("alfworld_react", "71%", "write a number"),
}

PAPER_RULE_MUTANTS = {
    "`hotpotqa_react`: ReAct's HotpotQA exact match": ["gpt3_rerun_number", "appendix_or_cot_number"],
    "`best_hotpotqa`: which method had the best HotpotQA exact match?": ["best_is_the_other_switch"],
    "does ReAct alone beat chain of thought on HotpotQA?": ["react_beats_cot_on_hotpotqa"],
    "does ReAct alone beat chain of thought on FEVER?": ["react_loses_on_fever"],
    "what percentage of ReAct's HotpotQA failures were reasoning errors": ["search_share_instead"],
    "when does ReAct→CoT-SC switch to CoT-SC?": ["switch_on_weak_majority"],
    "ReAct's ALFWorld success rate, in percent, as the abstract's +34 points counts it": [
        "alfworld_average", "alfworld_gain_not_rate"],
    "Numbers are Python numbers": ["number_as_text", "alfworld_as_text"],
    "percentages are numbers of percent": ["share_as_fraction", "alfworld_as_fraction"],
    "yes/no answers are `True` or `False`": ["yes_as_text", "fever_as_text"],
    "choices are one letter": ["two_letters", "best_as_a_name"],
}


# Added from the statement alone (issue 27): a bool as 1, a percent sign, a letter with its name, no
# answer at all, a yes as text.
WRONG_ANSWERS.update({
    "fever_as_one": ("react_beats_cot_fever", 1, "True or False"),
    "share_with_a_percent_sign": ("reasoning_error_share", "47%", "write a number"),
    "letter_with_its_name": ("best_hotpotqa", "D ReAct→CoT-SC", "one letter"),
    "hotpotqa_left_none": ("hotpotqa_react", None, "write a number"),
    "yes_in_words": ("react_beats_cot_fever", "yes", "True or False"),
    "alfworld_off_by_more_than_rounding": ("alfworld_react", 71.6, "not ReAct's headline"),
})
PAPER_RULE_MUTANTS["yes/no answers are `True` or `False`"] += ["fever_as_one", "yes_in_words"]
PAPER_RULE_MUTANTS["Numbers are Python numbers"] += ["share_with_a_percent_sign", "hotpotqa_left_none"]
PAPER_RULE_MUTANTS["choices are one letter"] += ["letter_with_its_name"]
PAPER_RULE_MUTANTS["percentages are numbers of percent"] += ["hotpotqa_as_fraction"]  # exact match is one
QUESTION_RULE = {rule.cases[0]: rule.phrase for rule in SPECS["01.paper_facts"].rules if len(rule.cases) == 1}
PAPER_WRONG = from_rule_table(PAPER_RULE_MUTANTS, {name: {**ANSWERS, key: value} for name, (key, value, _)
                                                   in WRONG_ANSWERS.items()},
                              {name: QUESTION_RULE[key] for name, (key, _, _) in WRONG_ANSWERS.items()})


def test_paper_facts_feedback_says_what_each_answer_is_about() -> None:
    text = str(check("01.paper_facts", {**ANSWERS, "alfworld_react": 5}))
    assert "answers['alfworld_react']: ReAct's ALFWorld success rate in percent" in text


@pytest.mark.parametrize("name", WRONG_ANSWERS)
def test_paper_facts_wrong_answer_fails_with_its_caveat(name: str) -> None:
    key, _, said = WRONG_ANSWERS[name]
    result = result_of("01.paper_facts", PAPER_WRONG[name][1])
    assert result.status == "failed"
    failed = [c for c in result.cases if c.status == "failed"]
    assert [c.name for c in failed] == [key]
    assert said in failed[0].message, failed[0].message
    assert repr(ANSWERS[key]) not in (failed[0].expected + failed[0].hint)  # the answer stays hidden


ROUNDED = {
    "hotpotqa_whole": ("hotpotqa_react", 27),
    "hotpotqa_float_whole": ("hotpotqa_react", 27.0),
    "alfworld_95_of_134": ("alfworld_react", 70.9),
    "alfworld_float": ("alfworld_react", 71.0),
    "alfworld_half_below": ("alfworld_react", 70.5),
    "alfworld_half_above": ("alfworld_react", 71.5),
    "reasoning_float": ("reasoning_error_share", 47.0),
}


def test_paper_facts_no_trap_is_close_enough_to_pass() -> None:
    """Accepting a rounded answer must never accept a trap (30.4, 29.4, 23, ...)."""
    from react_course.checks.lesson01.paper_facts import PAPER_QUESTIONS

    traps = {key: test.traps for key, (test, _) in PAPER_QUESTIONS.items() if hasattr(test, "traps")}
    assert {"hotpotqa_react", "reasoning_error_share", "alfworld_react"} <= traps.keys()
    for key, wrong in traps.items():
        for value, why in wrong.items():
            result = check("01.paper_facts", {**ANSWERS, key: value})
            failed = [c for c in result.cases if c.status == "failed"]
            assert [c.name for c in failed] == [key], (key, value)
            assert failed[0].message == why
            assert "next" not in why  # 23% was not second: label ambiguity (29%) was


def test_paper_facts_missing_key_and_not_a_dict_fail() -> None:
    missing = {k: v for k, v in ANSWERS.items() if k != "alfworld_react"}
    assert check("01.paper_facts", missing).status == "failed"
    assert check("01.paper_facts", [27.4]).status == "failed"


# ------------------------------------------------------------ 01.which_design

LABELS = {"A": "workflow", "B": "plan-and-execute", "C": "reason-only", "D": "react",
          "E": "act-only", "F": "react"}

WRONG_LABELS = {
    "act_only_called_react": {"E": "react"},
    "workflow_called_plan": {"A": "plan-and-execute"},
    "plan_called_react": {"B": "react"},
    "cot_called_react": {"C": "react"},
    "coding_assistant_called_act_only": {"F": "act-only"},
    "react_called_agent": {"D": "agent"},
    "everything_react": dict.fromkeys(LABELS, "react"),
    "cot_called_act_only": {"C": "act-only"},
    "not_a_design_name": {"A": "pipeline"},
    "react_called_plan": {"D": "plan-and-execute"},
}

DESIGN_RULE_MUTANTS = {
    "Label each system with one of": ["react_called_agent", "not_a_design_name"],
    "passes every message through the same three steps, in the same order": ["workflow_called_plan"],
    "a model first writes a list of five searches": ["plan_called_react"],
    "It has no tools.": ["cot_called_react", "cot_called_act_only"],
    "Before each tool call, the model writes a sentence about what it knows": ["react_called_plan"],
    "one tool call per turn and no other text": ["act_only_called_react"],
    "before each shell command it runs, what it expects the command to show": [
        "coding_assistant_called_act_only"],
}


# Added from the statement alone (issue 27): names of the designs that are not the exercise's labels,
# and a system given a neighbour's design.
WRONG_LABELS.update({
    "chain_of_thought_label": {"C": "chain-of-thought"},
    "react_hyphenated": {"D": "re-act"},
    "act_only_in_other_words": {"E": "acting only"},
    "plan_called_workflow": {"B": "workflow"},
    "coding_assistant_called_workflow": {"F": "workflow"},
})
DESIGN_RULE_MUTANTS["Label each system with one of"] += ["chain_of_thought_label", "react_hyphenated",
                                                         "act_only_in_other_words"]
DESIGN_RULE_MUTANTS["a model first writes a list of five searches"] += ["plan_called_workflow"]
DESIGN_RULE_MUTANTS["before each shell command it runs, what it expects the command to show"] += [
    "coding_assistant_called_workflow"]
DESIGN_WRONG = from_rule_table(DESIGN_RULE_MUTANTS, {name: {**LABELS, **wrong} for name, wrong
                                                     in WRONG_LABELS.items()}, {"everything_react": None})


# ------------------------------------------------------------ the one helper, stubs


class Stub(dict):
    """An untouched exercise of either kind: a function that raises, a dict of answers left as ``...``."""

    def __call__(self, *args, **kwargs):
        raise NotImplementedError("exercise 1.x: write it")


(test_right_solutions_pass, test_stub_is_not_attempted, test_wrong_solution_fails_under_its_rule,
 test_every_rule_has_a_mutant, test_each_rules_cases_exist) = exercise_tests({
    "01.who_wrote": (who_wrote,
                     from_rule_table(WHO_WROTE_RULE_MUTANTS, WHO_WROTE_MUTANTS, WHO_WROTE_OTHER_RULES)),
    "01.render_trace": (render_trace,
                        from_rule_table(RENDER_RULE_MUTANTS, RENDER_MUTANTS, RENDER_OTHER_RULES)),
    "01.paper_facts": ((ANSWERS, {**ANSWERS, "best_hotpotqa": " d", "switch_trigger": "B)"},
                        *({**ANSWERS, key: value} for key, value in ROUNDED.values())), PAPER_WRONG),
    "01.which_design": ((LABELS, {**LABELS, "B": "Plan and execute", "D": "ReAct", "E": "Act_Only"}),
                        DESIGN_WRONG),
}, Stub({**dict.fromkeys(ANSWERS, ...), **dict.fromkeys(LABELS, ...)}))

def _stub(*args, **kwargs):
    raise NotImplementedError("exercise 1.1: write it")


@pytest.mark.parametrize("exercise, stub", [
    ("01.who_wrote", _stub),
    ("01.render_trace", _stub),
    ("01.paper_facts", dict.fromkeys(ANSWERS, ...)),
    ("01.paper_facts", ...),
    ("01.which_design", dict.fromkeys(LABELS, ...)),
    ("01.which_design", ...),
])
def test_stubs_are_not_attempted(exercise: str, stub) -> None:
    assert check(exercise, stub).status == "not attempted"


def test_the_question_is_the_lessons() -> None:
    assert QUESTION in rc.WORKED_EXAMPLES


def test_a_hanging_function_costs_one_time_limit() -> None:
    """The first case runs out of time; every later case is "not run", with one message."""
    def hangs(transcript):
        while True:
            pass

    result = check("01.who_wrote", hangs)
    statuses = [c.status for c in result.cases]
    assert statuses[0] == "failed" and set(statuses[1:]) == {"not run"}
    assert str(result).count("more cases not run") == 1


def test_the_traces_written_out_for_render_trace_are_the_keys() -> None:
    """The rows keep each example's trace written out, to read; the check takes its expected
    value from the key, and the two agree."""
    from react_course.checks.lesson01 import render_trace as module
    from react_course.checks.lesson01.generated_traces import render_key

    for name, args, expected, *_ in [*module._shop_rows(), *module._library_rows(), *module._edge_rows()]:
        assert render_key(*args) == expected, name
