"""``react-course eval``: run the evaluation set, show a progress bar, print the metrics table.

A plain function (``evaluate_command``) with the CLI's defaults, so that the
verb stays thin. On the simulated model (the default) every run is offline
and the whole set takes seconds. With ``--model SETTING`` (the course's model
setting, as in REACT_COURSE_MODEL, which ``eval`` does not read on its own: a
whole evaluation costs a real model hundreds of calls) the runs go to a real
model, in the text loop or (``--loop native``) with native tool calls,
``--workers`` at a time under ``--rate`` calls per second. A real model's
budget is chosen with ``--tasks N`` (taken in turn from each family),
``--split``, ``--family`` and ``--repeats``; ``--estimate`` says what such a
run will cost before spending anything, and the same estimate is printed
before a real run starts. ``--resume`` carries on from the log after an
interruption (Ctrl-C says so in one line). What it leaves out: comparing two
logs (the lesson does that, with plots).
"""

from __future__ import annotations

import argparse
import sys
import threading
from collections import Counter
from pathlib import Path
from typing import IO, Any

from .arguments import seconds, steps

CONFIGS = ("default", "asks")
LOOPS = ("text", "native")


def progress_bar(out: IO[str] | None = None, width: int = 30):
    """A one-line text progress bar, redrawn in place.

    >>> import io; buffer = io.StringIO(); bar = progress_bar(buffer, width=10); bar(5, 10)
    >>> buffer.getvalue()
    '\\r[#####.....]   5/10'
    """
    def show(done: int, total: int) -> None:
        stream = out if out is not None else sys.stderr  # looked up late: tests swap sys.stderr
        filled = width * done // total if total else width
        if done != total and filled == width * (done - 1) // max(total, 1):
            return  # redraw only when the bar grows: a log of the output stays short
        stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done:>3}/{total}")
        if done == total:
            stream.write("\n")
        stream.flush()
    return show


def end_reason_rows(runs: list[Any]) -> str:
    """Markdown rows under the metrics table: how many runs ended each way (a real model's runs
    end in more ways than a success or a failure: repeating, error, time_limit...).

    >>> from types import SimpleNamespace as S
    >>> ends = ("final_answer", "repeating", "final_answer")
    >>> print(end_reason_rows([S(result=S(end_reason=e)) for e in ends]))
    | ended: final_answer | 2/3 |
    | ended: repeating | 1/3 |
    """
    counts = Counter(run.result.end_reason for run in runs)
    return "\n".join(f"| ended: {reason} | {n}/{len(runs)} |" for reason, n in sorted(counts.items()))


def chosen_tasks(split: str | None = None, family: str | None = None, count: int | None = None) -> list[Any]:
    """The tasks a run covers: a split, a family, then ``count`` of them taken in turn from each family."""
    from ..evaluate.runner import subset
    from ..evaluate.tasks import FAMILIES, load_tasks

    if family is not None and family not in FAMILIES:
        raise ValueError(f"no family {family!r}; the families are {', '.join(FAMILIES)}")
    tasks = load_tasks(split, family)
    if not tasks:
        raise ValueError(f"no task is in both the split {split!r} and the family {family!r}")
    return subset(tasks, count)


def model_factory(model: str, loop: str = "text") -> Any:
    """``model_for(repeat)`` for ``run_eval``: a real model from a setting, in the chosen loop."""
    from ..backends.clients import native_client
    from ..backends.providers import parse_model_spec, real_model
    from ..evaluate.runner import NativeModel

    spec = parse_model_spec(model)
    if loop == "native":
        client, name = native_client(model)  # raises ModelConfigError with the fix for a base model
        return lambda _repeat: NativeModel(client, name)  # the SDK's client is safe to share
    mine = threading.local()  # one model per worker thread: a client is slow to make, and a model
                              # remembers its last call's usage, which threads must not share

    def model_for(_repeat: int) -> Any:
        if not hasattr(mine, "model"):
            mine.model = real_model(spec)
        return mine.model
    return model_for


