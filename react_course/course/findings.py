"""One finding of ``react-course doctor``: what was checked, how it stands, and what to do.

Its own module because both halves of the doctor (``doctor.py`` for the machine,
``doctor_model.py`` for the configured model) report findings, and neither should
import the other for it.
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Iterable
from dataclasses import dataclass

MARKS = {"ok": "ok  ", "warn": "warn", "fix": "FIX ", "skip": "--  "}


@dataclass(frozen=True)
class Finding:
    name: str
    status: str  # ok, warn (works, but look), fix (will not work), skip (not checked)
    detail: str
    fix: str = ""

    @property
    def ok(self) -> bool:
        return self.status != "fix"

    def line(self) -> str:
        text = f"[{MARKS[self.status]}] {self.name}: {self.detail}"
        return text + (f"\n       -> {self.fix}" if self.fix and self.status in ("fix", "warn") else "")


def installed(names: Iterable[str], missing: str, fix: str) -> list[Finding]:
    """One finding per package: its version, or ``missing`` with ``fix`` (the laptop's and the tab's doctors).

    >>> [f.status for f in installed(["pip", "no-such-package"], "not installed", "install it")]
    ['ok', 'fix']
    """
    findings = []
    for name in names:
        try:
            findings.append(Finding(name, "ok", importlib.metadata.version(name)))
        except importlib.metadata.PackageNotFoundError:
            findings.append(Finding(name, "fix", missing, fix))
    return findings
