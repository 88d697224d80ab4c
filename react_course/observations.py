"""Keep observations small, and say so when something was left out.

An observation is resent with every later call, so a whole web page pasted
into the scratchpad costs tokens on every step and buries the one line that
matters. We keep the head of a long observation and end it with a marker
that says how much was cut and how to get more: a model shown a silent cut
assumes it saw everything.
"""

from __future__ import annotations

MARKER = "[... truncated: showing the first {shown:,} of {total:,} characters{tip}]"


def truncate(text: str, max_chars: int, *, tip: str = "") -> str:
    """Cut ``text`` to about ``max_chars`` characters, with an explicit marker.

    >>> truncate("a" * 10, 20)
    'aaaaaaaaaa'
    >>> truncate("word " * 40, 30)
    'word word word word word word\\n[... truncated: showing the first 29 of 200 characters]'
    """
    if len(text) <= max_chars:
        return text
    head = text[:max_chars]
    # End on a word boundary when one is near, so no word is cut in half.
    space = head.rfind(" ", max_chars // 2)
    head = head[:space] if space > 0 else head
    suffix = f". {tip}" if tip else ""
    return head + "\n" + MARKER.format(shown=len(head), total=len(text), tip=suffix)


def short(text: str, limit: int) -> str:
    """One text, cut to ``limit`` characters with a marker.

    >>> short("abcdef", 4)
    'abcd...'
    """
    return text if len(text) <= limit else text[:limit] + "..."
