"""The ``react-course`` command. Thin: each verb calls one library function.

What it leaves out: anything a notebook does better (exercises, plots).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from .arguments import date as _date
from .arguments import port as _port
from .arguments import seconds as _seconds
from .arguments import steps as _steps
from .eval_command import add_eval_verb, cmd_eval
from .release_command import add_release_verb, cmd_release, full_edition_only

USAGE = """\
Run the course's ReAct agent from a terminal, and check this machine is ready for the course.

commands:
  react-course run "QUESTION"       answer a question, printing each step as it completes
  react-course run --list           the worked examples the scripted model can answer
  react-course doctor [--ping]      check the set-up (--ping: also ask the real model once)
  react-course doctor --full        ... and run lesson 00 in the course's kernel
  react-course progress             your exercises: what passes, what is next
  react-course reset LESSON         put one exercise notebook back as handed out (keeps a copy)
  react-course build-exercises      instructors: write exercises/ from solutions/
  react-course grade DIR --out F    instructors: grade a folder of submitted notebooks into a CSV
  react-course release OUT          instructors: build the student edition (no keys) and its zip
  react-course serve-model          workshops: serve the scripted chat model (OpenAI protocols)
  react-course eval                 run the evaluation set (simulated model), print its metrics
  react-course eval --model SETTING ... on a real model (--estimate: what it would cost first)

The model is the scripted one unless REACT_COURSE_MODEL names a real one (see the README,
"Using a real model"). Each command has its own --help, e.g. react-course run --help.
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="react-course", description=USAGE,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    verbs = parser.add_subparsers(dest="verb", required=True, metavar="COMMAND",
                                  title="all commands (details: react-course COMMAND --help)")

    run = verbs.add_parser("run", help="answer a question with the ReAct loop and print the trace")
    run.add_argument("question", nargs="?", help="the question (see --list)")
    run.add_argument("--model", help="scripted (default), openai:MODEL, ollama:MODEL, "
                                     "openai-compatible:URL:MODEL or openai-compatible-"
                                     "completions:URL:MODEL; default: $REACT_COURSE_MODEL")
    run.add_argument("--max-steps", type=_steps, default=8, help="model calls before the forced answer")
    run.add_argument("--max-seconds", type=_seconds, default=None,
                     help="wall-clock limit for the whole run, model calls included (default 300)")
    run.add_argument("--authors", action="store_true", help="mark model- and program-written lines")
    run.add_argument("--date", type=_date, help="fix the clock tool's date (YYYY-MM-DD)")
    run.add_argument("--list", action="store_true", help="list the worked examples and exit")

    doctor = verbs.add_parser("doctor", help="check this machine is ready for the course")
    doctor.add_argument("--ping", action="store_true",
                        help="also send one request to the configured real model (at most 25 s)")
    doctor.add_argument("--full", action="store_true",
                        help="also start the course kernel and run lesson 00 headless")
    doctor.add_argument("--json", action="store_true", help="print one JSON report (for instructors)")

    build = verbs.add_parser("build-exercises", help="instructors: write exercises/ from solutions/")
    build.add_argument("--solutions", default="solutions")
    build.add_argument("--exercises", default="exercises")
    build.add_argument("--check", action="store_true", help="fail if exercises/ is out of date")

    execute = verbs.add_parser("execute", help="maintainers: re-run lessons in a fresh kernel and "
                                                "save their outputs")
    execute.add_argument("notebooks", nargs="+")

    _add_course_verbs(verbs)

    serve = verbs.add_parser("serve-model", help="workshops: serve the scripted chat model over the "
                                                 "OpenAI API, for any OpenAI-compatible client")
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (0.0.0.0: the whole room)")
    serve.add_argument("--port", type=_port, default=8000, help="port (default 8000; 0: any free one)")
    add_eval_verb(verbs)
    add_release_verb(verbs)
    return parser


def _add_course_verbs(verbs: Any) -> None:
    """The verbs for a student's progress and an instructor's grading."""
    verbs.add_parser("progress", help="your exercises: status, points and what to do next")

    reset = verbs.add_parser("reset", help="put one exercise notebook back as handed out, keeping a "
                                           "dated copy of yours in exercises/.backups/")
    reset.add_argument("lesson", help="the lesson's number, e.g. 03")

    grade = verbs.add_parser("grade", help="instructors: grade a folder of submitted notebooks")
    grade.add_argument("submissions", nargs="?", help="a folder of notebooks, student folders or "
                                                      "unzipped hand-ins")
    grade.add_argument("--out", default="grades.csv", help="the CSV to write (feedback/ and summary.md "
                                                           "go beside it)")
    grade.add_argument("--lesson", help="the lesson graded (default: the one most submissions are)")
    grade.add_argument("--cell-timeout", type=_seconds, default=30.0, help="seconds per cell (30)")
    grade.add_argument("--wall", type=_seconds, default=300.0,
                       help="seconds per submission, then it is killed (300)")
    grade.add_argument("--memory-mb", type=int, default=3072, help="memory per submission (POSIX)")
    grade.add_argument("--workers", type=int, default=None, help="submissions at once (default: cores)")
    grade.add_argument("--kernel", default="react-course", help="the Jupyter kernel to run them in")
    grade.add_argument("--zips", help="a folder of hand-in zips, read without unzipping them")
    grade.add_argument("--roster", help="a CSV: hand-in name (file, folder or zip), student id")
    grade.add_argument("--export", default="", help="gradebook files beside the CSV: canvas,moodle,otter")


def _error(message: object) -> int:
    from ..backends.api_errors import redact

    print(f"react-course: {redact(message)}", file=sys.stderr)
    return 2


