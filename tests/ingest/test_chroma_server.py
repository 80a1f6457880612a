"""The same ingest code against a Chroma server (`chroma run`) on a free loopback port."""
from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from config import load_settings
from ingest.index import build_chunks, sync
from ingest.store import chroma_client, chunk_collection
from tests.fakes import HashEmbedder


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ChromaServer:
    """A real `chroma run` on a free loopback port that a test can stop and start again (same data)."""

    def __init__(self, path: Path):
        self.path = path
        self.port = _free_port()
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        exe = shutil.which("chroma") or str(Path(sys.executable).with_name("chroma"))
        self.proc = subprocess.Popen([exe, "run", "--path", str(self.path), "--host", "127.0.0.1",
                                      "--port", str(self.port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.3)
        self.stop()
        pytest.fail("o servidor Chroma não arrancou em 60 s")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(timeout=20)
            self.proc = None


@pytest.fixture
def server(tmp_path):
    srv = ChromaServer(tmp_path / "server")
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture
def chroma_server(server):
    return server.port


def test_ingest_and_query_through_a_chroma_server(chroma_server, small_corpus):
    settings = load_settings().replace(chroma_mode="http", chroma_host="127.0.0.1", chroma_port=chroma_server)
    collection = chunk_collection(chroma_client(settings), "server_chunks")
    embedder = HashEmbedder()
    chunks = build_chunks(small_corpus)
    report = sync(collection, chunks, lambda: embedder, "fake", progress=False)
    assert report.embedded == len(chunks) == collection.count()
    found = collection.query(query_embeddings=[embedder.embed_query(
        "juros devidos a agências de bancos portugueses situadas em terceiros Estados")], n_results=1)
    assert found["ids"][0][0] == "br-portaria-pt-br:III:0"
    again = sync(collection, build_chunks(small_corpus), lambda: embedder, "fake", progress=False)
    assert again.embedded == 0


def test_server_down_answers_from_bm25_and_recovers(server, monkeypatch):
    """The assistant keeps answering (rules + BM25, with a notice) while the server is down, and uses
    dense search again once it is back; ingest says so in one line meanwhile."""
    import config
    from assistant.pipeline import Assistant
    from assistant.retrieve import DenseIndex, HybridSearch, open_dense
    from ingest.__main__ import main as ingest_main
    from ingest.catalog import load_catalog
    from ingest.corpus import DEFAULT_CORPUS_DIR

    settings = load_settings().replace(chroma_mode="http", chroma_host="127.0.0.1", chroma_port=server.port,
                                       collection="treaty_chunks")
    chunks = build_chunks(DEFAULT_CORPUS_DIR)
    sync(chunk_collection(chroma_client(settings), settings.collection), chunks, HashEmbedder, "fake", progress=False)
    monkeypatch.setattr(DenseIndex, "RETRY_S", 0.0)
    assistant = Assistant(settings, load_catalog(DEFAULT_CORPUS_DIR),
                          HybridSearch(chunks, open_dense(settings, HashEmbedder(), chunks)))
    question = "Sou residente em Portugal e recebo juros de um banco brasileiro. Qual a taxa?"

    def dense_notices(answer):
        return [n for n in answer.notices if "indisponível" in n]

    before = assistant.ask(question)
    assert before.rates and not dense_notices(before)
    assert any(h.dense_rank for h in assistant.search.search(question, 5, None, "hybrid"))

    server.stop()
    down = assistant.ask(question)
    assert 15.0 in [r.value for r in down.rates] and down.citations
    assert dense_notices(down) and f"127.0.0.1:{server.port}" in down.answer
    monkeypatch.setenv("TREATY_CHROMA_MODE", "http")
    monkeypatch.setenv("TREATY_CHROMA_PORT", str(server.port))
    config.load_settings.cache_clear()
    try:
        assert ingest_main(["--quiet"]) == 2
    finally:
        config.load_settings.cache_clear()

    server.start()
    back = assistant.ask(question)
    assert back.rates and not dense_notices(back)
    assert any(h.dense_rank for h in assistant.search.search(question, 5, None, "hybrid"))
