"""For course authors: build ``exercises/`` from ``solutions/``, and execute lessons.

Solutions are the masters; an exercise notebook is never edited by hand.
Markers in a solution's code cells:

- a line ending ``# SOLUTION`` becomes ``...`` (keeping ``name = `` or
  ``return `` in front), so the check shows "not attempted";
- lines between ``# BEGIN SOLUTION`` and ``# END SOLUTION`` become one
  ``raise NotImplementedError("exercise N.M: ...")`` at the same indentation.
  Text after ``BEGIN SOLUTION`` becomes the stub's message. N.M is the number
  of the nearest "Exercise N.M" heading above the cell.

Cells tagged ``solution`` are left out of the exercises, and so is the
solution's banner, a markdown cell that opens with "**Answer key.**" or
"**This is the answer key**" (it would tell a student that the exercise is the
solved version). An exercise cell that still says "Answer key", "this is the
answer key" or "the solved version" is an authoring error. Both kinds are written
clean: no outputs, no execution counts.

``execute_notebook`` re-runs a lesson in a fresh kernel, in the notebook's
folder, and saves it with its outputs (no timing metadata, so a re-run that
changes nothing leaves the file unchanged).
"""

from __future__ import annotations

import copy
import re
from pathlib import Path

KERNEL_NAME = "react-course"
_EXERCISE_HEADING = re.compile(r"^#+\s*Exercise\s+(\d+\.\d+)", re.MULTILINE)
_ONE_LINE = re.compile(r"^(?P<indent>\s*)(?P<body>.*?)\s*#\s*SOLUTION\s*$")
_ASSIGN = re.compile(r"^(?P<target>[A-Za-z_][\w.\[\]'\"]*\s*(?::[^=]+)?=)(?!=)")
_BEGIN = re.compile(r"^(?P<indent>\s*)#\s*BEGIN SOLUTION\b:?\s*(?P<what>.*)$")
_END = re.compile(r"^\s*#\s*END SOLUTION\s*$")
_BANNER = re.compile(r"^\s*\*\*(?:this is )?(?:the )?answer key\b", re.IGNORECASE)
# What only the solution may say of itself (a statement may mention "the answer key" it is compared with).
_SOLVED = re.compile(r"Answer key|[Tt]his is the answer key|[Tt]he solved version")


class MarkerError(ValueError):
    """A solution notebook's markers are inconsistent (an authoring bug)."""


def strip_line(line: str) -> str:
    """Turn one ``# SOLUTION`` line into its exercise form.

    >>> strip_line("answer = 16  # SOLUTION")
    'answer = ...'
    >>> strip_line("    return text.strip()  # SOLUTION")
    '    return ...'
    >>> strip_line("limits: int = 3 # SOLUTION")
    'limits: int = ...'
    >>> strip_line("print('kept')")
    "print('kept')"
    """
    match = _ONE_LINE.match(line)
    if not match:
        return line
    indent, body = match["indent"], match["body"]
    if body.startswith("return"):
        return f"{indent}return ..."
    target = _ASSIGN.match(body)
    return f"{indent}{target['target'].rstrip()} ..." if target else f"{indent}..."


def strip_source(source: str, number: str, where: str = "") -> str:
    """Apply both kinds of marker to one cell's source."""
    out: list[str] = []
    block: re.Match | None = None
    for line in source.split("\n"):
        if block is not None:
            if _END.match(line):
                what = block["what"].strip() or "write your code here"
                message = f"exercise {number}: {what}" if number else what
                out.append(f'{block["indent"]}raise NotImplementedError({message!r})')
                block = None
            elif _BEGIN.match(line):
                raise MarkerError(f"{where}: BEGIN SOLUTION inside another block")
            continue
        if _END.match(line):
            raise MarkerError(f"{where}: END SOLUTION without BEGIN SOLUTION")
        block = _BEGIN.match(line)
        if block is None:
            out.append(strip_line(line))
    if block is not None:
        raise MarkerError(f"{where}: BEGIN SOLUTION without END SOLUTION")
    return "\n".join(out)


