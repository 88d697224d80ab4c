"""``react-course release OUT``: the student edition, without answer keys or hidden cases.

nbgrader's source/release idea: the full repository (solutions, keys, hidden cases)
grades; the hand-out a student installs holds none of them. ``build_release`` writes

- ``OUT/react-course-student/``: lessons, exercises, the library, ``course.py``,
  ``pyproject.toml``, ``constraints.txt``, README and LICENSE, and ``lite/`` to build
  the browser site from; no ``solutions/``, ``tests/``, ``benchmarks/``, no grader;
- ``OUT/react-course-student.zip``: that folder, in a fixed order with fixed timestamps;
- with ``site=True``, ``OUT/site/``: the browser edition built from that folder.

In the edition's library a key written in ``checks/`` is gone (``release_strip.py``),
and every exercise checks against the key's values computed here (``release_data.py``,
read back by ``checks/released.py``). An exercise whose key is the library's own taught
function, or a quiz whose answers the lesson states, stays open book: the lesson shows
the reference, and the edition's README says so.
"""

from __future__ import annotations

import inspect
import json
import re
import shutil
import subprocess
import zipfile
from dataclasses import dataclass
from pathlib import Path

from ..checks import exercises
from ..checks.released import DATA, EDITION_MARK, data_file
from ..checks.spec import SPECS
from .release_data import SAMPLE, exercise_data, lesson_inputs
from .release_strip import KeyPlace, drop_hidden, remove_dead, remove_key, rename_imports

__all__ = ["EDITION", "GRADER", "Release", "build_release", "key_places", "zip_folder"]

EDITION = "react-course-student"
TOP = ("course.py", "pyproject.toml", "constraints.txt", "environment.yml", "LICENSE", "README.md")
FOLDERS = ("notebooks", "exercises", "react_course", "lite", "binder")
GRADER = ("grade", "processes", "grade_run", "grade_ask", "sandbox", "trusted_spec", "kernel_answers",
          "kernel_guard", "registry", "scores", "gradebook", "feedback", "intake",
          "release", "release_data", "release_strip")
STAMP = (1980, 1, 1, 0, 0, 0)  # every zip entry's time: the same zip from the same files
ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Release:
    """What ``build_release`` made, and which exercises it could not close."""

    folder: Path
    zip: Path
    withheld: tuple[str, ...]  # exercises whose key is gone from the edition
    open_book: tuple[tuple[str, str], ...]  # (exercise, why its reference stays)
    site: Path | None = None


def key_places() -> tuple[list[KeyPlace], list[tuple[str, str]]]:
    """Keys written in ``checks/`` (to remove), and the open-book exercises with the reason."""
    exercises()
    places, open_book = [], []
    for exercise_id, spec in sorted(SPECS.items()):
        module = getattr(spec.key, "__module__", None) if inspect.isfunction(spec.key) else None
        if module is None:
            open_book.append((exercise_id, "a quiz: the lesson states the answers"))
        elif not module.startswith("react_course.checks."):
            open_book.append((exercise_id, f"the key is the library's `{module[len('react_course.'):]}."
                                           f"{spec.key.__name__}`, which the lesson shows"))
        elif module == "react_course.checks.lesson00":
            open_book.append((exercise_id, "a quiz: the lesson's run shows the answer"))
        else:
            path = module[len("react_course."):].replace(".", "/") + ".py"
            places.append(KeyPlace(exercise_id, path, spec.key.__name__))
    return places, open_book


def _tracked(root: Path) -> list[str]:
    """The repository's files, as git sees them: tracked or new, never ignored (nothing built or cached)."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=root, capture_output=True)
    if listed.returncode != 0:
        raise ValueError(f"release builds from the course's git checkout, and {root} is not one "
                         f"({listed.stderr.decode('utf-8', 'replace').strip()})")
    return sorted({name for name in listed.stdout.decode("utf-8").split("\0") if (root / name).is_file()})


def _wanted(name: str) -> bool:
    parts = name.split("/")
    if len(parts) == 1:
        return name in TOP
    if parts[0] not in FOLDERS:
        return False
    return not (parts[:2] == ["react_course", "course"] and parts[-1].removesuffix(".py") in GRADER)


def _strip_checks(library: Path, places: list[KeyPlace]) -> None:
    """The edition's ``checks/``: keys replaced by ``WITHHELD``, hidden cases and dead helpers gone."""
    paths = sorted(library.glob("checks/**/*.py"))
    files = {path.relative_to(library).as_posix(): drop_hidden(path.read_text(encoding="utf-8"))
             for path in paths}
    for place in places:
        files[place.path] = remove_key(files[place.path], place, place.path.count("/"))
        folder, module = place.path.rsplit("/", 1)
        for path in files:
            if path != place.path and path.startswith(folder + "/"):
                files[path] = rename_imports(files[path], module.removesuffix(".py"), place.name)
    for path, text in remove_dead(files).items():
        (library / path).write_text(re.sub(r"\n{4,}", "\n\n\n", text), encoding="utf-8")


