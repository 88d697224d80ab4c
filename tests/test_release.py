"""``react-course release``: the student edition holds no key written in checks/, no hidden case.

The edition is built once for the module (a few seconds: the key's values on every
exercise's examples and sample, and lesson 11 run once to learn what it asks the key).
Code runs in the edition in a fresh Python with ``PYTHONPATH`` set to it, from a scratch
folder, so the repository's own package cannot answer instead.
"""

from __future__ import annotations

import inspect
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from react_course.checks import _HIDDEN, exercises
from react_course.checks.plain import to_plain
from react_course.checks.spec import SPECS
from react_course.course import cli, release, release_command
from react_course.course.release import EDITION, GRADER, build_release, key_places, zip_folder

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    return build_release(tmp_path_factory.mktemp("release"))


def edition_files(folder: Path) -> dict[str, str]:
    return {path.relative_to(folder).as_posix(): path.read_text(encoding="utf-8", errors="replace")
            for path in folder.rglob("*") if path.is_file()}


def run_in_edition(folder: Path, code: str, scratch: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(folder), "MPLBACKEND": "Agg"}
    env.pop("REACT_COURSE_STRICT", None)
    env.pop("REACT_COURSE_RESULTS", None)
    return subprocess.run([sys.executable, "-c", code], cwd=scratch, env=env, capture_output=True,
                          text=True, timeout=300)


def test_the_edition_holds_the_hand_out_and_nothing_of_the_grader(made):
    folder = made.folder
    for name in ("notebooks", "exercises", "react_course", "course.py", "pyproject.toml", "constraints.txt",
                 "README.md", "LICENSE"):
        assert (folder / name).exists(), name
    for name in ("solutions", "tests", "benchmarks", "INSTRUCTORS.md"):
        assert not (folder / name).exists(), name
    assert sorted(p.name for p in (folder / "exercises").glob("*.ipynb")) == sorted(
        p.name for p in (ROOT / "exercises").glob("*.ipynb"))
    assert not [m for m in GRADER if (folder / "react_course" / "course" / f"{m}.py").exists()]
    assert not [p for p in folder.rglob("*") if p.name == "__pycache__" or p.suffix == ".pyc"]


def test_every_key_written_in_checks_is_gone_from_every_file(made):
    places, _ = key_places()
    assert len(places) == len(made.withheld) >= 25
    files = edition_files(made.folder)
    for place in places:
        key = SPECS[place.exercise].key
        source = inspect.getsource(key)
        holding = [path for path, text in files.items() if source in text]
        assert not holding, f"{place.exercise}: its key's source is in {holding}"
        defining = files["react_course/" + place.path]
        assert f"def {place.name}(" not in defining
        if place.name != "key":  # a distinctive name (who_wrote_key) is nowhere at all
            assert not [path for path, text in files.items() if place.name in text], place.name


