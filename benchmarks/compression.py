"""Measure what compressing a long run's history saves, what it costs, and whether tasks survive.

    python benchmarks/compression.py           print the tables
    python benchmarks/compression.py --save    also write benchmarks/compression.json

One run per task and setting, on the bundled long tasks (``react_course.lessons.long_tasks``:
10, 12 and 15 orders, 12 to 17 model calls each) with their scripted models, so
every figure is exact and repeatable. Input tokens are counted with
``count_tokens`` on every prompt the model was sent; the summariser's own tokens
are counted apart and added. "Cached" is what a prompt cache serves of the start
of each prompt that repeats the previous prompt: nothing for a prompt under 1,024
tokens, else whole 128-token blocks (``cost.cache_served``, OpenAI's rule before GPT-5.6).
Money uses the bundled dated prices: the agent on gpt-4o, the summariser on gpt-4o-mini;
the caching table prices every call by each model's own cache rules (``caching.run_cost``).
Token-counting speed is measured on the course's own source code.
"""

from __future__ import annotations

import argparse
import json
import time
from decimal import Decimal
from pathlib import Path

import react_course as rc
from react_course.context_cost.caching import calls_of, run_cost
from react_course.context_cost.context import Compressor, ExtractiveSummariser
from react_course.context_cost.cost import cache_served, cost, prices, shared_prefix_tokens
from react_course.context_cost.routing import Router
from react_course.lessons.long_tasks import TASKS, solved, task_model, task_tools
from react_course.record import Usage
from react_course.tokens import count_tokens, tokenizer_backend

ROOT = Path(__file__).resolve().parent.parent
SETTINGS = {  # (threshold, steps kept verbatim, characters each observation is cut to)
    "no compression": None,
    "compress past 600 tokens, keep 2 steps": (600, 2, None),
    "compress past 400 tokens, keep 1 step": (400, 1, None),
    "compress past 250 tokens, keep 1 step": (250, 1, None),
    "observations cut to 120 characters": (None, 0, 120),
    "cut to 120 characters, compress past 250, keep 1": (250, 1, 120),
}


def measure(task, history=None, model=None, cut: int | None = None) -> dict:
    """One run: its prompts' tokens, what a cache serves, the summariser's tokens, success.

    ``cut`` is the runtime's cut of each observation (``max_observation_chars``), if any.
    """
    model = model or task_model(task)
    limits = {"max_observation_chars": cut} if cut else {}
    run = rc.run_react(task.question, model, task_tools(), max_steps=20, history=history, **limits)
    prompts = [call.prompt for call in model.calls]
    usages, previous = [], ""
    for prompt, step in zip(prompts, run.steps, strict=False):
        usages.append(Usage(count_tokens(prompt), count_tokens(step.text),
                            cache_served(shared_prefix_tokens(previous, prompt))))
        previous = prompt
    summariser = history.usage if history is not None else Usage()
    return {"calls": run.model_calls, "solved": solved(task, run), "agent": sum(usages, Usage()),
            "summariser": summariser}


def money(agent: Usage, summariser: Usage, cached: bool) -> Decimal:
    table = prices()
    if not cached:
        agent = Usage(agent.input, agent.output)
    return cost(agent, table["gpt-4o"]) + cost(summariser, table["gpt-4o-mini"])


def compression_table() -> dict[str, dict]:
    rows = {}
    for name, setting in SETTINGS.items():
        results = []
        threshold, keep, cut = setting or (None, 0, None)
        for task in TASKS:
            history = None
            if threshold is not None:
                history = Compressor(ExtractiveSummariser(), threshold=threshold, keep_last=keep)
            results.append(measure(task, history, cut=cut))
        rows[name] = _totals(results)
    return rows


def _totals(results: list[dict]) -> dict:
    agent = sum((r["agent"] for r in results), Usage())
    summariser = sum((r["summariser"] for r in results), Usage())
    return {"calls": sum(r["calls"] for r in results), "solved": sum(r["solved"] for r in results),
            "tasks": len(results), "agent_input": agent.input, "cached": agent.cached_input,
            "summariser_input": summariser.input, "summariser_output": summariser.output,
            "input_with_summariser": agent.input + summariser.input,
            "dollars": str(money(agent, summariser, cached=False)),
            "dollars_with_cache": str(money(agent, summariser, cached=True))}


CACHE_SCHEMES = {"gpt-4o": ("none", "auto"), "gpt-5.6": ("none", "auto"),
                 "claude-opus-4-5": ("none", "5m", "1h"), "claude-opus-5-5": ("none", "5m", "1h")}
CACHE_SETTINGS = ("no compression", "compress past 400 tokens, keep 1 step",
                  "cut to 120 characters, compress past 250, keep 1")


def _plus(a: Decimal | None, b: Decimal | None) -> Decimal | None:
    return None if a is None or b is None else a + b


