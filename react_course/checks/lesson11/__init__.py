"""Lesson 11: interview preparation.

One exercise, ``11.loop_from_memory`` (``loop_from_memory.py``): the ReAct
loop written from memory, checked on its behaviour against hostile scripted
models (``hostile.py``: a model that never answers, one that ignores the stop
and writes its own observation, unknown tools, unreadable replies, a tool that
raises), and compared with the answer key on sixty seeded generated scripts
(``generated.py``, on ``checks.generated.Comparison``: shrunk to a small
script, with the hint of the fault found). Nothing here reads the student's
source.
"""

from . import loop_from_memory

__all__ = ["loop_from_memory"]
