"""Tools the model can call: the registry, and the course's bundled offline tools.

Each bundled tool is a method of a small object that holds its data (the
encyclopedia remembers the page last opened, for ``lookup``), so every
``*_tools()`` call returns fresh, independent tools.
"""

from __future__ import annotations

import datetime as dt

from ..calculator import calculate
from ..errors import ToolDefinitionError
from .clock import Clock
from .definition import Tool, repeatable, side_effect
from .encyclopedia import Encyclopedia, Page
from .registry import ToolOutcome, ToolRegistry, as_registry
from .shop import Shop
from .support import SupportDesk

__all__ = [
    "Clock",
    "Encyclopedia",
    "Page",
    "Shop",
    "SupportDesk",
    "Tool",
    "ToolDefinitionError",
    "ToolOutcome",
    "ToolRegistry",
    "as_registry",
    "default_tools",
    "encyclopedia_tools",
    "repeatable",
    "shop_tools",
    "side_effect",
    "support_tools",
]


def encyclopedia_tools() -> ToolRegistry:
    """``search``, ``lookup`` and ``calculate``: for the encyclopedia questions."""
    book = Encyclopedia()
    return ToolRegistry([book.search, book.lookup, calculate])


def shop_tools() -> ToolRegistry:
    """``price`` and ``calculate``: for the shop question."""
    return ToolRegistry([Shop().price, calculate])


def support_tools() -> ToolRegistry:
    """``get_order``, ``get_policy`` and ``calculate``: for the support desk."""
    desk = SupportDesk()
    return ToolRegistry([desk.get_order, desk.get_policy, calculate])


def default_tools(today: dt.date | None = None) -> ToolRegistry:
    """Every bundled tool; ``today`` fixes the clock's date."""
    book, desk = Encyclopedia(), SupportDesk()
    return ToolRegistry([book.search, book.lookup, calculate, Shop().price,
                         desk.get_order, desk.get_policy, Clock(today).today])
