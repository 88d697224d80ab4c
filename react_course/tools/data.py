"""Read the course's bundled data files (``react_course/data/*.json``)."""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from typing import Any


@cache
def load_json(name: str) -> Any:
    """Parse a bundled data file once; treat the result as read-only.

    >>> sorted(load_json("shop.json")["prices"])[:3]
    ['backpack', 'eraser', 'notebook']
    """
    return json.loads((files("react_course") / "data" / name).read_text(encoding="utf-8"))
