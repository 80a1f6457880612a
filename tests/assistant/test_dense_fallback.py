"""Dense search that fails (store down, vectors out of step with chunks.jsonl) degrades to BM25 plus the
rules with a visible notice, and recovers when the store is back. Real embedded Chroma, fake embedder."""
from __future__ import annotations

import json

import pytest

from assistant.__main__ import main
from assistant.pipeline import Assistant
from assistant.retrieve import DenseIndex, DenseUnavailable, HybridSearch, open_dense
from config import load_settings
from ingest.catalog import load_catalog
from ingest.corpus import DEFAULT_CORPUS_DIR
from ingest.index import sync
from ingest.store import StoreUnavailable, chroma_client, chunk_collection
from tests.fakes import HashEmbedder

QUESTION = "Sou residente em Portugal e recebo dividendos de uma empresa brasileira. Qual a taxa?"


@pytest.fixture
def settings(tmp_path):
    return load_settings().replace(index_dir=tmp_path / "index", chroma_mode="embedded", collection="chunks")


@pytest.fixture
def indexed(settings, corpus_chunks):
    sync(chunk_collection(chroma_client(settings), settings.collection), corpus_chunks, HashEmbedder, "fake",
         progress=False)
    return settings


def assistant_over(settings, dense: DenseIndex, corpus_chunks) -> Assistant:
    return Assistant(settings, load_catalog(DEFAULT_CORPUS_DIR), HybridSearch(corpus_chunks, dense))


def test_complete_index_answers_without_notice(indexed, corpus_chunks):
    answer = assistant_over(indexed, open_dense(indexed, HashEmbedder(), corpus_chunks), corpus_chunks).ask(QUESTION)
    assert sorted(r.value for r in answer.rates) == [10.0, 15.0]
    assert not [n for n in answer.notices if "indisponível" in n]
    assert any(c.source == "retrieval" for c in answer.citations)


@pytest.mark.parametrize("damage", ["missing_collection", "missing_vectors"])
def test_incomplete_index_answers_from_bm25_and_says_so(indexed, corpus_chunks, damage):
    client = chroma_client(indexed)
    if damage == "missing_collection":
        client.delete_collection(indexed.collection)
    else:
        chunk_collection(client, indexed.collection).delete(ids=[c.id for c in corpus_chunks[:100]])
    dense = open_dense(indexed, HashEmbedder(), corpus_chunks)
    assert dense.problem and dense.problem.startswith("índice incompleto — corra `make index`")
    answer = assistant_over(indexed, dense, corpus_chunks).ask(QUESTION)
    assert sorted(r.value for r in answer.rates) == [10.0, 15.0]  # the rules still answer
    assert any("índice incompleto — corra `make index`" in n for n in answer.notices)
    assert "índice incompleto" in answer.answer
    if damage == "missing_collection":  # opening must not create an empty collection that hides the fault
        assert indexed.collection not in [c.name for c in client.list_collections()]


def test_store_down_then_back(indexed, corpus_chunks, monkeypatch):
    real = open_dense(indexed, HashEmbedder(), corpus_chunks)
    up = {"now": False}

    def connect():
        if not up["now"]:
            raise StoreUnavailable("servidor Chroma indisponível em 127.0.0.1:1 (ConnectError)")
        return real._connect()

    monkeypatch.setattr(DenseIndex, "RETRY_S", 0.0)
    dense = DenseIndex(connect, {c.id: c for c in corpus_chunks})
    assistant = assistant_over(indexed, dense, corpus_chunks)
    down = assistant.ask(QUESTION)
    assert down.rates and any("servidor Chroma indisponível" in n for n in down.notices)
    with pytest.raises(DenseUnavailable):
        assistant.search.search("dividendos", 3, None, "dense")
    up["now"] = True
    back = assistant.ask(QUESTION)
    assert not [n for n in back.notices if "indisponível" in n] and dense.problem is None


def test_cli_with_store_down(indexed, corpus_chunks, capsys):
    def connect():
        raise StoreUnavailable("servidor Chroma indisponível em 127.0.0.1:1 (ConnectError)")

    assistant = assistant_over(indexed, DenseIndex(connect, {c.id: c for c in corpus_chunks}), corpus_chunks)
    assert main(["retrieve", "dividendos Brasil", "--retriever", "dense", "--json"], assistant) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "servidor Chroma indisponível" in err and "Traceback" not in err
    assert main(["ask", QUESTION, "--json"], assistant) == 0
    captured = capsys.readouterr()
    assert captured.err.startswith("aviso: servidor Chroma indisponível") and captured.err.count("\n") == 1
    answer = json.loads(captured.out)
    assert answer["rates"] and any("servidor Chroma indisponível" in n for n in answer["notices"])
