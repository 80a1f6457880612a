"""Test doubles shared across packages (never used by the product)."""
from __future__ import annotations

import hashlib
import math

from langchain_core.embeddings import Embeddings

from assistant.retrieve import tokenize


class HashEmbedder(Embeddings):
    """A tiny deterministic bag-of-words embedder that counts what it embeds."""

    def __init__(self, dims: int = 64):
        self.dims = dims
        self.embedded = 0

    def _vector(self, text: str) -> list[float]:
        vec = [0.0] * self.dims
        for token in tokenize(text):
            vec[int(hashlib.md5(token.encode()).hexdigest(), 16) % self.dims] += 1.0
        norm = math.sqrt(sum(v * v for v in vec)) or 1.0
        return [v / norm for v in vec]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.embedded += len(texts)
        return [self._vector(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._vector(text)


class ScriptedTopics:
    """A topic model that returns fixed scores for each asking sentence (assistant.understand.parts tests)."""

    def __init__(self, by_sentence: dict[str, tuple[tuple[str, float], ...]]):
        self.by_sentence = by_sentence

    def scores(self, pairs):
        from assistant.understand.topic_model import TopicScores

        return [TopicScores(self.by_sentence[q]) for _, q in pairs]


class ScriptedResidence:
    """A direction reader that always reads `state` as the residence when the treaty joins it (pipeline tests
    of what overrides the reader)."""

    def __init__(self, state: str):
        self.state = state

    def residence(self, text, tokens, mentions, parties, topic, grammar):
        return (self.state, 1.0) if self.state in parties else (parties[0], 1.0)
