"""Measure the browser edition: build size, kernel start and each notebook's Run All in Chromium.

    python benchmarks/lite.py                 every lesson and exercise
    python benchmarks/lite.py notebooks/00_start_here.ipynb ...

Builds the site (lite/build.py), serves it on 127.0.0.1 and opens each notebook in a
fresh headless Chromium with every other host unreachable, as tests/test_lite_site.py
does, then times two things: from opening the page until the Pyodide kernel is idle
(kernel start: Pyodide, IPython and the kernel's packages), and Run All, including
the first cell's ``%pip install react-course``. Also counts error outputs. Writes
benchmarks/lite.json. Timings are from one shared 2-core machine: read them as "about".
"""

from __future__ import annotations

import functools
import json
import os
import platform
import subprocess
import sys
import threading
import time
from http.server import ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from chromium import by_css, chromium, errors_shown, kernel_state, run_all, status_bar, wait_for  # noqa: E402
from test_lite_site import SITE, Quiet  # noqa: E402

OUT = ROOT / "benchmarks" / "lite.json"


def size_of(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def one(url: str, notebook: str) -> dict:
    driver = chromium("--disable-background-networking", "--disable-component-update", "--disable-sync",
                      "--no-first-run", "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1")
    try:
        started = time.monotonic()
        driver.get(f"{url}/lab/index.html?path={notebook}")
        wait_for(lambda: by_css(driver, ".jp-NotebookPanel .jp-Cell"), what="the notebook")
        wait_for(lambda: kernel_state(driver) == "idle" and "| Idle" in status_bar(driver), timeout=180,
                 what="the kernel")
        kernel = time.monotonic() - started
        started = time.monotonic()
        run_all(driver, notebook)
        return {"notebook": notebook, "kernel_start_s": round(kernel, 1),
                "run_all_s": round(time.monotonic() - started, 1), "errors": len(errors_shown(driver))}
    finally:
        driver.quit()


def main(argv: list[str]) -> int:
    subprocess.run([sys.executable, str(ROOT / "lite" / "build.py")], check=True, stdout=subprocess.DEVNULL)
    notebooks = argv or [f"{p.parent.name}/{p.name}" for folder in ("notebooks", "exercises")
                         for p in sorted((ROOT / folder).glob("*.ipynb"))]
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(SITE)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_port}"
    rows = []
    for notebook in notebooks:
        rows.append(one(url, notebook))
        print(json.dumps(rows[-1]), flush=True)
    server.shutdown()
    report = {"machine": f"{platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}",
              "site_mb": round(size_of(SITE) / 1e6, 1),
              "pyodide_folder_mb": round(size_of(SITE / "pyodide") / 1e6, 1),
              "notebooks": rows}
    OUT.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(f"site {report['site_mb']} MB; results in {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
