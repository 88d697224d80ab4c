"""The generated cases of 06.idempotency: pairs of actions that a weak key confuses.

Each case is two actions ``(run_id, tool, arguments)``. Most are the same action
rebuilt (its keys in another order) or changed in one clear way: another run, tool,
name or value. The rest are look-alikes: equal amounts written differently (2.5 and
2.50, ``-0`` and ``0``, one action), and different actions that a text without
escapes, types or enough digits would write the same way (``["a,b"]`` and ``["a",
"b"]``, ``{1: "x"}`` and ``{"1": "x"}``, a separator moved from the run id into the
tool's name).
"""

from __future__ import annotations

from decimal import Decimal

from ..generated import Draw

THIRTY = Decimal("1." + "0" * 28 + "1")  # 1 but for its 30th digit: past the 28 of Decimal's context
D = Decimal
VALUES = (25, "25", D("25.50"), "25.50", None, "None", True, 1, "true", 0, False, "", "Zürich ✓", [1, 2],
          [2, 1], {"a": 1, "b": [2]}, "a|b", 88213, -1, 10**30, D("-0"), D("1E+1"), D("-2.5"), THIRTY,
          [D("2.5"), "x"], {"n": D("0.10"), 1: "y"}, "a,b", "b:c", ["a", "b"], ["a,b"], "[1, 2]", '"quoted"',
          "back\\slash")
# Pairs that look alike: equal amounts written differently (one action), and different actions
# that a text without escapes, types or enough digits would write the same way.
LOOKALIKES = (*(({"x": a}, {"x": b}) for a, b in (
    (D("2.5"), D("2.50")), ([D("-0")], [D("0.00")]), (D("1E+1"), D(10)), ({"y": D("7")}, {"y": D("7.0")}),
    (THIRTY, D(1)), (D("2.5"), D(2)), (D("10.01"), D("10.011")), (D("-2.5"), D("2.5")), (["a", "b"], ["a,b"]),
    ([["a"], "b"], ["a", ["b"]]), ("[1, 2]", [1, 2]), (None, "None"), (True, 1), (False, 0),
    ({"a": 1, "b": 2}, {"b": 2, "a": 1}), ({"a": [1], 2: "z"}, {2: "z", "a": [1]}))),
    ({"a": "b:c"}, {"a:b": "c"}), ({"x": "a", "y": "b"}, {"x": "a,y:b"}), ({1: "x"}, {"1": "x"}))
NAMES = ("order_id", "amount", "note", "a", "b", "ab", 1, "1", "", "ключ")
MOVED = ((("r:x", "refund"), ("r", "x:refund")), (("r|x", "refund"), ("r", "x|refund")),
         (("r", "x,refund"), ("r,x", "refund")), (("r-7", "refund"), ("r", "7-refund")))


def _arguments(draw: Draw) -> dict:
    return {draw.pick(NAMES): draw.pick(VALUES) for _ in range(draw.below(4))}


def _changed(draw: Draw, action: tuple) -> tuple:
    """The same action rebuilt (its keys in another order), or one that differs in one clear way."""
    run_id, tool, arguments = action
    how = draw.below(7)
    if how == 0:
        return run_id, tool, dict(reversed(list(arguments.items())))
    if how == 1:  # the boundary between run id and tool moved: needs a separator
        return run_id + tool[:1], tool[1:], arguments
    if how == 2:
        return draw.pick(("run-7", "run-8", "run-7 ", "r:x")), tool, arguments
    if how == 3:
        return run_id, draw.pick(("refund", "cancel_order", "Refund", "x:refund")), arguments
    changed = dict(arguments)
    name = draw.pick(NAMES)
    if how == 4:
        changed.pop(name, None)
    else:
        changed[name] = draw.pick(VALUES)
    return run_id, tool, changed


def pairs(draw: Draw) -> tuple:
    """The arguments of one generated case: a first action and its retry, or a look-alike."""
    run_id, tool = draw.pick(("run-7", "r", "运行-1", "r:x")), draw.pick(("refund", "efund", "send_email"))
    way = draw.below(8)
    if way == 7:  # a delimiter moved from the run id into the tool's name
        first, second = draw.pick(MOVED)
        actions = (*first, {}), (*second, {})
    elif way >= 5:  # a look-alike pair, either way round
        pair = draw.pick(LOOKALIKES)
        first, second = pair if draw.boolean() else pair[::-1]
        actions = (run_id, tool, first), (run_id, tool, second)
    else:
        first = (run_id, tool, _arguments(draw))
        actions = first, _changed(draw, first)
    return actions
