"""The support desk: orders and policies, for the capstone's refund question.

``get_order`` says in words when an order does not exist: a tool that returns
an empty string instead invites the model to invent an order. ``get_policy``
finds a policy by topic or keyword and lists the topics when none fits.

What it leaves out: customers, authentication and anything that changes an
order (refunds are side effects, and lesson 06 gates those behind approval).
"""

from __future__ import annotations

from .data import load_json


def _minutes(clock: str) -> int:
    """Minutes since midnight.

    >>> _minutes("19:02") - _minutes("18:00")
    62
    """
    hours, minutes = clock.split(":")
    return int(hours) * 60 + int(minutes)


def describe_order(order: dict) -> str:
    """One line with everything the desk knows about an order."""
    parts = [f"Order {order['id']}: status {order['status']}", f"promised {order['promised']}"]
    if order.get("delivered"):
        late = _minutes(order["delivered"]) - _minutes(order["promised"])
        timing = (f"{late} minutes late" if late > 0
                  else "on time" if late == 0 else f"{-late} minutes early")
        parts.append(f"delivered {order['delivered']} ({timing})")
    else:
        parts.append("not delivered")
    cur = order["currency"]
    parts += [f"item price {order['item_price']} {cur}", f"delivery fee {order['delivery_fee']} {cur}"]
    return "; ".join(parts) + "."


class SupportDesk:
    """Orders and policies; ``get_order`` and ``get_policy`` are its tools."""

    def __init__(self, orders: list[dict] | None = None, policies: list[dict] | None = None):
        data = load_json("support.json")
        self.orders = {o["id"]: o for o in (orders if orders is not None else data["orders"])}
        self.policies = list(policies if policies is not None else data["policies"])

    def get_order(self, order_id: int) -> str:
        """Look up an order by its number: status, promised and delivered times, minutes
        late, item price and delivery fee. Example input: 88213
        """
        order = self.orders.get(order_id)
        if order is None:
            return (f"No order {order_id} exists. Check the number: "
                    "order numbers have five digits, e.g. 88213.")
        return describe_order(order)

    def get_policy(self, topic: str) -> str:
        """Return the support policy on a topic, such as late delivery, damaged item,
        cancellation or refund method. Example input: late delivery
        """
        words = set(topic.lower().replace("-", " ").split())
        best, best_score = None, 0
        for policy in self.policies:
            score = 3 * len(words & set(policy["topic"].split())) + len(words & set(policy["keywords"]))
            if score > best_score:
                best, best_score = policy, score
        if best is None:
            topics = ", ".join(sorted(p["topic"] for p in self.policies))
            return f"No policy matches {topic.strip()!r}. Topics: {topics}."
        return f"[{best['topic']}] {best['text']}"
