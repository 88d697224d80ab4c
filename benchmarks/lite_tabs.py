"""Measure how many kernels a page of the browser edition starts, and what that costs the kernel start.

    python benchmarks/lite_tabs.py --label after   # adds a run under "after" in benchmarks/lite_tabs.json

A student opens lesson 00, then lesson 01 (a new page load of the same site, as a
link or a reload does), then reloads lesson 01, then closes it. Each opening is timed from the request
to an idle kernel, in one fresh headless Chromium profile, with the site served by
lite/serve.py's handler on 127.0.0.1 (as ``benchmarks/lite_room.py`` does). After
each step it counts the notebooks open in the page and the kernels it runs (each a
Pyodide of its own), as the page's status bar counts them.

JupyterLab keeps the layout of the page (the notebooks open in it) in its workspace;
when the workspace outlives the page, every notebook that was open is opened again,
each with a kernel of its own, and the kernels start together on the same cores.
Timings are from one shared 2-core machine: read them as "about", beside the load.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from test_lite_site import by_css, kernels_running, open_notebook, room_browser, room_server  # noqa: E402

OUT = ROOT / "benchmarks" / "lite_tabs.json"
STEPS = [("open lesson 00", "notebooks/00_start_here.ipynb"),
         ("then open lesson 01", "notebooks/01_what_is_react.ipynb"),
         ("reload lesson 01", "notebooks/01_what_is_react.ipynb")]


def one_student() -> list[dict]:
    server = room_server()
    url = f"http://127.0.0.1:{server.server_port}"
    steps = []
    with tempfile.TemporaryDirectory() as downloads:
        driver = room_browser(Path(downloads))
        try:
            for what, path in STEPS:
                seconds = open_notebook(driver, url, path)
                time.sleep(2)  # a restored notebook's kernel may start a moment after the page's own
                steps.append({"step": what, "to_idle_kernel_s": round(seconds, 1),
                              "notebooks_open": len(by_css(driver, ".jp-NotebookPanel")),
                              "kernels_running": kernels_running(driver),
                              "load": round(os.getloadavg()[0], 1)})
                print(json.dumps(steps[-1]), flush=True)
            close = "#jp-main-dock-panel .lm-TabBar-tab.lm-mod-current .lm-TabBar-tabCloseIcon"
            by_css(driver, close)[0].click()
            time.sleep(3)  # closing a notebook shuts its kernel down (lite/overrides.json), not at once
            steps.append({"step": "close lesson 01",
                          "notebooks_open": len(by_css(driver, ".jp-NotebookPanel")),
                          "kernels_running": kernels_running(driver)})
            print(json.dumps(steps[-1]), flush=True)
        finally:
            driver.quit()
            server.shutdown()
    return steps


def main(argv: list[str]) -> int:
    label = argv[argv.index("--label") + 1] if "--label" in argv else "now"
    subprocess.run([sys.executable, str(ROOT / "lite" / "build.py")], check=True, stdout=subprocess.DEVNULL)
    report = json.loads(OUT.read_text(encoding="utf-8")) if OUT.exists() else {}
    run = {"when": time.strftime("%Y-%m-%d"), "cores": os.cpu_count(), "steps": one_student()}
    report.setdefault(label, []).append(run)  # every run kept: on a shared machine one run says little
    OUT.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(f"results in {OUT.relative_to(ROOT)} under {label!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