def _readme(folder: Path, withheld: tuple[str, ...], open_book: tuple[tuple[str, str], ...]) -> None:
    lines = ["# ReAct course: the student edition", "",
             "Built by `react-course release` from the full course. Its exercise checks compare your",
             "code with the answer key's values, computed when the edition was built (on each worked",
             f"example and on up to {SAMPLE} generated inputs): the keys themselves, the hidden cases the",
             "grade uses and the solutions are not in it. Grading needs the full edition.", "",
             f"**Open book** ({len(open_book)} exercises): the check's reference is part of what the lesson",
             "teaches or states, so it is in this edition too, and nothing here hides it:", ""]
    lines += [f"- `{exercise}`: {why}" for exercise, why in open_book]
    listed = ", ".join(f"`{exercise}`" for exercise in withheld)
    lines += ["", f"Keys withheld ({len(withheld)} exercises): {listed}.", "", "---", ""]
    original = (folder / "README.md").read_text(encoding="utf-8")
    (folder / "README.md").write_text("\n".join(lines) + original, encoding="utf-8")


def zip_folder(folder: Path, target: Path) -> Path:
    """``folder`` as a zip whose bytes depend only on its files (sorted names, fixed times)."""
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            entry = zipfile.ZipInfo(f"{folder.name}/{path.relative_to(folder).as_posix()}", STAMP)
            entry.external_attr, entry.compress_type = 0o644 << 16, zipfile.ZIP_DEFLATED
            archive.writestr(entry, path.read_bytes())
    return target


def build_site(folder: Path, out: Path) -> Path:
    """The browser site, built by the edition's own ``lite/build.py`` (its keys already gone).

    Built in a copy beside ``out`` (``.site-build/``), so the edition's folder stays as handed
    out; the copy keeps ``lite/``'s build tools and Pyodide for the next release.
    """
    work, cache = out.parent / ".site-build", out.parent / ".site-cache"
    cache.mkdir(parents=True, exist_ok=True)
    for name in (".venv", "node_modules", "_build"):  # the build's caches, moved aside and back
        if (work / "lite" / name).exists():
            shutil.rmtree(cache / name, ignore_errors=True)
            (work / "lite" / name).rename(cache / name)
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(folder, work)
    for kept in cache.iterdir():
        kept.rename(work / "lite" / kept.name)
    subprocess.run(["python3", str(work / "lite" / "build.py")], check=True, cwd=work)
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(work / "lite" / "_site", out)
    return out


def build_release(out: Path | str, *, site: bool = False, root: Path = ROOT) -> Release:
    """Write the student edition into ``out`` (see the module docstring); returns what it made."""
    out = Path(out)
    folder = out / EDITION
    shutil.rmtree(folder, ignore_errors=True)
    for name in filter(_wanted, _tracked(root)):
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(root / name, folder / name)
    places, open_book = key_places()
    _strip_checks(folder / "react_course", places)
    data = folder / "react_course" / DATA.name
    shown = lesson_inputs(sorted((root / "notebooks").glob("*.ipynb")))
    for exercise_id, spec in sorted(SPECS.items()):
        made = exercise_data(spec, shown=shown.get(exercise_id, ()))
        text = json.dumps(made, ensure_ascii=False)
        (data / data_file(exercise_id).name).write_text(text, encoding="utf-8")
    withheld = tuple(place.exercise for place in places)
    mark = {"withheld": list(withheld), "open_book": [list(item) for item in open_book]}
    (data / EDITION_MARK).write_text(json.dumps(mark, indent=1), encoding="utf-8")
    _readme(folder, withheld, tuple(open_book))
    archive = zip_folder(folder, out / f"{EDITION}.zip")
    made = build_site(folder, out / "site") if site else None
    return Release(folder, archive, withheld, tuple(open_book), made)
