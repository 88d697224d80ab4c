"""course.py's repair paths, driven in scratch folders with the installs faked.

Each test copies course.py and a tiny pyproject.toml into a temporary folder and
loads it from there, so that its .venv is a scratch one. The fake environment's
`python` is a two-line script that runs the Python running these tests; pip and
ipykernel are never run (`course.run` only records the commands). What is left
out: real installs, which `.ci/run` does from nothing, and Windows' paths.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = '[project]\nname = "demo"\nrequires-python = ">=3.11,<3.16"\n'
pytestmark = pytest.mark.skipif(os.name == "nt", reason="the fake environment is a POSIX script")


def load_course(folder: Path):
    spec = importlib.util.spec_from_file_location(f"course_{abs(hash(folder))}", folder / "course.py")
    course = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(course)
    return course


def fake_builder(created: list):
    class Builder:
        def __init__(self, **options):
            self.options = options

        def create(self, target):
            created.append(Path(target))
            bin_dir = Path(target) / "bin"
            bin_dir.mkdir(parents=True)
            python = bin_dir / "python"
            python.write_text(f"#!/bin/sh\nexec {sys.executable} \"$@\"\n")
            python.chmod(0o755)
            (bin_dir / "jupyter").write_text(f"#!{bin_dir / 'python'}\nprint('jupyter')\n")

    return Builder


class Course:
    """A scratch course folder and its course.py, with subprocess calls recorded."""

    def __init__(self, folder: Path, monkeypatch: pytest.MonkeyPatch):
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / "course.py", folder / "course.py")
        (folder / "pyproject.toml").write_text(PYPROJECT)
        (folder / "constraints.txt").write_text("six==1.17.0\n")
        self.folder, self.created, self.commands, self.fail_with = folder, [], [], None
        self.module = load_course(folder)
        monkeypatch.setattr(self.module.venv, "EnvBuilder", fake_builder(self.created))
        monkeypatch.setattr(self.module, "run", self.run)
        monkeypatch.setattr(self.module, "hand_back_to_sudo_user", lambda: None)

    def run(self, *args, env=None):
        self.commands.append(args)
        if self.fail_with is not None:
            raise self.fail_with

    def installs(self) -> list:
        return [c for c in self.commands if c[1:4] == ("-m", "pip", "install")]

    def stamp(self) -> dict:
        return self.module.read_stamp()


@pytest.fixture
def course(tmp_path, monkeypatch):
    return Course(tmp_path / "course", monkeypatch)


def test_first_run_builds_then_a_second_run_does_nothing(course):
    python = course.module.setup("")
    assert python == course.folder / ".venv" / "bin" / "python" and len(course.created) == 1
    assert len(course.installs()) == 1 and "--quiet" not in course.installs()[0]  # pip's progress shows
    assert any("ipykernel" in c for c in course.commands)
    assert course.stamp()["folder"] == str(course.folder)
    course.commands.clear()
    course.module.setup("")
    assert course.commands == [] and len(course.created) == 1


def test_the_frameworks_extra_adds_to_the_test_extra_and_stays(course):
    course.module.setup("test")
    course.module.setup("test,frameworks")
    assert course.installs()[-1][-1] == ".[frameworks,laptop,test]"
    assert course.stamp()["extras"] == ["frameworks", "test"]
    course.commands.clear()
    course.module.setup("test")  # `course.py test` after CI's set-up: nothing to reinstall
    assert course.installs() == []
    rest = ["--frameworks", "-x"]
    assert course.module.take_flag(rest, "--frameworks") and rest == ["-x"]


def test_the_test_extra_is_installed_once_on_top(course):
    course.module.setup("")
    course.module.setup("test")
    assert course.installs()[-1][-1] == ".[laptop,test]" and course.stamp()["extras"] == ["test"]
    course.commands.clear()
    course.module.setup("")
    course.module.setup("test")
    assert course.commands == []


def test_a_changed_lock_reinstalls(course):
    course.module.setup("")
    (course.folder / "constraints.txt").write_text("six==1.16.0\n")
    course.module.setup("")
    assert len(course.installs()) == 2


def test_an_interrupted_install_is_finished_by_the_next_run(course, capsys):
    course.fail_with = KeyboardInterrupt()
    assert course.module.entry(["setup"]) == 1
    out = capsys.readouterr().out
    assert "Run the same command again" in out and "Traceback" not in out
    assert course.stamp() == {}  # not marked as done
    course.fail_with = None
    course.module.setup("")
    assert len(course.installs()) == 2 and course.stamp()["folder"] == str(course.folder)
    assert len(course.created) == 1  # the environment itself was sound: kept


def test_a_failed_pip_ends_in_one_paragraph(course, capsys):
    course.fail_with = subprocess.CalledProcessError(1, ["pip"])
    assert course.module.entry(["open"]) == 1
    out = capsys.readouterr().out
    paragraph = " ".join(out.strip().split("\n\n")[-1].split())
    assert "carries on where it stopped" in paragraph and "Traceback" not in out
    assert "--wheelhouse" in paragraph


@pytest.mark.parametrize("damage", ["no python", "broken python", "no pip"])
def test_a_half_built_environment_is_made_again(course, capsys, damage):
    course.module.setup("")
    python = course.folder / ".venv" / "bin" / "python"
    if damage == "no python":
        python.unlink()
    elif damage == "broken python":
        python.write_text("#!/bin/sh\nexit 1\n")
    else:
        python.write_text(f"#!/bin/sh\nexec {sys.executable} -S -I -c 'import pip' \"$@\"\n")
    course.module.setup("")
    assert "incomplete or broken" in capsys.readouterr().out
    assert len(course.created) == 2 and len(course.installs()) == 2


def test_a_moved_folder_is_detected_and_repaired(course, tmp_path, monkeypatch, capsys):
    course.module.setup("")
    moved = tmp_path / "elsewhere" / "course"
    moved.parent.mkdir()
    course.folder.rename(moved)
    there = Course.__new__(Course)
    there.folder, there.created, there.commands, there.fail_with = moved, [], [], None
    there.module = load_course(moved)
    monkeypatch.setattr(there.module.venv, "EnvBuilder", fake_builder(there.created))
    monkeypatch.setattr(there.module, "run", there.run)
    there.module.setup("")
    assert "course folder moved" in capsys.readouterr().out
    assert there.created == []  # repaired in place, not rebuilt
    assert len(there.installs()) == 1 and any("ipykernel" in c for c in there.commands)
    assert there.stamp()["folder"] == str(moved)
    script = (moved / ".venv" / "bin" / "jupyter").read_text()
    assert script.startswith(f"#!{moved / '.venv' / 'bin' / 'python'}")


def test_a_python_without_venv_support_gets_one_paragraph(course, monkeypatch, capsys):
    def fail(self, target):
        Path(target).mkdir(parents=True)
        raise subprocess.CalledProcessError(1, ["python", "-m", "ensurepip"])

    monkeypatch.setattr(course.module.venv.EnvBuilder, "create", fail)
    assert course.module.entry(["open"]) == 1
    out = capsys.readouterr().out
    assert "apt install python3-venv" in out and "Traceback" not in out
    assert not (course.folder / ".venv").exists()  # no half-made environment left behind


def test_no_ensurepip_at_all(course, monkeypatch, capsys):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "ensurepip"
                        else real(name, *a))
    assert course.module.entry(["setup"]) == 1
    assert "python3-venv" in capsys.readouterr().out and course.created == []


def test_an_unexpected_error_is_still_one_paragraph(course, monkeypatch, capsys):
    monkeypatch.setattr(course.module, "setup", lambda *a: {}["boom"])
    monkeypatch.delenv("REACT_COURSE_DEBUG", raising=False)
    assert course.module.entry(["setup"]) == 1
    out = capsys.readouterr().out
    assert "KeyError" in out and "Traceback" not in out and "delete the .venv" in out


def test_root_is_warned_about(course, monkeypatch, capsys):
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    monkeypatch.setenv("SUDO_UID", "1000")
    monkeypatch.setenv("SUDO_USER", "student")
    course.module.warn_about_root()
    assert "sudo, which the course does not need" in capsys.readouterr().out
    monkeypatch.delenv("SUDO_UID")
    course.module.warn_about_root()
    assert "will belong to root" in capsys.readouterr().out


def test_a_root_owned_environment_is_explained_to_the_next_user(course, monkeypatch, capsys):
    course.module.setup("")
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    monkeypatch.setattr(course.module.os, "access", lambda path, mode: False)
    assert course.module.entry(["open"]) == 1
    assert "sudo rm -rf .venv" in capsys.readouterr().out


def test_sudo_hands_the_environment_back(tmp_path, monkeypatch):
    course = load_course(ROOT)  # only its functions: the folders are pointed at tmp_path
    monkeypatch.setattr(course, "VENV", tmp_path / ".venv")
    monkeypatch.setattr(course, "HERE", tmp_path)
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    owners = []
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    monkeypatch.setattr(course.os, "lchown", lambda path, uid, gid: owners.append((uid, gid)))
    monkeypatch.setenv("SUDO_UID", "1000")
    monkeypatch.setenv("SUDO_GID", "1000")
    course.hand_back_to_sudo_user()
    assert owners and set(owners) == {(1000, 1000)}


def test_unsupported_pythons_are_told_which_to_install():
    course = load_course(ROOT)
    old = course.python_problem((3, 10, 12))
    assert "Python 3.11 to 3.15" in old and "this is Python 3.10.12" in old and "Install Python 3.13" in old
    assert "3.16.0" in course.python_problem((3, 16, 0))
    assert course.python_problem((3, 11, 2)) is None and course.python_problem((3, 15, 0)) is None
    arm = course.python_problem((3, 11, 9), machine="ARM64", windows=True)
    assert "3.12 or newer" in arm and "PyYAML" in arm
    assert course.python_problem((3, 12, 1), machine="ARM64", windows=True) is None
    assert "32-bit" in course.python_problem((3, 13, 0), bits=32)
    assert "free-threaded" in course.python_problem((3, 14, 0), free_threaded=True)


def test_the_supported_range_is_stated_once_in_pyproject():
    course = load_course(ROOT)
    stated = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    assert stated == ">=3.11,<3.16"
    assert course.supported_range() == ((3, 11), (3, 16))
    assert course.minor_versions() == ["3.11", "3.12", "3.13", "3.14", "3.15"]
    assert "Python 3.11 to 3.15" in (ROOT / "README.md").read_text()  # the README says the same
    assert "3.11" not in Path(ROOT / "course.py").read_text().split("RECOMMENDED")[0].split('"""')[2]


