"""Lesson 05: guards and stopping.

Four exercises, one module each, in the order the lesson meets them:

- ``should_stop.py``, ``05.should_stop``: the whole stopping decision as one function;
- ``find_repeat.py``, ``05.find_repeat``: near-repeats and two calls taking turns;
- ``handover.py``, ``05.handover``: the summary a person needs when the program stops a run;
- ``plan_wait.py``, ``05.plan_wait``: how long to wait before retrying a failed model call.

Each module is one ``spec.Spec``: the answer key (the library's ``stopping.should_stop`` and
``stopping.find_repeat``; the other two keys are written there), the worked examples, the
generated inputs, the rules and the faults that choose a hint. ``faults.py`` is the older
hint machinery, no longer used here; lessons 06, 08, 10, 11 and 12 still import it. Importing
this package registers all four exercises.
"""

from . import find_repeat, handover, plan_wait, should_stop

__all__ = ["find_repeat", "handover", "plan_wait", "should_stop"]
