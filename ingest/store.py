"""The Chroma client: embedded (PersistentClient) or a Chroma server (HttpClient), by configuration."""
from __future__ import annotations

import chromadb
from chromadb.config import Settings as ChromaSettings

from config import Settings


def chroma_client(settings: Settings) -> chromadb.ClientAPI:
    chroma_settings = ChromaSettings(anonymized_telemetry=False)
    if settings.chroma_mode == "http":
        return chromadb.HttpClient(host=settings.chroma_host, port=settings.chroma_port,
                                   settings=chroma_settings)
    path = settings.index_dir / "chroma"
    path.mkdir(parents=True, exist_ok=True)
    return chromadb.PersistentClient(path=str(path), settings=chroma_settings)


def chunk_collection(client: chromadb.ClientAPI, name: str):
    """The collection without Chroma's default embedding function (it downloads a model): vectors
    are always computed by our own embedder and passed explicitly."""
    return client.get_or_create_collection(name=name, embedding_function=None,
                                           metadata={"hnsw:space": "cosine"})
