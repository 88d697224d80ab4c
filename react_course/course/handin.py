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
from typing import Any

from ..checks import results_path
from ..web import browser
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


# Moving a student's work between addresses: a browser keeps the site's storage per address
# (scheme, host and port), so the same site served from a new address starts empty.
WORK_ZIP = "react-course-work.zip"
BEFORE = ".before-import"


def work_files(root: Path) -> dict[str, bytes]:
    """Every file of the student's course folder, by path inside it (zips and checkpoints left out)."""
    return {path.relative_to(root).as_posix(): path.read_bytes() for path in sorted(root.rglob("*"))
            if path.is_file() and path.suffix != ".zip" and ".ipynb_checkpoints" not in path.parts}


def work_zip(root: Path) -> bytes:
    """The zip of ``work_files``, byte for byte the same for the same files."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path, data in work_files(root).items():
            archive.writestr(zipfile.ZipInfo(path, _STAMP), data, zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def unpack_work(data: bytes, root: Path) -> list[str]:
    """Write the zip's files into ``root``; a file there that differs is kept as NAME.before-import.EXT.

    Returns what changed, one line each. A path that would leave ``root`` is refused whole.
    """
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        names = [n for n in archive.namelist() if not n.endswith("/")]
        bad = [n for n in names if n.startswith("/") or ".." in Path(n).parts]
        if bad:
            raise ValueError(f"not a course work zip: it writes outside the course folder ({bad[0]})")
        done = []
        for name in names:
            target, content = root / name, archive.read(name)
            if target.is_file() and target.read_bytes() == content:
                continue
            if target.is_file():
                target.rename(target.with_name(target.stem + BEFORE + target.suffix))
                done.append(f"{name} (yours here kept as {target.stem + BEFORE + target.suffix})")
            else:
                done.append(name)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content)
    return done


ON_DISK = "On a laptop your work is the course folder on this disk: copy the folder itself."
UNSEEN = ("This tab's Python cannot see your files (the browser refused the site's service worker: a "
          "plain http:// address). Move them with the file browser instead: right-click each notebook, "
          "Download; at the new address, the Upload button.")


def export_work(root: Path | None = None) -> None:
    """In the browser edition: a link to one zip of everything in your course folder, to move it."""
    from IPython.display import HTML, display

    if root is None and _cannot_move():
        return
    root = root or course_root()
    data = work_zip(root)
    url = "data:application/zip;base64," + base64.b64encode(data).decode("ascii")
    display(HTML(f'<a download="{WORK_ZIP}" href="{url}">Download {WORK_ZIP}</a> ({len(work_files(root))} '
                 f"files, {len(data) / 1024:.0f} KB). At the site's new address, run "
                 "<code>from react_course.course.handin import import_work; import_work()</code> "
                 "in any notebook and choose this file. "
                 "Save your notebooks first: the zip holds what is saved."))


def import_work(root: Path | None = None) -> Any:
    """In the browser edition: a button to choose a work zip, unpacked into your course folder."""
    import ipywidgets as widgets

    if root is None and _cannot_move():
        return None
    root = root or course_root()
    button = widgets.FileUpload(accept=".zip", multiple=False, description="Choose the zip")
    said = widgets.Output()

    def unpack(change: dict) -> None:
        for upload in change["new"]:
            try:
                done = unpack_work(bytes(upload["content"]), root)
            except (zipfile.BadZipFile, ValueError) as error:
                said.append_stdout(f"{upload['name']}: {error}. Nothing was changed.\n")
                continue
            lines = "".join(f"  {line}\n" for line in done) or "  nothing new: every file was the same\n"
            said.append_stdout(f"Imported {len(done)} files from {upload['name']}:\n{lines}"
                               "Reopen a notebook that was open to see its imported version.\n")

    button.observe(unpack, names="value")
    return widgets.VBox([button, said])


def _cannot_move() -> bool:
    """On a laptop, or in a tab that cannot see the drive, say how to move the work instead."""
    if browser.IN_BROWSER and browser.course_folder() is not None:
        return False
    print(ON_DISK if not browser.IN_BROWSER else UNSEEN)
    return True
