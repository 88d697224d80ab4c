"""Set up the course and open it, or run its tests. Needs only Python and pip.

    python3 course.py open    set up (first time), then open JupyterLab on lesson 00
    python3 course.py test    set up with the test tools, then run the whole suite
    python3 course.py setup   set up only (add --test for the test tools)
    python3 course.py setup --test --frameworks
                              ... and the agent frameworks the framework tests drive (as CI does);
                              `test --frameworks` does the same before it runs the suite

    python3 course.py wheelhouse --platform windows-x64 --python 3.13 [--dest wheelhouse]
                              instructors: a folder of wheels for a room without network
    python3 course.py open --wheelhouse FOLDER     set up from that folder, no network
    python3 course.py lock    maintainers: re-resolve constraints.txt for every platform
    python3 course.py lab-settings   hosted set-ups: JupyterLab's settings for this Python

On Windows type `py course.py ...` instead of `python3 course.py ...`.

Setting up makes a virtual environment in .venv, installs the course with the
exact versions in constraints.txt, and registers the Jupyter kernel
"react-course" inside that environment. Running it again repairs what it finds:
an interrupted install, a broken or half-made .venv, a course folder that was
moved. Extra arguments go to JupyterLab (open) or pytest (test), e.g.
`python3 course.py test -x`. This file uses only the standard library, and its
syntax stays old enough that an old Python can still say which Python to get.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import venv
from pathlib import Path

HERE = Path(__file__).resolve().parent
VENV = HERE / ".venv"
STAMP_NAME = "react-course-setup.json"
KERNEL = "react-course"
FIRST_NOTEBOOK = "notebooks/00_start_here.ipynb"
RECOMMENDED = "3.13"  # the Python we suggest when the one found is outside the range

# Target platforms: course name -> (uv's name, pip's platform tags, marker values).
PLATFORMS = {
    "windows-x64": ("x86_64-pc-windows-msvc", ["win_amd64"], ("win32", "AMD64", "nt", "Windows")),
    "windows-arm64": ("aarch64-pc-windows-msvc", ["win_arm64"], ("win32", "ARM64", "nt", "Windows")),
    "macos-intel": ("x86_64-apple-darwin", ["macosx_13_0_x86_64"], ("darwin", "x86_64", "posix", "Darwin")),
    "macos-arm": ("aarch64-apple-darwin", ["macosx_13_0_arm64"], ("darwin", "arm64", "posix", "Darwin")),
    "linux-x86_64": ("x86_64-manylinux_2_28", None, ("linux", "x86_64", "posix", "Linux")),
    "linux-aarch64": ("aarch64-manylinux_2_28", None, ("linux", "aarch64", "posix", "Linux")),
}
# Stated exceptions to "every platform on every supported Python".
EXCEPTIONS = {("windows-arm64", "3.11"): "PyYAML, needed by the Jupyter server, has no Windows-on-ARM "
                                         "wheel for Python 3.11: use Python 3.12 or newer there"}
# Not supported at all (python_problem says so): 32-bit and free-threaded Pythons.
# Bounds the lock adds to pyproject.toml's, each because a newer release lacks wheels somewhere.
WHEEL_GAPS = {
    "argon2-cffi-bindings<26": "26.x has no wheel for Intel macOS; 25.1 has abi3 wheels everywhere",
    "cryptography<49 ; sys_platform == 'darwin' and platform_machine == 'x86_64'":
        "49 and newer have no wheel for Intel macOS",
    "cryptography<=46.0.3 ; sys_platform == 'win32' and platform_machine == 'ARM64'":
        "46.0.3 is the newest with a Windows-on-ARM wheel (there only mcp's pyjwt uses it)",
}


class Trouble(Exception):
    """A failure the student can fix. The message is one paragraph saying what to do."""


def say(text: str) -> None:
    print(textwrap.fill(" ".join(text.split()), width=88), flush=True)


def venv_python(venv_dir: Path = VENV) -> Path:
    folder = "Scripts" if os.name == "nt" else "bin"
    return venv_dir / folder / ("python.exe" if os.name == "nt" else "python")


def run(*args: str, env: dict | None = None) -> None:
    print("+", " ".join(args), flush=True)
    subprocess.run(args, check=True, cwd=HERE, env=env)


# ---------------------------------------------------------------- which Python
def supported_range(pyproject: Path = HERE / "pyproject.toml") -> tuple:
    """The (lowest, first unsupported) versions from pyproject's requires-python."""
    text = pyproject.read_text(encoding="utf-8")
    spec = re.search(r'^requires-python\s*=\s*"([^"]*)"', text, re.MULTILINE).group(1)
    low = re.search(r">=\s*([\d.]+)", spec).group(1)
    high = re.search(r"<\s*([\d.]+)", spec)
    return (tuple(int(p) for p in low.split(".")),
            tuple(int(p) for p in high.group(1).split(".")) if high else (99,))


