"""Measure the course's performance budgets and report them (never asserted in tests).

    python benchmarks/run.py              import time, loop speed, every notebook
    python benchmarks/run.py --suite      also time the whole test suite
    python benchmarks/run.py --readme     also write the figures into README.md

Budgets (DESIGN.md): `import react_course` under 0.1 s; each notebook under 5 s on
the scripted model, kernel start included; the whole suite under 3 minutes on a
2-core machine (a fresh clone's test command under 5). Figures are medians over
repeats, in a fresh interpreter or kernel each time, on a shared machine, with the
load average at the start: read them as "about", not as exact.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results.json"
README_MARK = "<!-- benchmarks -->"


def import_time(repeats: int = 7) -> float:
    """Median seconds for `import react_course` in a fresh interpreter."""
    code = "import time; t = time.perf_counter(); import react_course; print(time.perf_counter() - t)"
    times = [float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                  check=True).stdout) for _ in range(repeats)]
    return statistics.median(times)


def loop_speed(seconds: float = 3.0) -> dict[str, float]:
    """Steps per second of run_react on the scripted model over the worked examples."""
    from react_course import WORKED_EXAMPLES, default_tools, demo_model, run_react

    steps = runs = 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        for question in WORKED_EXAMPLES:
            steps += run_react(question, demo_model(), default_tools()).model_calls
            runs += 1
    elapsed = time.perf_counter() - began
    return {"steps_per_second": steps / elapsed, "runs_per_second": runs / elapsed}


def notebook_times(repeats: int = 1) -> dict[str, float]:
    """Seconds to run each notebook top to bottom in a fresh kernel (kernel start included)."""
    from react_course.course.authoring import execute_notebook

    os.environ.pop("REACT_COURSE_MODEL", None)
    found = {}
    for folder in ("notebooks", "solutions", "exercises"):
        for path in sorted((ROOT / folder).glob("*.ipynb")):
            runs = []
            for _ in range(repeats):
                began = time.perf_counter()
                execute_notebook(path, save=False, allow_errors=True)
                runs.append(time.perf_counter() - began)
            found[f"{folder}/{path.name}"] = statistics.median(runs)
    return found


def suite_time() -> float:
    began = time.perf_counter()
    workers = str(2 * (os.cpu_count() or 1))  # as course.py test runs it (parallel_options)
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-n", workers], cwd=ROOT,
                   capture_output=True, check=False)
    return time.perf_counter() - began


def report(figures: dict) -> str:
    lines = [
        f"Measured {figures['date']} on {figures['machine']} (Python {figures['python']}), "
        f"load average {figures['load']:.1f} at the start.",
        "",
        "| what | measured | budget |",
        "|---|---|---|",
        f"| `import react_course` | {figures['import_seconds'] * 1000:.0f} ms | 100 ms |",
        f"| loop on the scripted model | {figures['loop']['steps_per_second']:,.0f} steps/s "
        f"({figures['loop']['runs_per_second']:,.0f} runs/s) | – |",
    ]
    notebooks = figures.get("notebooks", {})
    if notebooks:
        slowest = max(notebooks, key=notebooks.get)
        lines.append(f"| slowest notebook (`{slowest}`, fresh kernel) | {notebooks[slowest]:.1f} s | 5 s |")
        lines.append(f"| all {len(notebooks)} notebooks, one after another | "
                     f"{sum(notebooks.values()):.0f} s | – |")
    if "suite_seconds" in figures:
        lines.append(f"| whole test suite (`python3 course.py test`, set-up done) | "
                     f"{figures['suite_seconds'] / 60:.1f} min | 3 min |")
    return "\n".join(lines)


def update_readme(text: str) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index(README_MARK) + len(README_MARK)
    end = readme.find("\n## ", start)
    readme = readme[:start] + "\n" + text + "\n" + readme[end:]
    (ROOT / "README.md").write_text(readme, encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", action="store_true", help="also time the whole test suite")
    parser.add_argument("--readme", action="store_true", help="write the figures into README.md")
    parser.add_argument("--no-notebooks", action="store_true", help="skip the notebook timings")
    args = parser.parse_args()

    figures: dict = {
        "date": time.strftime("%Y-%m-%d"),
        "machine": f"{os.cpu_count()} cores, {platform.system()} {platform.machine()}",
        "python": platform.python_version(),
        "load": os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0,
        "import_seconds": import_time(),
        "loop": loop_speed(),
    }
    if not args.no_notebooks:
        figures["notebooks"] = notebook_times()
    if args.suite:
        figures["suite_seconds"] = suite_time()
    RESULTS.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    text = report(figures)
    print(text)
    for name, seconds in figures.get("notebooks", {}).items():
        print(f"  {seconds:5.1f} s  {name}")
    if args.readme:
        update_readme(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
