"""Lesson 00's check, through the one helper (``mutation_suite.exercise_tests``).

The answer is a number; each wrong one below is a count a first-time reader gets
(one short, the final answer counted twice, the steps of the transcript, a text).
"""

from __future__ import annotations

from mutation_suite import exercise_tests

import react_course as rc
from react_course.checks.lesson00 import ASKED, QUESTION, SPEC, scripted_calls

WRONG = {name: (ASKED, value) for name, value in {
    "one_short": 3, "final_answer_counted_twice": 5, "none_counted": 0, "as_text": "4", "half": 4.5,
    "a_bool": True, "in_a_list": [4], "in_words": "four", "the_tool_calls_only": 3.0,
}.items()}

(test_right_solutions_pass, test_stub_is_not_attempted, test_wrong_solution_fails_under_its_rule,
 test_every_rule_has_a_mutant, test_each_rules_cases_exist) = exercise_tests(
    {"00.first_check": ((4, 4.0), WRONG)}, ...)


def test_the_key_is_the_library_run_of_the_lessons_question() -> None:
    assert SPEC.expected(()) == scripted_calls() == 4
    assert QUESTION in rc.WORKED_EXAMPLES
