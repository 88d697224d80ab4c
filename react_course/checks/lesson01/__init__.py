"""Lesson 01: reading traces, writing one, the paper's numbers, and telling designs apart.

Four exercises, one module each:

- ``01.who_wrote`` (``who_wrote.py``): label every line of a text trace "model" or "program";
- ``01.render_trace`` (``render_trace.py``): write the classic trace from plain data;
- ``01.paper_facts`` (``paper_facts.py``): a quiz on the ReAct paper's results and their caveats;
- ``01.which_design`` (``which_design.py``): name the design of six short system descriptions.

``generated_traces.py`` holds the answer keys of the two functions and the traces
and steps their generated comparisons run on (``checks/generated.py``).

The quizzes never show the right answer: a wrong one gets a hint that says
which caveat it fell into (a number from another table, another model, the
other direction of the switch), so the student goes back to the lesson.
"""

from . import paper_facts, render_trace, which_design, who_wrote
from .common import QUESTION
from .generated_traces import who_wrote_key
from .who_wrote import _library_run

__all__ = [
    "QUESTION",
    "_library_run",
    "paper_facts",
    "render_trace",
    "which_design",
    "who_wrote",
    "who_wrote_key",
]
