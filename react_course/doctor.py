"""``react-course doctor``: is this machine ready for the course? Says what to fix.

Each check returns a ``Finding``; nothing here changes the machine. Run it at
the start of a workshop on every laptop in the room.
"""

from __future__ import annotations

import importlib.metadata
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from .providers import ENV_VAR, ModelConfigError, parse_model_spec

KERNEL_NAME = "react-course"
PACKAGES = ("jupyterlab", "ipykernel", "ipywidgets", "nbval", "nbclient", "openai", "matplotlib")


@dataclass(frozen=True)
class Finding:
    name: str
    ok: bool
    detail: str
    fix: str = ""

    def line(self) -> str:
        mark = "ok  " if self.ok else "FIX "
        text = f"[{mark}] {self.name}: {self.detail}"
        return text + (f"\n       -> {self.fix}" if self.fix and not self.ok else "")


def check_python() -> Finding:
    version = ".".join(map(str, sys.version_info[:3]))
    ok = sys.version_info >= (3, 11)
    return Finding("Python", ok, version, "Install Python 3.11 or newer, then run the set-up again.")


def check_packages() -> list[Finding]:
    findings = []
    for name in PACKAGES:
        try:
            findings.append(Finding(name, True, importlib.metadata.version(name)))
        except importlib.metadata.PackageNotFoundError:
            findings.append(Finding(name, False, "not installed",
                                    "Run the README's set-up command: python3 course.py open"))
    return findings


def check_kernel() -> Finding:
    try:
        from jupyter_client.kernelspec import KernelSpecManager

        spec = KernelSpecManager().get_kernel_spec(KERNEL_NAME)
    except Exception:
        return Finding(f"Jupyter kernel {KERNEL_NAME!r}", False, "not registered",
                       f"{sys.executable} -m ipykernel install --sys-prefix --name {KERNEL_NAME}")
    python = Path(spec.argv[0])
    ok = python.exists()
    return Finding(f"Jupyter kernel {KERNEL_NAME!r}", ok, f"runs {python.name} in its environment",
                   f"Re-register it: {sys.executable} -m ipykernel install --sys-prefix "
                   f"--name {KERNEL_NAME}")


def check_model() -> Finding:
    setting = os.environ.get(ENV_VAR, "")
    try:
        spec = parse_model_spec(setting)
    except ModelConfigError as error:
        return Finding("model", False, str(error), f"Fix or unset {ENV_VAR}.")
    if spec.kind == "scripted":
        return Finding("model", True, "scripted (offline, free, deterministic)")
    key_needed = spec.kind == "openai" and not os.environ.get("OPENAI_BASE_URL")
    has_key = bool(os.environ.get("OPENAI_API_KEY"))
    key = "OPENAI_API_KEY is set (hidden)" if has_key else "OPENAI_API_KEY is not set"
    ok = has_key or not key_needed
    return Finding("model", ok, f"{spec}; {key}",
                   "export OPENAI_API_KEY=... in the shell that starts Jupyter (never in a cell).")


def ping_model() -> Finding:
    """One tiny request to the configured real model."""
    from .providers import course_model

    spec = parse_model_spec(os.environ.get(ENV_VAR))
    if spec.kind == "scripted":
        return Finding("model answers", True, "scripted model, nothing to ping")
    try:
        reply = course_model()("Reply with the single word: ready", None)
    except Exception as error:
        return Finding("model answers", False, f"{type(error).__name__}: {str(error)[:200]}",
                       "Check the server is running, the base URL and the model name.")
    return Finding("model answers", True, f"replied {reply.strip()[:40]!r}")


def diagnose(ping: bool = False) -> list[Finding]:
    findings = [check_python(), *check_packages(), check_kernel(), check_model()]
    return [*findings, ping_model()] if ping else findings


def report(findings: list[Finding]) -> str:
    lines = [f.line() for f in findings]
    problems = sum(not f.ok for f in findings)
    lines.append("All good: open notebooks/00_start_here.ipynb." if not problems
                 else f"{problems} thing(s) to fix, listed above.")
    return "\n".join(lines)
