"""The nearest-example topic classifier: with a small explicit fake embedding (unit), and for real with
EmbeddingGemma inside the assistant (slow). Phrasings written for these tests, not from the eval set."""
from __future__ import annotations

import pytest

from assistant.understand import understand
from assistant.understand.exemplars import ExemplarClassifier, bank
from rules.facts import TOPICS

TREATIES = {"PT-BR": ("PT", "BR"), "BR-ES": ("BR", "ES"), "PT-JP": ("PT", "JP")}


def one_hot(texts):
    """Each bank example's vector points at its topic's axis: the nearest example is the topic asked for."""
    topics = sorted(TOPICS)
    by_text = {text: topic for topic, text in bank()}
    return [[1.0 if t == by_text[x] else 0.0 for t in topics] for x in texts]


def axis(topic: str, noise: float = 0.0) -> list[float]:
    return [1.0 if t == topic else noise for t in sorted(TOPICS)]


def test_the_bank_covers_known_topics_in_three_languages():
    topics = {t for t, _ in bank()}
    assert topics <= set(TOPICS) and len(topics) >= 20


def test_nearest_example_decides_above_the_threshold_only():
    clf = ExemplarClassifier(one_hot, min_similarity=0.6)
    assert clf.decide(axis("pensions")) == "pensions"
    assert clf.decide(axis("pensions", noise=1.0)) is None            # equally close to everything
    assert clf.decide(axis("interest"), among=("dividends", "interest")) == "interest"


def test_understanding_asks_the_classifier_only_when_the_lexicon_is_silent_or_torn():
    asked = []

    def decide(among):
        asked.append(among)
        return "immovable_property"
    q = understand("Tenho um T2 em Almada e vivo em Belo Horizonte. Onde pago?", TREATIES, decide)
    assert asked == [()] and (q.topic, q.topic_method) == ("immovable_property", "exemplar")
    assert [r.treaty for r in q.readings] == [] and q.treaty == "PT-BR"     # the subject now read, both places
    asked.clear()
    q = understand("Recebo dividendos de uma empresa brasileira e vivo em Braga", TREATIES, decide)
    assert asked == [] and (q.topic, q.topic_method) == ("dividends", "lexicon")
    q = understand("Recebo dividendos e juros de uma empresa brasileira e vivo em Braga", TREATIES,
                   lambda among: "interest" if "interest" in among else None)
    assert (q.topic, q.topic_method) == ("interest", "exemplar")


@pytest.mark.slow
def test_real_embeddings_find_the_topic_the_lexicon_misses(real_assistant):
    answer = real_assistant.ask("Dou aulas de piano em digressões pela Europa e no verão vou tocar em São Paulo; "
                                "o Brasil fica com parte do cachê?")
    assert answer.query.topic == "artistes_sportsmen"


def test_a_fake_embedder_never_writes_the_real_models_bank_vectors(tmp_path):
    """Only a named sentence-transformers model caches the bank, under its own fingerprint: a test's fake
    embedder (no model_name) embeds it directly and leaves the cache alone."""
    from config import load_settings
    from ingest.embedding_cache import query_embedder
    from tests.fakes import HashEmbedder

    settings = load_settings().replace(cache_dir=tmp_path)
    vectors = query_embedder(HashEmbedder(), settings)(["juros", "royalties"])
    assert len(vectors) == 2 and len(vectors[0]) == len(HashEmbedder().embed_query("x"))
    assert not settings.embedding_cache_file.exists()


def test_the_real_reader_reads_the_asking_sentences_vector_and_batches_agree_with_single_queries(real_assistant):
    """The product's topic reader is fitted with the real model's query vectors; the batch embedder that
    computes the training questions' vectors gives the vectors embed_query gives."""
    import numpy as np

    from ingest.embedding_cache import batch_queries

    assert real_assistant.reader.embed is not None and real_assistant.reader.features.embedded
    embeddings = real_assistant.search.dense.embeddings
    texts = ["Quem tributa a pensão do INSS?", "¿Quién grava los dividendos?"]
    batch = np.asarray(batch_queries(embeddings)(texts))
    single = np.asarray([embeddings.embed_query(t) for t in texts])
    assert batch.shape == single.shape and np.allclose(batch, single, atol=1e-3)
