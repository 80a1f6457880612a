"""`python -m ingest` on bad input: a clear error naming the file, exit 2, the index untouched."""
from __future__ import annotations

import pytest
import yaml

import config
from ingest.__main__ import main
from ingest.index import build_chunks, sync, write_chunks_file
from ingest.store import chroma_client, chunk_collection
from tests.fakes import HashEmbedder


@pytest.fixture
def indexed(small_corpus, tmp_path, monkeypatch):
    """An index built from the small corpus (fake embeddings), configured through the environment."""
    monkeypatch.setenv("TREATY_CORPUS_DIR", str(small_corpus))
    monkeypatch.setenv("TREATY_INDEX_DIR", str(tmp_path / "index"))
    monkeypatch.setenv("TREATY_CHROMA_MODE", "embedded")
    config.load_settings.cache_clear()
    settings = config.load_settings()
    chunks = build_chunks(small_corpus)
    collection = chunk_collection(chroma_client(settings), settings.collection)
    sync(collection, chunks, HashEmbedder, settings.embedding_model_ref, progress=False)
    write_chunks_file(chunks, settings.index_dir)
    yield settings
    config.load_settings.cache_clear()


def _snapshot(settings):
    collection = chunk_collection(chroma_client(settings), settings.collection)
    stored = collection.get(include=["documents"])
    return (settings.index_dir / "chunks.jsonl").read_bytes(), sorted(zip(stored["ids"], stored["documents"]))


def _break(small_corpus, how: str) -> str:
    target = next(small_corpus.glob("004_*.txt"))
    if how == "empty":
        target.write_bytes(b"")
    elif how == "binary":
        target.write_bytes(b"\x00\x01\x02PK\x03\x04" * 50)
    elif how == "latin1":
        target.write_bytes("I - Os dividendos pagos não excederão 15%".encode("latin-1"))
    elif how == "no_articles":
        target.write_text("Texto sem qualquer estrutura de artigos ou itens.\n", encoding="utf-8")
    elif how == "missing_file":
        catalog = small_corpus / "catalog.yaml"
        data = yaml.safe_load(catalog.read_text(encoding="utf-8"))
        data["documents"][0]["file"] = "nao_existe.txt"
        catalog.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
        return "nao_existe.txt"
    return target.name


@pytest.mark.parametrize("how", ["empty", "binary", "latin1", "no_articles", "missing_file"])
def test_bad_corpus_file_fails_clearly_and_changes_nothing(how, indexed, small_corpus, capsys):
    before = _snapshot(indexed)
    name = _break(small_corpus, how)
    assert main(["--quiet"]) == 2
    err = capsys.readouterr().err
    assert name in err and "não foi alterado" in err
    assert _snapshot(indexed) == before


def test_no_change_ingest_needs_no_model(indexed, capsys, monkeypatch):
    import ingest.__main__ as cli
    monkeypatch.setattr(cli, "load_embeddings", lambda settings: pytest.fail("model loaded for nothing"))
    assert main(["--quiet", "--stats"]) == 0
    out = capsys.readouterr().out
    assert "0 embebidos" in out and "0 removidos" in out
