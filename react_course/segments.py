"""A reply's lines, grouped by the ReAct keyword that leads them: the parser's first pass.

``split_segments`` finds the keywords (Thought, Action, Action Input, Final Answer,
Observation, Question) wherever a model writes them: at the start of a line behind
markdown (headings, bullets, bold, "2." numbering), or mid-line after a sentence's
end. ``parsing.py`` reads the segments into an action or an answer. What it leaves
out: what a segment means (the parser decides that).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Markdown a model may put before a keyword: headings, quotes, bullets, bold, "2." numbering.
_DECORATION = re.compile(r"^[\s>#*_`-]*+(?:\d{1,3}[.)][ \t]++)?")
# Possessive quantifiers (*+) never backtrack, so a long run of spaces costs linear time.
_KEYWORD = re.compile(
    r"(?P<kw>thought|action[ _]?input|action|final[ _]?answer|observation|question)"
    r"[ \t]*+(?:(?P<num>\d++)[ \t]*+)?(?:\*\*|__|\*|_)?[ \t]*+[:：][ \t]*+(?:\*\*|__|\*|_)?(?P<rest>.*)",
    re.IGNORECASE,
)
# A keyword written mid-line after the end of a sentence ("...the height. Action: search[x]").
# A mid-line "Action:" counts only when a tool name follows, then a bracket or the line's
# end: "I tried. Action: search did not help" is a thought that mentions the word.
_INLINE_KEYWORD = re.compile(
    r"""(?<=[.!?\])])[ \t]++                     # the spaces after a sentence's end, before
        (?= action[ \t]*+\d*+[ \t]*+:[ \t]*+
            [`'"]?[A-Za-z_][\w.-]*+[`'"]?[ \t]*+ (?:[\[(]|$)   # "Action: tool[" or "Action: tool"
          | (?:action[ _]?input|final[ _]?answer|observation)[ \t]*+\d*+[ \t]*+:  # another keyword
        )""",
    re.IGNORECASE | re.MULTILINE | re.VERBOSE,
)
# "2. Action: ..." at the start of a line is a numbered list, not a sentence's end.
_LIST_NUMBER = re.compile(r"\d{1,2}[.)]")


def _split_inline(text: str) -> str:
    """Put each mid-line keyword on a line of its own, except after a list number.

    >>> _split_inline("It is 330 m. Action: search[Eiffel]")
    'It is 330 m.\\nAction: search[Eiffel]'
    >>> _split_inline("2. Action: search[Eiffel]")
    '2. Action: search[Eiffel]'
    """
    def split(match: re.Match[str]) -> str:
        line = text[text.rfind("\n", 0, match.start()) + 1:match.start()]
        return match.group() if _LIST_NUMBER.fullmatch(line) else "\n"

    return _INLINE_KEYWORD.sub(split, text)


_FENCE = re.compile(r"^\s*(```|~~~)[\w-]*\s*$")


@dataclass
class Segment:
    """The lines led by one keyword (``kind``), or the lines before any keyword ("text")."""

    kind: str  # thought, action, action input, final answer, observation, question, text
    lines: list[str]

    @property
    def body(self) -> str:
        return "\n".join(self.lines).strip()


def split_segments(text: str) -> list[Segment]:
    """Split a reply into keyword-led segments; lines before any keyword are 'text'.

    >>> [(s.kind, s.body) for s in split_segments("I think. Action: search[Eiffel]")]
    [('text', 'I think.'), ('action', 'search[Eiffel]')]
    """
    segments: list[Segment] = []
    for line in _split_inline(text).split("\n"):
        if _FENCE.match(line):
            continue
        decoration = _DECORATION.match(line)
        match = _KEYWORD.match(line, decoration.end()) if decoration else None
        if match:
            kind = re.sub(r"[ _]+", " ", match["kw"].lower())
            kind = {"actioninput": "action input", "finalanswer": "final answer"}.get(kind, kind)
            segments.append(Segment(kind, [_strip_emphasis(match["rest"])]))
        elif segments:
            segments[-1].lines.append(line)
        else:
            segments.append(Segment("text", [line]))
    return segments


def _strip_emphasis(rest: str) -> str:
    rest = rest.rstrip()
    for mark in ("**", "__"):
        if rest.endswith(mark):
            rest = rest[: -len(mark)].rstrip()
    return rest
