"""A real Streamlit app on a free loopback port, for the browser tests: started, waited for, stopped."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from tests.app.conftest import APP, REPO

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
STARTUP_S = 90


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_healthy(url: str, proc: subprocess.Popen, log: Path) -> None:
    deadline = time.time() + STARTUP_S
    while time.time() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"a app terminou ao arrancar:\n{log.read_text(errors='replace')[-3000:]}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.5)
    raise AssertionError(f"a app não respondeu em {STARTUP_S} s:\n{log.read_text(errors='replace')[-3000:]}")


@contextmanager
def live_app(env: dict[str, str], log: Path, serve: bool = False) -> Iterator[str]:
    """Yields the app's base URL; `env` overrides the process environment (TREATY_* settings). `serve`: started
    as `make run` starts it (app_support.serve: the models load from the process start), else `streamlit run`."""
    port = _free_port()
    full_env = {**os.environ, **env, "TREATY_APP_PORT": str(port)}
    launcher = ["app_support.serve"] if serve else ["streamlit", "run", str(APP)]
    with log.open("w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", *launcher, "--server.headless", "true",
             "--server.port", str(port), "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false",
             "--server.fileWatcherType", "none"],
            cwd=REPO, env=full_env, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(url, proc, log)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
