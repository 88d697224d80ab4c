"""Lesson 05: guards and stopping.

Four exercises, one module each, in the order the lesson meets them:

- ``should_stop.py``, ``05.should_stop``: the whole stopping decision as one function;
- ``find_repeat.py``, ``05.find_repeat``: near-repeats and two calls taking turns;
- ``handover.py``, ``05.handover``: the summary a person needs when the program stops a run;
- ``plan_wait.py``, ``05.plan_wait``: how long to wait before retrying a failed model call.

Each module also holds its exercise's answer key and the generated inputs its comparison
runs on (``checks/generated.py``). ``faults.py`` gives a generated failure the hint of the
fault it shows; lessons 06, 08, 10, 11 and 12 use it too. Importing this package registers all
four exercises.
"""

from . import find_repeat, handover, plan_wait, should_stop

__all__ = ["find_repeat", "handover", "plan_wait", "should_stop"]
