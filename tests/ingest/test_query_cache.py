"""Fixed query texts (the topic classifier's example bank) are embedded once per model, then read back."""
from ingest.embedding_cache import EmbeddingCache, cached_queries


def test_bank_vectors_are_computed_once_per_model(tmp_path):
    calls: list[str] = []

    def embed_many(texts: list[str]) -> list[list[float]]:
        calls.extend(texts)
        return [[float(len(t)), 1.0] for t in texts]

    cache = EmbeddingCache(tmp_path / "e.sqlite3")
    first = cached_queries(embed_many, cache, "sha256:aaa")(["juros", "royalties"])
    again = cached_queries(embed_many, cache, "sha256:aaa")(["royalties", "juros", "dividendos"])
    assert first == [[5.0, 1.0], [9.0, 1.0]]
    assert again == [[9.0, 1.0], [5.0, 1.0], [10.0, 1.0]]
    assert calls == ["juros", "royalties", "dividendos"]          # only the new text was embedded
    cached_queries(embed_many, cache, "sha256:bbb")(["juros"])    # another model never reuses them
    assert calls[-1] == "juros" and len(calls) == 4
    cache.close()


def test_vectors_of_another_length_are_computed_again(tmp_path):
    """A cache holding another model's vectors under this key (another length) is not trusted."""
    cache = EmbeddingCache(tmp_path / "e.sqlite3")
    cached_queries(lambda ts: [[1.0] * 4 for _ in ts], cache, "sha256:aaa")(["juros"])
    vectors = cached_queries(lambda ts: [[2.0] * 8 for _ in ts], cache, "sha256:aaa")(["juros", "royalties"])
    assert vectors == [[2.0] * 8, [2.0] * 8]
    cache.close()


def test_missing_vectors_are_computed_in_one_batch(tmp_path):
    """The readers' training questions are thousands of texts: the missing ones go to the model in one call."""
    batches: list[list[str]] = []

    def embed_many(texts: list[str]) -> list[list[float]]:
        batches.append(list(texts))
        return [[float(len(t))] for t in texts]

    cache = EmbeddingCache(tmp_path / "e.sqlite3")
    cached_queries(embed_many, cache, "sha256:aaa")(["juros"])
    assert cached_queries(embed_many, cache, "sha256:aaa")(["rendas", "juros", "pensões"]) == [[6.0], [5.0], [7.0]]
    assert batches == [["juros"], ["rendas", "pensões"]]
    cache.close()
