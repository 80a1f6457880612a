"""Idempotent sync into a real Chroma store (embedded), with a counting fake embedder."""
from __future__ import annotations

import pytest

from config import load_settings
from ingest.index import build_chunks, read_chunks_file, sync, write_chunks_file
from ingest.store import chroma_client, chunk_collection
from tests.fakes import HashEmbedder


@pytest.fixture
def store(tmp_path):
    settings = load_settings().replace(index_dir=tmp_path / "index", chroma_mode="embedded")
    return chunk_collection(chroma_client(settings), "test_chunks")


def test_second_sync_embeds_nothing(small_corpus, store):
    embedder = HashEmbedder()
    chunks = build_chunks(small_corpus)
    first = sync(store, chunks, lambda: embedder, "fake", progress=False)
    assert first.embedded == len(chunks) == store.count()
    second = sync(store, build_chunks(small_corpus), lambda: pytest.fail("no model load expected"), "fake",
                  progress=False)
    assert (second.embedded, second.deleted, second.unchanged) == (0, 0, len(chunks))
    assert store.count() == len(chunks)


def test_changed_file_reembeds_only_changed_chunks(small_corpus, store):
    embedder = HashEmbedder()
    sync(store, build_chunks(small_corpus), lambda: embedder, "fake", progress=False)
    portaria = next(small_corpus.glob("004_*.txt"))
    text = portaria.read_text(encoding="utf-8")
    changed = text.replace("XII - O Secretário da Receita Federal poderá baixar",
                           "XII - O Secretário da Receita Federal deverá baixar")
    assert changed != text
    portaria.write_text(changed, encoding="utf-8")
    embedder.embedded = 0
    report = sync(store, build_chunks(small_corpus), lambda: embedder, "fake", progress=False)
    assert report.embedded == embedder.embedded == 1
    stored = store.get(ids=["br-portaria-pt-br:XII:0"], include=["documents"])
    assert "deverá baixar" in stored["documents"][0]


def test_removed_text_and_removed_file_delete_their_chunks(small_corpus, store):
    embedder = HashEmbedder()
    sync(store, build_chunks(small_corpus), lambda: embedder, "fake", progress=False)
    portaria = next(small_corpus.glob("004_*.txt"))
    text = portaria.read_text(encoding="utf-8")
    cut = text[: text.index("XII - ")] + "PEDRO SAMPAIO MALAN\n"
    portaria.write_text(cut, encoding="utf-8")
    _declare(small_corpus / "catalog.yaml", "br-portaria-pt-br", articles=11)  # an honest edit says so
    report = sync(store, build_chunks(small_corpus), lambda: embedder, "fake", progress=False)
    assert report.deleted == 1 and not store.get(ids=["br-portaria-pt-br:XII:0"])["ids"]

    catalog = small_corpus / "catalog.yaml"
    catalog.write_text(_drop_entry(catalog.read_text(encoding="utf-8"), "br-portaria-pt-br"), encoding="utf-8")
    sync(store, build_chunks(small_corpus), lambda: embedder, "fake", progress=False)
    remaining = store.get(include=["metadatas"])
    assert remaining["ids"] and all(m["doc"] == "pt-jp-2011-summary" for m in remaining["metadatas"])


def _declare(catalog, doc_id: str, **fields) -> None:
    import yaml
    data = yaml.safe_load(catalog.read_text(encoding="utf-8"))
    next(d for d in data["documents"] if d["id"] == doc_id).update(fields)
    catalog.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")


def _drop_entry(catalog_text: str, doc_id: str) -> str:
    import yaml
    data = yaml.safe_load(catalog_text)
    data["documents"] = [d for d in data["documents"] if d["id"] != doc_id]
    return yaml.safe_dump(data, allow_unicode=True)


def test_chunks_file_round_trips(small_corpus, tmp_path):
    chunks = build_chunks(small_corpus)
    write_chunks_file(chunks, tmp_path)
    assert read_chunks_file(tmp_path) == chunks


