"""Lesson 02: a scripted model, one step of the loop, the loop with its limit.

Four exercises, one module each, each a spec (``checks/spec.py``) but the last:

- ``02.scripted_model`` (``scripted_model.py``): a model that plays back replies and honours stops;
- ``02.one_step`` (``one_step.py``): one step of the loop;
- ``02.react_loop`` (``react_loop.py``): the loop with its step limit;
- ``02.predict_calls`` (``predict_calls.py``): predict a run at its step limit.

The scripted models are inputs: each spec builds them from plain arguments and
compares what the student's code did with them (what it returned, what the model
was sent, which tools ran). Every loop runs on a ``GuardedModel``: a loop that
forgets its step limit fails on a count of calls instead of hanging. The tools
log their calls (``common.py``).
"""

from . import one_step, predict_calls, react_loop, scripted_model

__all__ = ["one_step", "predict_calls", "react_loop", "scripted_model"]
