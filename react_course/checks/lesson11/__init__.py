"""Lesson 11: interview preparation.

One exercise, ``11.loop_from_memory`` (``loop_from_memory.py``, a spec:
``checks/spec.py``): the ReAct loop written from memory, run on hostile scripts
(``hostile.py``: a model that never answers, one that ignores the stop and writes
its own observation, unknown tools, unreadable replies, a tool that raises) and
compared with the answer key on them and on sixty generated scripts. Nothing here
reads the student's source; the module the lesson imports (``hostile``) holds no key.
"""

from . import loop_from_memory

__all__ = ["loop_from_memory"]
