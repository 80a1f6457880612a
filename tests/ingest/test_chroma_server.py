"""The same ingest code against a Chroma server (`chroma run`) on a free loopback port."""
from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ingest.index import build_chunks, sync
from ingest.store import chroma_client, chunk_collection
from config import load_settings
from tests.fakes import HashEmbedder


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def chroma_server(tmp_path):
    port = _free_port()
    exe = shutil.which("chroma") or str(Path(sys.executable).with_name("chroma"))
    proc = subprocess.Popen([exe, "run", "--path", str(tmp_path / "server"), "--host", "127.0.0.1",
                             "--port", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                break
        time.sleep(0.3)
    else:
        proc.kill()
        pytest.fail("o servidor Chroma não arrancou em 60 s")
    yield port
    proc.terminate()
    proc.wait(timeout=20)


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
