"""``react-course doctor``: each check, and ``--ping`` against stub servers on 127.0.0.1."""

from __future__ import annotations

import json
import socket
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
import stub_servers as stub
from stub_servers import KEY, MODEL, StubServer

from react_course.course import doctor, doctor_model
from react_course.course.cli import main
from react_course.course.doctor import Finding, diagnose, report, report_json


@pytest.fixture(autouse=True)
def _clean_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "REACT_COURSE_MODEL", "REACT_COURSE_TIMEOUT"):
        monkeypatch.delenv(name, raising=False)


def use(monkeypatch: pytest.MonkeyPatch, server: StubServer, name: str = MODEL) -> None:
    monkeypatch.setenv("REACT_COURSE_MODEL", f"openai-compatible:{server.url}:{name}")
    monkeypatch.setenv("OPENAI_API_KEY", KEY)


def by_name(findings: list[Finding]) -> dict[str, Finding]:
    return {f.name: f for f in findings}


class FakeInstall:
    def __init__(self, requires: str = ">=3.11", url: str | None = None) -> None:
        self.metadata = {"Requires-Python": requires}
        self.url = url

    def read_text(self, name: str) -> str | None:
        if name == "direct_url.json" and self.url:
            return json.dumps({"url": self.url, "dir_info": {"editable": True}})
        return None


# --- the machine ------------------------------------------------------------------------------

def test_python_is_checked_against_the_installed_range(monkeypatch) -> None:
    assert doctor.check_python().status == "ok"
    monkeypatch.setattr(doctor, "_install", lambda: FakeInstall(">=3.99"))
    finding = doctor.check_python()
    assert finding.status == "fix" and "(supported: >=3.99)" in finding.detail
    assert "Install a Python in the range >=3.99" in finding.fix and "course.py open" in finding.fix


def test_the_range_is_read_from_the_installed_course_metadata() -> None:
    import importlib.metadata

    installed = [d for d in importlib.metadata.distributions(name="react-course")
                 if d.read_text("direct_url.json")]
    expected = installed[0].metadata["Requires-Python"] if installed else ">=3.11"
    assert doctor.supported_pythons() == expected


def test_a_moved_course_folder_is_detected(monkeypatch, tmp_path: Path) -> None:
    here = doctor.course_folder()
    assert here is not None and (here / "notebooks").is_dir()
    assert doctor.check_folder().status == "ok"
    monkeypatch.setattr(doctor, "_install", lambda: FakeInstall(url="file:///old/place/course"))
    assert doctor.installed_from() == Path("/old/place/course")
    finding = doctor.check_folder()
    assert finding.status == "fix" and "the install points at" in finding.detail
    assert "moved or copied" in finding.detail and "python3 course.py open" in finding.fix


def test_the_kernel_fix_uses_the_notebooks_name_and_display_name(monkeypatch) -> None:
    import jupyter_client.kernelspec as kernelspec

    class Missing:
        def get_kernel_spec(self, name: str):
            raise kernelspec.NoSuchKernel(name)

    class Moved:
        def get_kernel_spec(self, name: str):
            return SimpleNamespace(argv=["/old/place/.venv/bin/python", "-m", "ipykernel_launcher"],
                                   display_name="Python (react-course)")

    monkeypatch.setattr(kernelspec, "KernelSpecManager", Missing)
    finding = doctor.check_kernel()
    assert finding.status == "fix" and finding.detail == "not registered"
    assert finding.fix.endswith('--name react-course --display-name "Python (react-course)"')
    monkeypatch.setattr(kernelspec, "KernelSpecManager", Moved)
    finding = doctor.check_kernel()
    assert finding.status == "fix" and "no longer exists" in finding.detail
    assert '--display-name "Python (react-course)"' in finding.fix


def test_a_lesson_that_fails_in_the_kernel_is_a_fix(monkeypatch) -> None:
    import react_course.course.authoring as authoring

    def broken(path, **options):
        raise RuntimeError("Kernel died before replying to kernel_info")

    monkeypatch.setattr(authoring, "execute_notebook", broken)
    finding = doctor.check_lesson()
    assert finding.status == "fix" and "Kernel died" in finding.detail
    assert "--display-name" in finding.fix


