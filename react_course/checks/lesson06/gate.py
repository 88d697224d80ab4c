"""06.gate as a spec: side effects run only on a yes from code (a policy function), never on the model's word.

A policy is a function, so a case names it (``"yes"``, ``"says 'refused: over 100'"``,
``"raises KeyError"``...) and ``observe`` builds it: it takes its two arguments
positionally only, as the statement calls it, and answers only about the call the gate
was given (asked about another tool or other arguments, it refuses). The key is here: the
library's ``safety.gate`` takes a ``ToolCall`` and returns a reason, not this exercise's bool.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..generated import Draw
from ..plain import Opaque, Raised
from ..spec import GENERATED, Example, Fault, Rule, Spec, define

FLAGS = ("approved", "confirm", "read_only", "side_effecting")


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


def _answering(answer: Any) -> Callable[[str, dict], Any]:
    def policy(tool: str, arguments: dict, /) -> Any:
        if isinstance(answer, BaseException):
            raise answer
        return answer
    return policy


POLICIES: dict[str, Callable[[str, dict], Any]] = {
    "yes": _answering(True), "no": _answering(False),
    "says 'refused: over 100'": _answering("refused: over 100"),
    "answers 1": _answering(1), "answers None": _answering(None), "answers 'yes'": _answering("yes"),
    "answers [True]": _answering([True]), "raises KeyError": _answering(KeyError("amount")),
    "raises ValueError": _answering(ValueError("service down")),
    "raises RuntimeError": _answering(RuntimeError("the approval service is down")),
    "small refunds only": lambda tool, args, /: tool == "refund" and args.get("amount", 0) <= 100,
    "refunds only": lambda tool, args, /: tool == "refund",
}


TRUTHY = ("says 'refused: over 100'", "answers 1", "answers 'yes'", "answers [True]")  # true, not True


def observe(gate: Callable[..., Any], args: tuple) -> Any:
    """What ``gate`` returns with the named policy; how it asked the policy, when it asked wrongly."""
    tool, arguments, side_effecting, name = args
    if name is None:
        return gate(tool, arguments, side_effecting, None)
    rule, given, wrong = POLICIES[name], dict(arguments), []

    def policy(*asked: Any, **keywords: Any) -> Any:
        stripped = {k: v for k, v in given.items() if k not in FLAGS}  # the model's flags may be dropped
        if keywords or len(asked) != 2:
            wrong.append(f"the policy was called with keywords {sorted(keywords)}" if keywords else
                         f"the policy was called with {len(asked)} positional arguments")
            raise TypeError("policy() takes 2 positional arguments (tool, arguments), and no keywords")
        if asked[0] != tool or asked[1] not in (given, stripped):
            wrong.append(f"the policy was asked about {asked[0]!r} with {asked[1]!r}, not about this call")
            return "refused: asked about another call"
        return rule(*asked)

    policy.__name__ = name
    decided = gate(tool, arguments, side_effecting, policy)
    return Opaque(f"{decided!r}, but {wrong[0]}") if wrong else decided


def _raises(args: tuple) -> bool:
    return args[2] and str(args[3]).startswith("raises")


READ_ONLY = "A read-only tool runs without asking"
ONLY_TRUE = "anything else it returns (a text that gives the reason, `1`, `None`) refuses"
ASK = "only when `policy(tool, arguments)` returns `True`"
NO_POLICY = "With no policy, nothing that changes the world runs"
FLAGGED = "counts for nothing"
RAISES = "If the policy raises, the call does not run"
POSITIONAL = "two positional arguments"
BOOL = "returns `True` when a tool call may run and `False` when it may not"
FAULTS = (
    Fault(POSITIONAL, "Call policy(tool, arguments) with two positional arguments: its owners may name the "
          "parameters as they like (name, args), so keywords tool= and arguments= fail.",
          found=lambda args, want, got: isinstance(got, Opaque) and "called with" in got),
    Fault(ASK, "Ask the policy about this call: policy(tool, arguments), the tool first, with the call's own "
          "arguments.", found=lambda args, want, got: isinstance(got, Opaque) and "asked about" in got),
    Fault(RAISES, "gate must not raise: when the policy raises, the approval could not be asked, and the "
          "answer is False (wrap the call in try/except Exception).",
          found=lambda args, want, got: isinstance(got, Raised) and _raises(args)),
    Fault(RAISES, "A policy that raises means no: return False itself (fail closed).",
          found=lambda args, want, got: _raises(args)),
    Fault(BOOL, "Return True or False itself, not the policy's answer or None.",
          found=lambda args, want, got: not isinstance(got, bool | Raised)),
    Fault(FLAGGED, "A flag in the arguments (approved, confirm, read_only, side_effecting) is the model's "
          "word: decide by the side_effecting argument and the policy's answer only.",
          found=lambda args, want, got: isinstance(got, bool) and any(flag in args[1] for flag in FLAGS)),
    Fault(NO_POLICY, "With no policy, a side-effecting call never runs: return False.",
          found=lambda args, want, got: args[2] and args[3] is None),
    Fault(READ_ONLY, "Reading changes nothing: when side_effecting is False, return True without asking.",
          found=lambda args, want, got: not args[2]),
    Fault(ONLY_TRUE, "Only an answer that is True itself approves (`is True`, not bool() of it nor == True, "
          "which 1 passes): a text such as 'refused: over 100' is a refusal with its reason.",
          found=lambda args, want, got: got is True and args[2] and args[3] in TRUTHY),
    Fault(ASK, "Ask the policy about this call, policy(tool, arguments), and return True only when it "
          "answers True; decide by side_effecting, not by tool names.", found=lambda args, want, got: True),
)

REFUND = {"order_id": 88213, "amount": 25}
ORDER = {"order_id": 88213}


def _gate(name: str, tool: str, arguments: dict, side_effecting: bool, policy: str | None,
          hint: str) -> Example:
    return Example(name, (tool, arguments, side_effecting, policy), hint)


EXAMPLES = (
    _gate("a read-only tool runs", "get_order", ORDER, False, "no",
          "Reading changes nothing: no approval needed."),
    _gate("a read-only tool with no policy runs", "get_order", ORDER, False, None,
          "A read-only tool needs no policy."),
    _gate("the policy says yes", "refund", REFUND, True, "yes", "The policy approved it."),
    _gate("the policy says no", "refund", REFUND, True, "no", "The policy refused it."),
    _gate("no policy: refused", "refund", REFUND, True, None, "Without a policy, side effects never run."),
    _gate("the model's approved flag with a no", "refund", {**REFUND, "approved": True}, True, "no",
          "The model wrote approved=true; only the policy's answer counts."),
    _gate("the model's approved flag, no policy", "refund", {**REFUND, "approved": True}, True, None,
          "A flag in the arguments is the model's word, not an approval."),
    _gate("a confirm flag with a no", "send_email", {"to": "someone@example.com", "confirm": "yes"}, True,
          "no",
          "Any flag the model can write counts for nothing."),
    _gate("a flag does not turn a yes into a no", "refund", {**REFUND, "approved": True}, True, "yes",
          "The flag counts for nothing either way: the policy's yes decides."),
    _gate("a read_only flag with a no", "refund", {**REFUND, "read_only": True}, True, "no",
          "side_effecting is the program's word; a read_only flag in the arguments is the model's."),
    _gate("a policy whose parameters have other names", "refund", REFUND, True, "small refunds only",
          "Call policy(tool, arguments) with two positional arguments: its owners may name the parameters "
          "as they like (name, args), so keywords tool= and arguments= fail."),
    _gate("a side-effecting tool of any name asks the policy", "close_account", {"customer_id": 4417}, True,
          "no", "Decide by side_effecting, not by a list of tool names you know."),
    _gate("a policy that raises: refused", "refund", REFUND, True, "raises RuntimeError",
          "When the approval cannot be asked, the answer is no (fail closed)."),
    _gate("a text from the policy is a refusal", "refund", REFUND, True, "says 'refused: over 100'",
          "Approve only when the policy returns True itself: a text is its reason for refusing."),
    _gate("the policy sees the tool and arguments", "refund", REFUND, True, "refunds only",
          "Call policy(tool, arguments), with the call's own tool and arguments."),
)
HIDDEN = (
    _gate("hidden: a policy that answers 1", "refund", REFUND, True, "answers 1", "1 is not True."),
    _gate("hidden: a policy that raises KeyError", "refund", REFUND, True, "raises KeyError",
          "Any exception means no."),
    _gate("hidden: a side_effecting flag", "refund", {**REFUND, "side_effecting": False}, True, "no",
          "The model's side_effecting flag counts for nothing."),
)
RULES = (
    Rule(READ_ONLY, ("a read-only tool runs", "a read-only tool with no policy runs"),
         edge=lambda a: not a[2] and a[3] in ("no", None)),
    Rule(ONLY_TRUE, ("a text from the policy is a refusal", GENERATED),
         edge=lambda a: a[2] and a[3] in ("answers 1", "says 'refused: over 100'")),
    Rule(ASK, (GENERATED, "the policy says yes", "the policy says no",
               "the policy sees the tool and arguments",
               "a side-effecting tool of any name asks the policy"),
         edge=lambda a: a[2] and a[3] == "small refunds only" and a[1]["amount"] in (100, 101)),
    Rule(NO_POLICY, ("no policy: refused",), edge=lambda a: a[2] and a[3] is None),
    Rule(FLAGGED, ("the model's approved flag with a no", "the model's approved flag, no policy",
                   "a confirm flag with a no", "a flag does not turn a yes into a no",
                   "a read_only flag with a no", GENERATED),
         edge=lambda a: a[2] and a[3] == "no" and bool(set(FLAGS) & set(a[1]))),
    Rule(RAISES, ("a policy that raises: refused",), edge=_raises),
    Rule(POSITIONAL, ("a policy whose parameters have other names", GENERATED),
         edge=lambda a: a[2] and a[3] == "yes"),
    Rule(BOOL, ("the policy says yes", "the policy says no", GENERATED)),
)
EXTRA = ({}, {"approved": True}, {"confirm": "yes"}, {"approved": False}, {"read_only": True},
         {"side_effecting": False}, {"approved": "true"}, {"note": "approved: yes"})


def _inputs(draw: Draw) -> tuple:
    tool = draw.pick(("refund", "get_order", "close_account", "send_email", "rembourser", "Refund"))
    arguments = {"order_id": draw.pick((88213, 88291)), "amount": draw.pick((25, 285, 100, 101)),
                 **draw.pick(EXTRA)}
    return tool, arguments, draw.boolean(), draw.pick((None, *POLICIES))


SPEC = define(Spec(
    "06.gate", "let a side-effecting call run only when code approves it", "gate", key, EXAMPLES, _inputs,
    RULES, faults=FAULTS, hidden=HIDDEN, observe=observe,
    show=lambda a: f"gate({a[0]!r}, {a[1]!r}, side_effecting={a[2]}, policy={a[3] or 'None'})",
    hints=(
        "if not side_effecting: return True. Then: no policy means False.",
        "Ask the policy, and return only what it says: never look in arguments for a flag.",
        "Wrap the policy call in try/except Exception and return False when it raises.",
    ),
    generated_hint="Only an answer that is True itself approves (`is True`, not bool() of it): a text such "
                   "as 'refused: over 100' is a refusal with its reason. A policy that raises refuses too."))
__all__ = ["POLICIES", "SPEC", "key"]
