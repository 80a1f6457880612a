"""Fault injection: `python -m ingest --rebuild` killed in the middle of embedding, then a question.
The answer must be complete or carry a clear message, never silently built on a partial index."""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest

import config
from assistant.__main__ import main as ask_main
from assistant.pipeline import Assistant
from assistant.retrieve import HybridSearch, open_dense
from config import REPO_ROOT
from ingest.__main__ import main as ingest_main
from ingest.catalog import load_catalog
from ingest.index import check_index, read_chunks_file, staging_name
from ingest.store import chroma_client, existing_collection

QUESTION = "Sou residente em Portugal e recebo juros de um banco brasileiro. Qual a taxa?"


def _kill_when_partly_embedded(proc: subprocess.Popen, timeout: float = 600) -> str:
    """Read the progress bar until some but not all chunks are embedded, then SIGKILL."""
    seen = ""
    deadline = time.monotonic() + timeout
    os.set_blocking(proc.stderr.fileno(), False)
    while time.monotonic() < deadline and proc.poll() is None:
        data = proc.stderr.read()
        if data:
            seen += data.decode("utf-8", "replace")
            progress = re.findall(r"embeddings:\s+\d+%\|[^|]*\|\s*(\d+)/(\d+)", seen)
            if any(0 < int(done) < int(total) for done, total in progress):
                proc.send_signal(signal.SIGKILL)
                proc.wait(timeout=30)
                return seen
        time.sleep(0.2)
    proc.kill()
    pytest.fail(f"o ingest não chegou a meio do embedding: {seen[-500:]}")


@pytest.mark.slow
def test_killed_rebuild_then_ask(tmp_path, monkeypatch, capsys, real_assistant):
    for key, value in {"TREATY_INDEX_DIR": str(tmp_path / "index"), "TREATY_CHROMA_MODE": "embedded",
                       "TREATY_LLM_BACKEND": "none"}.items():
        monkeypatch.setenv(key, value)
    config.load_settings.cache_clear()
    try:
        assert ingest_main(["--quiet"]) == 0  # a complete index, from the embedding cache
        proc = subprocess.Popen([sys.executable, "-m", "ingest", "--rebuild", "--no-cache"], cwd=REPO_ROOT,
                                env={**os.environ, "HF_HUB_OFFLINE": "1"},
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _kill_when_partly_embedded(proc)
        settings = config.load_settings()
        client = chroma_client(settings)
        assert existing_collection(client, staging_name(settings.collection)).count() > 0  # killed mid-way
        chunks = read_chunks_file(settings.index_dir)
        check_index(existing_collection(client, settings.collection), chunks)
        # the question goes through the CLI, over the killed index (the real embedder, already loaded)
        dense = open_dense(settings, real_assistant.search.dense.embeddings, chunks)
        assistant = Assistant(settings, load_catalog(settings.corpus_dir), HybridSearch(chunks, dense))
        assert ask_main(["ask", QUESTION, "--json"], assistant) == 0
    finally:
        config.load_settings.cache_clear()
    captured = capsys.readouterr()
    answer = json.loads(captured.out.splitlines()[-1])
    assert 15 in [r["value"] for r in answer["rates"]]
    assert not [n for n in answer["notices"] if "indisponível" in n or "incompleto" in n]  # the whole old index
    assert any(c["source"] == "retrieval" and c["chunk_id"] for c in answer["citations"])
    assert not captured.err
