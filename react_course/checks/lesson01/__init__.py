"""Lesson 01: reading traces, writing one, the paper's numbers, and telling designs apart.

Four exercises, one module each:

- ``01.who_wrote`` (``who_wrote.py``): label every line of a text trace "model" or "program";
- ``01.render_trace`` (``render_trace.py``): write the classic trace from plain data;
- ``01.paper_facts`` (``paper_facts.py``): a quiz on the ReAct paper's results and their caveats;
- ``01.which_design`` (``which_design.py``): name the design of six short system descriptions.

Each is a spec (``checks/spec.py``); the two quizzes are ``quiz.Quiz`` specs, whose
cases are their questions. ``generated_traces.py`` holds render_trace's key and the
steps its generated comparison runs on.

The quizzes never show the right answer: a wrong one gets a hint that says
which caveat it fell into (a number from another table, another model, the
other direction of the switch), so the student goes back to the lesson.
"""

from . import paper_facts, render_trace, which_design, who_wrote
from .common import QUESTION
from .who_wrote import _library_run, who_wrote_key

__all__ = [
    "QUESTION",
    "_library_run",
    "paper_facts",
    "render_trace",
    "which_design",
    "who_wrote",
    "who_wrote_key",
]