def evaluate_command(config: str = "default", split: str | None = None, repeats: int = 3,
                     log: str | Path = "eval-log.jsonl", resume: bool = False, model: str | None = None,
                     workers: int = 4, rate: float | None = 2.0, quiet: bool = False, *,
                     tasks: int | None = None, family: str | None = None, loop: str = "text",
                     say: Any = None) -> tuple[Any, str]:
    """Run the evaluation and return (its metrics, the table as Markdown, end reasons included).

    ``say`` (default: stderr) gets the cost estimate before a real model's run.
    Ctrl-C raises ``runner.EvalInterrupted`` (the CLI turns it into one line).
    """
    from ..backends.providers import parse_model_spec
    from ..evaluate import ASKS, DEFAULT, metrics, run_eval, table
    from ..evaluate.careful import estimate_cost

    chosen = {"default": DEFAULT, "asks": ASKS}[config]
    picked = chosen_tasks(split, family, tasks)
    real = model is not None and parse_model_spec(model).kind != "scripted"
    bar = None if quiet else progress_bar()
    if loop == "native" and not real:
        raise ValueError("--loop native needs a real model (--model SETTING): the simulated model speaks "
                         "only the text format")
    if real:
        if loop == "native" and chosen.example is not None:
            raise ValueError(f"--config {config} changes the text prompt's example trajectory, which the "
                             "native loop does not send: use --loop text")
        (say or _stderr)(f"on {model} ({loop} loop), {estimate_cost(picked, repeats, chosen)}")
        runs = run_eval(chosen, picked, repeats=repeats, model_for=model_factory(model, loop), log=log,
                        resume=resume, workers=workers, rate=rate, progress=bar)
    else:  # the simulated model: one thread, no rate limit
        runs = run_eval(chosen, picked, repeats=repeats, log=log, resume=resume, progress=bar)
    found = metrics(runs, chosen.name)
    return found, table([found], latency=True) + "\n" + end_reason_rows(runs)


def _stderr(text: str) -> None:
    print(text, file=sys.stderr)


# ------------------------------------------------------------------ the verb (cli.py adds it)
def add_eval_verb(verbs: Any) -> None:
    """``react-course eval``: the evaluation set, simulated or on a real model."""
    evaluate = verbs.add_parser("eval", help="run the evaluation set and print its metrics table")
    evaluate.add_argument("--config", choices=("default", "asks"), default="default",
                          help="the agent configuration (asks: an example that asks the user)")
    evaluate.add_argument("--split", choices=("train", "heldout"), default=None, help="default: all")
    evaluate.add_argument("--family", default=None, help="one family of tasks, e.g. multi_hop (default: all)")
    evaluate.add_argument("--tasks", type=count, default=None, metavar="N",
                          help="only N tasks, taken in turn from each family (a real model's budget)")
    evaluate.add_argument("--repeats", type=count, default=3, help="runs per task (pass^k uses them)")
    evaluate.add_argument("--log", default="eval-log.jsonl", help="JSON Lines step log (appended)")
    evaluate.add_argument("--resume", action="store_true", help="skip runs the log already finished")
    evaluate.add_argument("--model", help="a real model setting, as REACT_COURSE_MODEL (which eval does not "
                                          "read: default, the simulated model)")
    evaluate.add_argument("--loop", choices=("text", "native"), default="text",
                          help="real models: the text ReAct loop or native tool calls")
    evaluate.add_argument("--workers", type=steps, default=4, help="real models: runs at once")
    evaluate.add_argument("--rate", type=seconds, default=2.0, help="real models: model calls per second")
    evaluate.add_argument("--estimate", action="store_true",
                          help="say how many model calls and tokens the run would take, and stop")


def count(text: str) -> int:
    """A count of tasks or repeats: a whole number, 1 or more."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number, 1 or more, got {text!r}")
    return int(text)


def cmd_eval(args: argparse.Namespace) -> int:
    """The verb: the estimate, or the run and its table; Ctrl-C in one line; bad input in a sentence."""
    from ..errors import ModelConfigError
    from ..evaluate.runner import EvalInterrupted

    try:
        if args.estimate:
            from ..evaluate import ASKS, DEFAULT
            from ..evaluate.careful import estimate_cost

            chosen = ASKS if args.config == "asks" else DEFAULT
            print(estimate_cost(chosen_tasks(args.split, args.family, args.tasks), args.repeats, chosen))
            return 0
        _, text = evaluate_command(args.config, args.split, args.repeats, args.log, args.resume,
                                   args.model, args.workers, args.rate, tasks=args.tasks,
                                   family=args.family, loop=args.loop)
    except EvalInterrupted as stop:
        print(f"\ninterrupted after {stop.done} of {stop.total} runs, kept in {args.log}: run the same "
              "command with --resume to carry on", file=sys.stderr)
        return 130
    except (ValueError, ModelConfigError) as error:
        from ..backends.api_errors import redact

        print(f"react-course: {redact(error)}", file=sys.stderr)
        return 2
    print(text)
    print(f"\nstep events: {args.log}")
    return 0
