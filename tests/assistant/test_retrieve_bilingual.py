"""Bilingual sources (BR-ES: Portuguese and Spanish columns): a Spanish passage counts as its Portuguese twin
in the fusion, or as itself when the Portuguese column is split into other units (BR-ES art. 17 is one Spanish
passage and two Portuguese paragraphs): it must never turn into an id the index does not hold."""
from __future__ import annotations


def test_every_passage_key_is_a_passage_the_index_holds(search):
    missing = [c.id for c in search.chunks if search.key[c.id] not in search.by_id]
    assert not missing


def test_each_article_of_the_corpus_has_a_passage_for_the_article_ranking(search):
    articles = {(c.doc, c.article) for c in search.chunks if c.article}
    unmatched = [a for a in sorted(articles)
                 if not any(k in search.by_id for k in search._article_matches([a], None, []))]
    assert not unmatched


def test_a_topics_article_reaches_the_top_when_its_spanish_unit_has_no_portuguese_twin(search):
    hits = search.search("¿Puede España gravar los cachés de un grupo de música brasileño?", 5, {"br-es-1974"},
                         "bm25", "¿Puede España gravar los cachés?", (("br-es-1974", "17"),))
    assert ("br-es-1974", "17") in {(h.chunk.doc, h.chunk.article) for h in hits}
