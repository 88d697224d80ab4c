"""The maintainer's check of the price table: ``python -m react_course.course.prices --check [FILE]``.

It reads ``react_course/data/prices.json`` (or FILE, a copy being edited),
prints what is wrong with any row and which rows were read more than a year
ago, and exits 1 when the file is not usable (``price_table.check_report``).
What it leaves out: fetching prices; a person reads the providers' pages.
"""

from __future__ import annotations

import argparse
from datetime import date
from importlib.resources import files
from pathlib import Path

from ..context_cost.price_table import check_report


def main(argv: list[str] | None = None) -> int:
    """0 when the table is usable, else 1; the report goes to standard output."""
    parser = argparse.ArgumentParser(prog="python -m react_course.course.prices",
                                     description="Check the price table before committing it.")
    parser.add_argument("--check", action="store_true", required=True, help="validate the file")
    parser.add_argument("file", nargs="?", help="default: the bundled data/prices.json")
    args = parser.parse_args(argv)
    path = Path(args.file) if args.file else files("react_course") / "data" / "prices.json"
    usable, report = check_report(path.read_text(encoding="utf-8"), date.today())
    print(report)
    return 0 if usable else 1


if __name__ == "__main__":
    raise SystemExit(main())
