"""An offline encyclopedia with the paper's two tools: ``search`` and ``lookup``.

As in the ReAct paper's Wikipedia tools, ``search`` looks a page up *by name*
and returns its opening sentences; ``lookup`` finds the sentences that contain
a term in the page last opened. (The paper's lookup returned one match per
call; returning all of them at once means a repeated call is never useful,
so the loop can refuse repeats for every tool alike.) Looking up by name is deliberate: a
description such as "Paris tower 1889" finds nothing, and the agent must
think of the name ("Eiffel Tower"), which is the reformulation step lesson 01
shows. A query that mostly *is* a name ("Eiffel Tower height") still finds it.

Every miss is said in words, with what to try next; a close misspelling gets
the similar titles. The pages (``data/encyclopedia.json``) are short texts
written for the course, with distractors (other towers, other Olympics).

What it leaves out: ranking by relevance, full-text search, and the web.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from .data import load_json

SUMMARY_SENTENCES = 4
LOOKUP_HITS = 3
_STOPWORDS = {"the", "a", "an", "of", "in", "on", "for", "to", "and", "is", "what", "who", "how"}


@dataclass(frozen=True)
class Page:
    title: str
    sentences: tuple[str, ...]
    aliases: tuple[str, ...] = ()


def _words(text: str) -> list[str]:
    """Lower-case words, accents kept, punctuation dropped.

    >>> _words("Tesla, Inc.'s  Model-3")
    ['tesla', 'inc', 's', 'model', '3']
    """
    return re.findall(r"[^\W_]+", text.lower())


def _key(text: str) -> str:
    return " ".join(w for w in _words(text) if w != "the")


class Encyclopedia:
    """A set of pages; ``search`` and ``lookup`` are its tools (bound methods)."""

    def __init__(self, pages: list[Page] | None = None) -> None:
        self.pages = pages if pages is not None else load_pages()
        self._by_name: dict[str, Page] = {}
        for page in self.pages:
            for name in (page.title, *page.aliases):
                self._by_name.setdefault(_key(name), page)
        self.current: Page | None = None

    def search(self, query: str) -> str:
        """Look up an encyclopedia page by the name of its subject (a person, place, company,
        building or event) and return its first sentences. Give a name, not a description or
        a question. Example input: Statue of Liberty
        """
        page = self.find(query)
        if page is None:
            return self._no_page(query)
        self.current = page
        shown = page.sentences[:SUMMARY_SENTENCES]
        more = len(page.sentences) - len(shown)
        tail = (f" ({more} more sentence{'s' * (more > 1)} on this page: "
                "use lookup to find a term in it.)") if more else ""
        return f"[{page.title}] " + " ".join(shown) + tail

    def lookup(self, term: str) -> str:
        """Find the sentences containing a term in the page last returned by search
        (up to three). Example input: height
        """
        if self.current is None:
            return "No page is open yet. Use search first, then lookup a term in that page."
        needle = term.strip().strip("\"'`").lower()
        if not needle:
            return "lookup needs a term to find, e.g. 'tall' or 'founded'."
        hits = [s for s in self.current.sentences if needle in s.lower()]
        if not hits:
            return (f"No sentence in the page [{self.current.title}] contains {term.strip()!r}. "
                    "Try another term, or search for another page.")
        shown = hits[:LOOKUP_HITS]
        verb = "sentences contain" if len(hits) > 1 else "sentence contains"
        head = f"[{self.current.title}] {len(hits)} {verb} {needle!r}"
        return head + ": " + " ".join(f"({i}) {s}" for i, s in enumerate(shown, 1))

    lookup.repeatable = True  # its answer depends on the page open, so the same term may be new

    def find(self, query: str) -> Page | None:
        """The page a query names: exactly, or as most of its words."""
        key = _key(str(query).strip().strip("\"'`"))
        if key in self._by_name:
            return self._by_name[key]
        content = [w for w in key.split() if w not in _STOPWORDS]
        best, best_len = None, 0
        for name, page in self._by_name.items():
            name_words = name.split()
            if _contains(key.split(), name_words) and 2 * len(name_words) >= len(content):
                if len(name_words) > best_len:
                    best, best_len = page, len(name_words)
        return best

    def _no_page(self, query: str) -> str:
        close = difflib.get_close_matches(_key(query), list(self._by_name), n=3, cutoff=0.8)
        titles = sorted({self._by_name[c].title for c in close})
        if titles:
            return (f"No page is named {query!r}. Similar names: {', '.join(titles)}. "
                    "Search again with one of them if it is what you meant.")
        return (f"No page matches {query!r}. search finds pages by the name of their subject: "
                "try the exact name of the person, place, company or thing (for example "
                "'Statue of Liberty'), not a description.")


def _contains(words: list[str], part: list[str]) -> bool:
    """Does ``part`` occur in ``words`` as a run of whole words?

    >>> _contains(["eiffel", "tower", "height"], ["eiffel", "tower"])
    True
    >>> _contains(["paris", "tower", "1889"], ["eiffel", "tower"])
    False
    """
    n = len(part)
    return n > 0 and any(words[i : i + n] == part for i in range(len(words) - n + 1))


def load_pages() -> list[Page]:
    data = load_json("encyclopedia.json")
    return [
        Page(p["title"], tuple(p["sentences"]), tuple(p.get("aliases", ()))) for p in data["pages"]
    ]
