"""The local model server's lifecycle, run for real: started on demand, reused (also by two questions at
once), restarted after it dies, never outliving the process that started it. Each test has its own run
directory (a temp cache_dir), so it never touches a server another process is using."""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from langchain_core.messages import HumanMessage
from pydantic import PrivateAttr

from assistant.llm import LlmUnavailable, LocalServerChat, make_chat_model, stream_tokens
from assistant.llm_server import ensure_server, running_server, state_file, stop_owned
from config import REPO_ROOT, load_settings
from tests.conftest import cpu_threads

MODEL = load_settings().llm_model_file


def _settings(tmp_path: Path, **changes):
    return load_settings().replace(cache_dir=tmp_path, llm_model_path=str(MODEL), llm_max_tokens=4, **changes)


def _gone(pid: int, wait_s: float = 15.0) -> bool:
    """Ended (a zombie not yet reaped by its parent counts as ended)."""
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        try:
            if Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z":
                return True
        except OSError:
            return True
        time.sleep(0.2)
    return False


@pytest.fixture
def own_servers():
    yield
    stop_owned()


def test_stale_state_file_is_dropped(tmp_path):
    settings = _settings(tmp_path)
    path = state_file(settings, MODEL)
    path.parent.mkdir(parents=True)
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    path.write_text(json.dumps({"pid": dead.pid, "url": "http://127.0.0.1:9", "model": MODEL.name, "owner_pid": 1}))
    assert running_server(settings, MODEL) is None and not path.exists()


def test_missing_model_is_a_clear_message(tmp_path):
    settings = _settings(tmp_path).replace(llm_model_path=str(tmp_path / "absent.gguf"))
    with pytest.raises(LlmUnavailable, match="make models"):
        make_chat_model(settings, "local")


@pytest.mark.slow
def test_server_is_reused_and_restarted_after_it_dies(tmp_path, own_servers):
    settings = _settings(tmp_path)
    first = ensure_server(settings, MODEL)
    assert first.url.startswith("http://127.0.0.1:") and first.owner_pid == os.getpid()
    assert ensure_server(settings, MODEL) == first                      # reused, not a second copy
    chat = LocalServerChat(settings=settings, model_file=MODEL)
    question = [HumanMessage("Diga olá.")]
    assert "".join(stream_tokens(chat, question, 120)).strip()
    with ThreadPoolExecutor(2) as pool:          # two sessions asking at once, one server: both are answered
        both = list(pool.map(lambda q: "".join(stream_tokens(chat, [HumanMessage(q)], 120)).strip(),
                             ["Diga olá.", "Diga adeus."]))
    assert all(both) and ensure_server(settings, MODEL) == first
    os.kill(first.pid, signal.SIGKILL)
    assert _gone(first.pid)
    second = chat.client()                                              # the next question starts a new one
    assert second is not None and running_server(settings, MODEL).pid != first.pid
    assert "".join(stream_tokens(chat, question, 120)).strip()


@pytest.mark.slow
def test_server_does_not_outlive_its_owner(tmp_path):
    """Started by a CLI-like process, the server ends with it: normally, and when the owner is killed."""
    code = ("import sys, json; from config import load_settings; from pathlib import Path; "
            "from assistant.llm_server import ensure_server; "
            f"s = load_settings().replace(cache_dir=Path({str(tmp_path)!r}), llm_model_path={str(MODEL)!r}); "
            "print(ensure_server(s, s.llm_model_file).pid, flush=True); "
            "sys.stdin.readline()")
    for ending in ("exit", "kill"):
        owner = subprocess.Popen([sys.executable, "-c", code], cwd=REPO_ROOT, stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, text=True)
        pid = int(owner.stdout.readline())
        assert not _gone(pid, wait_s=0.5)
        if ending == "exit":
            owner.communicate("\n", timeout=60)
        else:
            owner.kill()
            owner.wait()
        assert _gone(pid), f"o servidor {pid} sobreviveu ao dono ({ending})"
        assert running_server(_settings(tmp_path), MODEL) is None



def test_orphan_check_sees_a_marked_server_process():
    from tests.conftest import leftover_servers

    env = {**os.environ, "TREATY_TEST_SESSION": "orphan-check-probe"}
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", "assistant.llm_server", "serve"],
                            env=env)
    try:
        deadline = time.monotonic() + 10
        while proc.pid not in leftover_servers("orphan-check-probe") and time.monotonic() < deadline:
            time.sleep(0.1)
        assert leftover_servers("orphan-check-probe") == [proc.pid]
    finally:
        proc.kill()
        proc.wait()
    assert leftover_servers("orphan-check-probe") == []


