"""Check 06.gate: side effects run only on a yes from code (a policy function), never on the model's word."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import exercise
from ..framework import Case
from ..generated import Comparison, Draw, call_text, same_value
from ..lesson05.faults import Diagnosed, Fault

GENERATED = "agrees with the answer key on generated inputs"
RULES = {
    "A read-only tool runs without asking": ("a read-only tool runs", "a read-only tool with no policy runs"),
    "anything else it returns (a text that gives the reason, `1`, `None`) refuses": (
        "a text from the policy is a refusal", GENERATED),
    "only when `policy(tool, arguments)` returns `True`": (GENERATED,
        "the policy says yes", "the policy says no", "the policy sees the tool and arguments",
        "a side-effecting tool of any name asks the policy"),
    "With no policy, nothing that changes the world runs": ("no policy: refused",),
    "counts for nothing": ("the model's approved flag with a no", "the model's approved flag, no policy",
                           "a confirm flag with a no", "a flag does not turn a yes into a no",
                           "a read_only flag with a no", GENERATED),
    "If the policy raises, the call does not run": ("a policy that raises: refused",),
    "two positional arguments": ("a policy whose parameters have other names", GENERATED),
}

REFUND = {"order_id": 88213, "amount": 25}


def _case(gate: Callable, name: str, tool: str, side_effecting: bool, arguments: dict,
          policy: Any, expected: bool, hint: str, test: Callable | None = None) -> Case:
    def check_result(got: Any) -> bool | str:
        if not isinstance(got, bool):
            return f"return True or False, not {got!r}"
        if test is not None:
            verdict = test()
            if verdict is not True:
                return verdict
        return got == expected or f"expected {expected}, got {got}"

    label = getattr(policy, "__name__", repr(policy))
    return Case(name, lambda: gate(tool, arguments, side_effecting, policy), test=check_result,
                given=f"gate({tool!r}, {arguments!r}, side_effecting={side_effecting}, policy={label})",
                hint=hint)


def yes(tool: str, arguments: dict) -> bool:
    return True


def no(tool: str, arguments: dict) -> bool:
    return False


def broken(tool: str, arguments: dict) -> bool:
    raise RuntimeError("the approval service is down")


def owners_rule(name: str, args: dict, /) -> bool:
    """A policy written by a tool's owners, who named its parameters their own way."""
    return name == "refund" and args.get("amount", 0) <= 100


@exercise(
    "06.gate",
    "let a side-effecting call run only when code approves it",
    hints=(
        "if not side_effecting: return True. Then: no policy means False.",
        "Ask the policy, and return only what it says: never look in arguments for a flag.",
        "Wrap the policy call in try/except Exception and return False when it raises.",
    ),
    rules=RULES,
)
def gate_cases(gate: Callable):
    yield _case(gate, "a read-only tool runs", "get_order", False, {"order_id": 88213}, no, True,
                "Reading changes nothing: no approval needed.")
    yield _case(gate, "a read-only tool with no policy runs", "get_order", False, {"order_id": 88213},
                None, True, "A read-only tool needs no policy.")
    yield _case(gate, "the policy says yes", "refund", True, REFUND, yes, True, "The policy approved it.")
    yield _case(gate, "the policy says no", "refund", True, REFUND, no, False, "The policy refused it.")
    yield _case(gate, "no policy: refused", "refund", True, REFUND, None, False,
                "Without a policy, side effects never run.")
    yield _case(gate, "the model's approved flag with a no", "refund", True, {**REFUND, "approved": True},
                no, False, "The model wrote approved=true; only the policy's answer counts.")
    yield _case(gate, "the model's approved flag, no policy", "refund", True, {**REFUND, "approved": True},
                None, False, "A flag in the arguments is the model's word, not an approval.")
    yield _case(gate, "a confirm flag with a no", "send_email", True,
                {"to": "someone@example.com", "confirm": "yes"}, no, False,
                "Any flag the model can write counts for nothing.")
    yield _case(gate, "a flag does not turn a yes into a no", "refund", True, {**REFUND, "approved": True},
                yes, True, "The flag counts for nothing either way: the policy's yes decides.")
    yield _case(gate, "a read_only flag with a no", "refund", True, {**REFUND, "read_only": True}, no, False,
                "side_effecting is the program's word; a read_only flag in the arguments is the model's.")
    yield _case(gate, "a policy whose parameters have other names", "refund", True, REFUND, owners_rule,
                True, "Call policy(tool, arguments) with two positional arguments: its owners may name "
                "the parameters as they like (name, args), so keywords tool= and arguments= fail.")
    yield _case(gate, "a side-effecting tool of any name asks the policy", "close_account", True,
                {"customer_id": 4417}, no, False,
                "Decide by side_effecting, not by a list of tool names you know.")
    yield _case(gate, "a policy that raises: refused", "refund", True, REFUND, broken, False,
                "When the approval cannot be asked, the answer is no (fail closed).")
    yield _case(gate, "a text from the policy is a refusal", "refund", True, REFUND,
                Policy("refuse_large", "refused: over the limit"), False,
                "Approve only when the policy returns True itself: a text is its reason for refusing.")
    yield COMPARISON.case(gate)
    seen: list = []

    def recording(tool: str, arguments: dict) -> bool:
        seen.append((tool, dict(arguments)))
        return True

    yield _case(gate, "the policy sees the tool and arguments", "refund", True, REFUND, recording, True,
                "Call policy(tool, arguments).",
                test=lambda: seen[-1:] == [("refund", REFUND)] or
                f"the policy was asked {seen[-1:]}, expected [('refund', {REFUND})]")


