"""react_course: build ReAct agents from scratch, offline, and make them reliable.

The reference implementation that the course's notebooks import. Each module
holds one idea; the agent a student reads, in the order the lessons teach it:

    models      a model is model(prompt, stop) -> text; scripted models    (02)
    prompts     the text ReAct prompt, and reading one back                 (02)
    record      the run record: ToolCall, Observation, Step, RunResult      (02)
    transcript  a run as a scratchpad, a trace and chat messages            (02)
    driver      the step loop both agents share                             (02, 07)
    loop        run_react: the text agent over the driver                   (02)
    stops       stop sequences and the client-side cut                      (03)
    segments    a reply's lines grouped by keyword                          (03)
    parsing     parse_step: Action, FinalAnswer or ParseError               (03)
    tools       typed functions as tools; the bundled offline tools         (04)
    calculator  arithmetic without eval                                     (04)
    execute     the one door every tool call passes                         (04-06)
    limits      the program's stopping rules; the end reasons               (05)
    guards      the Budget that enforces them                               (05)
    stopping    should_stop, step limits per task, near-repeats, hand-over  (05)
    retry       back-off for failed model calls, within the run's time      (05)
    safety      provenance, grounding, the approval gate, idempotency       (06)
    answers     a final answer in a JSON schema, checked by its citations   (06)
    native      run_native: the native agent over the same driver           (07)
    schemas     tool declarations for native calls, from typed functions    (07)
    wire        Chat Completions and Responses, as the native loop needs    (07)
    conversation  the next Responses request: server state or client state    (07)
    tokens      exact token counts (offline), and a rule-of-thumb estimate  (08)
    cost        dated prices, money as Decimal, the closed forms of a run   (08)
    caching     prompt caching as OpenAI and Anthropic bill it              (08)
    context     observation budgets and history compression                 (08)
    items       Responses items that must stay together when compressed     (08)
    routing     a cheaper model for routine steps                           (08)
    trace       step events as JSON Lines (and OpenTelemetry spans)         (09)
    viewer      a trace to step through (a widget), or static HTML          (09)
    structure   plan-and-execute, and reflection on a failed run            (12)
    frameworks  four agent frameworks on the scripted server (an extra)     (12)
    providers   real models by configuration                                (00)
    browser     the browser edition: what a Pyodide tab cannot do            (00)
    plots_offline  matplotlib in the browser, or its stand-in offline        (01)
    plans       the demo's plans; shop totals and heights from a question   (00)
    demo        the scripted model that solves the worked examples          (00)

Lesson 09's evaluation is a folder with a README: ``evaluate`` (the task set,
the scorer, a simulated model with failure knobs, metrics, comparisons).
Not the agent, each a folder with a README: ``scripted_api`` (the scripted
chat models served over HTTP, the flaky and MCP servers), ``lessons`` (the
lessons' staged scenes), ``course`` (the react-course command), ``checks``.
"""

from .backends.providers import (
    OpenAIChatModel,
    OpenAICompletionModel,
    course_model,
    parse_model_spec,
    redact,
    uses_real_model,
)
from .calculator import calculate
from .errors import ContextWindowFull, LimitExceeded, LimitReached, ModelConfigError, ModelError
from .guards import END_REASONS, Budget, Limits
from .lessons.demo import WORKED_EXAMPLES, demo_model
from .loop import run_react
from .models import ModelCall, ReactiveModel, ScriptedModel, ScriptExhausted
from .native import native_client, run_native
from .observations import truncate
from .parsing import Action, FinalAnswer, ParseError, parse_step
from .prompts import Scratchpad, build_prompt, read_prompt
from .record import Observation, RunResult, Step, ToolCall, Usage
from .safety import check_answer, check_provenance, refund_limit
from .scripted_api.demo import demo_chat_model
from .scripted_api.models import ChatTurn, ReactiveChatModel, ScriptedChatModel
from .stopping import people_tools, should_stop, steps_for
from .stops import DEFAULT_STOPS, cut_at_stop
from .tokens import count_tokens, estimate_tokens
from .tools import (
    Tool,
    ToolDefinitionError,
    ToolRegistry,
    default_tools,
    encyclopedia_tools,
    repeatable,
    shop_tools,
    side_effect,
    support_tools,
)
from .tracing.trace import StepLog, read_log
from .web.figures import show_figure

__version__ = "0.1.0"

__all__ = [
    "DEFAULT_STOPS",
    "END_REASONS",
    "WORKED_EXAMPLES",
    "Action",
    "Budget",
    "ChatTurn",
    "ContextWindowFull",
    "FinalAnswer",
    "LimitExceeded",
    "LimitReached",
    "Limits",
    "ModelCall",
    "ModelConfigError",
    "ModelError",
    "Observation",
    "OpenAIChatModel",
    "OpenAICompletionModel",
    "ParseError",
    "ReactiveChatModel",
    "ReactiveModel",
    "RunResult",
    "Scratchpad",
    "ScriptExhausted",
    "ScriptedChatModel",
    "ScriptedModel",
    "Step",
    "StepLog",
    "Tool",
    "ToolCall",
    "ToolDefinitionError",
    "ToolRegistry",
    "Usage",
    "build_prompt",
    "calculate",
    "check_answer",
    "check_provenance",
    "count_tokens",
    "course_model",
    "cut_at_stop",
    "default_tools",
    "demo_chat_model",
    "demo_model",
    "encyclopedia_tools",
    "estimate_tokens",
    "native_client",
    "parse_model_spec",
    "parse_step",
    "people_tools",
    "read_log",
    "read_prompt",
    "redact",
    "refund_limit",
    "repeatable",
    "run_native",
    "run_react",
    "shop_tools",
    "should_stop",
    "show_figure",
    "side_effect",
    "steps_for",
    "support_tools",
    "truncate",
    "uses_real_model",
]