def minor_versions(low: tuple | None = None, high: tuple | None = None) -> list:
    """Every supported 3.x as text, e.g. ['3.11', ..., '3.15']."""
    if low is None:
        low, high = supported_range()
    return [f"3.{m}" for m in range(low[1], high[1] if high[0] == 3 else 30)]


def python_problem(version: tuple | None = None, machine: str | None = None,
                   windows: bool | None = None, bits: int | None = None,
                   free_threaded: bool | None = None) -> str | None:
    """What is wrong with this Python for the course, or None."""
    import sysconfig

    version = tuple(version or sys.version_info[:3])
    machine = (machine or platform.machine()).lower()
    windows = os.name == "nt" if windows is None else windows
    bits = bits or (64 if sys.maxsize > 2**32 else 32)
    if free_threaded is None:
        free_threaded = bool(sysconfig.get_config_var("Py_GIL_DISABLED"))
    low, high = supported_range()
    found = ".".join(map(str, version))
    pythons = minor_versions(low, high)
    if not low <= version < high:
        return (f"The course needs Python {pythons[0]} to {pythons[-1]}; this is Python {found}. "
                f"Install Python {RECOMMENDED} (python.org for Windows and macOS; on Linux your "
                f"system's python3 if it is in that range, or python{RECOMMENDED}), then run this "
                f"command again with it (Windows: py -{RECOMMENDED} course.py open).")
    if bits != 64 or free_threaded:
        kind = "a 32-bit Python" if bits != 64 else "a free-threaded Python (python3.Xt)"
        return (f"This is {kind}, for which the course's packages have no wheels. Install the "
                f"standard 64-bit Python {RECOMMENDED} (python.org: the default installer), then run "
                f"this command again with it (Windows: py -{RECOMMENDED} course.py open).")
    if windows and machine in ("arm64", "aarch64") and version[:2] == (3, 11):
        return (f"On Windows on ARM the course needs Python 3.12 or newer (this is {found}): "
                f"{EXCEPTIONS[('windows-arm64', '3.11')]}. Install Python {RECOMMENDED} from "
                f"python.org (the ARM64 installer), then run: py -{RECOMMENDED} course.py open")
    return None


# ---------------------------------------------------------------- the environment
NO_VENV = ("This Python cannot make a virtual environment (its venv/ensurepip part is missing). "
           "On Debian or Ubuntu: sudo apt install python3-venv (for a python3.X, python3.X-venv), "
           "then run the same command again. On Fedora: sudo dnf install python3-pip. Elsewhere, "
           "install Python from python.org, which includes it.")


