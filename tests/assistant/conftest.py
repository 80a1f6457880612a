"""Fixtures: an Assistant over the real parsed corpus (BM25 only, no model) with a scripted chat model."""
from __future__ import annotations

import time
from typing import Iterator

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage

from assistant.llm import LlmInfo
from assistant.pipeline import Assistant
from assistant.retrieve import HybridSearch
from config import load_settings
from ingest.catalog import load_catalog
from ingest.corpus import DEFAULT_CORPUS_DIR
from ingest.index import build_chunks


@pytest.fixture(scope="session")
def corpus_chunks():
    return build_chunks(DEFAULT_CORPUS_DIR)


@pytest.fixture(scope="session")
def search(corpus_chunks):
    return HybridSearch(corpus_chunks, dense=None)


def scripted(*replies: str) -> GenericFakeChatModel:
    return GenericFakeChatModel(messages=iter([AIMessage(content=r) for r in replies]))


class SlowModel(GenericFakeChatModel):
    """Streams one token a second, to exercise the time limit."""

    def _stream(self, *args, **kwargs) -> Iterator:
        for chunk in super()._stream(*args, **kwargs):
            time.sleep(1.0)
            yield chunk


class StallingModel(GenericFakeChatModel):
    """Streams its first `fast` chunks at once, then one a second (a model that stalls mid-answer)."""
    fast: int = 0

    def _stream(self, *args, **kwargs) -> Iterator:
        for n, chunk in enumerate(super()._stream(*args, **kwargs)):
            if n >= self.fast:
                time.sleep(1.0)
            yield chunk


class BrokenModel(GenericFakeChatModel):
    def _stream(self, *args, **kwargs) -> Iterator:
        raise ConnectionError("servidor indisponível")
        yield  # pragma: no cover


@pytest.fixture
def make_assistant(search):
    def build(model=None, **overrides) -> Assistant:
        settings = load_settings().replace(**overrides) if overrides else load_settings()
        info = LlmInfo("fake", "scripted") if model is not None else LlmInfo("none", "")
        return Assistant(settings, load_catalog(DEFAULT_CORPUS_DIR), search, model, info)
    return build
