"""A scripted reasoning model that thinks longer when asked for more effort.

``effort_model()`` answers lesson 07's date question with one tool call and
then the answer, and writes hidden reasoning whose length follows the
request's ``reasoning.effort`` (none: nothing, minimal and low: one sentence,
medium: three, high and xhigh: eight, all the script has), as a real reasoning
model's reasoning tokens grow with the effort it is given. The server reports
those tokens as ``reasoning_tokens`` in the usage, billed as output, so the
lesson can measure what effort costs.
"""

from __future__ import annotations

from ..scripted_api.models import ChatRequest, ChatTurn, ReactiveChatModel

SENTENCES = {"none": 0, "minimal": 1, "low": 1, "medium": 3, "high": 8, "xhigh": 8}  # the script has 8
THOUGHTS = ("The question asks for today's date.", "No model knows the date from training.",
            "The clock tool can tell.", "I should call it once.", "Its answer is the date.",
            "I will not guess a weekday.", "The format should be plain.", "Then I answer in one line.")


def effort_model() -> ReactiveChatModel:
    """A reasoning chat model whose hidden reasoning grows with ``reasoning.effort`` (default medium)."""
    def respond(request: ChatRequest) -> ChatTurn:
        effort = (request.body.get("reasoning") or {}).get("effort") or "medium"
        reasoning = " ".join(THOUGHTS[: SENTENCES.get(effort, 3)])
        if not request.tool_results:
            return ChatTurn.calling("today", reasoning=reasoning)
        return ChatTurn(f"{request.tool_results[-1]}", reasoning=reasoning)
    return ReactiveChatModel(respond=respond, name="scripted-reasoning")
