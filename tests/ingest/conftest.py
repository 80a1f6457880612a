from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

import config
from ingest.corpus import DEFAULT_CORPUS_DIR
from ingest.index import build_chunks, sync, write_chunks_file
from ingest.model_fingerprint import model_fingerprint
from ingest.store import chroma_client, chunk_collection
from tests.fakes import HashEmbedder

SMALL_DOCS = ("pt-jp-2011-summary", "br-portaria-pt-br")


@pytest.fixture
def small_corpus(tmp_path) -> Path:
    """Two real documents of the corpus with their catalog entries, in a scratch folder."""
    catalog = yaml.safe_load((DEFAULT_CORPUS_DIR / "catalog.yaml").read_text(encoding="utf-8"))
    entries = [d for d in catalog["documents"] if d["id"] in SMALL_DOCS]
    folder = tmp_path / "corpus"
    folder.mkdir()
    for entry in entries:
        shutil.copy(DEFAULT_CORPUS_DIR / entry["file"], folder / entry["file"])
    (folder / "catalog.yaml").write_text(yaml.safe_dump({"documents": entries}, allow_unicode=True),
                                         encoding="utf-8")
    return folder


def model_folder(where) -> str:
    """A stand-in model folder (never loaded: these tests only check what would be embedded)."""
    where.mkdir(parents=True)
    (where / "config.json").write_text('{"model_type": "stand-in"}')
    (where / "model.safetensors").write_bytes(b"weights" * 100)
    return str(where)


@pytest.fixture
def indexed(small_corpus, tmp_path, monkeypatch):
    """An index built from the small corpus (fake embeddings), configured through the environment."""
    monkeypatch.setenv("TREATY_CORPUS_DIR", str(small_corpus))
    monkeypatch.setenv("TREATY_INDEX_DIR", str(tmp_path / "index"))
    monkeypatch.setenv("TREATY_CHROMA_MODE", "embedded")
    monkeypatch.setenv("TREATY_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("TREATY_EMBEDDING_MODEL", model_folder(tmp_path / "cache" / "models" / "emb"))
    config.load_settings.cache_clear()
    settings = config.load_settings()
    chunks = build_chunks(small_corpus)
    collection = chunk_collection(chroma_client(settings), settings.collection)
    ref = model_fingerprint(settings.embedding_model_ref, tmp_path / "memo.json")
    sync(collection, chunks, HashEmbedder, ref, progress=False)
    write_chunks_file(chunks, settings.index_dir)
    yield settings
    config.load_settings.cache_clear()


def snapshot(settings):
    collection = chunk_collection(chroma_client(settings), settings.collection)
    stored = collection.get(include=["documents"])
    return (settings.index_dir / "chunks.jsonl").read_bytes(), sorted(zip(stored["ids"], stored["documents"]))
