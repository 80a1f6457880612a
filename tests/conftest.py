"""Session-wide fixtures and checks.

The real deterministic Assistant (real index, real embeddings, no LLM) is loaded once and shared,
because loading EmbeddingGemma costs seconds each time.

No local model server started during the tests may outlive them: every process the tests start
inherits TREATY_TEST_SESSION; at the end, any `assistant.llm_server` process still carrying this
session's mark is an orphan, reported and ended, and the run fails."""
from __future__ import annotations

import os
import signal
import time
import uuid
from pathlib import Path

import pytest

from assistant.machine import threads_for_load
from config import load_settings
from ingest.index import CHUNKS_FILE

SESSION_MARK = os.environ.setdefault("TREATY_TEST_SESSION", uuid.uuid4().hex)


def cpu_threads() -> int:
    """Threads for a real model in a test: every core when the machine is otherwise idle (CI); one when other
    work keeps a core busy (assistant.machine)."""
    return threads_for_load(0.3)


@pytest.fixture(autouse=True)
def _settings_follow_the_environment():
    """A test that changes TREATY_* (monkeypatch, settings_env) leaves no cached Settings behind for the next
    test in the same worker (a session fixture built later would take them)."""
    yield
    load_settings.cache_clear()


@pytest.fixture(scope="session")
def real_assistant():
    import torch

    from assistant.pipeline import Assistant

    load_settings.cache_clear()       # the environment's settings now, not a test's leftover
    settings = load_settings()
    assert (settings.index_dir / CHUNKS_FILE).is_file(), \
        f"índice em falta em {settings.index_dir}: corra `python -m ingest` (o `make test` constrói-o)"
    torch.set_num_threads(cpu_threads())
    return Assistant.from_settings(settings, llm="none", dense=True)


def leftover_servers(mark: str = SESSION_MARK) -> list[int]:
    """Pids of model servers started under this test session that are still running."""
    pids = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == os.getpid():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes().split(b"\0")
            environ = (proc / "environ").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"assistant.llm_server" in cmdline and b"serve" in cmdline \
                and f"TREATY_TEST_SESSION={mark}".encode() in environ:
            pids.append(int(proc.name))
    return pids


def pytest_sessionfinish(session, exitstatus):
    from assistant.llm_server import stop_owned

    stop_owned()
    if hasattr(session.config, "workerinput"):
        return      # a pytest-xdist worker: the other worker's servers may still be in use; the controller checks
    deadline = time.monotonic() + 5  # a server whose owner just exited notices within a second
    while (orphans := leftover_servers()) and time.monotonic() < deadline:
        time.sleep(0.5)
    if orphans:
        for pid in orphans:
            os.kill(pid, signal.SIGTERM)
        session.config.pluginmanager.get_plugin("terminalreporter").write_line(
            f"ERRO: servidores do modelo sobreviveram aos testes: {orphans}", red=True)
        session.exitstatus = 1


HEAVY_FIXTURES = {"real_assistant", "app_env", "running_app", "app_with_model"}  # each loads real models


def pytest_collection_modifyitems(items) -> None:
    """`slow` on every test that loads a real model through a shared fixture, so `-m "not slow"` is quick; and
    an order in which the two workers finish together: xdist's worksteal gives each worker one half of the list
    and lets an idle one take from the other's end, so each half starts with half of the slow tests and ends
    with quick ones (run last, the model-server tests kept one worker busy for minutes after the other)."""
    for item in items:
        if HEAVY_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)
    slow = [item for item in items if item.get_closest_marker("slow") is not None]
    quick = [item for item in items if item.get_closest_marker("slow") is None]
    items[:] = slow[0::2] + quick[0::2] + slow[1::2] + quick[1::2]
