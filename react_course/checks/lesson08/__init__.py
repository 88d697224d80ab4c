"""Lesson 08: token cost and context control.

Three exercises, one spec each (``checks/spec.py``), in the order the lesson meets them:

- ``total_tokens.py``, ``08.total_tokens``: the input tokens of a whole run, exactly
  (key: ``rc.cost.total_input_tokens``);
- ``call_cost.py``, ``08.call_cost``: one call's price, with cached input and hidden
  reasoning (key: ``rc.cost.cost``);
- ``compress_messages.py``, ``08.compress_messages``: a shorter native conversation that
  keeps the question and never separates a tool call from its result (key: built on
  ``rc.context.split_turns``).

``conversation.py`` holds the sample and the generated conversations of 8.3. Importing
this package registers all three exercises.
"""

from . import call_cost, compress_messages, total_tokens

__all__ = ["call_cost", "compress_messages", "total_tokens"]
