"""``lite/serve.py --cert --key``: the room's site over https, and what a browser makes of the certificate.

A certificate is made on the spot with ``openssl`` (skipped without it), for 127.0.0.1
and localhost, and the server serves a two-file site: a page and a service worker.

- Over TLS the server sends the gzip copy as it does over plain http.
- A Chromium that trusts the certificate (``--ignore-certificate-errors-spki-list``
  stands in for a certificate the students' browsers know) gives the page a secure
  context, and the service worker registers: the offline copy works with no flag.
- A Chromium that does not shows "Your connection is not private"; past it (Advanced,
  Proceed) the page runs but the service worker is refused. That is what a
  self-signed certificate buys a room, and why serve.py does not make one.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import shutil
import ssl
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

import pytest
from chromium import NEEDS_CHROMIUM, chromium, wait_for

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "lite"))
from serve import board_text, open_server  # noqa: E402

PAGE = "<!doctype html><title>room</title><p>a page of the room's site</p>"
REGISTER = ("const done = arguments[arguments.length - 1];"
            "navigator.serviceWorker.register('service-worker.js')"
            ".then(r => done('registered ' + r.scope), e => done('refused: ' + e.message));")
pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="needs openssl to make a certificate")


@pytest.fixture(scope="module")
def room(tmp_path_factory):
    """A site of two files served over https on 127.0.0.1; yields (url, certificate's SPKI hash, cert)."""
    folder = tmp_path_factory.mktemp("room")
    cert, key = folder / "room.pem", folder / "room-key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-keyout", str(key), "-out", str(cert), "-days", "2",
                    "-subj", "/CN=react-course room", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
                   check=True, capture_output=True)
    site = folder / "site"
    site.mkdir()
    (site / "index.html").write_text(PAGE * 40, encoding="utf-8")
    (site / "index.html.gz").write_bytes(gzip.compress((PAGE * 40).encode(), mtime=0))
    (site / "service-worker.js").write_text("self.addEventListener('fetch', () => {});\n", encoding="utf-8")
    server = open_server(site, "127.0.0.1", 0, cert, key)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"https://127.0.0.1:{server.server_port}", spki_hash(cert), cert
    server.shutdown()
    server.server_close()


def spki_hash(cert: Path) -> str:
    """base64 of the SHA-256 of the certificate's public key, the form Chromium's SPKI list takes."""
    pem = subprocess.run(["openssl", "x509", "-pubkey", "-noout", "-in", str(cert)], check=True,
                         capture_output=True, text=True).stdout
    der = base64.b64decode("".join(line for line in pem.splitlines() if "-----" not in line))
    return base64.b64encode(hashlib.sha256(der).digest()).decode()


def test_https_sends_the_gzip_copy(room):
    url, _, cert = room
    context = ssl.create_default_context(cafile=str(cert))
    request = urllib.request.Request(f"{url}/index.html", headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request, context=context) as answer:
        assert answer.headers["Content-Encoding"] == "gzip"
        assert gzip.decompress(answer.read()).decode() == PAGE * 40


def test_the_board_says_https_and_no_flag():
    text = board_text("192.0.2.7", 8443, secure=True)
    assert "https://192.0.2.7:8443/" in text and "chrome://flags" not in text
    assert "chrome://flags" in board_text("192.0.2.7", 8000)


@pytest.mark.slow
@NEEDS_CHROMIUM
def test_a_trusted_certificate_gives_the_service_worker(room):
    url, spki, _ = room
    driver = chromium("--no-first-run", "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
                      f"--ignore-certificate-errors-spki-list={spki}")
    try:
        driver.get(f"{url}/index.html")
        assert driver.title == "room" and driver.execute_script("return window.isSecureContext")
        driver.set_script_timeout(30)
        assert driver.execute_async_script(REGISTER).startswith("registered")
    finally:
        driver.quit()


@pytest.mark.slow
@NEEDS_CHROMIUM
def test_a_self_signed_certificate_warns_then_refuses_the_service_worker(room):
    url, _, _ = room
    driver = chromium("--no-first-run", "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1")
    try:
        driver.get(f"{url}/index.html")
        assert driver.title == "Privacy error", driver.title
        assert "Your connection is not private" in driver.find_element("tag name", "body").text
        driver.find_element("id", "details-button").click()
        driver.find_element("id", "proceed-link").click()
        wait_for(lambda: driver.title == "room", timeout=30, what="the page past the warning")
        driver.set_script_timeout(30)
        answer = driver.execute_async_script(REGISTER)
        # "An SSL certificate error occurred when fetching the script", or "An unknown error"
        # when the refused handshake ends in the server's thread: a refusal either way
        assert answer.startswith("refused: Failed to register a ServiceWorker"), answer
    finally:
        driver.quit()