def read_stamp() -> dict:
    try:
        return json.loads((VENV / STAMP_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def inputs_hash() -> str:
    files = ("pyproject.toml", "constraints.txt")
    return hashlib.sha256(b"".join((HERE / f).read_bytes() for f in files)).hexdigest()


def venv_works(python: Path) -> bool:
    """The environment's Python starts, has pip, and is a supported version."""
    if not python.exists():
        return False
    probe = "import sys, pip; print('%d.%d.%d' % sys.version_info[:3])"
    try:
        out = subprocess.run([str(python), "-c", probe], capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.SubprocessError):
        return False
    if out.returncode != 0:
        return False
    version = tuple(int(p) for p in out.stdout.split()[-1].split("."))
    low, high = supported_range()
    return low <= version < high


def create_venv() -> None:
    import importlib.util

    if importlib.util.find_spec("ensurepip") is None:
        raise Trouble(NO_VENV)
    if VENV.exists():
        shutil.rmtree(VENV)  # only ever our own .venv folder
    print(f"Creating a virtual environment in {VENV.name}/ ...", flush=True)
    try:
        venv.EnvBuilder(with_pip=True).create(VENV)
    except (subprocess.CalledProcessError, OSError) as error:
        shutil.rmtree(VENV, ignore_errors=True)
        raise Trouble(f"{NO_VENV} (The attempt ended with: {error})") from None


def repoint_scripts(old: Path, new: Path) -> None:
    """After a move, the scripts in .venv/bin still name the old folder: point them here."""
    folder = venv_python().parent
    if os.name == "nt" or not folder.is_dir():
        return  # Windows' launchers are binaries; course.py uses `python -m ...` throughout
    for path in folder.iterdir():
        if path.is_symlink() or not path.is_file() or path.stat().st_size > 1_000_000:
            continue
        data = path.read_bytes()
        if b"\0" not in data and str(old).encode() in data:
            path.write_bytes(data.replace(str(old).encode(), str(new).encode()))


def check_owner() -> None:
    if hasattr(os, "geteuid") and os.geteuid() != 0 and VENV.exists() and not os.access(VENV, os.W_OK):
        raise Trouble(f"The folder {VENV.name}/ belongs to another user, most likely root after an "
                      "earlier `sudo python3 course.py ...`. Remove it with `sudo rm -rf .venv`, then "
                      "run the same command again without sudo.")


def warn_about_root() -> None:
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return
    if os.environ.get("SUDO_UID"):
        say(f"Note: you ran this with sudo, which the course does not need. At the end "
            f"{VENV.name}/ is handed back to {os.environ.get('SUDO_USER', 'your user')}, so that "
            "later runs without sudo can use and repair it.")
    else:
        say(f"Note: running as root. {VENV.name}/ will belong to root: fine in a container or CI; "
            "on a laptop, run course.py as your own user (a later run as another user would need "
            "`sudo rm -rf .venv` first).")


def hand_back_to_sudo_user() -> None:
    uid, gid = os.environ.get("SUDO_UID"), os.environ.get("SUDO_GID")
    if not (hasattr(os, "geteuid") and os.geteuid() == 0 and uid and gid):
        return
    for top in (VENV, HERE / "react_course.egg-info"):
        for root, dirs, files in os.walk(top):
            for name in [root, *(os.path.join(root, n) for n in dirs + files)]:
                os.lchown(name, int(uid), int(gid))
    print(f"{VENV.name}/ now belongs to {os.environ.get('SUDO_USER', uid)} again.")


def install(python: Path, extras: str, wheelhouse: Path | None) -> None:
    # A laptop always gets the laptop extra (Jupyter, the SDK, MCP, matplotlib): the core alone
    # is the browser edition's, which has its Jupyter in the page.
    target = f".[{','.join(sorted({'laptop', *filter(None, extras.split(','))}))}]"
    command = [str(python), "-m", "pip", "install", "--disable-pip-version-check",
               "-c", "constraints.txt", "-e", target]
    if wheelhouse is not None:
        command += ["--no-index", "--find-links", str(wheelhouse)]
    try:
        run(*command)
        run(str(python), "-m", "ipykernel", "install", "--sys-prefix", "--name", KERNEL,
            "--display-name", "Python (react-course)")
    except subprocess.CalledProcessError:
        where = (f"the wheelhouse {wheelhouse} lacks a wheel for this computer (pip names it above): "
                 "build one with `python3 course.py wheelhouse --platform ...` for this platform and "
                 "Python" if wheelhouse is not None else
                 "if pip could not reach the package index, check the network (or use an "
                 "instructor's wheelhouse: python3 course.py open --wheelhouse FOLDER); if it names "
                 "a package with no wheel for this computer, see Troubleshooting in README.md")
        raise Trouble("The install stopped; pip's message is above. Run the same command again: it "
                      f"carries on where it stopped and repairs what is half done. Otherwise, {where}. "
                      "To start from nothing, delete the .venv folder.") from None


def setup(extras: str, wheelhouse: Path | None = None, report: bool = False) -> Path:
    """Make, repair or update .venv so that it holds the course (and `extras`); return its Python.

    With `report`, a run that finds everything in place says so (instead of saying nothing)."""
    problem = python_problem()
    if problem:
        raise Trouble(problem)
    check_owner()
    warn_about_root()
    python, stamp = venv_python(), read_stamp()
    if not venv_works(python):
        if VENV.exists():
            print(f"{VENV.name}/ is incomplete or broken (an interrupted set-up?): making it again.")
        create_venv()
        stamp = {}
    elif stamp.get("folder") not in (None, str(HERE)):
        print(f"The course folder moved (set up in {stamp['folder']}): repairing the install.")
        repoint_scripts(Path(stamp["folder"]) / VENV.name, VENV)
        stamp = {}
    have = set(stamp.get("extras", [])) if stamp.get("inputs") == inputs_hash() else set()
    wanted = set(filter(None, extras.split(",")))
    needed = stamp.get("inputs") != inputs_hash() or not wanted <= have
    if needed:
        stamp_file = VENV / STAMP_NAME
        if stamp_file.exists():
            stamp_file.unlink()  # until the install below finishes, the set-up counts as not done
        install(python, ",".join(sorted(wanted | have)), wheelhouse)  # pip would drop an extra left out
        stamp = {"inputs": inputs_hash(), "folder": str(HERE),
                 "extras": sorted(wanted | have),
                 "python": platform.python_version()}
        stamp_file.write_text(json.dumps(stamp, indent=1), encoding="utf-8")
    overrides = VENV / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    before = overrides.read_text(encoding="utf-8") if overrides.exists() else None
    settings_changed = quiet_lab().read_text(encoding="utf-8") != before
    hand_back_to_sudo_user()
    if report and not needed and not settings_changed:
        say(f"Everything is already set up: {VENV.name}/ holds the course"
              + (f" with its {', '.join(sorted(have))} tools" if have else "")
              + f", and the Jupyter kernel {KERNEL!r} is registered. Nothing to do "
              "(python3 course.py open starts JupyterLab).")
    return python


# JupyterLab asks on first open whether to fetch Jupyter's news, in a toast that covers the
# notebook; --LabApp.news_url=None does not stop it, a settings override in the environment does.
# A new notebook starts the default kernel (the course's, see lab_command) without asking.
LAB_OVERRIDES = {"@jupyterlab/apputils-extension:notification": {"fetchNews": "false"},
                 "@jupyterlab/notebook-extension:tracker": {"autoStartDefaultKernel": True}}


def quiet_lab(venv_dir: Path = VENV) -> Path:
    """Write JupyterLab's settings overrides into the environment (keeping any already there)."""
    path = venv_dir / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    try:
        current = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    except ValueError:
        current = {}  # a broken file is ours to rewrite
    merged = {**current, **{key: {**current.get(key, {}), **value} for key, value in LAB_OVERRIDES.items()}}
    if merged != current or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(merged, indent=2) + "\n", encoding="utf-8")
    return path


def lab_command(python: Path, rest: list, as_root: bool | None = None) -> list:
    """The JupyterLab command line that opens lesson 00 with the whole course in view."""
    if as_root is None:
        as_root = hasattr(os, "geteuid") and os.geteuid() == 0
    if as_root and "--allow-root" not in rest:
        print("Running as root (a container?): passing --allow-root to JupyterLab.")
        rest = [*rest, "--allow-root"]
    # root_dir keeps the whole course in the file browser (a file argument alone
    # would make notebooks/ the root and hide exercises/ and solutions/).
    return [str(python), "-m", "jupyterlab", f"--ServerApp.root_dir={HERE}",
            f"--MappingKernelManager.default_kernel_name={KERNEL}", FIRST_NOTEBOOK, *rest]


# ---------------------------------------------------------------- the lock (maintainers)
# The lock pins the optional frameworks and inspect extras too, so that CI's are as exact as the rest.
LOCKED_EXTRAS = ["--extra", "laptop", "--extra", "test", "--extra", "frameworks", "--extra", "inspect"]


def find_uv(scratch: str) -> str:
    """uv from .venv (the test extra pins it) or PATH; else installed into a scratch environment."""
    found = shutil.which("uv", path=str(venv_python().parent)) or shutil.which("uv")
    if found:
        return found
    venv.EnvBuilder(with_pip=True).create(scratch)
    run(str(venv_python(Path(scratch))), "-m", "pip", "install", "--disable-pip-version-check", "uv")
    return shutil.which("uv", path=str(venv_python(Path(scratch)).parent))


def matrix() -> list:
    """(platform, Python) pairs the lock must serve with wheels only, minus the stated exceptions."""
    return [(name, version) for name in PLATFORMS for version in minor_versions()
            if (name, version) not in EXCEPTIONS]


def uv_env() -> dict:
    """uv never fetches a Python of its own here: it only reads the package index."""
    return {**os.environ, "UV_PYTHON_DOWNLOADS": "never"}


def check_cell(uv: str, name: str, version: str, lock: Path = HERE / "constraints.txt",
               offline: bool = False) -> str:
    """Resolve the course for one platform and Python from the lock, wheels only; '' when fine.

    It tries uv's cache first (check_matrix fills it) and asks the index only when that fails;
    with ``offline``, never (the test suite: uv's cache, filled by a set-up step, ``lock_cache``)."""
    low = ".".join(map(str, supported_range()[0]))
    full = low if version == ".".join(low.split(".")[:2]) else version
    command = [uv, "pip", "compile", "pyproject.toml", *LOCKED_EXTRAS, "-c", str(lock),
               "--python-platform", PLATFORMS[name][0], "--python-version", full,
               "--only-binary", ":all:", "--no-header", "--no-annotate", "--quiet"]
    for extra in (["--offline"],) if offline else (["--offline"], []):
        try:
            out = subprocess.run(command + extra, cwd=HERE, capture_output=True, text=True,
                                 env=uv_env(), timeout=300)
        except subprocess.TimeoutExpired:
            return "uv found no answer within 300 s (is the package index slow or unreachable?)"
        if out.returncode == 0:
            break
    if out.returncode != 0:
        return " ".join(out.stderr.split())[:400]
    pinned = {n for n, _, _ in read_lock(lock)}
    resolved = {canonical(line.split("==")[0]) for line in out.stdout.splitlines() if "==" in line}
    missing = sorted(resolved - pinned - {"react-course"})
    return f"not pinned in the lock: {', '.join(missing)}" if missing else ""


def check_matrix(uv: str, lock: Path = HERE / "constraints.txt", offline: bool = False) -> dict:
    """{(platform, python): problem} for every cell that fails; runs the cells in parallel.

    With ``offline``, from uv's cache alone (``check_cell``)."""
    from concurrent.futures import ThreadPoolExecutor

    cells = matrix()
    if not offline:
        fill_uv_cache(uv, lock)
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(lambda cell: check_cell(uv, *cell, lock=lock, offline=offline), cells))
    return {cell: problem for cell, problem in zip(cells, results, strict=True) if problem}


