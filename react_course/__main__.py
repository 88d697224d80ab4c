"""``python -m react_course`` is the same as the ``react-course`` command."""

from .course.cli import main

raise SystemExit(main())
