"""`python -m ingest` on bad input: a clear error naming the file, exit 2, the index untouched."""
from __future__ import annotations

import pytest
import yaml

import config
from ingest.__main__ import main
from ingest.store import chroma_client
from tests.fakes import HashEmbedder
from tests.ingest.conftest import model_folder, snapshot


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
    before = snapshot(indexed)
    name = _break(small_corpus, how)
    assert main(["--quiet"]) == 2
    err = capsys.readouterr().err
    assert name in err and "não foi alterado" in err
    assert snapshot(indexed) == before


def test_no_change_ingest_needs_no_model(indexed, capsys, monkeypatch):
    import ingest.__main__ as cli
    monkeypatch.setattr(cli, "load_embeddings", lambda settings: pytest.fail("model loaded for nothing"))
    assert main(["--quiet", "--stats"]) == 0
    out = capsys.readouterr().out
    assert "0 embebidos" in out and "0 removidos" in out


def test_another_cache_dir_or_home_reembeds_nothing(indexed, tmp_path, capsys, monkeypatch):
    """The chunk hash names the model by content: the same model in another folder is the same model."""
    import ingest.__main__ as cli
    monkeypatch.setattr(cli, "load_embeddings", lambda settings: pytest.fail("re-embedding for a moved model"))
    monkeypatch.setenv("TREATY_CACHE_DIR", str(tmp_path / "other-home" / "cache"))
    monkeypatch.setenv("TREATY_EMBEDDING_MODEL", model_folder(tmp_path / "other-home" / "cache" / "models" / "emb"))
    config.load_settings.cache_clear()
    assert main(["--quiet"]) == 0
    assert "0 embebidos" in capsys.readouterr().out


def test_rebuild_keeps_the_index_whole_and_cleans_up(indexed, capsys, monkeypatch):
    import ingest.__main__ as cli
    from ingest.index import check_index, read_chunks_file, staging_name
    from ingest.store import chroma_path, existing_collection

    monkeypatch.setattr(cli, "load_embeddings", lambda settings: HashEmbedder())
    assert main(["--quiet", "--rebuild", "--no-cache"]) == 0
    assert main(["--quiet", "--rebuild", "--no-cache"]) == 0
    client = chroma_client(indexed)
    check_index(existing_collection(client, indexed.collection), read_chunks_file(indexed.index_dir))
    assert existing_collection(client, staging_name(indexed.collection)) is None
    folders = [p for p in chroma_path(indexed).iterdir() if p.is_dir()]
    assert len(folders) == 1  # the live collection's vector segment only: old ones were pruned


def test_chroma_server_down_is_one_line(small_corpus, tmp_path, monkeypatch, capsys):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nothing listens there
    monkeypatch.setenv("TREATY_CORPUS_DIR", str(small_corpus))
    monkeypatch.setenv("TREATY_INDEX_DIR", str(tmp_path / "index"))
    monkeypatch.setenv("TREATY_CHROMA_MODE", "http")
    monkeypatch.setenv("TREATY_CHROMA_PORT", str(port))
    config.load_settings.cache_clear()
    try:
        assert main(["--quiet"]) == 2
    finally:
        config.load_settings.cache_clear()
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "servidor Chroma indisponível" in err and str(port) in err
    assert not (tmp_path / "index" / "chunks.jsonl").exists()
