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


class TokenUsage(int):
    """A token count that also knows its parts: tokens sent (input) and received (output).

    It *is* the total, an ``int``, so ``step.tokens > 1000`` and ``sum(...)``
    just work; ``.input`` and ``.output`` give the split, which prices need.

    >>> used = TokenUsage(300, 40) + TokenUsage(420, 35)
    >>> used, used.input, used.output, used + 5
    (TokenUsage(input=720, output=75), 720, 75, 800)
    """

    input: int
    output: int

    def __new__(cls, input: int = 0, output: int = 0) -> TokenUsage:
        usage = super().__new__(cls, input + output)
        usage.input, usage.output = input, output
        return usage

    @property
    def total(self) -> int:
        return int(self)

    def __add__(self, other: object) -> TokenUsage | int:
        if isinstance(other, TokenUsage):
            return TokenUsage(self.input + other.input, self.output + other.output)
        return int(self) + other if isinstance(other, int) else NotImplemented

    def __radd__(self, other: object) -> TokenUsage | int:
        return self if other == 0 else self.__add__(other)  # sum() starts from 0

    def __repr__(self) -> str:
        return f"TokenUsage(input={self.input}, output={self.output})"

    def __reduce__(self):  # pickle and copy keep the split
        return (TokenUsage, (self.input, self.output))
