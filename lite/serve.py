"""Serve the browser edition to a room from the instructor's laptop: ``python3 lite/serve.py``.

    python3 lite/serve.py                  # every address of this laptop, port 8000
    python3 lite/serve.py --port 8080
    python3 lite/serve.py --bind 127.0.0.1 # this machine only (the tests)
    python3 lite/serve.py --cert room.pem --key room-key.pem   # https://, with a certificate

It serves ``lite/_site/`` (build it first with ``python3 lite/build.py``) with the
headers a browser needs: the right types for ``.wasm`` and ``.mjs``, each file's
gzip copy (made by the build) to any browser that accepts gzip, and
``Cache-Control: no-cache`` so that a rebuilt site is seen at once (the service
worker keeps the copies a tab needs offline). It prints the address to write on
the board and, every few seconds, checks whether the laptop's address changed,
and says what to do when it has.

On an address other than ``localhost``/``127.x`` browsers refuse the service
worker of a plain ``http://`` site, so the printed advice says how a student's
browser can treat the room's address as secure. With ``--cert`` and ``--key`` it
serves ``https://`` instead, which needs no step from a student only when their
browsers trust that certificate (one for a name of the laptop, from a certificate
authority they know). What it leaves out: making a certificate. A self-signed one
costs each student a "Your connection is not private" page, and past it Chromium
still refuses to register the service worker (it fetches a worker's script only
under a certificate it trusts; tests/test_lite_https.py shows both), so it buys
nothing over the flag.
"""

from __future__ import annotations

import argparse
import email.utils
import os
import socket
import ssl
import sys
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

SITE = Path(__file__).resolve().parent / "_site"
TYPES = {".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm",
         ".whl": "application/zip", ".json": "application/json", ".ipynb": "application/json",
         ".zip": "application/zip"}


class SiteHandler(SimpleHTTPRequestHandler):
    """Static files, each sent as its ``.gz`` copy when there is one and the browser takes gzip."""

    extensions_map: ClassVar[dict[str, str]] = {**SimpleHTTPRequestHandler.extensions_map, **TYPES}

    def send_head(self):
        path = Path(self.translate_path(self.path))
        packed = path.with_name(path.name + ".gz")
        takes_gzip = "gzip" in self.headers.get("Accept-Encoding", "")
        if not path.is_file() or not packed.is_file() or not takes_gzip:
            return super().send_head()
        stat = path.stat()
        since = self.headers.get("If-Modified-Since")
        if since and email.utils.parsedate_to_datetime(since).timestamp() >= int(stat.st_mtime):
            self.send_response(304)
            self.end_headers()
            return None
        handle = open(packed, "rb")  # copyfile reads it, then the base class closes it
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(os.fstat(handle.fileno()).st_size))
        self.send_header("Last-Modified", self.date_time_string(int(stat.st_mtime)))
        self.end_headers()
        return handle

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Vary", "Accept-Encoding")
        super().end_headers()

    def log_message(self, *args) -> None:  # 25 students make thousands of requests: only errors are news
        pass


class RoomServer(ThreadingHTTPServer):
    """The threaded server, quiet about clients that hang up (a closed tab, a refused certificate)."""

    daemon_threads = True

    def handle_error(self, request, client_address) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError | ssl.SSLError):
            super().handle_error(request, client_address)


def open_server(site: Path, bind: str, port: int, cert: Path | None = None,
                key: Path | None = None) -> RoomServer:
    """The room's server on ``bind:port`` (0: any free port), serving ``https://`` when given a certificate.

    The TLS handshake happens in each client's thread (``do_handshake_on_connect=False``),
    so a slow or refusing browser never holds up the others.
    """
    handler = lambda *a, **k: SiteHandler(*a, directory=str(site), **k)  # noqa: E731
    server = RoomServer((bind, port), handler)
    if cert is not None:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        server.socket = context.wrap_socket(server.socket, server_side=True, do_handshake_on_connect=False)
    return server


def laptop_address() -> str | None:
    """This laptop's address on the room's network, or None without one.

    A UDP socket "connected" to a private address asks the routing table which
    interface it would use; no packet is sent.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 9))
            address = probe.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def board_text(address: str, port: int, secure: bool = False) -> str:
    """What to tell the room: the address, and what a plain http:// address costs in a browser."""
    url = f"{'https' if secure else 'http'}://{address}:{port}/"
    lines = [f"Write on the board:   {url}", ""]
    if secure:
        lines += ["Served over https with the certificate given: a browser that trusts it keeps the",
                  "offline copy with no step from the student; one that does not shows a warning page",
                  "and, past it, refuses the offline copy all the same.", ""]
    elif not address.startswith("127.") and address != "localhost":
        lines += ["Browsers keep the offline copy (the service worker) only for https:// or localhost.",
                  "For the room's plain http:// address, each student once opens",
                  "  Chrome/Edge: chrome://flags/#unsafely-treat-insecure-origin-as-secure",
                  f"               adds {url.rstrip('/')}, picks Enabled and relaunches;",
                  f"  Firefox:     about:config, dom.securecontext.allowlist, adds {address}.",
                  "Without it the lessons still run; a reload needs this laptop, and a check's results",
                  "file is not kept.", ""]
    lines += ["Each student's work is kept in their browser, under this address. If the address",
              "changes, students run `export_work()` in a tab still open at the old address (it",
              "keeps working offline); at the new one, `import_work()` takes the zip back (both:",
              "`from react_course.course.handin import export_work, import_work`). See the README,",
              "\"In the browser\"."]
    return "\n".join(lines)


def watch_address(port: int, secure: bool, every: float = 10.0) -> None:
    """Say so when the laptop's address changes (a new Wi-Fi, a DHCP lease), forever."""
    known = laptop_address()
    while True:
        time.sleep(every)
        now = laptop_address()
        if now != known and now is not None:
            print(f"\nThe laptop's address changed from {known} to {now}.\n{board_text(now, port, secure)}\n",
                  flush=True)
        known = now or known


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Serve the browser edition (lite/_site) to a room.")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--bind", default="0.0.0.0", help="the address to listen on (default: all of them)")
    parser.add_argument("--cert", type=Path, help="serve https:// with this certificate (PEM; with --key)")
    parser.add_argument("--key", type=Path, help="the certificate's private key (PEM)")
    parser.add_argument("--site", type=Path, default=SITE, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if not (args.site / "index.html").is_file():
        print(f"No site in {args.site}: build it first with `python3 lite/build.py`.", file=sys.stderr)
        return 2
    if (args.cert is None) != (args.key is None):
        print("--cert and --key go together: the certificate and its private key.", file=sys.stderr)
        return 2
    try:
        server = open_server(args.site, args.bind, args.port, args.cert, args.key)
    except ssl.SSLError as error:
        print(f"Cannot use {args.cert} with {args.key}: {error.reason or error}.", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"Cannot listen on {args.bind}:{args.port} ({error.strerror}); try --port 8080.",
              file=sys.stderr)
        return 2
    port, secure = server.server_address[1], args.cert is not None
    address = args.bind if args.bind != "0.0.0.0" else (laptop_address() or "127.0.0.1")
    print(board_text(address, port, secure), flush=True)
    if args.bind == "0.0.0.0":
        threading.Thread(target=watch_address, args=(port, secure), daemon=True).start()
    print(f"\nServing {args.site} on port {port}; Ctrl+C stops it.", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
