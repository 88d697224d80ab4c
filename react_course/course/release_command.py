"""``react-course release OUT [--site]``: the verb, thin; ``release.build_release`` does the work.

In the student edition there is nothing to release from (no keys, no hidden cases),
and nothing to grade with: both verbs say so instead of failing on a missing module.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from ..checks.released import student_edition

__all__ = ["FULL_EDITION", "add_release_verb", "cmd_release", "full_edition_only"]

FULL_EDITION = ("{verb} needs the full edition of the course (the repository with solutions/ and the "
                "answer keys); this is the student edition built by react-course release")


def full_edition_only(verb: str) -> str | None:
    """The message that refuses ``verb`` in the student edition, or None in the full one."""
    return FULL_EDITION.format(verb=verb) if student_edition() else None


def add_release_verb(verbs: Any) -> None:
    release = verbs.add_parser("release", help="instructors: build the student edition (no keys, no "
                                               "hidden cases, no solutions) as a folder and a zip")
    release.add_argument("out", help="the folder to write react-course-student/ and its zip into")
    release.add_argument("--site", action="store_true", help="also build the browser site from it, "
                                                             "into OUT/site/ (minutes, needs npm)")


def cmd_release(args: argparse.Namespace) -> int:
    refused = full_edition_only("release")
    if refused:
        print(f"react-course: {refused}", file=sys.stderr)
        return 2
    from .release import build_release

    started = time.perf_counter()
    try:
        made = build_release(args.out, site=args.site)
    except (ValueError, OSError) as error:
        print(f"react-course: {error}", file=sys.stderr)
        return 2
    size = sum(p.stat().st_size for p in made.folder.rglob("*") if p.is_file())
    print(f"{made.folder} ({size / 1e6:.1f} MB) and {made.zip.name} ({made.zip.stat().st_size / 1e6:.1f} MB) "
          f"in {time.perf_counter() - started:.0f} s: {len(made.withheld)} keys withheld, "
          f"{len(made.open_book)} exercises open book (listed in its README)"
          + (f"; the browser site in {made.site}" if made.site else ""))
    return 0
