"""The embedding model behind both ingest and retrieval (one definition, so they always agree)."""
from __future__ import annotations

import os
from pathlib import Path

from langchain_core.embeddings import Embeddings

from config import Settings


class EmbeddingModelMissing(Exception):
    pass


def load_embeddings(settings: Settings) -> Embeddings:
    """EmbeddingGemma through LangChain, with its query/document prompts, normalised vectors."""
    ref = settings.embedding_model_ref
    local = Path(ref)
    if local.is_absolute() or ref.startswith("."):
        if not (local / "config.json").is_file():
            raise EmbeddingModelMissing(
                f"modelo de embeddings não encontrado em {local}: corra `make models` "
                "ou defina TREATY_EMBEDDING_MODEL")
        os.environ.setdefault("HF_HUB_OFFLINE", "1")  # a local folder must never reach for a hub
    from langchain_huggingface import HuggingFaceEmbeddings

    return HuggingFaceEmbeddings(
        model_name=ref,
        model_kwargs={"device": "cpu"},
        encode_kwargs={"normalize_embeddings": True, "prompt_name": "document",
                       "batch_size": settings.embedding_batch_size},
        query_encode_kwargs={"normalize_embeddings": True, "prompt_name": "query"},
    )
