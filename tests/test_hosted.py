"""The hosted set-ups (Binder/JupyterHub via repo2docker, Codespaces via a devcontainer) install
what a laptop installs, and JupyterLab opens without a toast and with the course's kernel.

No Docker here: the tests parse the files' install steps and check each one (the lock, the
package, the kernel's name, the settings), and run the one step that needs no network,
``course.py lab-settings``, into a scratch prefix.
"""

from __future__ import annotations

import importlib.util
import json
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _course():
    spec = importlib.util.spec_from_file_location("course_setup", ROOT / "course.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _steps(path: Path) -> list[list[str]]:
    lines = [line.strip() for line in path.read_text(encoding="utf-8").splitlines()]
    return [shlex.split(line) for line in lines if line and not line.startswith(("#", "set "))]


def test_repo2docker_installs_from_the_lock_and_registers_the_kernel() -> None:
    assert (ROOT / "binder" / "runtime.txt").read_text().strip() == "python-3.12"
    pip, kernel, settings = _steps(ROOT / "binder" / "postBuild")
    assert pip[:4] == ["python", "-m", "pip", "install"]
    assert pip[pip.index("-c") + 1] == "constraints.txt" and pip[-2:] == ["-e", ".[laptop]"]
    assert kernel[:4] == ["python", "-m", "ipykernel", "install"]
    assert kernel[kernel.index("--name") + 1] == _course().KERNEL
    assert settings == ["python", "course.py", "lab-settings"]


def test_the_devcontainer_runs_the_same_install_and_opens_lesson_00() -> None:
    config = json.loads((ROOT / ".devcontainer" / "devcontainer.json").read_text(encoding="utf-8"))
    assert config["postCreateCommand"] == "bash binder/postBuild"
    assert config["image"].endswith(":3.12")
    lab = shlex.split(config["postAttachCommand"])
    assert "--MappingKernelManager.default_kernel_name=react-course" in lab
    assert lab[-1] == "notebooks/00_start_here.ipynb" and (ROOT / lab[-1]).exists()


def test_lab_settings_turn_off_the_news_and_start_the_course_kernel(tmp_path: Path) -> None:
    subprocess.run([sys.executable, str(ROOT / "course.py"), "lab-settings", "--prefix", str(tmp_path)],
                   check=True, cwd=ROOT)
    path = tmp_path / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    settings = json.loads(path.read_text(encoding="utf-8"))
    assert settings["@jupyterlab/apputils-extension:notification"]["fetchNews"] == "false"
    assert settings["@jupyterlab/notebook-extension:tracker"]["autoStartDefaultKernel"] is True
    _course().quiet_lab(tmp_path)
    assert json.loads(path.read_text(encoding="utf-8")) == settings  # a second run changes nothing


def test_the_laptop_opens_lab_with_the_course_kernel() -> None:
    command = _course().lab_command(Path("python"), [], as_root=False)
    assert "--MappingKernelManager.default_kernel_name=react-course" in command
