"""The hosted set-ups (Binder/JupyterHub via repo2docker, Codespaces via a devcontainer) install
what a laptop installs, and JupyterLab opens without a toast and with the course's kernel.

No Docker here: the tests parse the files' install steps and check each one (the lock, the
package, the kernel's name, the settings), and run the one step that needs no network,
``course.py lab-settings``, into a scratch prefix. One slow test runs the devcontainer's
``postCreateCommand`` as a new non-root user against a root-owned Python, as the image has
them (mcr.microsoft.com/devcontainers/python: Python under /usr/local, owned by root; the
commands run as ``vscode``), with ``setpriv`` instead of a container runtime.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

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
    # The image's Python belongs to root and the commands run as its user: a .venv of the user's own
    assert config["postCreateCommand"] == "python3 course.py setup && .venv/bin/python course.py lab-settings"
    assert config["image"].endswith(":3.12")
    lab = shlex.split(config["postAttachCommand"])
    assert lab[:3] == [".venv/bin/python", "-m", "jupyterlab"], "JupyterLab must run from the .venv"
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


USER = 4242  # a user id nobody on the machine has, like the image's vscode
AS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("setpriv") is not None


def _as_user(command: str, cwd: Path, home: Path, image: Path) -> subprocess.CompletedProcess:
    # PIP_NO_COMPILE: pip byte-compiles every file it installs, half of the set-up's CPU time
    # (measured: 33 s of 66 s for the laptop's packages) for a .venv that runs one command here;
    # the set-up's own steps, the ones under test, are the same.
    environment = {"HOME": str(home), "PATH": f"{image / 'bin'}:/usr/bin:/bin", "LANG": "C.UTF-8",
                   "PIP_NO_COMPILE": "1"}
    return subprocess.run(["setpriv", f"--reuid={USER}", f"--regid={USER}", "--clear-groups", "bash", "-c",
                           command], cwd=cwd, env=environment, capture_output=True, text=True, timeout=1800)


def _copy_of_the_course(into: Path) -> None:
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    for name in files.splitlines():
        if (ROOT / name).is_file():
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, into / name)


# The wheels the set-up installs from: `python3 course.py test` downloads them (a set-up step) so
# that this test sends nothing beyond the machine; the devcontainer's own command, given the course's
# --wheelhouse option, is what runs.
WHEELS = os.environ.get("REACT_COURSE_TEST_WHEELHOUSE", "")


@pytest.mark.slow
@pytest.mark.skipif(not AS_ROOT, reason="needs root and setpriv, to act as a new user")
@pytest.mark.skipif(not WHEELS or not Path(WHEELS).is_dir(),
                    reason="no wheelhouse to install from offline: run it through python3 course.py test")
def test_the_devcontainer_sets_up_as_its_user_against_a_root_owned_python() -> None:
    with tempfile.TemporaryDirectory(prefix="devcontainer-") as scratch:  # pytest's own is root's only
        Path(scratch).chmod(0o755)
        _set_up_as_the_image_user(Path(scratch), Path(WHEELS))


def _set_up_as_the_image_user(scratch: Path, wheels: Path) -> None:
    image, course, home = scratch / "image", scratch / "course", scratch / "home"
    base = "/usr/bin/python3" if Path("/usr/bin/python3").exists() else sys.executable
    subprocess.run([base, "-m", "venv", "--without-pip", str(image)], check=True)  # root's, as in the image
    _copy_of_the_course(course)
    home.mkdir()
    for top in (course, home):
        for path in [top, *top.rglob("*")]:
            os.lchown(path, USER, USER)
    probe = _as_user('test -w "$(python3 -c "import sys; print(sys.prefix)")"', course, home, image)
    assert probe.returncode != 0, "the image's Python must not be writable by its user, as in the real image"
    config = json.loads((ROOT / ".devcontainer" / "devcontainer.json").read_text(encoding="utf-8"))
    command = config["postCreateCommand"]
    offline = command.replace("course.py setup", f"course.py setup --wheelhouse {wheels}", 1)
    assert offline != command
    setup = _as_user(offline, course, home, image)
    said = (setup.stdout + setup.stderr)[-3000:]
    assert setup.returncode == 0, f"postCreateCommand failed as the image's user:\n{said}"
    kernels = _as_user(".venv/bin/python -m jupyter kernelspec list --json", course, home, image)
    assert _course().KERNEL in json.loads(kernels.stdout)["kernelspecs"], kernels.stdout + kernels.stderr
