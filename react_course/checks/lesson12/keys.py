"""The answer keys of lesson 12's exercises, the same as the solutions notebook's."""

from __future__ import annotations

import re

PLAN_LINE = re.compile(r"^\s*(?:\d+\.\s*)?([A-Za-z_]\w*)\s*:\s*(.*?)\s*$")


def read_plan(text: str, limit: int) -> list[tuple[str, str]]:
    calls = []
    for line in text.splitlines():
        found = PLAN_LINE.match(line)
        if found and len(calls) < limit:
            calls.append((found.group(1), found.group(2)))
    return calls


def reflection(run: dict) -> str | None:
    if run["end_reason"] == "final_answer":
        return None
    if "unknown_tool" in run["errors"]:
        return "unknown_tool"
    if run["end_reason"] == "step_limit" and not run["calls"]:
        return "no_action"
    if "parse_error" in run["errors"]:
        return "unreadable"
    if run["end_reason"] == "repeating":
        return "repeating"
    return "other"