class _DiesAfterFirstSentence(LocalServerChat):
    """The real server, killed as soon as its stream has started a second sentence: the first one is complete
    (the pipeline can check and show it) and the rest is cut, whatever the machine's speed. (Killing it on the
    first shown sentence raced the model: a short answer had been generated in full by the time its first
    sentence was checked.)"""

    _killed: bool = PrivateAttr(default=False)      # once: the next question finds a new server

    def _stream(self, messages, stop=None, run_manager=None, **kwargs):
        written = ""
        for chunk in super()._stream(messages, stop=stop, run_manager=run_manager, **kwargs):
            yield chunk
            written += chunk.message.content
            if not self._killed and re.search(r"[.!?]\s+\S", written):
                os.kill(running_server(self.settings, self.model_file).pid, signal.SIGKILL)
                self._killed = True


@pytest.mark.slow
def test_app_keeps_answering_when_the_server_dies_mid_answer(tmp_path, make_assistant, own_servers):
    """Killed while it streams the explanation: the card still comes, with a notice; the next question starts a
    new server and gets its explanation. (Killed before it is asked, it is simply restarted.)"""
    settings = _settings(tmp_path, llm_threads=cpu_threads()).replace(llm_max_tokens=160)
    chat = _DiesAfterFirstSentence(settings=settings, model_file=MODEL)
    chat.client()
    first = running_server(settings, MODEL)
    assistant = make_assistant(chat, llm_max_tokens=160, llm_timeout_s=600, retrieval_k=2)
    question = "Sou residente em Portugal e recebo dividendos de uma empresa brasileira. Qual a taxa?"
    final, shown = None, []
    for event in assistant.stream(question):
        if event.kind == "token":
            shown.append(event.text)
        elif event.kind == "final":
            final = event.answer
    assert final.card and sorted(r.value for r in final.rates) == [10.0, 15.0]
    assert _gone(first.pid)
    # what was shown stays (it was checked), and the agent is told the rest was cut
    assert final.explanation == "".join(shown).strip()
    assert any("foi interrompida" in n for n in final.notices), final.notices
    chat.settings = settings.replace(llm_max_tokens=8)     # the restarted server: a short explanation is enough
    again = assistant.ask(question)
    assert running_server(settings, MODEL).pid != first.pid
    assert not any("interrompida" in n or "não está disponível" in n for n in again.notices)
    assert again.guardrail.action in ("passed", "trimmed", "fallback")


@pytest.mark.slow
def test_run_launcher_serves_the_command_and_stops_the_server(tmp_path):
    """`make run`'s launcher: the command sees a live server; when the command ends, the server ends too."""
    env = {**os.environ, "TREATY_CACHE_DIR": str(tmp_path), "TREATY_LLM_MODEL_PATH": str(MODEL),
           "TREATY_LLM_BACKEND": "local"}
    done = subprocess.run([sys.executable, "-m", "assistant.llm_server", "run", "--",
                           sys.executable, "-m", "assistant.llm_server", "status"],
                          cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    info = json.loads(done.stdout.strip().splitlines()[-1])
    assert info["url"].startswith("http://127.0.0.1:")
    assert _gone(info["pid"])


@pytest.mark.slow
def test_server_warms_the_system_prompt_and_speculates(tmp_path, own_servers):
    """The fixed system prompt is in the prompt cache before any question (read at start, in the background),
    and n-gram speculation is on when asked for."""
    from assistant.llm_server import SYSTEM_PROMPT

    settings = _settings(tmp_path, llm_speculative="ngram", llm_threads=cpu_threads())
    info = ensure_server(settings, MODEL)
    log = tmp_path / "run" / state_file(settings, MODEL).name.replace(".json", ".log")
    deadline = time.monotonic() + 600
    while "prompt de sistema em cache" not in log.read_text() and time.monotonic() < deadline:
        time.sleep(1)
    assert "prompt de sistema em cache" in log.read_text(), log.read_text()[-500:]
    body = json.dumps({"model": info.model, "max_tokens": 1, "messages": [
        {"role": "system", "content": SYSTEM_PROMPT.read_text(encoding="utf-8")},
        {"role": "user", "content": "Diga olá."}]}).encode()
    request = urllib.request.Request(f"{info.api_url}/chat/completions", data=body,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=600) as response:
        timings = json.loads(response.read())["timings"]
    assert timings["cache_n"] > 200, timings           # the ~290-token system prompt came from the cache
    with urllib.request.urlopen(f"{info.url}/slots", timeout=30) as response:
        assert json.loads(response.read())[0]["speculative"] is True