def make_exercise(notebook):
    """The exercise version of a solution notebook (a new ``NotebookNode``)."""
    result = copy.deepcopy(notebook)
    cells, number = [], ""
    for index, cell in enumerate(result.cells):
        if "solution" in cell.get("metadata", {}).get("tags", []):
            continue
        if cell.cell_type == "markdown" and _BANNER.match(cell.source):
            continue
        if _SOLVED.search(cell.source):
            raise MarkerError(f"cell {index} calls the notebook the answer key, which an exercise must not")
        if cell.cell_type == "markdown":
            found = _EXERCISE_HEADING.findall(cell.source)
            number = found[-1] if found else number
        if cell.cell_type == "code":
            cell.source = strip_source(cell.source, number, f"cell {index}")
        cells.append(clean_cell(cell))
    result.cells = cells
    return result


def clean_cell(cell):
    if cell.cell_type == "code":
        cell.outputs, cell.execution_count = [], None
    for key in ("execution", "collapsed", "scrolled"):
        cell.metadata.pop(key, None)
    return cell


def notebook_text(notebook) -> str:
    import nbformat

    return nbformat.writes(notebook) + "\n"


def build_exercises(solutions: str | Path = "solutions", exercises: str | Path = "exercises",
                    *, check: bool = False) -> list[str]:
    """Write (or with ``check``, only compare) every exercise notebook; return the changed names."""
    import nbformat

    solutions, exercises = Path(solutions), Path(exercises)
    changed = []
    for source in sorted(solutions.glob("*.ipynb")):
        text = notebook_text(make_exercise(nbformat.read(source, as_version=4)))
        target = exercises / source.name
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            changed.append(source.name)
            if not check:
                exercises.mkdir(parents=True, exist_ok=True)
                target.write_text(text, encoding="utf-8")
    expected = {p.name for p in solutions.glob("*.ipynb")}
    changed += sorted(p.name + " (no solution)" for p in exercises.glob("*.ipynb")
                      if p.name not in expected)
    return changed


KERNELSPEC = {"name": KERNEL_NAME, "display_name": "Python (react-course)", "language": "python"}


def new_notebook(cells: list[tuple[str, str]]):
    """A notebook from ``[("md", text), ("code", source), ...]``, on the course's kernel.

    A cell kind may carry tags after a colon: ``("md:solution", text)``.
    """
    import nbformat

    notebook = nbformat.v4.new_notebook()
    notebook.metadata = {"kernelspec": dict(KERNELSPEC), "language_info": {"name": "python"}}
    for kind, source in cells:
        kind, _, tags = kind.partition(":")
        make = nbformat.v4.new_markdown_cell if kind == "md" else nbformat.v4.new_code_cell
        cell = make(source.strip("\n"))
        if tags:
            cell.metadata["tags"] = tags.split(",")
        notebook.cells.append(cell)
    return notebook


def execute_notebook(path: str | Path, *, timeout: int = 60, save: bool = True,
                     kernel_name: str = KERNEL_NAME, allow_errors: bool = False):
    """Run a notebook top to bottom in a fresh kernel, in its own folder."""
    import nbformat
    from nbclient import NotebookClient

    from .kernels import KernelManager

    path = Path(path)
    notebook = nbformat.read(path, as_version=4)
    for cell in notebook.cells:
        clean_cell(cell)
    client = NotebookClient(notebook, timeout=timeout, kernel_name=kernel_name,
                            resources={"metadata": {"path": str(path.parent)}},
                            record_timing=False, allow_errors=allow_errors,
                            coalesce_streams=True,  # one stream per cell, however the kernel flushed
                            kernel_manager_class=KernelManager)  # a reply is read when it comes
    client.execute()
    notebook.metadata.pop("widgets", None)
    if save:
        path.write_text(notebook_text(notebook), encoding="utf-8")
    return notebook
