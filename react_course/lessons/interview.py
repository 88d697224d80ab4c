"""Lesson 11's question bank: what interviewers ask about ReAct, and what they listen for.

Each ``Question`` holds the question, the two or three sentences an interviewer
wants to hear (in the course's words), and the mistake that costs the answer.
``reveal`` renders one as a ``<details>`` block, so the answer stays hidden
until the student opens it; ``Scorecard`` tallies the student's own marks.

Left out: model answers to grade free text (a self-score is honest enough for
practice, and a checker that grades prose would reward keywords, not
understanding), and the design prompt's rubric, which is in ``design.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Question:
    """One interview question: what is asked, what earns the mark, the usual slip."""

    id: str
    ask: str
    listen_for: tuple[str, ...]
    pitfall: str = ""


BANK: tuple[Question, ...] = (
    Question("how", "How does ReAct work?", (
        "The model alternates a Thought (what to do next), an Action (a tool and its input) and "
        "an Observation, which the program writes after running the tool.",
        "The program repeats this until the model gives a final answer or a limit in code ends "
        "the run.",
    ), "Describing it as a prompt template: the loop is code that calls the model and the tools."),
    Question("why", "Why does it beat reasoning alone, and where does it not?", (
        "Facts come from observations instead of memory, each thought decides one small step, "
        "and a wrong step shows up in the next observation; the trace can be read and audited.",
        "The paper's numbers are mixed: on HotpotQA (PaLM-540B), ReAct alone (27.4 exact "
        "match) was below chain of thought (29.4), and ReAct falling back to CoT-SC (35.1) was "
        "best. It won on Fever and "
        "clearly on ALFWorld and WebShop, where acting is the task.",
    ), "Claiming it always wins: on multi-hop QA, search results can derail the reasoning."),
    Question("implement", "How do you implement it?", (
        "A loop over at most N steps: send the history, read one reply, run the tool it names, "
        "append the reply and the observation, repeat; return on a final answer.",
        "In the text form the action is parsed, with a stop sequence before 'Observation' and a "
        "client-side cut; with function calling the action arrives as a structured tool call.",
    ), "Forgetting the step limit, or letting the model's text stand in for the observation."),
    Question("stops", "What stops it?", (
        "The model's final answer, and limits the program enforces: steps, tokens or money, "
        "time, repeated identical actions, an explicit hand-over, the user interrupting.",
        "A forced stop still returns something useful: a summary of what was found and why it "
        "stopped, for a person to pick up.",
    ), "Answering 'the model says it is done': the model is the one thing that cannot be trusted to stop."),
    Question("hallucinated_tool", "What is a hallucinated tool, and how do you handle it?", (
        "The model names a tool that does not exist, or calls a real one with arguments that do "
        "not fit its schema.",
        "Never crash: return an error observation naming the real tools, keep the tool list "
        "short and the schemas strict, and count these errors as a metric.",
    ), "Raising an exception, or silently picking the closest tool."),
    Question("loops", "How do you prevent infinite loops?", (
        "A step limit in code first; then detect repeats and two actions taking turns.",
        "Give one nudge ('you already asked that'), then hand over; and fix the cause, usually "
        "a tool result the model cannot use.",
    ), "Only 'set max_iterations': that stops the loop, it does not tell you why it looped."),
    Question("weaknesses", "What are its weaknesses?", (
        "Cost grows faster than the steps: each call resends the history, so N steps read about "
        "N squared over two steps' worth of tokens.",
        "Steps run one after another (latency adds up), an early error compounds, and long runs "
        "drift from the question.",
    ), "Listing only 'hallucination'; the cost and latency arguments are what a team feels."),
    Question("when_not", "When would you not use it?", (
        "When the steps are known in advance (write a workflow), for long tasks that can be "
        "planned up front, for independent work that can run in parallel.",
        "And when a step is risky enough to need a fixed approval gate rather than the model's "
        "judgement.",
    ), "'Always use an agent': the cheapest reliable answer is often a fixed pipeline."),
    Question("decomposition", "What does 'decomposition for free' mean?", (
        "The model never writes a whole plan: each thought only decides the next small step, "
        "given what the last observation showed.",
        "So a multi-hop question is broken up as it is answered, and a surprise changes the "
        "next step instead of invalidating a plan.",
    ), "Confusing it with plan-and-execute, which does write the plan first."),
    Question("just_a_prompt", "Isn't ReAct just a prompt format?", (
        "No: the format is how the model writes its step; the pattern is a loop your code runs, "
        "which executes tools, writes observations and enforces limits.",
        "With native tool calls the format disappears and the loop, the stop rule and the "
        "guards are all still there.",
    ), "Agreeing: the prompt is the smallest part; the loop's code is where reliability lives."),
)


def question(qid: str) -> Question:
    """The question with this id.

    >>> question("stops").ask
    'What stops it?'
    """
    for item in BANK:
        if item.id == qid:
            return item
    raise KeyError(f"no question {qid!r}; the ids are: {', '.join(q.id for q in BANK)}")


def reveal(item: Question, number: int | None = None) -> str:
    """Markdown for one question: the answer hidden in a ``<details>`` block until opened."""
    heading = f"**{number}. {item.ask}**" if number else f"**{item.ask}**"
    said = "\n".join(f"- {line}" for line in item.listen_for)
    slip = f"\n\n*Pitfall:* {item.pitfall}" if item.pitfall else ""
    return (f"{heading}\n\n<details><summary>What the interviewer listens for</summary>\n\n"
            f"{said}{slip}\n</details>")


def bank_markdown(items: tuple[Question, ...] = BANK) -> str:
    """The whole bank, numbered, each answer hidden."""
    return "\n\n".join(reveal(item, n) for n, item in enumerate(items, start=1))


MARKS = {"got it": 2, "partly": 1, "missed": 0}


@dataclass
class Scorecard:
    """The student's own marks, one per question: 'got it', 'partly' or 'missed'.

    >>> card = Scorecard()
    >>> card.mark("how", "got it"); card.mark("stops", "partly")
    >>> card.score(), card.to_review()
    ((3, 4), ['stops'])
    """

    marks: dict[str, str] = field(default_factory=dict)

    def mark(self, qid: str, verdict: str) -> None:
        question(qid)  # an unknown id is a typo worth hearing about
        if verdict not in MARKS:
            raise ValueError(f"a mark is one of {list(MARKS)}, not {verdict!r}")
        self.marks[qid] = verdict

    def score(self) -> tuple[int, int]:
        """Points earned and points possible, over the questions marked so far."""
        return sum(MARKS[v] for v in self.marks.values()), 2 * len(self.marks)

    def to_review(self) -> list[str]:
        """The ids to practise again, in the bank's order."""
        return [q.id for q in BANK if self.marks.get(q.id, "got it") != "got it"]

    def unmarked(self) -> list[str]:
        return [q.id for q in BANK if q.id not in self.marks]

    def __str__(self) -> str:
        earned, possible = self.score()
        review = ", ".join(self.to_review()) or "nothing"
        return (f"{earned}/{possible} points on {len(self.marks)} of {len(BANK)} questions; "
                f"practise again: {review}")
