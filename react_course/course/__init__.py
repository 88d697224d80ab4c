"""The course's own tooling: the ``react-course`` command, ``doctor``, and authoring.

None of it is part of the agent a student writes; it runs the course around
it (checking a machine, building ``exercises/`` from ``solutions/``). The files,
in reading order, are listed in ``README.md`` beside this one.
"""