def test_course_py_still_parses_on_old_pythons():
    # An old Python must get as far as saying which Python to install.
    ast.parse((ROOT / "course.py").read_text(), feature_version=(3, 7))


def test_wheelhouse_options_and_platform_pins():
    course = load_course(ROOT)
    rest = ["--platform", "windows-x64,macos-arm", "--python=3.13", "--dest", "wh", "x"]
    assert course.take_option(rest, "--platform", many=True) == ["windows-x64", "macos-arm"]
    assert course.take_option(rest, "--python", many=True) == ["3.13"]
    assert course.take_option(rest, "--dest") == "wh" and rest == ["x"]
    names = {pin.split("==")[0] for pin in course.pins_for("windows-x64", "3.13")}
    assert {"colorama", "pywinpty", "jupyterlab"} <= names and "appnope" not in names
    mac = {pin.split("==")[0] for pin in course.pins_for("macos-intel", "3.12")}
    assert "appnope" in mac and "pywinpty" not in mac
    linux = {pin.split("==")[0] for pin in course.pins_for("linux-x86_64", "3.11")}
    assert not {"appnope", "colorama", "pywinpty"} & linux
    assert "manylinux2014_x86_64" in course.pip_tags("linux-x86_64")


def test_a_missing_wheelhouse_folder_is_one_paragraph(capsys):
    course = load_course(ROOT)
    assert course.entry(["open", "--wheelhouse", "no-such-folder-here"]) == 1
    out = capsys.readouterr().out
    assert "There is no folder no-such-folder-here" in out and "Traceback" not in out


