"""Fixed query texts (the topic classifier's example bank) are embedded once per model, then read back."""
from ingest.embedding_cache import EmbeddingCache, cached_queries


def test_bank_vectors_are_computed_once_per_model(tmp_path):
    calls: list[str] = []

    def embed_query(text: str) -> list[float]:
        calls.append(text)
        return [float(len(text)), 1.0]

    cache = EmbeddingCache(tmp_path / "e.sqlite3")
    first = cached_queries(embed_query, cache, "sha256:aaa")(["juros", "royalties"])
    again = cached_queries(embed_query, cache, "sha256:aaa")(["royalties", "juros", "dividendos"])
    assert first == [[5.0, 1.0], [9.0, 1.0]]
    assert again == [[9.0, 1.0], [5.0, 1.0], [10.0, 1.0]]
    assert calls == ["juros", "royalties", "dividendos"]          # only the new text was embedded
    cached_queries(embed_query, cache, "sha256:bbb")(["juros"])    # another model never reuses them
    assert calls[-1] == "juros" and len(calls) == 4
    cache.close()


def test_vectors_of_another_length_are_computed_again(tmp_path):
    """A cache holding another model's vectors under this key (another length) is not trusted."""
    cache = EmbeddingCache(tmp_path / "e.sqlite3")
    cached_queries(lambda t: [1.0] * 4, cache, "sha256:aaa")(["juros"])
    vectors = cached_queries(lambda t: [2.0] * 8, cache, "sha256:aaa")(["juros", "royalties"])
    assert vectors == [[2.0] * 8, [2.0] * 8]
    cache.close()