def key(tool: str, arguments: dict, side_effecting: bool, policy: Any) -> bool:
    """The answer key: read-only runs; else only an answer that is True itself, failing closed."""
    if not side_effecting:
        return True
    if policy is None:
        return False
    try:
        return policy(tool, arguments) is True
    except Exception:
        return False


class Policy:
    """A named policy that gives one answer (or raises it), shown by its name in the feedback."""

    def __init__(self, name: str, answer: Any) -> None:
        self.name, self.answer = name, answer

    def __call__(self, tool: str, arguments: dict, /) -> Any:  # positional, as the statement calls it
        answer = self.answer(tool, arguments) if callable(self.answer) else self.answer
        if isinstance(answer, BaseException):
            raise answer
        return answer

    def __repr__(self) -> str:
        return self.name


POLICIES = (Policy("yes", True), Policy("no", False), None,
            Policy("says 'refused: over 100'", "refused: over 100"),
            Policy("answers 1", 1), Policy("answers None", None), Policy("answers 'yes'", "yes"),
            Policy("answers [True]", [True]), Policy("raises KeyError", KeyError("amount")),
            Policy("raises ValueError", ValueError("service down")),
            Policy("small refunds only", lambda tool, args: args.get("amount", 0) <= 100),
            Policy("says 'refund' only", lambda tool, args: tool == "refund"))
FLAGS = ({}, {"approved": True}, {"confirm": "yes"}, {"approved": False}, {"read_only": True},
         {"side_effecting": False}, {"approved": "true"})


def _inputs(draw: Draw) -> tuple:
    tool = draw.pick(("refund", "get_order", "close_account", "send_email", "rembourser"))
    arguments = {"order_id": draw.pick((88213, 88291)), "amount": draw.pick((25, 285, 100, 101)),
                 **draw.pick(FLAGS)}
    return tool, arguments, draw.boolean(), draw.pick(POLICIES)


def _flagged(args: tuple, expected: Any, got: Any) -> bool:
    return got is True and any(flag in args[1] for flag in ("approved", "confirm", "read_only",
                                                              "side_effecting"))


FAULTS = (
    Fault("counts for nothing", "a flag in the arguments", _flagged,
          "A flag in the arguments (approved, confirm, read_only, side_effecting) is the model's word: "
          "decide by the side_effecting argument and the policy's answer only."),
    Fault("two positional arguments", "a policy that refused to be called", lambda args, e, got: e is True,
          "Call policy(tool, arguments) with two positional arguments, and approve only on True itself."),
    Fault("anything else it returns (a text that gives the reason, `1`, `None`) refuses",
          "an answer not True",
          lambda args, expected, got: got is True and expected is False and args[2],
          "Only an answer that is True itself approves (`is True`, not bool() of it)."),
)

COMPARISON = Diagnosed(Comparison(
    "06.gate", key, _inputs, lambda args, expected, got: same_value(expected, got), call_text("gate"),
    hint="Only an answer that is True itself approves (`is True`, not bool() of it): a text such as "
         "'refused: over 100' is a refusal with its reason. A policy that raises refuses too."), FAULTS,
    raised="gate must not raise: a policy that raises means the call does not run.")