def test_wheelhouse_downloads_each_platforms_own_wheels(tmp_path, monkeypatch, capsys):
    course = load_course(ROOT)
    commands = []
    monkeypatch.setattr(course, "run", lambda *args, env=None: commands.append(args))
    assert course.entry(["wheelhouse", "--platform", "windows-x64,windows-arm64", "--python", "3.11,3.13",
                         "--dest", str(tmp_path / "wh")]) == 0
    assert "setuptools>=77" in commands[0]  # what pip needs to build the course itself, offline
    downloads = [c for c in commands[1:] if "download" in c]
    for command in downloads:
        names = [arg.split("==")[0] for arg in command if "==" in arg]
        assert len(names) == len(set(names)) and "--only-binary" in command and "--no-deps" in command
    windows_311 = [c for c in downloads if "win_amd64" in c and "3.11" in c]
    pinned = {arg.split("==")[0] for c in windows_311 for arg in c if "==" in arg}
    assert {"colorama", "pywinpty", "jupyterlab"} <= pinned and "appnope" not in pinned
    assert len([v for v in ("2", "4") if any(f"soupsieve=={v}" in a for c in windows_311 for a in c)]) == 2
    assert not any("win_arm64" in c and "3.11" in c for c in downloads)  # the stated exception
    assert "skipping windows-arm64 on Python 3.11" in capsys.readouterr().out


def test_unknown_wheelhouse_choices_are_named(capsys):
    course = load_course(ROOT)
    assert course.entry(["wheelhouse", "--platform", "amiga"]) == 1
    assert "Unknown choice amiga" in capsys.readouterr().out


def test_setup_silences_jupyterlabs_news_toast_and_keeps_other_overrides(course):
    course.module.setup("")
    path = course.folder / ".venv" / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    assert json.loads(path.read_text()) == course.module.LAB_OVERRIDES
    path.write_text('{"@jupyterlab/apputils-extension:themes": {"theme": "JupyterLab Dark"}}')
    course.module.setup("")
    written = json.loads(path.read_text())
    assert written["@jupyterlab/apputils-extension:notification"] == {"fetchNews": "false"}
    assert written["@jupyterlab/apputils-extension:themes"] == {"theme": "JupyterLab Dark"}


def test_setup_run_again_says_all_is_set_up(course, monkeypatch, capsys):
    """A second `course.py setup` finds nothing to do, and says so instead of saying nothing."""
    module = course.module
    monkeypatch.setattr(module, "python_problem", lambda: None)
    monkeypatch.setattr(module, "venv_works", lambda python: True)
    monkeypatch.setattr(module, "read_stamp", lambda: {"inputs": module.inputs_hash(),
                                                      "folder": str(module.HERE), "extras": ["test"]})
    monkeypatch.setattr(module, "install", lambda *a: pytest.fail("nothing should be installed"))
    module.quiet_lab()  # the settings are in place too
    assert module.main(["setup", "--test"]) == 0
    assert "Everything is already set up" in capsys.readouterr().out