def test_embedding_cache_lets_a_fresh_index_skip_the_model(small_corpus, tmp_path):
    from ingest.embedding_cache import EmbeddingCache

    cache = EmbeddingCache(tmp_path / "cache" / "vectors.sqlite3")
    embedder = HashEmbedder()
    chunks = build_chunks(small_corpus)
    first_store = chunk_collection(chroma_client(load_settings().replace(index_dir=tmp_path / "a")), "chunks")
    sync(first_store, chunks, lambda: embedder, "fake", progress=False, cache=cache)
    fresh_store = chunk_collection(chroma_client(load_settings().replace(index_dir=tmp_path / "b")), "chunks")
    report = sync(fresh_store, chunks, lambda: pytest.fail("model loaded"), "fake", progress=False, cache=cache)
    assert (report.embedded, report.reused) == (0, len(chunks)) and fresh_store.count() == len(chunks)
    a = first_store.get(ids=[chunks[0].id], include=["embeddings"])["embeddings"][0]
    b = fresh_store.get(ids=[chunks[0].id], include=["embeddings"])["embeddings"][0]
    assert list(map(float, a)) == pytest.approx(list(map(float, b)), abs=1e-6)
    other_model = sync(chunk_collection(chroma_client(load_settings().replace(index_dir=tmp_path / "c")), "chunks"),
                       chunks, lambda: embedder, "another-model", progress=False, cache=cache)
    assert other_model.reused == 0 and other_model.embedded == len(chunks)


class FailingEmbedder(HashEmbedder):
    """Dies after `batches` calls, like a process killed in the middle of embedding."""

    def __init__(self, batches: int):
        super().__init__()
        self.batches = batches

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if self.batches == 0:
            raise KeyboardInterrupt("killed")
        self.batches -= 1
        return super().embed_documents(texts)


def _client(tmp_path):
    return chroma_client(load_settings().replace(index_dir=tmp_path / "index", chroma_mode="embedded"))


def test_interrupted_rebuild_leaves_the_old_collection_whole(small_corpus, tmp_path, monkeypatch):
    from ingest.index import check_index, rebuild, staging_name
    from ingest.store import existing_collection

    monkeypatch.setattr("ingest.index.BATCH", 4)
    chunks = build_chunks(small_corpus)
    client = _client(tmp_path)
    rebuild(client, "chunks", chunks, HashEmbedder, "fake", progress=False)
    check_index(existing_collection(client, "chunks"), chunks)
    with pytest.raises(KeyboardInterrupt):
        rebuild(client, "chunks", chunks, lambda: FailingEmbedder(batches=2), "another-model", progress=False)
    assert 0 < existing_collection(client, staging_name("chunks")).count() < len(chunks)
    old = existing_collection(client, "chunks")
    check_index(old, chunks)  # still complete: nothing was deleted before the new one was whole
    assert {m["hash"] for m in old.get(include=["metadatas"])["metadatas"]} == {c.content_hash("fake") for c in chunks}


def test_rebuild_swaps_in_a_complete_collection_and_prunes_folders(small_corpus, tmp_path):
    from ingest.index import check_index, rebuild, staging_name
    from ingest.store import chroma_path, existing_collection, prune_orphan_segments

    chunks = build_chunks(small_corpus)
    client = _client(tmp_path)
    for model in ("one", "two", "three"):
        rebuild(client, "chunks", chunks, HashEmbedder, model, progress=False)
    current = existing_collection(client, "chunks")
    check_index(current, chunks)
    assert existing_collection(client, staging_name("chunks")) is None
    stored = {m["hash"] for m in current.get(include=["metadatas"])["metadatas"]}
    assert stored == {c.content_hash("three") for c in chunks}
    path = chroma_path(load_settings().replace(index_dir=tmp_path / "index"))
    folders_before = {p.name for p in path.iterdir() if p.is_dir()}
    removed = prune_orphan_segments(path)
    assert removed and set(removed) < folders_before  # two deleted collections left folders behind
    assert current.count() == len(chunks) and current.query(query_embeddings=[HashEmbedder().embed_query("juros")],
                                                             n_results=1)["ids"][0]


