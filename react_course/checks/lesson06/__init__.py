"""Lesson 06: failure modes and safety.

Three exercises, one module each, in the order the lesson meets them:

- ``provenance.py``, ``06.provenance``: refuse an id that no text of this run contained;
- ``gate.py``, ``06.gate``: a side-effecting call runs only when code says yes;
- ``idempotency.py``, ``06.idempotency``: a key per side effect that a retry cannot change.

Each module is one spec (``checks/spec.py``): its key (06.idempotency's is the library's
``safety.idempotency_key``), examples, generated inputs, rules and faults; ``restart.py``
calls a key function for an action and for its retry as if Python had restarted in between.
Importing this package registers all three exercises.
"""

from . import gate, idempotency, provenance

__all__ = ["gate", "idempotency", "provenance"]
