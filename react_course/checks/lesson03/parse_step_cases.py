"""03.parse_step's worked examples: replies real models write, each with the hint that names its
fix (what each should give comes from the key, in ``parse_step.py``)."""

from __future__ import annotations

from ..spec import Example
from .replies import INVENTED

# (case name, reply, hint): what each reply should give comes from the key.
CASES: tuple[tuple[str, str, str], ...] = (
    ('two-line format',
     "Thought: I need the order's details.\nAction: get_order\nAction Input: 88213",
     'Read the tool from the Action line and the input from the Action Input line.'),
    ("the paper's format: tool[input]",
     'Thought: I need the height of the Eiffel Tower.\nAction: search[Eiffel Tower]',
     'After the tool name, an opening [ starts the input; its matching ] ends it.'),
    ('final answer',
     'Thought: I now know the answer\nFinal Answer: The Eiffel Tower is 237 m taller.',
     'A Final Answer line ends the run: return rc.FinalAnswer(the text after the colon).'),
    ('finish[answer] is a final answer',
     'Thought: I have both heights.\nAction: finish[237 m]',
     'The paper ends with the action finish[answer]: return rc.FinalAnswer(answer), not an Action.'),
    ("numbered keywords (the paper's Action 2:)",
     'Thought 2: Now I need the statue.\nAction 2: Search[Statue of Liberty]',
     "Allow an optional number between the keyword and the colon: r'Action\\s*\\d*\\s*:'. Keep the "
     'tool name as written.'),
    ('keywords in any case',
     'thought: look up the order\nACTION: get_order\naction input: 88213',
     'Match keywords case-insensitively (re.IGNORECASE, or compare .lower()).'),
    ('FINAL ANSWER in capitals',
     'Thought: I have both heights.\nFINAL ANSWER: 237 m',
     'Every keyword may come in any case, Final Answer included: match with re.IGNORECASE.'),
    ('extra spaces',
     'Action :  search  \nAction Input :   Eiffel Tower  ',
     'Allow spaces before and after the colon, and strip the tool name and the input.'),
    ('markdown bold',
     '**Thought:** I need the height.\n**Action:** search\n**Action Input:** Eiffel Tower',
     'Skip ** (and *, _) around a keyword and after its colon before matching.'),
    ('input on the next line',
     'Action: search\nAction Input:\n  Eiffel Tower',
     'When the Action Input line is empty after the colon, the input is on the lines that follow.'),
    ('multi-line input',
     'Thought: I need the order.\nAction: get_order\nAction Input: {\n  "order_id": 88213\n}',
     'The input runs over every line up to the next keyword line (or the end), newlines kept.'),
    ('an input with paragraphs: blank lines kept',
     'Action: send_reply\nAction Input: Hello Asha,\n\nYour refund of 25 INR is on its way.\n\nThe '
     'support team',
     'A blank line does not end the input: it runs to the next keyword line, blank lines included, so '
     "a message with paragraphs arrives whole. Do not split at '\\n\\n'."),
    ('multi-line final answer',
     'Thought: I have the policy.\nFinal Answer: Refund 25 INR:\n- the delivery fee (62 minutes '
     'late)\n- not the item price',
     'A final answer, like an input, runs over every line up to the next keyword line.'),
    ('brackets inside the input',
     'Action: search[Eiffel Tower [Paris]]',
     'Count brackets: [ adds one, ] takes one away; the input ends where the count returns to 0. A '
     'lazy regex (.*?) stops at the first ].'),
    ('trailing text after the closing bracket',
     'Action: search[Eiffel Tower] (then I will lookup[height] on that page)',
     'The input ends at the ] that matches the first [: a greedy regex (.*) runs on to the last ].'),
    ('action, invented observation, final answer',
     INVENTED,
     'The first Action or Final Answer line counts. The answer below the action was written before the '
     'tool ran, from an invented observation: run the action, ignore the rest. Also end the input at '
     'the next keyword line (here, Observation).'),
    ('invented observation with brackets, after tool[input]',
     'Action: search[Eiffel Tower]\nObservation: [Eiffel Tower] It is 500 m tall.\nFinal Answer: 500 m',
     'The first action wins, and its input ends at the matching ]: a regex with re.DOTALL and (.*) '
     'swallows the invented observation.'),
    ('an action, then an answer (no observation between)',
     'Thought: I will check.\nAction: search[Eiffel Tower]\nFinal Answer: 330 m',
     'Look for the FIRST Action or Final Answer line, not for a Final Answer anywhere in the reply.'),
    ('two actions: the first one counts',
     'Thought: I need both heights.\nAction: search[Eiffel Tower]\nAction: search[Statue of Liberty]',
     'Walk the segments from the top and stop at the first Action or Final Answer: a later Action line '
     "was written before the first one's observation existed."),
    ('two two-line actions: the first one counts',
     'Action: search\nAction Input: Eiffel Tower\nAction: calculate\nAction Input: 330 - 93',
     'The first Action line decides, and its input is the Action Input line right after it.'),
    ("the paper's capitalised Finish[answer]",
     'Thought 3: I have both heights.\nAction 3: Finish[237 m]',
     "The paper writes Finish[answer] with a capital F: compare tool.lower() == 'finish'."),
    ('final answer in bold',
     '**Final Answer:** 237 m',
     'Strip markdown ** around the keyword and after the colon.'),
    ('empty reply',
     '  \n',
     'Return rc.ParseError(message) for an empty reply; the message shows the format to use.'),
    ('chatter with no keywords',
     'The Eiffel Tower is about 330 m tall, so the difference is 237 m.',
     'No Action and no Final Answer line: return rc.ParseError with a message that shows both forms.'),
    ('an observation before any action',
     'Observation: The tower is 330 m tall.\nFinal Answer: 330 m',
     'Only the program writes observations. An Observation line before any action means the answer '
     'rests on an invented result: return a ParseError that says so.'),
    ('an observation, then an action',
     'Thought: Let me recall.\nObservation: The tower is 500 m tall.\nAction: search[Eiffel Tower]',
     "An Observation line before the first Action is the model writing the program's part: return a "
     'ParseError, even though an action follows (do not just drop the line).'),
    ('an empty Final Answer',
     'Thought: I know this.\nFinal Answer:',
     'A Final Answer line with nothing after it is no answer: return a ParseError that shows the '
     'format.'),
    ('an Action Input with no Action',
     'Action Input: Eiffel Tower',
     'Without an Action line there is no tool to run: return a ParseError.'),
    ('an Action with no Action Input line',
     'Thought: I need the height.\nAction: search\nObservation: The Eiffel Tower is 500 m tall.',
     'A bare tool name takes its input from the next segment only if that segment is an Action Input. '
     'Here it is an invented Observation, not an input: return a ParseError that asks for the Action '
     'Input line.'),
    ('a thought between Action and Action Input',
     'Action: search\nThought: I should be precise.\nAction Input: Eiffel Tower',
     'The input must be on the line right after the Action line: look only at the next segment, and '
     'return a ParseError when it is not an Action Input.'),
    ('an Action Input above its Action does not count',
     'Action Input: Eiffel Tower\nAction: search',
     'The input is the Action Input line right AFTER the Action line; one above it, or anywhere else, '
     'is not the input: return a ParseError.'),
    ('a keyword inside a sentence does not start a segment',
     'Thought: The paper writes Action: tool[input] on one line.\nAction: search[Eiffel Tower]',
     'Only a line that STARTS with a keyword (after optional markdown) starts a segment: anchor the '
     'regex at the start of the line (^, re.MULTILINE) instead of searching anywhere.'),
    ("finish on two lines is a final answer",
     "Thought: I have both heights.\nAction: finish\nAction Input: 237 m",
     "Action: finish with an Action Input line is the paper's finish too: return rc.FinalAnswer."),
    ("an Action Input before the Final Answer is skipped",
     "Action Input: 5\nFinal Answer: 330 m",
     "An Action Input line before the first Action or Final Answer line is skipped, like a thought: "
     "the Final Answer line decides."),
)
ODD_REPLIES = ("Action:", "Action: [x]", "Action: search[Eiffel Tower", "]]] [[[", "Final Answer:",
               "Observation:", "Action Input:", "Action: search\nAction Input:", "**", "Thought:\n\n\n")
ODD = tuple(f"odd reply {reply!r} gives a step" for reply in ODD_REPLIES)
EXAMPLES = (*(Example(name, (reply,), hint) for name, reply, hint in CASES),
            *(Example(name, (reply,), "Every reply gives a step: guard each regex match (it may be None) "
                      "and each index.") for name, reply in zip(ODD, ODD_REPLIES, strict=True)))