class _LivePrinter:
    """Prints each step's lines as the step completes, then the rest of the trace at the end."""

    def __init__(self, question: str, authors: bool) -> None:
        self.question, self.authors = question, authors
        self.steps: list[Any] = []
        self.printed = 0

    def _emit(self, lines: list[str]) -> None:
        from ..backends.api_errors import redact

        for line in lines[self.printed:]:
            print(redact(line), flush=True)
        self.printed = max(self.printed, len(lines))

    def on_step(self, step: Any | None = None) -> None:
        """Print what is new since the last step (called with no step: the question line)."""
        from ..record import RunResult

        self.steps += [step] if step is not None else []
        partial = RunResult(self.question, "", "", list(self.steps))
        lines = partial.render(authors=self.authors).splitlines()
        ended = next((i for i, line in enumerate(lines) if "[ended: " in line), len(lines))
        self._emit(lines[:ended])

    def finish(self, result: Any) -> None:
        self._emit(result.render(authors=self.authors).splitlines())


def cmd_run(args: argparse.Namespace) -> int:
    import os

    from ..backends.providers import parse_model_spec, real_model
    from ..errors import ReactCourseError
    from ..lessons.demo import WORKED_EXAMPLES, demo_model
    from ..lessons.plans import HEIGHTS
    from ..loop import run_react
    from ..tools import default_tools

    if args.list:
        print("Worked examples the scripted model can answer:")
        print("\n".join(f"  {q}" for q in WORKED_EXAMPLES))
        print("It also works out, from the bundled data, any shop total (e.g. \"What do 2 pens "
              "and a ruler cost?\") and how much taller one of these is than another: "
              + ", ".join(HEIGHTS) + ". Anything else needs a real model (REACT_COURSE_MODEL).")
        return 0
    question = (args.question or "").strip()
    if not question:
        return _error('run needs a question, e.g. react-course run "What do 3 notebooks and 2 '
                      'pens cost?" (react-course run --list shows the worked examples)')
    try:
        spec = parse_model_spec(args.model or os.environ.get("REACT_COURSE_MODEL"))
        model = demo_model() if spec.kind == "scripted" else real_model(spec)
        live = _LivePrinter(question, args.authors)
        live.on_step()
        limits = {} if args.max_seconds is None else {"max_seconds": args.max_seconds}
        result = run_react(question, model, default_tools(args.date), max_steps=args.max_steps,
                           on_step=live.on_step, **limits)
    except ReactCourseError as error:  # a bad setting before anything worked
        return _error(error)
    live.finish(result)
    print(f"\nAnswer: {result.answer}" if result.succeeded else "")
    return 0 if result.succeeded else 1


def cmd_doctor(args: argparse.Namespace) -> int:
    from .doctor import diagnose, report, report_json
    from .doctor_model import announce

    if args.ping and not args.json and announce():
        print(announce(), flush=True)
    findings = diagnose(ping=args.ping, full=args.full)
    print(report_json(findings, args.ping) if args.json else report(findings, args.ping))
    return 0 if all(f.ok for f in findings) else 1


def cmd_build_exercises(args: argparse.Namespace) -> int:
    if full_edition_only("build-exercises"):  # the student edition has no solutions/ to build from
        return _error(full_edition_only("build-exercises"))
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


def cmd_serve_model(args: argparse.Namespace) -> int:
    from ..scripted_api.standalone import PortTaken, serve_forever

    try:
        serve_forever(args.host, args.port)
    except PortTaken as error:
        return _error(error)
    return 0


def cmd_progress(args: argparse.Namespace) -> int:
    from .progress import report

    print(report())
    return 0


def cmd_reset(args: argparse.Namespace) -> int:
    from .progress import reset

    try:
        target, backup = reset(args.lesson)
    except ValueError as error:
        return _error(error)
    print(f"{target.name} is back as handed out; your version is kept in {backup.as_posix()}")
    return 0


def cmd_grade(args: argparse.Namespace) -> int:
    if full_edition_only("grade"):
        return _error(full_edition_only("grade"))
    from .grade import Limits, grade_folder

    workers = {"workers": args.workers} if args.workers else {}
    limits = Limits(cell_timeout=args.cell_timeout, wall=args.wall, memory_mb=args.memory_mb,
                    kernel=args.kernel, **workers)
    if not (args.submissions or args.zips):
        return _error(ValueError("give a folder of submissions, or --zips FOLDER, or both"))
    extra = {k: v for k, v in (("zips", args.zips), ("roster", args.roster),
                               ("exports", tuple(filter(None, args.export.split(","))))) if v}
    try:
        grades = grade_folder(args.submissions, args.out, lesson=args.lesson, limits=limits, **extra)
    except (ValueError, OSError) as error:
        return _error(error)
    handed = [g for g in grades if getattr(g, "status", "") != "missing"]  # not the roster's zero rows
    print(f"{len(handed)} submission(s) graded into {args.out}; feedback/ and summary-LESSON.md beside it")
    return 0


COMMANDS = {"eval": cmd_eval, "run": cmd_run, "doctor": cmd_doctor, "build-exercises": cmd_build_exercises,
            "execute": cmd_execute, "serve-model": cmd_serve_model, "progress": cmd_progress,
            "reset": cmd_reset, "grade": cmd_grade, "release": cmd_release}


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0].startswith("-") and argv[0] not in ("-h", "--help"):
        return _error(f"unknown option {argv[0]!r} before the command: options go after it, e.g. "
                      "react-course doctor --json (react-course --help lists the commands)")
    args = build_parser().parse_args(argv)
    try:
        return COMMANDS[args.verb](args)
    except BrokenPipeError:  # `react-course doctor | head` closed the pipe: not an error worth a traceback
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