def test_partial_or_missing_collection_is_reported_as_incomplete(small_corpus, tmp_path):
    from ingest.index import IndexIncomplete, check_index
    from ingest.store import existing_collection

    chunks = build_chunks(small_corpus)
    client = _client(tmp_path)
    with pytest.raises(IndexIncomplete, match="índice incompleto — corra `make index`"):
        check_index(existing_collection(client, "chunks"), chunks)
    collection = chunk_collection(client, "chunks")
    with pytest.raises(KeyboardInterrupt):
        sync(collection, chunks, lambda: FailingEmbedder(batches=0), "fake", progress=False)
    with pytest.raises(IndexIncomplete, match="0 de"):
        check_index(collection, chunks)
    sync(collection, chunks, HashEmbedder, "fake", progress=False)
    check_index(collection, chunks)
    collection.delete(ids=[chunks[0].id])
    with pytest.raises(IndexIncomplete, match=f"{len(chunks) - 1} de {len(chunks)}"):
        check_index(collection, chunks)


def test_model_fingerprint_follows_content_not_path(tmp_path):
    from ingest.model_fingerprint import model_fingerprint

    memo = tmp_path / "memo.json"
    for name in ("a", "b"):
        folder = tmp_path / name / "model"
        (folder / "sub").mkdir(parents=True)
        (folder / "config.json").write_text("{}")
        (folder / "sub" / "weights.bin").write_bytes(b"\x01\x02" * 1000)
        (folder / ".cache").mkdir()
        (folder / ".cache" / "noise").write_text(name)
    a = model_fingerprint(str(tmp_path / "a" / "model"), memo)
    b = model_fingerprint(str(tmp_path / "b" / "model"), memo)
    assert a == b and a.startswith("sha256:")
    assert model_fingerprint(str(tmp_path / "b" / "model"), tmp_path / "other-home" / "memo.json") == a
    (tmp_path / "b" / "model" / "sub" / "weights.bin").write_bytes(b"\x01\x03" * 1000)
    assert model_fingerprint(str(tmp_path / "b" / "model"), memo) != a
    assert model_fingerprint("google/embeddinggemma-300m", memo) == "google/embeddinggemma-300m"


def test_plain_ingest_killed_after_a_corpus_edit_is_detected_and_finished(small_corpus, tmp_path, monkeypatch):
    """Issue 21: same ids, new text in some vectors and old text in chunks.jsonl — the check compares
    text hashes, so the half-done sync is reported, and the next sync finishes it."""
    from ingest.index import IndexIncomplete, check_index

    monkeypatch.setattr("ingest.index.BATCH", 2)
    old = build_chunks(small_corpus)
    collection = chunk_collection(_client(tmp_path), "chunks")
    sync(collection, old, HashEmbedder, "fake", progress=False)
    check_index(collection, old)
    for path in small_corpus.glob("00*.txt"):
        path.write_text(path.read_text(encoding="utf-8").replace("imposto", "tributo"), encoding="utf-8")
    new = build_chunks(small_corpus)
    changed = [c.id for c, d in zip(old, new) if c.text_hash != d.text_hash]
    assert [c.id for c in old] == [c.id for c in new] and len(changed) > 4
    with pytest.raises(KeyboardInterrupt):
        sync(collection, new, lambda: FailingEmbedder(batches=2), "fake", progress=False)
    with pytest.raises(IndexIncomplete, match=f"{len(old) - 4} de {len(old)} passagens com vetor do texto atual"):
        check_index(collection, old)  # chunks.jsonl still holds the old text
    with pytest.raises(IndexIncomplete, match="índice incompleto"):
        check_index(collection, new)
    report = sync(collection, new, HashEmbedder, "fake", progress=False)
    assert report.embedded == len(changed) - 4
    check_index(collection, new)


def test_vectors_indexed_before_text_hashes_get_them_without_embedding(small_corpus, tmp_path):
    from ingest.index import IndexIncomplete, check_index

    chunks = build_chunks(small_corpus)
    collection = chunk_collection(_client(tmp_path), "chunks")
    sync(collection, chunks, HashEmbedder, "fake", progress=False)
    got = collection.get(include=["metadatas"])
    collection.update(ids=got["ids"], metadatas=[{**m, "text_hash": ""} for m in got["metadatas"]])
    with pytest.raises(IndexIncomplete):
        check_index(collection, chunks)
    report = sync(collection, chunks, lambda: pytest.fail("no embedding needed"), "fake", progress=False)
    assert report.embedded == 0
    check_index(collection, chunks)
