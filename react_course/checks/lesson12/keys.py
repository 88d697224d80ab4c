"""The answer keys of lesson 12's exercises.

``read_plan`` is the library's (``structure.read_plan``, which the lesson calls the library's
version, so the two cannot drift apart); ``reflection`` names the kind of lesson where the
library's ``structure.reflect`` writes the lesson's words, so it is written out here.
"""

from __future__ import annotations

from ...structure import read_plan

__all__ = ["read_plan", "reflection"]


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