def fill_uv_cache(uv: str, lock: Path = HERE / "constraints.txt") -> bool:
    """One universal resolution of the lock, which fills uv's cache for every platform; False when
    no index answered (uv's cache first: nothing is asked when it already holds the answer)."""
    low = ".".join(map(str, supported_range()[0]))
    command = [uv, "pip", "compile", "pyproject.toml", *LOCKED_EXTRAS, "--universal", "-c", str(lock),
               "--python-version", low, "--quiet", "-o", os.devnull]
    for extra in (["--offline"], []):
        try:
            if subprocess.run(command + extra, cwd=HERE, capture_output=True, env=uv_env(),
                              timeout=300).returncode == 0:
                return True
        except subprocess.TimeoutExpired:
            return False
    return False


def lock_cache(wheelhouse: Path | None) -> dict:
    """A set-up step of ``course.py test``: uv's cache filled for tests/test_lock_matrix.py, which
    then resolves every cell offline, so that no test asks the package index itself.

    Every cell is resolved here once (uv's cache first; the index only for what it lacks), in
    seconds once the cache holds the lock. With a wheelhouse (an offline room) or no index, the
    test is skipped and says why."""
    uv = shutil.which("uv", path=str(venv_python().parent))
    if wheelhouse is not None or not uv:
        return {}
    say("Filling uv's cache for the lock's platform matrix (tests/test_lock_matrix.py reads it offline)...")
    if not fill_uv_cache(uv):
        say("no package index answered: tests/test_lock_matrix.py's matrix test will be skipped")
        return {}
    check_matrix(uv)  # each cell's answer in the cache; the test reports what fails
    return {"REACT_COURSE_LOCK_CACHE": "filled"}


