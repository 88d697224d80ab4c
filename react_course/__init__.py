"""react_course: build ReAct agents from scratch, offline, and make them reliable.

The reference implementation that the course's notebooks import. Each module
holds one idea, in the order the lessons teach them:

    models      a model is model(prompt, stop) -> text; scripted models   (02)
    prompts     the text ReAct prompt, and reading one back                (02)
    loop        run_react: the loop, its steps and its result              (02-05)
    stops       stop sequences and the client-side cut                     (03)
    parsing     parse_step: Action, FinalAnswer or ParseError              (03)
    tools       typed functions as tools; the bundled offline tools        (04)
    calculator  arithmetic without eval                                    (04)
    guards      limits, repeats, end reasons                               (05)
    tokens      token estimates                                            (08)
    providers   real models by configuration                               (00)
    demo        the scripted model that solves the worked examples         (00)
"""

from .calculator import calculate
from .demo import WORKED_EXAMPLES, demo_model
from .guards import END_REASONS, LimitExceeded, Limits
from .loop import RunResult, Step, run_react
from .models import ModelCall, ReactiveModel, ScriptedModel, ScriptExhausted
from .observations import truncate
from .parsing import Action, FinalAnswer, ParseError, parse_step
from .prompts import Scratchpad, build_prompt, read_prompt
from .providers import OpenAIChatModel, course_model, parse_model_spec, uses_real_model
from .stops import DEFAULT_STOPS, cut_at_stop
from .tokens import TokenUsage, count_tokens, estimate_tokens
from .tools import (
    Tool,
    ToolDefinitionError,
    ToolRegistry,
    default_tools,
    encyclopedia_tools,
    shop_tools,
    support_tools,
)

__version__ = "0.1.0"

__all__ = [
    "DEFAULT_STOPS",
    "END_REASONS",
    "WORKED_EXAMPLES",
    "Action",
    "FinalAnswer",
    "LimitExceeded",
    "Limits",
    "ModelCall",
    "OpenAIChatModel",
    "ParseError",
    "ReactiveModel",
    "RunResult",
    "Scratchpad",
    "ScriptExhausted",
    "ScriptedModel",
    "Step",
    "TokenUsage",
    "Tool",
    "ToolDefinitionError",
    "ToolRegistry",
    "build_prompt",
    "calculate",
    "course_model",
    "count_tokens",
    "cut_at_stop",
    "default_tools",
    "demo_model",
    "encyclopedia_tools",
    "estimate_tokens",
    "parse_model_spec",
    "parse_step",
    "read_prompt",
    "run_react",
    "shop_tools",
    "support_tools",
    "truncate",
    "uses_real_model",
]
