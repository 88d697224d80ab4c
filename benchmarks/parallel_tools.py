"""Measure the wall-clock win of running one turn's read-only tool calls in parallel.

    python benchmarks/parallel_tools.py          print the figures
    python benchmarks/parallel_tools.py --json   also write them to benchmarks/parallel_tools.json

Four independent read-only calls that each take 0.2 s (a stand-in for a slow
lookup) go through ``execute.execute_all``, the door ``run_native`` uses; so
does one such call alone. Read-only calls run in parallel, so the four should
take about as long as one (the target: at most 1.25 times), not four times.
For contrast, the same four calls to a tool marked as side-effecting run one
at a time. Then a whole ``run_native`` turn through the real SDK and the
scripted server, four calls in one reply, against one.

Figures are medians over repeats on a shared machine: read them as "about".
Not a test: wall-clock thresholds do not belong in tests.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DELAY = 0.2  # seconds each tool call takes
REPEATS = 7


def slow_lookup(key: str) -> str:
    """Look a key up in a slow remote index (0.2 s). Example input: a"""
    time.sleep(DELAY)
    return f"value of {key}"


def slow_write(key: str) -> str:
    """Write a key to a slow remote store (0.2 s); a side effect. Example input: a"""
    time.sleep(DELAY)
    return f"wrote {key}"


def _median_seconds(action, repeats: int = REPEATS) -> float:
    times = []
    for _ in range(repeats):
        began = time.perf_counter()
        action()
        times.append(time.perf_counter() - began)
    return statistics.median(times)


def execute_all_figures() -> dict[str, float]:
    """Seconds for one call, four read-only calls, and four side-effecting calls."""
    from react_course.execute import execute_all
    from react_course.guards import Budget
    from react_course.record import ToolCall
    from react_course.tools import ToolRegistry
    from react_course.tools.definition import side_effect

    registry = ToolRegistry([slow_lookup, side_effect(slow_write)])
    calls = [ToolCall(f"call_{i}", "slow_lookup", {"key": k}) for i, k in enumerate("abcd")]
    writes = [ToolCall(f"call_{i}", "slow_write", {"key": k}) for i, k in enumerate("abcd")]
    allow = lambda call, tool: None  # noqa: E731  (the approval policy: yes to everything here)
    one = _median_seconds(lambda: execute_all(calls[:1], registry, Budget(), policy=allow))
    four = _median_seconds(lambda: execute_all(calls, registry, Budget(), policy=allow))
    serial = _median_seconds(lambda: execute_all(writes, registry, Budget(), policy=allow), repeats=3)
    return {"one_call": one, "four_read_only": four, "four_side_effecting": serial,
            "ratio_four_to_one": four / one}


def run_native_figures() -> dict[str, float]:
    """A whole native turn through the SDK and the scripted server: four calls in one reply vs one."""
    import openai

    from react_course.native import run_native
    from react_course.scripted_api import serve
    from react_course.scripted_api.models import Call, ChatTurn, ScriptedChatModel
    from react_course.tools import ToolRegistry

    def model(n: int) -> ScriptedChatModel:
        calls = tuple(Call("slow_lookup", {"key": k}) for k in "abcd"[:n])
        return ScriptedChatModel([ChatTurn("", calls), "done"] * (REPEATS + 1))

    figures = {}
    for n in (1, 4):
        with serve(model(n)) as url:
            client = openai.OpenAI(base_url=url, api_key="scripted", max_retries=0)
            def run(client=client) -> None:
                run_native(client, ToolRegistry([slow_lookup]), "Look up.", model="m")

            run()  # warm up the connection
            figures[f"run_native_{n}_call{'s' * (n > 1)}"] = _median_seconds(run, REPEATS - 1)
    figures["run_native_ratio"] = figures["run_native_4_calls"] / figures["run_native_1_call"]
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="write benchmarks/parallel_tools.json")
    options = parser.parse_args()
    figures = {**execute_all_figures(), **run_native_figures()}
    for name, value in figures.items():
        unit = "" if "ratio" in name else " s"
        print(f"{name:<24} {value:.3f}{unit}")
    if options.json:
        out = ROOT / "benchmarks" / "parallel_tools.json"
        out.write_text(json.dumps({k: round(v, 4) for k, v in figures.items()}, indent=1) + "\n")


if __name__ == "__main__":
    main()