def caching_table() -> dict[str, dict[str, str | None]]:
    """Dollars for the long tasks under each model's own cache rules, with and without compression.

    Every call is priced by ``caching.run_cost`` from its prompt, the prefix it shares
    with the call before and its reply, by the model's row of the price table (its
    minimum, blocks, read and write multipliers); the summaries are priced on the
    same model, uncached. ``None`` is a figure the table cannot give (a price or a
    minimum nobody has read). ``largest prompt`` is the longest prompt any call sent.
    """
    table, rows = prices(), {}
    for name in CACHE_SETTINGS:
        threshold, keep, cut = SETTINGS[name] or (None, 0, None)
        row: dict[str, Decimal | None] = {}
        largest = 0
        for task in TASKS:
            model = task_model(task)
            history = Compressor(ExtractiveSummariser(), threshold=threshold, keep_last=keep) \
                if threshold else None
            measure(task, history, model, cut=cut)
            calls = calls_of(model.calls)
            largest = max([largest, *(prompt for prompt, _, _ in calls)])
            summaries = history.usage if history else Usage()
            for priced, schemes in CACHE_SCHEMES.items():
                extra = run_cost([(summaries.input, 0, summaries.output)], table[priced])
                for scheme in schemes:
                    key = f"{priced} {scheme}"
                    dollars = _plus(run_cost(calls, table[priced], scheme), extra)
                    row[key] = _plus(row.get(key, Decimal(0)), dollars)
        rows[name] = {key: None if value is None else str(value) for key, value in row.items()}
        rows[name]["largest prompt"] = str(largest)
    return rows


def routing_table() -> dict[str, dict]:
    """The agent on gpt-4o everywhere, on gpt-4o-mini everywhere, and routed."""
    table, rows = prices(), {}
    for name in ("strong model only", "cheap model only", "routed"):
        solved_count, dollars, calls = 0, Decimal(0), 0
        for task in TASKS:
            strong, cheap = task_model(task), task_model(task, careless=True)
            model = {"strong model only": strong, "cheap model only": cheap}.get(name)
            model = model or Router(strong, cheap)
            run = rc.run_react(task.question, model, task_tools(), max_steps=20)
            solved_count, calls = solved_count + solved(task, run), calls + run.model_calls
            if isinstance(model, Router):
                dollars += model.cost(table["gpt-4o"], table["gpt-4o-mini"])
                continue
            usage = sum((Usage(count_tokens(c.prompt), count_tokens(c.reply)) for c in model.calls),
                        Usage())
            dollars += cost(usage, table["gpt-4o" if model is strong else "gpt-4o-mini"])
        rows[name] = {"solved": solved_count, "tasks": len(TASKS), "calls": calls, "dollars": str(dollars)}
    return rows


def counting_speed() -> dict[str, float]:
    """Tokens per second of count_tokens on new text and on text seen before; ms per loop prompt."""
    text = "\n".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "react_course").rglob("*.py")))
    count_tokens("warm up the vocabulary")
    began = time.perf_counter()
    tokens = count_tokens(text)
    cold = time.perf_counter() - began
    began = time.perf_counter()
    count_tokens(text)
    warm = time.perf_counter() - began
    model = task_model(TASKS[2])
    rc.run_react(TASKS[2].question, model, task_tools(), max_steps=20)
    began = time.perf_counter()
    loop_tokens = sum(count_tokens(call.prompt) for call in model.calls)
    per_prompt = (time.perf_counter() - began) / len(model.calls)
    return {"backend": tokenizer_backend(), "tokens": tokens, "cold_tokens_per_second": tokens / cold,
            "warm_tokens_per_second": tokens / warm, "loop_prompt_tokens": loop_tokens,
            "ms_per_loop_prompt": per_prompt * 1000}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--save", action="store_true", help="write benchmarks/compression.json")
    args = parser.parse_args()
    compression, routing, speed = compression_table(), routing_table(), counting_speed()
    caching = caching_table()
    base = compression["no compression"]
    print(f"{'setting':50} {'solved':>6} {'calls':>5} {'agent in':>9} {'saved':>6} {'+summary':>9} "
          f"{'saved':>6} {'$':>7} {'$ cached':>8}")
    for name, row in compression.items():
        agent_saved = 1 - row["agent_input"] / base["agent_input"]
        saved = 1 - row["input_with_summariser"] / base["input_with_summariser"]
        print(f"{name:50} {row['solved']:>2}/{row['tasks']:<3} {row['calls']:>5} {row['agent_input']:>9,} "
              f"{agent_saved:>6.0%} {row['input_with_summariser']:>9,} {saved:>6.0%} "
              f"{Decimal(row['dollars']):>7.4f} {Decimal(row['dollars_with_cache']):>8.4f}")
    print()
    for name, row in routing.items():
        print(f"{name:40} {row['solved']:>2}/{row['tasks']:<3} {row['calls']:>5} "
              f"${Decimal(row['dollars']):.4f}")
    print()
    for name, row in caching.items():
        print(f"{name} (largest prompt {row['largest prompt']} tokens)")
        print("   " + "  ".join(f"{key} {'unknown' if v is None else f'${Decimal(v):.4f}'}"
                              for key, v in row.items() if key != "largest prompt"))
    print()
    print(f"count_tokens ({speed['backend']}): {speed['cold_tokens_per_second']:,.0f} tokens/s on new text, "
          f"{speed['warm_tokens_per_second']:,.0f} tokens/s on seen text, "
          f"{speed['ms_per_loop_prompt']:.2f} ms per loop prompt")
    if args.save:
        out = {"date": time.strftime("%Y-%m-%d"), "compression": compression, "routing": routing,
               "caching": caching, "speed": speed}
        path = ROOT / "benchmarks" / "compression.json"
        path.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
