"""What makes the built site fit for a room: the service worker's list of files, and gzip copies.

- ``service_worker`` writes lite/service-worker.js into the site, in place of
  JupyterLite's own, with the build's version and the list of every file a tab
  may need: a tab that loaded once then reloads with the laptop gone.
- ``precompress`` writes ``NAME.gz`` beside each file that gzip shrinks by a
  tenth or more; lite/serve.py sends it to a browser that accepts gzip.

>>> kept("build/123.abc.js"), kept("build/123.abc.js.gz"), kept("rspack.config.js")
(True, False, False)
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

# Files of the built site that no tab asks for: the build's own leftovers.
NEVER_ASKED = {"rspack.config.js", "rspack.config.analyze.js", "rspack.config.watch.js", "package.json",
               "jupyterlite.schema.v0.json", ".inputs", "service-worker.js", "overrides.json"}


def kept(name: str) -> bool:
    """Whether the service worker keeps this file (a path relative to the site)."""
    return not name.endswith((".gz", ".map")) and name not in NEVER_ASKED


def service_worker(site: Path, template: Path, version: str) -> list[str]:
    """Our service worker in ``site``, listing every file it keeps; returns the list."""
    files = sorted(p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file())
    files = [name for name in files if kept(name)]
    files += [name.removesuffix("index.html") or "./" for name in files if name.endswith("index.html")]
    text = template.read_text(encoding="utf-8")
    text = text.replace("__VERSION__", version).replace("__FILES__", json.dumps(files))
    (site / "service-worker.js").write_text(text, encoding="utf-8")
    return files


def precompress(site: Path, least_saving: float = 0.1) -> int:
    """Gzip copies of the files that shrink by at least ``least_saving``; returns how many were written.

    The copies carry no name or time, so the same file always gives the same bytes.
    """
    written = 0
    for path in sorted(p for p in site.rglob("*") if p.is_file() and p.suffix != ".gz"):
        data = path.read_bytes()
        if len(data) < 1024:
            continue
        packed = gzip.compress(data, compresslevel=9, mtime=0)
        if len(packed) <= len(data) * (1 - least_saving):
            path.with_name(path.name + ".gz").write_bytes(packed)
            written += 1
    return written


def sent_size(site: Path) -> int:
    """Bytes a browser that takes gzip receives for every file of the site once."""
    total = 0
    for path in (p for p in site.rglob("*") if p.is_file() and p.suffix != ".gz"):
        packed = path.with_name(path.name + ".gz")
        total += (packed if packed.exists() else path).stat().st_size
    return total
