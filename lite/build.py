"""Build the browser edition: a static JupyterLite site of the whole course, in lite/_site/.

    python3 lite/build.py          # the site (about a minute the first time; nothing if up to date)
    python3 lite/build.py --force  # again, even if nothing changed

What it does, each step kept in a cache so a second build is quick:

1. lite/.venv with the pinned build tools (lite/requirements.txt);
2. npm's ``pyodide`` core (lite/package-lock.json), served from the site itself;
3. the course's wheel, the wheels it and the kernel need (lite/wheels.py), and
   our pyodide-lock.json beside them, in _site/pyodide/;
4. the lessons and exercises as the site's contents, each with a first cell
   that installs the course in the tab (``%pip install react-course``);
5. ``jupyter lite build`` with source maps off and our settings (lite/jupyter-lite.json,
   lite/overrides.json), then the Pyodide folder copied in;
6. our service worker, which keeps the whole site for offline reloads, and a
   gzip copy of each file that shrinks (lite/offline.py).

Serve it with ``python3 lite/serve.py`` (a room) or any static file host.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import offline

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
VENV, BUILD, SITE = HERE / ".venv", HERE / "_build", HERE / "_site"
CORE = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide.js"]
FOLDERS = ["notebooks", "exercises"]
INSTALL_TAG = "browser-setup"


def tools() -> Path:
    """lite/.venv's Python, with lite/requirements.txt installed (once per change of the file)."""
    python = VENV / "bin" / "python"
    stamp = VENV / "requirements.done"
    wanted = (HERE / "requirements.txt").read_text(encoding="utf-8")
    if not python.exists():
        venv.create(VENV, with_pip=True)
    if not stamp.exists() or stamp.read_text(encoding="utf-8") != wanted:
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                        "-r", str(HERE / "requirements.txt")], check=True)
        stamp.write_text(wanted, encoding="utf-8")
    return python


def pyodide_core() -> Path:
    """npm's pyodide package, installed from lite/package-lock.json."""
    folder = HERE / "node_modules" / "pyodide"
    if not (folder / "pyodide.asm.wasm").exists():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--silent"], cwd=HERE, check=True)
    return folder


def course_wheel(python: Path) -> Path:
    """The course as a wheel, built from this checkout."""
    dist = BUILD / "dist"
    shutil.rmtree(dist, ignore_errors=True)
    subprocess.run([str(python), "-m", "pip", "wheel", "--quiet", "--no-deps", "--disable-pip-version-check",
                    "-w", str(dist), str(ROOT)], check=True)
    shutil.rmtree(ROOT / "build", ignore_errors=True)
    return next(dist.glob("react_course-*.whl"))


def pyodide_folder(python: Path, out: Path) -> dict:
    """Pyodide's core, the wheels and our lock in ``out``; returns the lock."""
    core = pyodide_core()
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    for name in CORE:
        shutil.copy2(core / name, out / name)
    script = ("import json, sys; sys.path.insert(0, sys.argv[1]); import wheels; from pathlib import Path\n"
              "course, out, cache = Path(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4])\n"
              "original = json.loads((Path(sys.argv[5]) / 'pyodide-lock.json').read_text())\n"
              "chosen = wheels.closure(course, wheels.EXTRAS, Path(sys.argv[6]), original, cache)\n"
              "wheels.write_lock(original, chosen, course, wheels.EXTRAS, out)\n")
    subprocess.run([str(python), "-c", script, str(HERE), str(course_wheel(python)), str(out),
                    str(BUILD / "wheels"), str(core), str(ROOT / "constraints.txt")], check=True)
    return json.loads((out / "pyodide-lock.json").read_text(encoding="utf-8"))


def install_cell(plots: bool) -> dict:
    """The first cell of every notebook in the site: the course into this tab's Python.

    The kernel has already loaded the course at start (``loadPyodideOptions`` in
    jupyter-lite.json), so the install finds it there. A lesson with plots also
    puts the course's own plotter under the name ``matplotlib`` (matplotlib has
    no WebAssembly build that the site could carry; see react_course/web/plots_offline.py).
    """
    source = ["# Browser edition: install the course into this tab's Python, from this site\n",
              "# (no network needed). On a laptop the course is already installed.\n",
              "%pip install -q react-course"]
    if plots:
        source += ["\nfrom react_course.web.plots_offline import plotting\n",
                   "plotting()  # the plots of this lesson, drawn by the course's own plotter"]
    return {"cell_type": "code", "execution_count": None, "id": "browser-setup",
            "metadata": {"tags": [INSTALL_TAG]}, "outputs": [], "source": source}


def uses_plots(notebook: dict) -> bool:
    return any("matplotlib" in "".join(cell["source"]) for cell in notebook["cells"]
               if cell["cell_type"] == "code")


