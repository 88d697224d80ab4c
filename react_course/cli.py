"""The ``react-course`` command. Thin: each verb calls one library function.

    react-course run "How much taller is the Eiffel Tower than the Statue of Liberty?"
    react-course run --list
    react-course doctor [--ping]
    react-course build-exercises [--check]
    react-course execute notebooks/03_parsing_and_stops.ipynb   (maintainers)
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from collections.abc import Sequence


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="react-course", description=__doc__.splitlines()[0])
    verbs = parser.add_subparsers(dest="verb", required=True)

    run = verbs.add_parser("run", help="answer a question with the ReAct loop and print the trace")
    run.add_argument("question", nargs="?", help="the question (see --list)")
    run.add_argument("--model", help="scripted (default), openai:MODEL, ollama:MODEL or "
                                     "openai-compatible:URL:MODEL; default: $REACT_COURSE_MODEL")
    run.add_argument("--max-steps", type=_steps, default=8, help="model calls before the forced answer")
    run.add_argument("--authors", action="store_true", help="mark model- and program-written lines")
    run.add_argument("--date", type=dt.date.fromisoformat, help="fix the clock tool's date")
    run.add_argument("--list", action="store_true", help="list the worked examples and exit")

    doctor = verbs.add_parser("doctor", help="check this machine is ready for the course")
    doctor.add_argument("--ping", action="store_true", help="also send one request to a real model")

    build = verbs.add_parser("build-exercises", help="write exercises/ from solutions/")
    build.add_argument("--solutions", default="solutions")
    build.add_argument("--exercises", default="exercises")
    build.add_argument("--check", action="store_true", help="fail if exercises/ is out of date")

    execute = verbs.add_parser("execute", help="maintainers: re-run lessons in a fresh kernel and "
                                                "save their outputs")
    execute.add_argument("notebooks", nargs="+")
    return parser


def _steps(text: str) -> int:
    """A step limit from the command line: a whole number, 0 or more."""
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"expected a whole number of steps, 0 or more, got {text!r}")
    return int(text)


def cmd_run(args: argparse.Namespace) -> int:
    from .demo import WORKED_EXAMPLES, demo_model
    from .loop import run_react
    from .providers import ModelConfigError, parse_model_spec, real_model
    from .tools import default_tools

    if args.list or not args.question:
        print("Worked examples the scripted model can answer:")
        print("\n".join(f"  {q}" for q in WORKED_EXAMPLES))
        return 0 if args.list else 2
    import os

    try:
        spec = parse_model_spec(args.model or os.environ.get("REACT_COURSE_MODEL"))
    except ModelConfigError as error:
        print(f"react-course: {error}", file=sys.stderr)
        return 2
    model = demo_model() if spec.kind == "scripted" else real_model(spec)
    try:
        result = run_react(args.question, model, default_tools(args.date), max_steps=args.max_steps)
    except ModelConfigError as error:
        print(f"react-course: {error}", file=sys.stderr)
        return 2
    print(result.render(authors=args.authors))
    print(f"\nAnswer: {result.answer}" if result.succeeded else "")
    return 0 if result.succeeded else 1


def cmd_doctor(args: argparse.Namespace) -> int:
    from .doctor import diagnose, report

    findings = diagnose(ping=args.ping)
    print(report(findings))
    return 0 if all(f.ok for f in findings) else 1


def cmd_build_exercises(args: argparse.Namespace) -> int:
    from .authoring import build_exercises

    changed = build_exercises(args.solutions, args.exercises, check=args.check)
    if args.check and changed:
        print("exercises/ is out of date for: " + ", ".join(changed), file=sys.stderr)
        print("Run: react-course build-exercises", file=sys.stderr)
        return 1
    print(f"{len(changed)} exercise notebook(s) {'differ' if args.check else 'written'}.")
    return 0


def cmd_execute(args: argparse.Namespace) -> int:
    import os

    from .authoring import execute_notebook

    os.environ.pop("REACT_COURSE_MODEL", None)  # committed outputs come from the scripted model
    for path in args.notebooks:
        execute_notebook(path)
        print(f"executed and saved {path}")
    return 0


COMMANDS = {"run": cmd_run, "doctor": cmd_doctor, "build-exercises": cmd_build_exercises,
            "execute": cmd_execute}


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return COMMANDS[args.verb](args)