@pytest.mark.slow
def test_full_runs_lesson_00_in_the_course_kernel(monkeypatch) -> None:
    monkeypatch.setenv("REACT_COURSE_MODEL", "openai-compatible:http://127.0.0.1:9/v1:unused")
    finding = doctor.check_lesson()
    assert finding.status == "ok", finding.detail  # on the scripted model, whatever is configured
    assert "ran to its end" in finding.detail


# --- the model, without and with --ping --------------------------------------------------------

def test_without_ping_a_real_model_is_not_called_all_good(monkeypatch) -> None:
    assert report(diagnose()).endswith("All good: open notebooks/00_start_here.ipynb.")
    monkeypatch.setenv("REACT_COURSE_MODEL", "ollama:qwen2.5:7b")
    text = report(diagnose())
    assert "All good" not in text
    assert text.endswith("the model at http://localhost:11434/v1 was not contacted: "
                         "run react-course doctor --ping to try it.")


def test_the_effective_base_url_is_shown_for_openai(monkeypatch) -> None:
    monkeypatch.setenv("REACT_COURSE_MODEL", "openai:gpt-4o-mini")
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    assert "calls go to https://api.openai.com/v1" in doctor_model.check_model().detail
    assert doctor_model.announce() == ("Contacting https://api.openai.com/v1 (model 'gpt-4o-mini', "
                                       "chat endpoint) for at most 25 s...")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:8080/v1")
    assert "calls go to http://127.0.0.1:8080/v1" in doctor_model.check_model().detail
    assert KEY not in report(diagnose())


def test_a_bad_time_out_setting_is_found_before_any_call(monkeypatch) -> None:
    monkeypatch.setenv("REACT_COURSE_MODEL", "ollama:qwen2.5:7b")
    monkeypatch.setenv("REACT_COURSE_TIMEOUT", "30s")
    findings = by_name(diagnose(ping=True))
    assert findings["model"].status == "fix"
    assert "REACT_COURSE_TIMEOUT='30s' is not a positive number" in findings["model"].detail
    assert findings["model answers"].status == "skip"


def test_a_missing_key_is_not_a_server_problem(monkeypatch) -> None:
    monkeypatch.setenv("REACT_COURSE_MODEL", "openai:gpt-4o-mini")
    findings = by_name(diagnose(ping=True))
    assert findings["model"].status == "fix" and "export OPENAI_API_KEY" in findings["model"].fix
    assert findings["model answers"].status == "skip"
    assert "server" not in findings["model answers"].line()


def test_ping_checks_the_name_and_the_answer(monkeypatch) -> None:
    with StubServer(stub.answering(["ready"])) as server:
        use(monkeypatch, server)
        findings = by_name(doctor_model.ping_model())
    assert findings["model name"].status == "ok" and "listed by the server" in findings["model name"].detail
    assert findings["model answers"].status == "ok" and findings["model answers"].detail == "replied 'ready'"
    assert [r.path for r in server.requests] == ["/v1/models", "/v1/chat/completions"]


def test_an_empty_reply_is_a_warning(monkeypatch) -> None:
    with StubServer(stub.answering([""])) as server:
        use(monkeypatch, server)
        findings = by_name(doctor_model.ping_model())
    assert findings["model answers"].status == "warn"
    assert "replied with nothing" in findings["model answers"].detail
    assert "-completions" in findings["model answers"].fix


def test_an_unlisted_model_name(monkeypatch) -> None:
    with StubServer(stub.answering(["ready"])) as server:  # answers whatever the name (llama.cpp)
        use(monkeypatch, server, "no-such-model")
        warned = by_name(doctor_model.ping_model())["model name"]
    assert warned.status == "warn"
    assert "does not list 'no-such-model' (it lists 'stub-model')" in warned.detail

    refusing = lambda request: stub.error_reply(404, "model 'no-such-model' not found")  # noqa: E731
    with StubServer(refusing) as server:
        use(monkeypatch, server, "no-such-model")
        failed = by_name(doctor_model.ping_model())["model answers"]
    assert failed.status == "fix" and failed.fix == ("The server lists 'stub-model': set "
                                                     "REACT_COURSE_MODEL to one of them.")


