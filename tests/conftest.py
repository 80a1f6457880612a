"""Session-wide fixtures: the real deterministic Assistant (real index, real embeddings, no LLM) is
loaded once and shared, because loading EmbeddingGemma costs seconds each time."""
from __future__ import annotations

import pytest

from config import load_settings
from ingest.index import CHUNKS_FILE


@pytest.fixture(scope="session")
def real_assistant():
    import torch

    from assistant.pipeline import Assistant

    settings = load_settings()
    assert (settings.index_dir / CHUNKS_FILE).is_file(), \
        f"índice em falta em {settings.index_dir}: corra `python -m ingest` (o `make test` constrói-o)"
    torch.set_num_threads(1)  # one short query at a time: one thread is faster on a busy 2-core machine
    return Assistant.from_settings(settings, llm="none", dense=True)
