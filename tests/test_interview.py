"""Lesson 11's props: the question bank, the self-score, the design rubric, the glossary."""

from __future__ import annotations

import pytest

from react_course.lessons.design import GLOSSARY, RUBRIC, glossary_markdown, grade_design
from react_course.lessons.interview import BANK, Scorecard, bank_markdown, question

NAMED_IN_THE_ISSUE = ("how", "why", "implement", "stops", "hallucinated_tool", "loops",
                      "weaknesses", "when_not", "decomposition", "just_a_prompt")


def test_the_bank_holds_every_question_the_lesson_promises() -> None:
    assert [q.id for q in BANK] == list(NAMED_IN_THE_ISSUE)
    for item in BANK:
        assert 2 <= len(item.listen_for) <= 3, item.id
        assert item.pitfall, item.id


def test_every_answer_is_hidden_until_opened() -> None:
    text = bank_markdown()
    assert text.count("<details>") == len(BANK) == text.count("</details>")
    for item in BANK:
        assert text.index(item.ask) < text.index(item.listen_for[0])


def test_the_scorecard_tallies_and_refuses_typos() -> None:
    card = Scorecard()
    for qid in NAMED_IN_THE_ISSUE[:3]:
        card.mark(qid, "missed")
    card.mark("how", "got it")
    assert card.score() == (2, 6)
    assert card.to_review() == ["why", "implement"]
    assert len(card.unmarked()) == len(BANK) - 3
    with pytest.raises(KeyError):
        card.mark("stop", "got it")
    with pytest.raises(ValueError):
        card.mark("stops", "yes")
    with pytest.raises(KeyError):
        question("nope")


def test_the_design_rubric_covers_the_prompt_and_names_unknown_areas() -> None:
    assert set(RUBRIC) == {"tools", "limits", "approval", "escalation", "evaluation", "cost"}
    assert grade_design(RUBRIC) == (6, [])
    with pytest.raises(ValueError):
        grade_design(["budget"])


def test_the_glossary_has_the_course_terms() -> None:
    for term in ("ReAct", "observation", "scratchpad", "stop sequence", "multi-hop question",
                 "end reason", "hand-over", "budget", "approval gate", "idempotency key", "pass^k"):
        assert term in GLOSSARY
    assert glossary_markdown().count("\n") == len(GLOSSARY) + 1
