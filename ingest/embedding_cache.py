"""Vectors already computed, kept outside the repo by content hash, so a fresh checkout (or CI)
rebuilds its index without re-embedding unchanged text. Keyed by Chunk.content_hash, which
includes the model reference: another model never reuses these vectors. Fixed texts embedded as
queries (the topic classifier's example bank) are kept the same way, under query_key()."""
from __future__ import annotations

import hashlib
import sqlite3
from array import array
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

from langchain_core.embeddings import Embeddings

from ingest.model_fingerprint import model_fingerprint

if TYPE_CHECKING:
    from config import Settings


class EmbeddingCache:
    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(path)
        self._db.execute("CREATE TABLE IF NOT EXISTS vectors (hash TEXT PRIMARY KEY, vector BLOB NOT NULL)")

    def get_many(self, hashes: list[str]) -> dict[str, list[float]]:
        found: dict[str, list[float]] = {}
        for i in range(0, len(hashes), 500):
            batch = hashes[i:i + 500]
            rows = self._db.execute(f"SELECT hash, vector FROM vectors WHERE hash IN ({','.join('?' * len(batch))})",
                                    batch)
            for key, blob in rows:
                found[key] = array("f", blob).tolist()
        return found

    def put_many(self, items: dict[str, list[float]]) -> None:
        with self._db:
            self._db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?)",
                                 [(k, array("f", v).tobytes()) for k, v in items.items()])

    def close(self) -> None:
        self._db.close()


def query_key(model_ref: str, text: str) -> str:
    """The cache key of `text` embedded as a query by the model `model_ref` (the content fingerprint of
    the model that computes it, never of a configured one it may differ from)."""
    return hashlib.sha256(f"query-vector\0{model_ref}\0{text}".encode()).hexdigest()


def cached_queries(embed_many: Callable[[list[str]], list[list[float]]], cache: EmbeddingCache,
                   model_ref: str) -> Callable[[Sequence[str]], list[list[float]]]:
    """embed(texts) that takes each query vector from the cache, computing (in one batch) and keeping only the
    missing. Vectors of another length than the fresh ones are not trusted: all are computed again."""
    def embed(texts: Sequence[str]) -> list[list[float]]:
        keys = [query_key(model_ref, t) for t in texts]
        found = cache.get_many(keys)
        if len({len(v) for v in found.values()}) > 1:
            found = {}
        todo = {k: t for k, t in zip(keys, texts) if k not in found}
        missing = dict(zip(todo, embed_many(list(todo.values())))) if todo else {}
        if found and missing and len(next(iter(missing.values()))) != len(next(iter(found.values()))):
            found = {}
            todo = dict(zip(keys, texts))
            missing = dict(zip(todo, embed_many(list(todo.values()))))
        if missing:
            cache.put_many(missing)
        return [found.get(k) or missing[k] for k in keys]
    return embed


def batch_queries(embeddings: Any) -> Callable[[list[str]], list[list[float]]]:
    """Many texts embedded as queries in one call, ~5x faster than one by one on 2 cores. LangChain's
    HuggingFaceEmbeddings has no public batch method for queries: its batch encoder (`_embed`, in the pinned
    langchain-huggingface) runs with the query prompt. Any other embedder embeds one text at a time."""
    encode = getattr(embeddings, "_embed", None)
    kwargs = getattr(embeddings, "query_encode_kwargs", None)
    if callable(encode) and kwargs:
        return lambda texts: encode(list(texts), {**kwargs, "batch_size": 32})
    return lambda texts: [embeddings.embed_query(t) for t in texts]


def _model_name(embeddings: Any) -> str | None:
    """The folder or hub id a real embedder was loaded from; None for any other embedder (a test's fake)."""
    name = getattr(embeddings, "model_name", None)
    return name if isinstance(name, str) and name else None


def query_embedder(embeddings: Any, settings: Settings) -> Callable[[Sequence[str]], list[list[float]]]:
    """embed(texts) embedding fixed texts as queries (the readers' training questions, the example bank, the
    eval's questions), kept in the embedding cache. Cached only for a model named by its folder or hub id, keyed
    by that model's own fingerprint; any other embedder (a test's fake), or a cache that cannot be opened,
    embeds them directly."""
    many = batch_queries(embeddings)

    def direct(texts: Sequence[str]) -> list[list[float]]:
        return many(list(texts)) if texts else []

    model_name = _model_name(embeddings)
    if model_name is None:
        return direct

    def embed(texts: Sequence[str]) -> list[list[float]]:
        try:
            cache = EmbeddingCache(settings.embedding_cache_file)
            model_ref = model_fingerprint(model_name, settings.model_fingerprints_file)
        except (OSError, sqlite3.Error):
            return direct(texts)
        try:
            return cached_queries(many, cache, model_ref)(texts)
        except sqlite3.Error:
            return direct(texts)
        finally:
            cache.close()
    return embed


@dataclass(frozen=True)
class QueryVectors:
    """Query vectors of one named model: `embed(texts)` for fixed texts (training questions), kept in the cache;
    `embed_live(texts)` for what users ask, never written to disk; `ref`, the model's fingerprint (what a reader
    trained on these vectors is keyed by)."""
    embed: Callable[[Sequence[str]], list[list[float]]]
    embed_live: Callable[[list[str]], list[list[float]]]
    ref: str


def named_query_vectors(embeddings: Any, settings: Settings,
                        live: Callable[[list[str]], list[list[float]]] | None = None) -> QueryVectors | None:
    """QueryVectors for a model named by its folder or hub id (`live`: how what users ask is embedded, e.g.
    through the dense index's memory, which retrieval reads too); None for any other embedder (a test's fake),
    whose vectors would teach a reader nothing it could use with the real model."""
    model_name = _model_name(embeddings)
    if model_name is None:
        return None
    try:
        ref = model_fingerprint(model_name, settings.model_fingerprints_file)
    except OSError:
        return None
    return QueryVectors(query_embedder(embeddings, settings), live or batch_queries(embeddings), ref)


class CachedQueryEmbeddings(Embeddings):
    """A real embedder whose query vectors are read from / written to the embedding cache (query_embedder):
    a second run over the same questions (the eval, the ticket bank) embeds nothing again."""

    def __init__(self, embeddings: Embeddings, settings: Settings):
        self._embeddings = embeddings
        self._embed = query_embedder(embeddings, settings)

    def embed_query(self, text: str) -> list[float]:
        return self._embed([text])[0]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self._embeddings.embed_documents(texts)
