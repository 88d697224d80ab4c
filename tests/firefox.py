"""Driving Debian's Firefox ESR from a test, through Marionette, with no geckodriver.

Selenium drives Firefox through geckodriver, which Debian does not package and which
cannot be downloaded here; geckodriver itself only translates WebDriver to Firefox's own
remote protocol, Marionette, which Firefox speaks when started with ``--marionette``.
This module speaks it directly: each message is ``LENGTH:JSON``, a command is
``[0, id, name, parameters]`` and its answer ``[1, id, error, result]``. Only the
commands the tests use are here (navigate, run a script, take a screenshot, quit).

Firefox gets a fresh profile whose every connection goes through a proxy at
127.0.0.1:9, where nothing listens, except those to 127.0.0.1 and localhost: nothing
it tries leaves the machine, and what it tried is not recorded (unlike Chromium's log).
"""

from __future__ import annotations

import base64
import json
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest

FIREFOX = shutil.which("firefox-esr") or shutil.which("firefox")
NEEDS_FIREFOX = pytest.mark.skipif(FIREFOX is None, reason="no Firefox to drive: apt-get install firefox-esr")

PREFS = {
    "marionette.port": 0,  # any free port; Firefox writes it to MarionetteActivePort in the profile
    "network.proxy.type": 1, "network.proxy.http": "127.0.0.1", "network.proxy.http_port": 9,
    "network.proxy.ssl": "127.0.0.1", "network.proxy.ssl_port": 9,
    "network.proxy.no_proxies_on": "127.0.0.1,localhost", "network.proxy.allow_hijacking_localhost": False,
    "network.dns.disablePrefetch": True, "network.trr.mode": 5,
    "network.captive-portal-service.enabled": False, "network.connectivity-service.enabled": False,
    "app.update.disabledForTesting": True,
    "datareporting.policy.dataSubmissionEnabled": False, "toolkit.telemetry.enabled": False,
    "browser.shell.checkDefaultBrowser": False, "browser.startup.homepage_override.mstone": "ignore",
    "browser.safebrowsing.update.enabled": False, "extensions.update.enabled": False,
}


class Firefox:
    """A headless Firefox in ``profile`` and a Marionette session to it."""

    def __init__(self, profile: Path, timeout: float = 60.0):
        profile.mkdir(parents=True, exist_ok=True)
        (profile / "user.js").write_text("".join(f"user_pref({json.dumps(k)}, {json.dumps(v)});\n"
                                                 for k, v in PREFS.items()), encoding="utf-8")
        self.process = subprocess.Popen([FIREFOX, "--headless", "--marionette", "--no-remote", "--profile",
                                         str(profile), "about:blank"], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        port_file, end = profile / "MarionetteActivePort", time.monotonic() + timeout
        while not port_file.exists() or not port_file.read_text().strip():
            if time.monotonic() > end or self.process.poll() is not None:
                self.process.kill()
                raise AssertionError("Firefox did not start Marionette")
            time.sleep(0.2)
        self.socket = socket.create_connection(("127.0.0.1", int(port_file.read_text())), timeout=timeout)
        self.buffer, self.last_id = b"", 0
        self._receive()  # the hello: {"applicationType": "gecko", "marionetteProtocol": 3}
        self.command("WebDriver:NewSession", {"capabilities": {"alwaysMatch": {}}})

    def _receive(self):
        while b":" not in self.buffer:
            self.buffer += self._chunk()
        length, _, rest = self.buffer.partition(b":")
        while len(rest) < int(length):
            rest += self._chunk()
        self.buffer = rest[int(length):]
        return json.loads(rest[:int(length)])

    def _chunk(self) -> bytes:
        data = self.socket.recv(65536)
        if not data:
            raise ConnectionError("Firefox closed Marionette's connection")
        return data

    def command(self, name: str, parameters: dict | None = None):
        """Send one command and return its result; a Marionette error raises AssertionError."""
        self.last_id += 1
        body = json.dumps([0, self.last_id, name, parameters or {}]).encode()
        self.socket.sendall(str(len(body)).encode() + b":" + body)
        while True:
            kind, number, error, result = self._receive()
            if kind == 1 and number == self.last_id:
                break
        if error:
            raise AssertionError(f"{name}: {error.get('error')}: {error.get('message')}")
        return result

    def get(self, url: str) -> None:
        self.command("WebDriver:Navigate", {"url": url})

    def script(self, source: str, *args):
        """Run ``source`` (a function body that returns a value) in the page."""
        return self.command("WebDriver:ExecuteScript", {"script": source, "args": list(args)})["value"]

    def screenshot(self, path: Path) -> None:
        path.write_bytes(base64.b64decode(self.command("WebDriver:TakeScreenshot", {})["value"]))

    def quit(self) -> None:
        try:
            self.command("Marionette:Quit", {"flags": ["eForceQuit"]})
        except (OSError, AssertionError):
            pass  # already gone: quitting is all that was asked
        self.socket.close()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
