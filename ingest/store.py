"""The Chroma client: embedded (PersistentClient) or a Chroma server (HttpClient), by configuration."""
from __future__ import annotations

import re
import shutil
import sqlite3
from pathlib import Path

import chromadb
from chromadb.config import Settings as ChromaSettings

from config import Settings

_SEGMENT_DIR = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


class StoreUnavailable(Exception):
    """The vector store cannot be reached; the message is one Portuguese line."""


def unreachable(settings: Settings, exc: BaseException) -> StoreUnavailable:
    if settings.chroma_mode == "http":
        return StoreUnavailable(f"servidor Chroma indisponível em {settings.chroma_host}:{settings.chroma_port} "
                                f"({type(exc).__name__}): arranque-o com `chroma run` ou use "
                                "TREATY_CHROMA_MODE=embedded")
    return StoreUnavailable(f"índice Chroma ilegível em {chroma_path(settings)} ({type(exc).__name__}: {exc}): "
                            "corra `make index`")


def chroma_path(settings: Settings) -> Path:
    return settings.index_dir / "chroma"


def chroma_client(settings: Settings) -> chromadb.ClientAPI:
    chroma_settings = ChromaSettings(anonymized_telemetry=False)
    try:
        if settings.chroma_mode == "http":
            return chromadb.HttpClient(host=settings.chroma_host, port=settings.chroma_port,
                                       settings=chroma_settings)
        path = chroma_path(settings)
        path.mkdir(parents=True, exist_ok=True)
        return chromadb.PersistentClient(path=str(path), settings=chroma_settings)
    except Exception as exc:  # noqa: BLE001 - chromadb raises ValueError, httpx and OS errors alike
        raise unreachable(settings, exc) from exc


def chunk_collection(client: chromadb.ClientAPI, name: str):
    """The collection without Chroma's default embedding function (it downloads a model): vectors
    are always computed by our own embedder and passed explicitly."""
    return client.get_or_create_collection(name=name, embedding_function=None,
                                           metadata={"hnsw:space": "cosine"})


def existing_collection(client: chromadb.ClientAPI, name: str):
    """The collection if it exists (None otherwise), never creating an empty one."""
    if name not in {c.name if hasattr(c, "name") else str(c) for c in client.list_collections()}:
        return None
    return client.get_collection(name=name, embedding_function=None)


def drop_collection(client: chromadb.ClientAPI, name: str) -> None:
    if existing_collection(client, name) is not None:
        client.delete_collection(name)


def prune_orphan_segments(path: Path) -> list[str]:
    """Delete the segment folders an embedded store no longer references (Chroma leaves them behind
    when a collection is deleted). Returns the folder names removed."""
    db = path / "chroma.sqlite3"
    if not db.is_file():
        return []
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        live = {row[0] for row in conn.execute("SELECT id FROM segments")}
    except sqlite3.Error:
        return []  # an unknown schema: leave everything alone
    finally:
        conn.close()
    removed = []
    for folder in path.iterdir():
        if folder.is_dir() and _SEGMENT_DIR.match(folder.name) and folder.name not in live:
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder.name)
    return removed
