"""Sync the chunk collection with the corpus: embed only what changed, delete what is gone.

The whole corpus is parsed and validated before the first write, so a bad file leaves the
existing index exactly as it was. Chunk ids are deterministic and writes are upserts. A rebuild
fills a staging collection and swaps it in only when complete; a reader checks the collection
against chunks.jsonl, so an interrupted ingest is reported, never answered from silently.
"""
from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable

from langchain_core.embeddings import Embeddings
from tqdm import tqdm

from ingest.chunks import Chunk, chunk_document
from ingest.corpus import parse_catalogued
from ingest.embedding_cache import EmbeddingCache
from ingest.store import chunk_collection, drop_collection, existing_collection

CHUNKS_FILE = "chunks.jsonl"
BATCH = 32
STAGING_SUFFIX = "-rebuild"


@dataclass(frozen=True)
class SyncReport:
    total: int
    embedded: int            # computed by the model now
    reused: int              # taken from the embedding cache
    deleted: int
    unchanged: int
    seconds: float


def build_chunks(corpus_dir: Path) -> list[Chunk]:
    chunks: list[Chunk] = []
    for info, doc in parse_catalogued(corpus_dir):
        chunks.extend(chunk_document(info, doc))
    return chunks


def write_chunks_file(chunks: list[Chunk], index_dir: Path) -> None:
    """The chunk list beside the vector store (BM25 and citations read it), swapped in atomically."""
    index_dir.mkdir(parents=True, exist_ok=True)
    tmp = index_dir / (CHUNKS_FILE + ".tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        for chunk in chunks:
            fh.write(json.dumps(asdict(chunk), ensure_ascii=False) + "\n")
    os.replace(tmp, index_dir / CHUNKS_FILE)


class IndexMissing(Exception):
    pass


class IndexIncomplete(Exception):
    """The vectors do not match chunks.jsonl (an interrupted ingest); the message says what to run."""


def read_chunks_file(index_dir: Path) -> list[Chunk]:
    path = index_dir / CHUNKS_FILE
    if not path.is_file():
        raise IndexMissing(f"índice não encontrado em {index_dir}: corra `make index` (ou python -m ingest)")
    with path.open(encoding="utf-8") as fh:
        return [Chunk(**json.loads(line)) for line in fh if line.strip()]


def sync(collection, chunks: list[Chunk], embedder_factory: Callable[[], Embeddings], model_ref: str,
         progress: bool = True, cache: EmbeddingCache | None = None) -> SyncReport:
    started = time.perf_counter()
    wanted = {c.id: c for c in chunks}
    hashes = {c.id: c.content_hash(model_ref) for c in chunks}
    existing = collection.get(include=["metadatas"])
    stored = {i: m or {} for i, m in zip(existing["ids"], existing["metadatas"])}
    # sorted by length so each batch pads little: on 2 CPU cores padding is most of the waste
    to_embed = sorted((c for c in chunks if stored.get(c.id, {}).get("hash") != hashes[c.id]),
                      key=lambda c: len(c.embed_text))
    # vectors indexed before text hashes were recorded: the vector is right, only the stamp is missing
    unstamped = [c for c in chunks if c.id in stored and stored[c.id].get("hash") == hashes[c.id]
                 and stored[c.id].get("text_hash") != c.text_hash]
    for i in range(0, len(unstamped), BATCH):
        batch = unstamped[i:i + BATCH]
        collection.update(ids=[c.id for c in batch], metadatas=[_metadata(c, hashes) for c in batch])
    to_delete = [i for i in stored if i not in wanted]
    cached = cache.get_many([hashes[c.id] for c in to_embed]) if cache and to_embed else {}
    reused = [c for c in to_embed if hashes[c.id] in cached]
    for i in range(0, len(reused), BATCH):
        batch = reused[i:i + BATCH]
        _upsert(collection, batch, [cached[hashes[c.id]] for c in batch], hashes)
    fresh = [c for c in to_embed if hashes[c.id] not in cached]
    if fresh:
        embedder = embedder_factory()  # loaded only when something needs embedding
        bar = tqdm(total=len(fresh), desc="embeddings", unit="chunk", disable=not progress)
        for i in range(0, len(fresh), BATCH):
            batch = fresh[i:i + BATCH]
            vectors = embedder.embed_documents([c.embed_text for c in batch])
            _upsert(collection, batch, vectors, hashes)
            if cache:
                cache.put_many({hashes[c.id]: v for c, v in zip(batch, vectors)})
            bar.update(len(batch))
        bar.close()
    if to_delete:
        collection.delete(ids=to_delete)
    return SyncReport(total=len(chunks), embedded=len(fresh), reused=len(reused), deleted=len(to_delete),
                      unchanged=len(chunks) - len(to_embed), seconds=time.perf_counter() - started)


def _metadata(chunk: Chunk, hashes: dict[str, str]) -> dict[str, str | int]:
    return {**chunk.metadata(), "hash": hashes[chunk.id], "text_hash": chunk.text_hash}


def _upsert(collection, batch: list[Chunk], vectors: list[list[float]], hashes: dict[str, str]) -> None:
    collection.upsert(ids=[c.id for c in batch], embeddings=vectors, documents=[c.text for c in batch],
                      metadatas=[_metadata(c, hashes) for c in batch])


def staging_name(name: str) -> str:
    return name + STAGING_SUFFIX


def check_index(collection, chunks: list[Chunk]) -> None:
    """Raise IndexIncomplete unless every vector of the collection was computed from the text of
    chunks.jsonl, chunk for chunk: ids alone miss a plain ingest killed half-way through a corpus edit."""
    if collection is None:
        raise IndexIncomplete("índice incompleto — corra `make index` (a coleção de vetores não existe)")
    got = collection.get(include=["metadatas"])
    stored = {i: (m or {}).get("text_hash") for i, m in zip(got["ids"], got["metadatas"])}
    wanted = {c.id: c.text_hash for c in chunks}
    current = sum(1 for i, h in wanted.items() if stored.get(i) == h)
    if current != len(wanted) or len(stored) != len(wanted):
        extra = len(set(stored) - set(wanted))
        raise IndexIncomplete(f"índice incompleto — corra `make index` ({current} de {len(wanted)} passagens com "
                              f"vetor do texto atual, {extra} vetores a mais)")


def rebuild(client, name: str, chunks: list[Chunk], embedder_factory: Callable[[], Embeddings], model_ref: str,
            progress: bool = True, cache: EmbeddingCache | None = None) -> SyncReport:
    """Everything embedded again into a staging collection, swapped in under `name` only when complete:
    a kill at any point leaves the old collection, the new one, or (between the drop and the rename) only
    the complete staging one, which readers report and the next ingest promotes (see resume_swap)."""
    staging = staging_name(name)
    drop_collection(client, staging)
    collection = chunk_collection(client, staging)
    report = sync(collection, chunks, embedder_factory, model_ref, progress=progress, cache=cache)
    check_index(collection, chunks)
    drop_collection(client, name)
    collection.modify(name=name)
    return report


def resume_swap(client, name: str) -> None:
    """Before a plain ingest: a staging collection left by an interrupted rebuild is dropped, unless the
    rebuild was killed between dropping the old collection and renaming the new one: then it is the index."""
    staging = existing_collection(client, staging_name(name))
    if staging is None:
        return
    if existing_collection(client, name) is None:
        staging.modify(name=name)
    else:
        drop_collection(client, staging_name(name))