def lock() -> int:
    """Resolve pyproject.toml for every platform and supported Python (uv --universal)."""
    with tempfile.TemporaryDirectory() as scratch:
        uv = find_uv(str(Path(scratch) / "uv"))
        gaps = Path(scratch) / "gaps.txt"
        gaps.write_text("\n".join(WHEEL_GAPS) + "\n", encoding="utf-8")
        low = ".".join(map(str, supported_range()[0]))
        out = subprocess.run([uv, "pip", "compile", "pyproject.toml", *LOCKED_EXTRAS, "--universal",
                              "--python-version", low, "-c", str(gaps), "--no-header", "--no-annotate",
                              "--quiet"], cwd=HERE, check=True, capture_output=True, text=True,
                             env=uv_env()).stdout
        header = ["# Exact versions for every supported platform and Python, with environment markers.",
                  "# Made by `uv pip compile --universal` from pyproject.toml (with the test,",
                  "# frameworks and inspect extras);",
                  "# regenerate with: python3 course.py lock. Used as: pip install -c constraints.txt",
                  "# Bounds added because a newer release lacks wheels somewhere:",
                  *(f"#   {gap}: {why}" for gap, why in WHEEL_GAPS.items()),
                  "# Stated exceptions:",
                  *(f"#   {p} on Python {v}: {why}" for (p, v), why in EXCEPTIONS.items())]
        (HERE / "constraints.txt").write_text("\n".join(header) + "\n" + out, encoding="utf-8")
        print(f"constraints.txt: {len(read_lock())} pins; checking {len(matrix())} platform x Python cells")
        failures = check_matrix(uv)
    for (name, version), problem in sorted(failures.items()):
        print(f"  {name} Python {version}: {problem}")
    print("every cell resolves with wheels only" if not failures else
          "add a bound to WHEEL_GAPS (or an exception to EXCEPTIONS) in course.py and lock again")
    return 1 if failures else 0


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name.strip()).lower()


