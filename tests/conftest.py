"""Suite-wide check: no local model server started during the tests outlives them.

Every process the tests start inherits TREATY_TEST_SESSION; at the end, any `assistant.llm_server`
process still carrying this session's mark is an orphan, reported and ended, and the run fails."""
from __future__ import annotations

import os
import signal
import time
import uuid
from pathlib import Path

SESSION_MARK = os.environ.setdefault("TREATY_TEST_SESSION", uuid.uuid4().hex)


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
    deadline = time.monotonic() + 5  # a server whose owner just exited notices within a second
    while (orphans := leftover_servers()) and time.monotonic() < deadline:
        time.sleep(0.5)
    if orphans:
        for pid in orphans:
            os.kill(pid, signal.SIGTERM)
        session.config.pluginmanager.get_plugin("terminalreporter").write_line(
            f"ERRO: servidores do modelo sobreviveram aos testes: {orphans}", red=True)
        session.exitstatus = 1
