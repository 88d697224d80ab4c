"""The answer keys of lesson 10's exercises, the same as the solutions notebook's."""

from __future__ import annotations

import re

CITATION = re.compile(r"\[(\d+)\]")
NUMBER = re.compile(r"(?<![\d.])\d+(?:\.\d+)?(?!\d)")


def uncited_claims(answer: str, observations: dict[int, str]) -> list[str]:
    flagged = []
    for sentence in re.split(r"(?<=[.!?])\s+", answer.strip()):
        cited = [observations[n] for n in map(int, CITATION.findall(sentence)) if n in observations]
        numbers = NUMBER.findall(CITATION.sub("", sentence))
        if numbers and not all(any(n in NUMBER.findall(text) for text in cited) for n in numbers):
            flagged.append(sentence)
    return flagged


def page_of(rows: list[str], page: int, size: int) -> str:
    pages = max(1, -(-len(rows) // size))
    if not 1 <= page <= pages:
        return f"No page {page}: pages 1 to {pages}."
    more = [f"More: page {page + 1}."] if page < pages else []
    return "\n".join(
        [f"{len(rows)} rows; page {page} of {pages}.", *rows[(page - 1) * size : page * size], *more]
    )
