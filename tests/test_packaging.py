"""The set-up files agree with each other, and the README's commands are the real ones."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def environment_pip_requirements() -> list[str]:
    lines = (ROOT / "environment.yml").read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == "- pip:")
    return [line.strip()[2:].strip() for line in lines[start + 1 :] if line.strip().startswith("- ")]


def test_environment_yml_matches_pyproject() -> None:
    project = PYPROJECT["project"]
    extras = project["optional-dependencies"]
    declared = list(dict.fromkeys(project["dependencies"] + extras["laptop"] + extras["test"]))
    assert sorted(environment_pip_requirements()) == sorted(declared)
    python = re.search(r"- python=(\S+)", (ROOT / "environment.yml").read_text())
    assert python and PYPROJECT["project"]["requires-python"].startswith(f">={python[1]},")


def declared_with_extras() -> list[str]:
    """The dependencies and every extra's (the frameworks extra is locked too, for CI)."""
    project = PYPROJECT["project"]
    return project["dependencies"] + [r for extra in project["optional-dependencies"].values() for r in extra]


def test_every_dependency_has_an_upper_bound() -> None:
    for text in declared_with_extras():
        assert any(spec.operator in ("<", "<=", "==", "~=") for spec in Requirement(text).specifier), text


def lock_pins() -> dict[str, list[str]]:
    """name -> every version constraints.txt pins for it (one per environment marker)."""
    pins: dict[str, list[str]] = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        requirement = line.split("#")[0].strip()
        if requirement:
            parsed = Requirement(requirement)
            assert len(parsed.specifier) == 1 and next(iter(parsed.specifier)).operator == "==", line
            pins.setdefault(re.sub(r"[-_.]+", "-", parsed.name).lower(), []).append(
                next(iter(parsed.specifier)).version)
    return pins


def test_constraints_pin_versions_inside_the_bounds() -> None:
    pins = lock_pins()
    for text in declared_with_extras():
        requirement = Requirement(text)
        pinned = pins.get(requirement.name.lower())
        assert pinned, f"{requirement.name} is not pinned in constraints.txt"
        for version in pinned:
            assert requirement.specifier.contains(version), f"{requirement.name}=={version} vs {text}"


def test_the_lock_is_universal_and_made_by_a_tool() -> None:
    text = (ROOT / "constraints.txt").read_text()
    assert "uv pip compile --universal" in text and "python3 course.py lock" in text
    pins = lock_pins()
    for name in ("pywinpty", "colorama", "appnope"):  # platform-only packages
        assert name in pins, f"{name} is not pinned: the lock was made on one platform"
    assert "soupsieve" in pins and len(pins["soupsieve"]) == 2, "one soupsieve for 3.11.0-3.11.4, one after"


def test_the_student_install_holds_no_test_tools() -> None:
    tools = {"pytest", "nbval", "hypothesis", "ruff", "uv"}
    project = PYPROJECT["project"]
    student = {Requirement(text).name for text in
               project["dependencies"] + project["optional-dependencies"]["laptop"]}
    assert not student & tools, f"test tools in the student install: {student & tools}"
    assert tools <= {Requirement(text).name for text in PYPROJECT["project"]["optional-dependencies"]["test"]}


def test_license_names_its_holder_and_allows_paid_workshops() -> None:
    license_text = (ROOT / "LICENSE").read_text()
    assert license_text.startswith("MIT License")
    assert "Copyright (c) 2026 The react-course authors" in license_text
    assert PYPROJECT["project"]["license"] == "MIT" and PYPROJECT["project"]["license-files"] == ["LICENSE"]
    assert "paid workshops" in README


def test_readme_gives_windows_commands_beside_the_unix_ones() -> None:
    for command in ("py course.py open", "py course.py test", r".venv\Scripts\react-course doctor",
                    "--wheelhouse"):
        assert command in README, command


def readme_commands() -> list[str]:
    blocks = re.findall(r"```bash\n(.*?)```", README, re.DOTALL)
    return [line.strip() for block in blocks for line in block.splitlines() if line.strip()]


def test_readme_opens_with_the_two_commands() -> None:
    commands = readme_commands()
    assert commands[:2] == ["python3 course.py open", "python3 course.py test"]
    assert any(c.startswith("python3 course.py wheelhouse --platform all --python all") for c in commands)


def test_ci_runs_the_readme_test_command() -> None:
    script = (ROOT / ".ci" / "run").read_text()
    assert "python3 course.py test" in script.splitlines()
    assert (ROOT / ".ci" / "run").stat().st_mode & 0o111, ".ci/run must be executable"


def test_readme_lists_every_lesson() -> None:
    for notebook in sorted((ROOT / "notebooks").glob("*.ipynb")):
        assert f"notebooks/{notebook.name}" in README, f"README's lesson map misses {notebook.name}"


def test_course_script_explains_itself() -> None:
    out = subprocess.run([sys.executable, str(ROOT / "course.py")], capture_output=True, text=True)
    assert out.returncode == 2 and "python3 course.py open" in out.stdout


def test_package_data_is_installed() -> None:
    import react_course

    data = Path(react_course.__file__).parent / "data"
    bundled = {"encyclopedia.json", "eval_tasks.json", "prices.json", "shop.json", "support.json"}
    assert {p.name for p in data.glob("*.json")} == bundled


def test_no_machine_paths_in_tracked_files() -> None:
    # Built from parts so that this file does not match itself.
    machine_paths = ["/" + part + "/" for part in ("work", "tmp", "root", "home")]
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True).stdout
    for name in tracked.split():
        path = ROOT / name
        if path.suffix in (".py", ".md", ".ipynb", ".toml", ".yml", ".txt", ".cfg", ".json"):
            text = path.read_text(encoding="utf-8", errors="replace")
            found = [p for p in machine_paths if p in text]
            assert not found, f"{name} mentions {found}"


def test_open_command_shows_the_whole_course_on_lesson_00() -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("course", ROOT / "course.py")
    course = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(course)
    command = course.lab_command(Path("python"), ["--no-browser"], as_root=False)
    assert command[1:3] == ["-m", "jupyterlab"]
    assert f"--ServerApp.root_dir={ROOT}" in command
    assert command[-2:] == ["notebooks/00_start_here.ipynb", "--no-browser"]
    assert (ROOT / "notebooks/00_start_here.ipynb").exists()
    assert "--allow-root" in course.lab_command(Path("python"), [], as_root=True)