def read_lock(path: Path = HERE / "constraints.txt") -> list:
    """[(name, version, marker)] from constraints.txt."""
    pins = []
    for line in path.read_text(encoding="utf-8").splitlines():
        requirement, _, marker = line.split("#")[0].partition(";")
        if "==" in requirement:
            name, version = requirement.split("==")
            pins.append((canonical(name), version.strip(), marker.strip()))
    return pins


# ---------------------------------------------------------------- wheelhouse (offline rooms)
def this_platform() -> str:
    machine = platform.machine().lower()
    arm = machine in ("arm64", "aarch64")
    if sys.platform == "win32":
        return "windows-arm64" if arm else "windows-x64"
    if sys.platform == "darwin":
        return "macos-arm" if arm else "macos-intel"
    return "linux-aarch64" if arm else "linux-x86_64"


def pip_tags(name: str) -> list:
    tags = PLATFORMS[name][1]
    if tags is None:  # manylinux: pip does not widen these itself, so list them
        arch = PLATFORMS[name][0].split("-")[0]
        tags = [f"manylinux_2_{n}_{arch}" for n in range(28, 16, -1)] + [f"manylinux2014_{arch}"]
    return tags


def marker_env(name: str, version: str, patch: int) -> dict:
    sys_platform, machine, os_name, system = PLATFORMS[name][2]
    return {"sys_platform": sys_platform, "platform_machine": machine, "os_name": os_name,
            "platform_system": system, "python_version": version,
            "python_full_version": f"{version}.{patch}", "implementation_name": "cpython",
            "platform_python_implementation": "CPython", "extra": ""}


def pins_for(name: str, version: str, lock: Path = HERE / "constraints.txt") -> list:
    """The lock's pins that apply on one platform and Python (any patch release of it)."""
    try:
        from packaging.markers import Marker
    except ImportError:  # pip carries its own copy
        from pip._vendor.packaging.markers import Marker
    wanted = []
    for pin, exact, marker in read_lock(lock):
        patches = (0, 2, 5, 99)  # covers markers such as python_full_version < '3.11.5'
        if not marker or any(Marker(marker).evaluate(marker_env(name, version, p)) for p in patches):
            wanted.append(f"{pin}=={exact}")
    return wanted


def one_version_each(pins: list) -> list:
    """Split pins so that no batch names a package twice (pip refuses that even with --no-deps).

    >>> one_version_each(["a==1", "b==2", "a==3"])
    [['a==1', 'b==2'], ['a==3']]
    """
    batches = []
    for pin in pins:
        name = pin.split("==")[0]
        batch = next((b for b in batches if all(p.split("==")[0] != name for p in b)), None)
        if batch is None:
            batches.append([pin])
        else:
            batch.append(pin)
    return batches


def build_wheelhouse(platforms: list, pythons: list, dest: Path) -> int:
    try:
        return download_wheels(platforms, pythons, dest)
    except subprocess.CalledProcessError:
        raise Trouble("pip could not download every wheel (its message is above). Building a "
                      "wheelhouse needs the package index: run it where the network works, then "
                      "copy the folder. If pip names a package with no wheel for a platform, "
                      "see For maintainers in README.md.") from None


