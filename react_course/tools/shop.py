"""The shop: a price list, and a tool that is strict about item names.

``price`` matches names exactly (case aside): "notebooks" is not an item.
Lesson 04 uses that strictness to show a model slipping and recovering, and
asks what a forgiving tool (one that strips a plural s) would change.
"""

from __future__ import annotations

from .data import load_json


class Shop:
    """A price list; ``price`` is its tool."""

    def __init__(self, prices: dict[str, int] | None = None) -> None:
        self.prices = dict(prices if prices is not None else load_json("shop.json")["prices"])

    def price(self, item: str) -> str:
        """Return the price of one item in the shop, by its singular name. Items are
        stationery such as notebook or pen. Example input: notebook
        """
        name = item.strip().strip("\"'`").lower()
        for article in ("a ", "an ", "one "):
            name = name.removeprefix(article)
        if name in self.prices:
            article = "An" if name[0] in "aeiou" else "A"
            return f"{article} {name} costs {self.prices[name]}."
        return (f"The shop has no item called {item.strip()!r}. "
                f"Items: {', '.join(sorted(self.prices))}.")