def contents(out: Path) -> Path:
    """The lessons and exercises, each with the install cell first, in ``out``."""
    shutil.rmtree(out, ignore_errors=True)
    for folder in FOLDERS:
        (out / folder).mkdir(parents=True)
        for path in sorted((ROOT / folder).glob("*.ipynb")):
            notebook = json.loads(path.read_text(encoding="utf-8"))
            notebook["cells"].insert(0, install_cell(uses_plots(notebook)))
            notebook["metadata"]["kernelspec"] = {"name": "python", "display_name": "Python (Pyodide)",
                                                  "language": "python"}
            (out / folder / path.name).write_text(json.dumps(notebook, indent=1), encoding="utf-8")
    shutil.copy2(HERE / "CONTENTS.md", out / "README.md")
    return out


def check_settings(built: Path) -> None:
    """Fail the build if the site lost a setting of ours: Pyodide from the CDN instead of from
    itself, or the layout kept across page loads (each notebook that was open would reopen
    with a kernel of its own), or kernels left running when their notebook closes."""
    config = json.loads((built / "jupyter-lite.json").read_text(encoding="utf-8"))["jupyter-config-data"]
    ours = json.loads((HERE / "jupyter-lite.json").read_text(encoding="utf-8"))["jupyter-config-data"]
    overrides = json.loads((HERE / "overrides.json").read_text(encoding="utf-8"))
    for name in ("enableMemoryStorage", "workspacesStorageDrivers"):
        if config.get(name) != ours[name]:
            raise SystemExit(f"the built site lost the setting {name}={ours[name]!r}: {config.get(name)!r}")
    if config.get("settingsOverrides", {}) | overrides != config.get("settingsOverrides"):
        raise SystemExit(f"the built site lost lite/overrides.json: {config.get('settingsOverrides')}")
    key = "@jupyterlite/pyodide-kernel-extension:kernel"
    settings = config.get("litePluginSettings", {}).get(key, {})
    for name, value in ours["litePluginSettings"][key].items():
        if settings.get(name) != value:
            raise SystemExit(f"the built site lost the kernel setting {name}={value!r}: {settings}")


def inputs_hash() -> str:
    """What the site is made from: the course, its lessons and this folder's build files."""
    digest = hashlib.sha256()
    own = sorted(p for p in HERE.glob("*") if p.is_file() and not p.name.startswith("."))
    files = [ROOT / "pyproject.toml", ROOT / "constraints.txt", *own, *sorted((HERE / "node").glob("*"))]
    for folder in ("react_course", *FOLDERS):
        files += sorted(p for p in (ROOT / folder).rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    for path in files:
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def site(force: bool = False) -> Path:
    """Build the site into lite/_site, unless it is already built from the same inputs.

    Built beside and then swapped in, under a lock: a test reading the old site (two
    test files may build at once) never sees a half-written one.
    """
    BUILD.mkdir(exist_ok=True)
    with open(BUILD / "build.lock", "w") as lock_file:
        fcntl.flock(lock_file, fcntl.LOCK_EX)
        wanted = inputs_hash()
        stamp = SITE / ".inputs"
        if not force and stamp.exists() and stamp.read_text(encoding="utf-8") == wanted:
            print("lite/_site is up to date")
            return SITE
        python, new = tools(), BUILD / "site"
        lock = pyodide_folder(python, BUILD / "pyodide")
        shutil.rmtree(new, ignore_errors=True)
        # jupyter lite keeps a task database beside its config; a stale one skips writing our settings
        (HERE / ".jupyterlite.doit.db").unlink(missing_ok=True)
        subprocess.run([str(VENV / "bin" / "jupyter"), "lite", "build", "--lite-dir", str(HERE),
                        "--contents", str(contents(BUILD / "contents")), "--output-dir", str(new),
                        "--no-sourcemaps", "--no-unused-shared-packages"], check=True, cwd=HERE)
        shutil.copytree(BUILD / "pyodide", new / "pyodide")
        check_settings(new)
        offline.service_worker(new, HERE / "service-worker.js", wanted[:16])
        offline.precompress(new)
        (new / ".inputs").write_text(wanted, encoding="utf-8")
        old = BUILD / "site.old"
        shutil.rmtree(old, ignore_errors=True)
        if SITE.exists():
            SITE.rename(old)
        new.rename(SITE)
        shutil.rmtree(old, ignore_errors=True)
    local = sum(1 for p in lock["packages"].values() if not p["file_name"].startswith("http"))
    size = sum(p.stat().st_size for p in SITE.rglob("*") if p.is_file() and p.suffix != ".gz")
    packed = offline.sent_size(SITE)
    print(f"lite/_site: {size / 1e6:.1f} MB ({packed / 1e6:.1f} MB sent gzipped), "
          f"{local} Python packages in the site itself")
    return SITE


def main(argv: list[str]) -> int:
    site(force="--force" in argv)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
