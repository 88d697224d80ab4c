"""Lesson 07: native tool calling.

Four exercises, one module each, in the order the lesson meets them, each a spec
(``checks/spec.py``; the fourth asks for values, one per failure class):

- ``run_calls.py``, ``07.run_calls``: one turn's calls become tool messages linked by id, in call
  order; read-only calls in parallel, a turn with a side effect one call at a time; every
  failure (malformed arguments, unknown tool, exception) a result the model reads;
- ``native_loop.py``, ``07.native_loop``: the Chat Completions loop, checked against an in-process
  client (``common.FakeChat``) that refuses what the API refuses;
- ``next_input.py``, ``07.next_input``: the Responses protocol's next input, reasoning items
  passed back and results linked by ``call_id``;
- ``what_remains.py``, ``07.what_remains``: which failure classes disappear, and which remain.

``common.py`` holds the in-process Chat Completions client. Importing this package
registers all four exercises.
"""

from . import native_loop, next_input, run_calls, what_remains

__all__ = ["native_loop", "next_input", "run_calls", "what_remains"]
