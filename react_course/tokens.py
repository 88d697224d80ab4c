"""Token estimates, for budgets and cost lessons, without a tokenizer download.

Real tokenizers (byte-pair encodings) need vocabulary files that are fetched
from the network on first use, and the course runs offline. This estimate
follows what BPE does to English text closely enough for budgets: a common
word is one token, a long word one more per six letters beyond the fourth,
digits go in groups of three, and every punctuation mark is a token of its own.
It is an estimate; lesson 08 compares it with an API's reported usage.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_PIECES = re.compile(r"[^\W\d_]+|\d{1,3}|[^\w\s]|_")


def estimate_tokens(text: str) -> int:
    """About how many tokens ``text`` is.

    >>> estimate_tokens("Thought: I need the height of the Eiffel Tower.")
    11
    >>> estimate_tokens("12200000")
    3
    >>> estimate_tokens("")
    0
    """
    return sum(1 + max(0, len(p) - 4) // 6 if p[0].isalpha() else 1 for p in _PIECES.findall(text))


@dataclass(frozen=True)
class TokenUsage:
    """Tokens sent to a model (input) and received from it (output)."""

    input: int = 0
    output: int = 0

    @property
    def total(self) -> int:
        return self.input + self.output

    def __add__(self, other: TokenUsage) -> TokenUsage:
        return TokenUsage(self.input + other.input, self.output + other.output)
