"""Lesson 02: a scripted model, one step of the loop, the loop with its limit.

Four exercises, one module each:

- ``02.scripted_model`` (``scripted_model.py``): a model that plays back replies and honours stops;
- ``02.one_step`` (``one_step.py``): one step of the loop;
- ``02.react_loop`` (``react_loop.py``): the loop with its step limit;
- ``02.predict_calls`` (``predict_calls.py``): predict a run at its step limit.

Every loop check hands the student's code a ``GuardedModel``: a loop that
forgets its step limit fails with a clear message instead of hanging.
The tools are small registries that log their calls (``common.py``), so a
check can tell whether a tool ran, how often and on what input; the tests on
what a loop's prompts held are in ``loop_prompts.py``, how a loop is run
under a guard in ``loop_runs.py``, and how a scripted model is driven in
``scripted_runs.py``. ``generated_runs.py`` holds the answer keys and the scripts
and runs of the generated comparisons (``checks/generated.py``).
"""

from . import one_step, predict_calls, react_loop, scripted_model

__all__ = ["one_step", "predict_calls", "react_loop", "scripted_model"]
