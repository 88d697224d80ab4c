"""Lesson 03: stop sequences, a tolerant parser, and recording what was cut.

Four exercises, one spec each (``checks/spec.py``), in the order the lesson meets them:

- ``cut_at_stop.py``, ``03.cut_at_stop``: keep the text before the earliest stop sequence;
- ``parse_step.py``, ``03.parse_step``: read a reply into ``Action``, ``FinalAnswer`` or
  ``ParseError``;
- ``call_with_stops.py``, ``03.call_with_stops``: send at most four stops *and* cut on the
  client side;
- ``read_reply.py``, ``03.read_reply``: cut, parse, and keep everything the program threw away.

``replies.py`` holds the sample replies, the generated replies and stops, and a parsed
step as plain data. Importing this package registers all four exercises.
"""

from . import call_with_stops, cut_at_stop, parse_step, read_reply

__all__ = ["call_with_stops", "cut_at_stop", "parse_step", "read_reply"]