def test_importing_a_key_from_the_edition_fails(made, tmp_path):
    places, _ = key_places()
    imports = [(place.path.removesuffix(".py").replace("/", "."), place.name) for place in places]
    code = (f"import importlib\nfailed = []\nfor module, name in {imports!r}:\n"
            "    m = importlib.import_module('react_course.' + module)\n"
            "    failed.append(hasattr(m, name))\n"
            "from react_course.checks.lesson04 import calculate_key\n"
            "from react_course.checks.released import NotInEdition\n"
            "try:\n    calculate_key.WITHHELD('1 + 1')\nexcept NotInEdition as error:\n    print(error)\n"
            "print(sum(failed))")
    done = run_in_edition(made.folder, code, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["the answer key of 04.strict_calculate is not in the student edition",
                                        "0"]


def test_no_hidden_case_is_in_the_edition(made, tmp_path):
    exercises()
    files = edition_files(made.folder)
    released = {}
    for path in (made.folder / "react_course" / "data").glob("released-*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        released[data["exercise"]] = {json.dumps(e["args"]) for e in [*data["examples"], *data["sample"]]}
    hidden = [(spec.id, example) for spec in SPECS.values() for example in spec.hidden]
    assert len(hidden) > 80 and _HIDDEN and len(released) == len(SPECS)
    leaked = [(sid, e.name) for sid, e in hidden if json.dumps(to_plain(e.args)) in released[sid]]
    assert not leaked
    checks = "".join(text for path, text in files.items() if path.startswith("react_course/checks/lesson"))
    assert "def _hidden()" not in checks and "hidden=" not in checks
    shown = {example.name for spec in SPECS.values() for example in spec.examples}
    names = [(sid, e.name) for sid, e in hidden if e.name not in shown]
    assert not [(sid, name) for sid, name in names if f'"{name}"' in checks]  # nor their names
    code = ("from react_course.checks import _HIDDEN, exercises\nfrom react_course.checks.spec import SPECS\n"
            "exercises()\nprint(len(SPECS), len(_HIDDEN), sum(len(s.hidden) for s in SPECS.values()))")
    done = run_in_edition(made.folder, code, tmp_path)
    assert done.stdout.split() == [str(len(SPECS)), "0", "0"], done.stderr


def test_open_book_exercises_are_listed_in_the_readme(made):
    readme = (made.folder / "README.md").read_text(encoding="utf-8")
    assert made.open_book and all(f"`{exercise}`" in readme for exercise, _ in made.open_book)
    assert {"03.cut_at_stop", "05.find_repeat", "12.read_plan"} <= {e for e, _ in made.open_book}
    assert set(made.withheld).isdisjoint(e for e, _ in made.open_book)
    assert len(made.withheld) + len(made.open_book) == len(SPECS)


def _exercise_03(folder: Path, replace: dict[str, str] | None = None) -> str:
    """Exercise 03's code cells as one script, the solutions' cells filled in (or ``replace``d)."""
    name = next((folder / "exercises").glob("03_*.ipynb")).name
    given = json.loads((folder / "exercises" / name).read_text(encoding="utf-8"))["cells"]
    master = json.loads((ROOT / "solutions" / name).read_text(encoding="utf-8"))
    solved = {cell["id"]: cell for cell in master["cells"]}
    code = []
    for mine in given:
        if mine["cell_type"] == "code":
            text = "".join(solved[mine["id"]]["source"])  # the exercise's cell, solved
            for start, wrong in (replace or {}).items():
                text = wrong if text.startswith(start) else text
            code.append(f"print({text.strip()})" if text.startswith("check(") else text)  # as a cell shows it
    return "\n\n".join(["from IPython.display import display", *code])


def test_a_solved_exercise_passes_in_the_edition(made, tmp_path):
    done = run_in_edition(made.folder, _exercise_03(made.folder), tmp_path)
    assert done.returncode == 0, done.stderr
    results = [line for line in done.stdout.splitlines() if line.startswith("Check 03.")]
    assert len(results) == 4 and all("all passed" in line for line in results), done.stdout


def test_a_wrong_solution_shows_what_was_expected_and_what_came_back(made, tmp_path):
    wrong = ("def cut_at_stop(text, stops):\n"
             "    found = [text.rfind(s) for s in stops or () if s and s in text]\n"
             "    return text[:min(found)] if found else text\n")
    script = _exercise_03(made.folder, {"def cut_at_stop(": wrong})
    done = run_in_edition(made.folder, script, tmp_path)
    out = done.stdout
    assert "Check 03.cut_at_stop" in out and "FAIL  the first of two occurrences" in out, done.stderr
    assert "expected: 'Action 1: Search[Eiffel Tower]'" in out and "got:" in out
    assert "Use text.find (the first occurrence), not text.rfind (the last)." in out
    assert "released inputs differs" in out  # the generated case, from the released sample


def test_the_zip_holds_the_folder_and_is_the_same_every_time(made, tmp_path):
    with zipfile.ZipFile(made.zip) as archive:
        names = sorted(archive.namelist())
    files = sorted(f"{EDITION}/{path}" for path in edition_files(made.folder))
    assert names == files
    again = zip_folder(made.folder, tmp_path / "again.zip")
    assert again.read_bytes() == made.zip.read_bytes()


def test_the_verb_calls_build_release(monkeypatch, tmp_path, capsys):
    seen = {}

    def fake(out, *, site=False):
        seen.update(out=out, site=site)
        return made_stub(tmp_path)

    monkeypatch.setattr("react_course.course.release.build_release", fake)
    assert cli.main(["release", str(tmp_path), "--site"]) == 0
    assert seen == {"out": str(tmp_path), "site": True}
    assert "2 keys withheld, 1 exercises open book" in capsys.readouterr().out


def made_stub(folder: Path):
    from react_course.course.release import Release

    (folder / "x.zip").write_bytes(b"zip")
    return Release(folder, folder / "x.zip", ("a", "b"), (("c", "why"),), folder / "site")


def test_the_edition_refuses_to_grade_or_release(monkeypatch, capsys):
    monkeypatch.setattr(release_command, "student_edition", lambda: True)
    assert cli.main(["grade", "submissions"]) == 2
    assert cli.main(["release", "out"]) == 2
    assert cli.main(["build-exercises", "--check"]) == 2
    said = capsys.readouterr().err
    for verb in ("grade", "release", "build-exercises"):
        assert f"{verb} needs the full edition" in said


def test_the_site_is_built_by_the_editions_own_lite_build_in_a_copy(monkeypatch, tmp_path):
    edition = tmp_path / EDITION
    (edition / "lite").mkdir(parents=True)
    (edition / "lite" / "build.py").write_text("# the build\n", encoding="utf-8")
    ran = []

    def fake_run(command, check, cwd):
        ran.append((command, cwd))
        (Path(cwd) / "lite" / "_site").mkdir(parents=True, exist_ok=True)
        (Path(cwd) / "lite" / "_site" / "index.html").write_text("site", encoding="utf-8")

    monkeypatch.setattr(release.subprocess, "run", fake_run)
    made = release.build_site(edition, tmp_path / "site")
    work = tmp_path / ".site-build"
    assert ran == [(["python3", str(work / "lite" / "build.py")], work)]
    assert (made / "index.html").read_text(encoding="utf-8") == "site"
    assert not (edition / "lite" / "_site").exists()  # the hand-out stays as it is


def test_a_release_needs_the_git_checkout(tmp_path):
    with pytest.raises(ValueError, match="git checkout"):
        build_release(tmp_path / "out", root=tmp_path)