def download_wheels(platforms: list, pythons: list, dest: Path, tell: bool = True) -> int:
    """Download every wheel the course needs for these platforms and Pythons into dest."""
    dest.mkdir(parents=True, exist_ok=True)
    pip = [str(venv_python()) if venv_works(venv_python()) else sys.executable, "-m", "pip"]
    build = re.search(r"^requires\s*=\s*\[(.*)\]", (HERE / "pyproject.toml").read_text(), re.MULTILINE)
    backend = re.findall(r'"([^"]+)"', build.group(1))  # what pip needs to install the course itself
    run(*pip, "download", "--disable-pip-version-check", "--only-binary", ":all:", "-d", str(dest), *backend)
    for name in platforms:
        for version in pythons:
            if (name, version) in EXCEPTIONS:
                print(f"skipping {name} on Python {version}: {EXCEPTIONS[(name, version)]}")
                continue
            tags = [arg for tag in pip_tags(name) for arg in ("--platform", tag)]
            for batch in one_version_each(pins_for(name, version)):
                run(*pip, "download", "--disable-pip-version-check", "--no-deps", "--only-binary", ":all:",
                    "--ignore-requires-python", "-d", str(dest), *tags, "--python-version", version,
                    "--implementation", "cp", *batch)
    count = len(list(dest.glob("*.whl")))
    size = sum(p.stat().st_size for p in dest.glob("*.whl")) / 1e6
    shown = dest.name if dest.parent == HERE else str(dest)
    if not tell:
        return 0
    say(f"{dest} holds {count} wheels ({size:.0f} MB). Copy it with the course folder to each laptop "
        f"(a USB stick will do) and run there: python3 course.py open --wheelhouse {shown} "
        f"(Windows: py course.py open --wheelhouse {shown}).")
    return 0


def hosted_wheels(wheelhouse: Path | None) -> dict:
    """The wheels tests/test_hosted.py installs from, so that the test itself uses no network.

    That test sets the course up as a new user, as a devcontainer does, and runs only as
    root on Linux; there, this set-up step (which may use the index, as the rest of the
    set-up does) downloads this machine's wheels into .venv/ once per constraints.txt.
    Elsewhere, or if the download fails, the test is skipped and says why.
    """
    if wheelhouse is not None:
        return {"REACT_COURSE_TEST_WHEELHOUSE": str(wheelhouse)}
    if not (sys.platform.startswith("linux") and os.geteuid() == 0 and shutil.which("setpriv")):
        return {}
    dest = VENV / "hosted-wheelhouse"
    stamp = hashlib.sha256((HERE / "constraints.txt").read_bytes()).hexdigest()
    if (dest / "stamp").exists() and (dest / "stamp").read_text() == stamp:
        return {"REACT_COURSE_TEST_WHEELHOUSE": str(dest)}
    base = Path("/usr/bin/python3") if Path("/usr/bin/python3").exists() else Path(sys.executable)
    asked = "import sys; print(f'{sys.version_info[0]}.{sys.version_info[1]}')"
    version = subprocess.run([str(base), "-c", asked], capture_output=True, text=True).stdout.strip()
    say(f"Downloading this machine's wheels for the devcontainer test ({dest.name}, once)...")
    try:
        download_wheels([this_platform()], [version], dest, tell=False)
    except (subprocess.CalledProcessError, OSError) as error:
        say(f"could not download them ({error}): tests/test_hosted.py's set-up test will be skipped")
        return {}
    (dest / "stamp").write_text(stamp)
    return {"REACT_COURSE_TEST_WHEELHOUSE": str(dest)}


def take_option(rest: list, option: str, many: bool = False):
    """Remove `option VALUE` (or `option=VALUE`, repeatable when many) from rest; return the value(s)."""
    values, kept, i = [], [], 0
    while i < len(rest):
        if rest[i] == option and i + 1 < len(rest):
            values.append(rest[i + 1])
            i += 2
            continue
        if rest[i].startswith(option + "="):
            values.append(rest[i].split("=", 1)[1])
        else:
            kept.append(rest[i])
        i += 1
    rest[:] = kept
    values = [v for value in values for v in value.split(",") if v]
    return values if many else (values[-1] if values else None)