def test_a_server_without_a_model_list_is_still_pinged(monkeypatch) -> None:
    with StubServer(stub.answering(["ready"]), models=None) as server:
        use(monkeypatch, server)
        findings = by_name(doctor_model.ping_model())
    assert findings["model name"].status == "skip" and "no model list" in findings["model name"].detail
    assert findings["model answers"].status == "ok"


def test_ping_gives_up_on_a_silent_server(monkeypatch) -> None:
    monkeypatch.setattr(doctor_model, "REPLY_SECONDS", 0.5)
    monkeypatch.setattr(doctor_model, "LIST_SECONDS", 0.5)
    with StubServer(stub.hanging) as server:
        use(monkeypatch, server)
        findings = by_name(doctor_model.ping_model())
    answer = findings["model answers"]
    assert answer.status == "fix" and f"no reply from {server.url} within 0.5 s" in answer.detail
    # it answered at /models, so it is up: slow, not "still loading"
    assert "The server is up (it answered at /models)" in answer.fix and "loading" not in answer.fix
    assert len(server.calls) == 1  # no retry


def test_nothing_listening_gets_start_the_server(monkeypatch) -> None:
    with socket.socket() as probe:  # a port that was free a moment ago
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv("REACT_COURSE_MODEL", f"openai-compatible:http://127.0.0.1:{port}/v1:m")
    answer = by_name(doctor_model.ping_model())["model answers"]
    assert answer.status == "fix" and "could not talk to" in answer.detail
    assert answer.fix.startswith("Start the model server")


@pytest.mark.parametrize(("behaviour", "advice"), [
    (stub.echoing_error(401), "Check OPENAI_API_KEY"),
    (stub.html_page, "is not an OpenAI-compatible API"),
    (stub.context_full, "larger context size"),
])
def test_each_failure_gets_its_own_advice(monkeypatch, capsys, behaviour, advice) -> None:
    with StubServer(behaviour) as server:
        use(monkeypatch, server)
        assert main(["doctor", "--ping"]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"Contacting {server.url} (model 'stub-model', chat endpoint) for at most")
    assert advice in out and KEY not in out


def test_json_report_for_instructors(monkeypatch, capsys) -> None:
    with StubServer(stub.echoing_error(500)) as server:
        use(monkeypatch, server)
        main(["doctor", "--ping", "--json"])
    out = capsys.readouterr().out
    data = json.loads(out)
    assert data["ok"] is False and data["python"] == ".".join(map(str, sys.version_info[:3]))
    assert {"name", "status", "detail", "fix"} <= set(data["findings"][0])
    assert any(f["name"] == "model answers" and f["status"] == "fix" for f in data["findings"])
    assert KEY not in out and "Contacting" not in out
    assert json.loads(report_json([Finding("x", "ok", "y")]))["ok"] is True


def test_ping_against_a_base_model_asks_for_a_short_reply_with_a_stop(monkeypatch) -> None:
    """A base model writes on to its budget: at 50 ms a token, 400 tokens outlast the ping."""
    import time

    def generating(request: stub.Request) -> stub.Reply:
        time.sleep(0.05 * min(int(request.body.get("max_tokens") or 400), 40))
        return stub.model_reply(request, " ready")

    with StubServer(generating) as server:
        monkeypatch.setenv("REACT_COURSE_MODEL", f"openai-compatible-completions:{server.url}:{MODEL}")
        monkeypatch.setenv("OPENAI_API_KEY", KEY)
        findings = by_name(doctor_model.ping_model())
        sent = server.calls[0].body
    assert findings["model answers"].status == "ok" and "ready" in findings["model answers"].detail
    assert sent["max_tokens"] <= 16 and sent["stop"] == ["\n"] and sent["prompt"].endswith("Answer:")


def test_ping_against_a_server_that_is_down_says_it_once(monkeypatch) -> None:
    monkeypatch.setenv("REACT_COURSE_MODEL", "openai-compatible:http://127.0.0.1:9/v1:m")
    findings = by_name(doctor_model.ping_model())
    assert "model name" not in findings  # not "has no model list": it was never reached
    assert findings["model answers"].status == "fix"
    assert "Start the model server" in findings["model answers"].fix
