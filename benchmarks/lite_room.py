"""Measure the browser edition for a room: what one student's first load costs, and 25 of them.

    python benchmarks/lite_room.py            # writes benchmarks/lite_room.json

Per student, in a fresh headless Chromium profile (every host but 127.0.0.1 unreachable),
with the site served by lite/serve.py's handler on 127.0.0.1 (gzip copies, as in a room):

- first load: from opening lesson 01 to an idle kernel, and the bytes the server sent
  until the service worker held the whole site (what each student downloads once);
- Run All of lesson 01 (its figure drawn by the course's plotter);
- reload with the server stopped (everything from the service worker's cache) to an
  idle kernel: the kernel start when nothing is downloaded, which is as fast as the
  tab can start Pyodide, IPython and the course; then Run All again, figures counted;
- a reload online (the service worker answers, the server is asked for nothing new).

For the room, 25 clients at once download the site's files (the service worker's list,
gzip accepted) from the same server on 127.0.0.1: the time the laptop needs to send 25
copies when the network is not the limit. Over Wi-Fi the network is the limit: the README
turns the bytes into minutes at a stated rate, as arithmetic, not as a measurement.
Timings are from one shared 2-core machine: read them as "about".
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from chromium import run_all  # noqa: E402
from test_lite_site import (  # noqa: E402
    LESSON,
    SITE,
    figures_drawn,
    files_listed,
    open_notebook,
    room_browser,
    room_server,
    site_kept,
    wait_for,
)

OUT = ROOT / "benchmarks" / "lite_room.json"
ROOM = 25


def one_student() -> dict:
    server = room_server()
    url = f"http://127.0.0.1:{server.server_port}"
    with tempfile.TemporaryDirectory() as downloads:
        driver = room_browser(Path(downloads))
        try:
            first = open_notebook(driver, url, LESSON)
            started = time.monotonic()
            run_all(driver, LESSON)
            run = time.monotonic() - started
            wait_for(lambda: site_kept(driver) >= files_listed(), timeout=300, what="the whole site kept")
            sent = server.sent
            online = open_notebook(driver, url, LESSON)
            server.shutdown()
            server.server_close()
            offline = open_notebook(driver, url, LESSON)
            started = time.monotonic()
            run_all(driver, LESSON)
            run_offline = time.monotonic() - started
            drawn = len(figures_drawn(driver))
        finally:
            driver.quit()
    return {"first_load_to_idle_kernel_s": round(first, 1), "first_load_mb_sent": round(sent / 1e6, 1),
            "run_all_lesson_01_s": round(run, 1), "reload_online_to_idle_kernel_s": round(online, 1),
            "reload_offline_to_idle_kernel_s": round(offline, 1), "run_all_offline_s": round(run_offline, 1),
            "figures_drawn_offline": drawn}


def fetch_all(url: str, names: list[str]) -> int:
    """One client downloading every file, gzip accepted; the bytes received."""
    received = 0
    for name in names:
        request = urllib.request.Request(f"{url}/{name}", headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(request) as answer:
            received += len(answer.read())
    return received


def room_of(clients: int) -> dict:
    text = (SITE / "service-worker.js").read_text(encoding="utf-8")
    names = json.loads(text.split("const FILES = ", 1)[1].split(";\n", 1)[0])
    server = room_server()
    url = f"http://127.0.0.1:{server.server_port}"
    started = time.monotonic()
    with ThreadPoolExecutor(clients) as pool:
        received = sum(pool.map(lambda _: fetch_all(url, names), range(clients)))
    seconds = time.monotonic() - started
    server.shutdown()
    return {"clients": clients, "files_each": len(names), "mb_sent": round(received / 1e6, 1),
            "seconds": round(seconds, 1), "mb_per_s": round(received / 1e6 / seconds, 1)}


def main() -> int:
    subprocess.run([sys.executable, str(ROOT / "lite" / "build.py")], check=True, stdout=subprocess.DEVNULL)
    student = one_student()
    print(json.dumps(student), flush=True)
    room = room_of(ROOM)
    print(json.dumps(room), flush=True)
    report = {"machine": f"{platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}",
              "when": time.strftime("%Y-%m-%d"), "student": student, "room_download": room,
              "room_mb_for_25_first_loads": round(student["first_load_mb_sent"] * ROOM, 0)}
    OUT.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(f"results in {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    threading.excepthook = lambda args: None  # a client cut off at shutdown is not news
    sys.exit(main())
