"""The answer keys of lesson 09's exercises, the same as the solutions notebook's."""

from __future__ import annotations

import math
import re


def success_rate(runs: list[dict]) -> float:
    if not runs:
        return 0.0
    return sum(1 for r in runs if r["end_reason"] == "final_answer" and r["correct"]) / len(runs)


def p95_steps(steps: list[int]) -> int:
    if not steps:
        return 0
    ordered = sorted(steps)
    return ordered[math.ceil(0.95 * len(ordered)) - 1]


def repeat_rate(runs: list[list[tuple[str, str]]]) -> float:
    rates = []
    for calls in runs:
        if calls:
            rates.append(sum(1 for i, call in enumerate(calls) if call in calls[:i]) / len(calls))
    return sum(rates) / len(rates) if rates else 0.0


def pass_hat_k(outcomes: dict[str, list[bool]], k: int) -> float:
    shares = [math.comb(sum(r), k) / math.comb(len(r), k) for r in outcomes.values() if len(r) >= k]
    return sum(shares) / len(shares) if shares else 0.0


NUMBER = re.compile(r"(?<![\d.,])(\d[\d,]*(?:\.\d+)?)\s*([A-Za-z]*)")


def score_number(answer: str, value: float, unit: str) -> bool:
    for number, word in NUMBER.findall(answer):
        number = number.rstrip(",")
        if float(number.replace(",", "")) == value and word.lower() == unit.lower():
            return True
    return False
