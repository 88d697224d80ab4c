"""Hand in from a browser tab: one zip of a student's notebooks and check results, for the grader.

In the browser edition a student's work lives in the browser's own storage,
where no instructor can reach it. ``download_link("Ana Lima")``, run in a
notebook there, shows a link that saves it as one zip laid out the way
``react-course grade`` reads a lesson (a folder of notebooks, one per student,
each named after its student)::

    04_tools_and_observations/Ana_Lima.ipynb   each notebook that holds checks
    ...
    results/Ana_Lima.jsonl                     the check results (react-course progress reads them)
    HOW_TO_GRADE.txt

Unzipped into one folder, the students' zips merge lesson by lesson, and
``react-course grade FOLDER/04_tools_and_observations`` grades lesson 04. The zip
holds the notebooks as saved (save each one first), and a copy is written
beside them, where the file browser shows it. On a laptop the notebook files
are handed in themselves, and ``download_link`` says so (``handin_zip`` still
makes the zip).

What it leaves out: sending the zip anywhere, and trusting it: the grader runs
every notebook again and never reads the results file.
"""

from __future__ import annotations

import base64
import html
import io
import re
import zipfile
from pathlib import Path

from .. import browser
from ..checks import results_path
from .progress import student_notebooks
from .submissions import course_root

HOW_TO_GRADE = """\
One student's work from the browser edition of the ReAct course.
Unzip every student's zip into one folder; each lesson's folder then holds one
notebook per student, and grades with, for example:

    react-course grade FOLDER/04_tools_and_observations --out grades/04.csv

results/ holds each student's own check results (what their notebooks showed);
the grade never comes from them.
"""
_STAMP = (1980, 1, 1, 0, 0, 0)  # the same bytes for the same files: no clock in the zip


def safe_name(student: str) -> str:
    """The student's name as a file name, which is what the grader calls the student.

    >>> safe_name("Ana Lima"), safe_name("../../etc/x"), safe_name("José")
    ('Ana_Lima', 'etc_x', 'José')
    """
    name = re.sub(r"[^\w.-]+", "_", student.strip()).strip("._-")
    if not name:
        raise ValueError(f"give your name, as your instructor knows you (got {student!r})")
    return name


def handin_files(student: str, root: Path | None = None, results: Path | None = None) -> dict[str, bytes]:
    """What the zip holds: each archive path with its bytes."""
    root, name = root or course_root(), safe_name(student)
    files = {f"{path.stem}/{name}.ipynb": path.read_bytes() for path in student_notebooks(root)}
    results = results if results is not None else results_path()
    if results is not None and results.is_file():
        files[f"results/{name}.jsonl"] = results.read_bytes()
    files["HOW_TO_GRADE.txt"] = HOW_TO_GRADE.encode()
    return files


def handin_zip(student: str, root: Path | None = None, results: Path | None = None) -> bytes:
    """The zip of ``handin_files``, byte for byte the same for the same files."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path, data in sorted(handin_files(student, root, results).items()):
            archive.writestr(zipfile.ZipInfo(path, _STAMP), data, zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def link_html(file_name: str, data: bytes, notebooks: int) -> str:
    """An HTML link that downloads ``data`` as ``file_name``: a data: URL, no server needed."""
    url = "data:application/zip;base64," + base64.b64encode(data).decode("ascii")
    shown = html.escape(file_name)
    return (f'<a download="{shown}" href="{url}">Download {shown}</a> ({notebooks} notebooks, '
            f"{len(data) / 1024:.0f} KB): hand this file in to your instructor.")


def download_link(student: str, root: Path | None = None) -> None:
    """In the browser edition: show a link to the zip of your work, and keep a copy on the drive."""
    if not browser.IN_BROWSER:
        print("On a laptop, hand in your notebook files themselves (exercises/NN_*.ipynb), as your "
              "instructor asks. In the browser edition this cell makes one zip of them to download.")
        return
    from IPython.display import HTML, display

    root = root or course_root()
    data, name = handin_zip(student, root), f"{safe_name(student)}-react-course.zip"
    (root / name).write_bytes(data)
    notebooks = len(student_notebooks(root))
    display(HTML(link_html(name, data, notebooks)
                 + f" A copy is in the file browser: {html.escape(name)}. Save your notebooks first: "
                   "the zip holds what is saved."))