def wheelhouse_command(rest: list) -> int:
    platforms = take_option(rest, "--platform", many=True) or [this_platform()]
    pythons = take_option(rest, "--python", many=True) or [".".join(map(str, sys.version_info[:2]))]
    dest = Path(take_option(rest, "--dest") or "wheelhouse")
    platforms = list(PLATFORMS) if platforms == ["all"] else platforms
    pythons = minor_versions() if pythons == ["all"] else pythons
    unknown = [p for p in platforms if p not in PLATFORMS] + [v for v in pythons if v not in minor_versions()]
    if unknown or rest:
        raise Trouble(f"Unknown choice {', '.join(unknown + rest)}. Platforms: {', '.join(PLATFORMS)} or "
                      f"all; Pythons: {', '.join(minor_versions())} or all; --dest FOLDER.")
    return build_wheelhouse(platforms, pythons, dest.resolve())


def parallel_options(rest: list) -> list:
    """pytest-xdist's option for the whole suite: two workers per core, unless the command line
    already chose (-n 0 for none). Much of the suite waits (kernel starts, browser pages, servers,
    time-outs) rather than computes, so a second worker per core fills the waits; pyproject.toml
    keeps each file's tests in one worker, and tests/scheduling.py cuts the notebook-heavy files
    finer and hands out the longest groups first."""
    if any(arg.startswith(("-n", "--numprocesses")) for arg in rest):
        return []
    return ["-n", str(2 * (os.cpu_count() or 1))]


def take_flag(rest: list, flag: str) -> bool:
    """Whether ``flag`` is in ``rest``, removing it (so pytest never sees course.py's own flags)."""
    found = flag in rest
    while flag in rest:
        rest.remove(flag)
    return found


def main(argv: list) -> int:
    verb, rest = (argv[0], list(argv[1:])) if argv else ("", [])
    folder = take_option(rest, "--wheelhouse") if verb in ("open", "test", "setup") else None
    wheelhouse = Path(folder).resolve() if folder else None
    if wheelhouse is not None and not wheelhouse.is_dir():
        raise Trouble(f"There is no folder {folder}. Give the folder of wheels your instructor handed "
                      "out, e.g. python3 course.py open --wheelhouse wheelhouse")
    if verb == "open":
        python = setup("", wheelhouse)
        return subprocess.call(lab_command(python, rest), cwd=HERE)
    frameworks = ",frameworks" if take_flag(rest, "--frameworks") else ""
    if verb == "test":
        python = setup("test" + frameworks, wheelhouse)
        environment = {**os.environ, **hosted_wheels(wheelhouse), **lock_cache(wheelhouse)}
        return subprocess.call([str(python), "-m", "pytest", *parallel_options(rest), *rest], cwd=HERE,
                               env=environment)
    if verb == "setup":
        setup(("test" if "--test" in rest else "") + frameworks, wheelhouse, True)  # True: say if all done
        return 0
    if verb == "lab-settings":  # hosted set-ups (binder/postBuild): this Python's environment
        prefix = take_option(rest, "--prefix")
        quiet_lab(Path(prefix) if prefix else Path(sys.prefix))
        return 0
    if verb == "lock":
        return lock()
    if verb == "wheelhouse":
        return wheelhouse_command(rest)
    print(__doc__)
    return 2


def entry(argv: list) -> int:
    """main(), with every failure ending in one paragraph that says what to do."""
    try:
        return main(argv)
    except Trouble as trouble:
        message = str(trouble)
    except KeyboardInterrupt:
        message = ("Interrupted. Run the same command again when you are ready: it carries on and "
                   "repairs a half-finished set-up.")
    except PermissionError as error:
        message = (f"Permission denied ({error.filename or error}). The course folder must be yours: "
                   "do not use sudo; if an earlier sudo run left .venv behind, remove it with "
                   "`sudo rm -rf .venv` and run the same command again.")
    except Exception as error:  # the last resort: still one paragraph, no traceback
        message = (f"Set-up failed: {type(error).__name__}: {str(error)[:300]}. Run the same command "
                   "again; if it fails the same way, delete the .venv folder and run it once more, then see "
                   "Troubleshooting in README.md (set REACT_COURSE_DEBUG=1 to see the details).")
        if os.environ.get("REACT_COURSE_DEBUG"):
            raise
    print()
    say(message)
    return 1


if __name__ == "__main__":
    sys.exit(entry(sys.argv[1:]))
