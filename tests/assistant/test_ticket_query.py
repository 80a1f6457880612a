"""The retrieval query of a long ticket: the sentences that ask (pt-PT, pt-BR, es, en), the topic's articles
from the rule data, their headings from the parsed corpus, and the fusion that searches them beside the
whole ticket (real embedded Chroma, fake embedder)."""
from __future__ import annotations

import pytest

from assistant.retrieve import HybridSearch, open_dense, rrf
from assistant.ticket_query import asking_sentences, ticket_query, topic_articles
from assistant.understand.sentences import sentences
from config import load_settings
from ingest.index import sync
from ingest.store import chroma_client, chunk_collection
from tests.fakes import HashEmbedder

PT_BR_EMAIL = ("Bom dia. Sou aposentado pelo INSS desde 2019 e em março me mudei para Coimbra com visto D7. "
               "Já pedi a transferência do benefício para minha conta no Millennium, R$ 4.300 por mês. Minha "
               "dúvida: essa aposentadoria vai ser tributada aqui ou continua só no Brasil? Não quero pagar "
               "duas vezes. Obrigado, Everaldo")


def test_the_question_of_an_email_without_greeting_amounts_or_signature():
    assert asking_sentences(PT_BR_EMAIL) == (
        "Minha dúvida: essa aposentadoria vai ser tributada aqui ou continua só no Brasil?",)


def test_two_questions_in_order():
    text = ("Hola, soy jubilado y vivo en Málaga desde 2021. ¿Tengo que tributar esa pensión en España o en "
            "Brasil? Mi hija vive conmigo. ¿Y si Brasil me retuvo algo por error, cómo lo recupero?")
    assert asking_sentences(text) == ("¿Tengo que tributar esa pensión en España o en Brasil?",
                                      "¿Y si Brasil me retuvo algo por error, cómo lo recupero?")


@pytest.mark.parametrize("text, asked", [
    ("Trabalho em Lisboa para uma empresa japonesa. Diga-me se o salário paga imposto no Japão. Cumprimentos.",
     "Diga-me se o salário paga imposto no Japão."),
    ("Dear team, I moved to Porto in May. I'd like to know whether my Brazilian rent is taxed here. Thanks, Ann",
     "I'd like to know whether my Brazilian rent is taxed here."),
    ("Buenas tardes. Tengo un piso en Recife alquilado. Quisiera saber dónde tributa la renta. Saludos",
     "Quisiera saber dónde tributa la renta."),
    ("Olá. Recebo juros de um banco brasileiro\ncomo declaro isso no IRS\nobrigada", "como declaro isso no IRS"),
])
def test_requests_and_interrogatives_without_a_question_mark(text, asked):
    assert asking_sentences(text) == (asked,)


def test_a_statement_that_opens_like_a_question_waits_for_a_real_question():
    text = "Como sou residente em Portugal, recebo dividendos do Brasil. Qual é a taxa máxima?"
    assert asking_sentences(text) == ("Qual é a taxa máxima?",)


def test_nothing_asks():
    assert asking_sentences("Segue em anexo o comprovativo de residência fiscal. Obrigado.") == ()


def test_an_article_number_does_not_end_a_sentence():
    assert [s.text for s in sentences("Li o art. 18 da convenção. Isto aplica-se a mim?")] == [
        "Li o art. 18 da convenção.", "Isto aplica-se a mim?"]


def test_topic_articles_come_from_the_rule_data():
    assert topic_articles("PT-BR", "pensions")[0] == ("pt-br-2000", "18")
    assert topic_articles("BR-ES", "government_service")[0] == ("br-es-1974", "19")
    assert ("mli-pt-2019", "19") in topic_articles("MLI", "arbitration")
    assert ("pt-br-2000", "15") in topic_articles("PT-BR", "employment")
    assert topic_articles("PT-XX", "pensions") == ()
    assert topic_articles("PT-BR", "no_such_topic") == ()


def test_the_focus_is_the_asking_sentence_with_the_treaty_heading(search):
    tq = ticket_query(PT_BR_EMAIL, ("pensions",), ("PT-BR",), search.headings)
    assert tq.text == PT_BR_EMAIL
    assert tq.focus.startswith("Minha dúvida: essa aposentadoria")
    assert "Pensões" in tq.focus and "Everaldo" not in tq.focus and "Coimbra" not in tq.focus
    assert tq.articles[0] == ("pt-br-2000", "18")


def test_a_one_line_question_is_its_own_focus(search):
    tq = ticket_query("aposentadoria inss morando em portugal paga imposto aonde??", ("pensions",), ("PT-BR",),
                      search.headings)
    assert tq.focus == "" and tq.text.startswith("aposentadoria inss") and "Pensões" in tq.text


def test_a_part_brings_its_own_asking_words(search):
    tq = ticket_query(PT_BR_EMAIL, ("double_taxation_relief",), ("PT-BR",), search.headings,
                      asking=("Não quero pagar duas vezes.",))
    assert tq.focus.startswith("Não quero pagar duas vezes.") and "Método" in tq.focus


@pytest.fixture
def hybrid(tmp_path, corpus_chunks) -> HybridSearch:
    settings = load_settings().replace(index_dir=tmp_path / "index", chroma_mode="embedded", collection="chunks")
    sync(chunk_collection(chroma_client(settings), settings.collection), corpus_chunks, HashEmbedder, "fake",
         progress=False)
    return HybridSearch(corpus_chunks, open_dense(settings, HashEmbedder(), corpus_chunks))


def _articles(hits) -> list[str]:
    return [h.chunk.article for h in hits]


def test_the_topic_articles_and_the_focus_bring_the_gold_article_into_the_top_five(hybrid):
    docs = {"pt-br-2000", "br-portaria-pt-br"}
    whole = hybrid.search(PT_BR_EMAIL, 5, docs, "hybrid")
    assert "18" not in _articles(whole)          # the e-mail's context words outvote its question
    tq = ticket_query(PT_BR_EMAIL, ("pensions",), ("PT-BR",), hybrid.headings)
    assert "18" in _articles(hybrid.search(tq.text, 5, docs, "hybrid", tq.focus, tq.articles))


def test_without_dense_search_the_focus_is_searched_by_bm25_alone(search):
    question = "I live in Japan and receive interest from a Portuguese bank. What is the cap?"
    tq = ticket_query(question, ("interest",), ("PT-JP",), search.headings)
    assert search.search(tq.text, 5, {"pt-jp-2011-summary"}, "bm25") == []   # English words, Portuguese text
    hits = search.search(tq.text, 5, {"pt-jp-2011-summary"}, "bm25", tq.focus, tq.articles)
    assert hits[0].chunk.article == "11" and hits[0].bm25_rank == 1 and hits[0].dense_rank is None


def test_five_passages_name_five_articles_before_any_repeats(hybrid):
    tq = ticket_query(PT_BR_EMAIL, ("pensions",), ("PT-BR",), hybrid.headings)
    hits = hybrid.search(tq.text, 8, {"pt-br-2000"}, "hybrid", tq.focus, tq.articles)
    addresses = [(h.chunk.doc, h.chunk.article) for h in hits]
    repeated = next((i for i, a in enumerate(addresses) if a in addresses[:i]), len(addresses))
    assert len(set(addresses[:repeated])) == repeated and repeated >= 5


def test_a_weighted_ranking_counts_more():
    assert rrf([["a", "b"], ["b", "a"]])["a"] == rrf([["a", "b"], ["b", "a"]])["b"]
    fused = rrf([["a", "b"], ["b", "a"]], [1.0, 2.0])
    assert fused["b"] > fused["a"]


class _QueryLog(HashEmbedder):
    """The fake embedder, remembering each query text it embeds."""

    def __init__(self):
        super().__init__()
        self.queries: list[str] = []

    def embed_query(self, text: str) -> list[float]:
        self.queries.append(text)
        return super().embed_query(text)


def test_a_long_ticket_is_embedded_by_its_asking_words_only(tmp_path, corpus_chunks):
    """Embedding a whole e-mail costs about a second on 2 cores: dense search reads the asking words, BM25 the
    whole ticket; a one-line question (no separate focus) is embedded as it is."""
    settings = load_settings().replace(index_dir=tmp_path / "index", chroma_mode="embedded", collection="chunks")
    sync(chunk_collection(chroma_client(settings), settings.collection), corpus_chunks, HashEmbedder, "fake",
         progress=False)
    log = _QueryLog()
    hybrid = HybridSearch(corpus_chunks, open_dense(settings, log, corpus_chunks))
    tq = ticket_query(PT_BR_EMAIL, ("pensions",), ("PT-BR",), hybrid.headings)
    hits = hybrid.search(tq.text, 5, {"pt-br-2000"}, "hybrid", tq.focus, tq.articles)
    assert log.queries == [tq.focus]
    assert any(h.bm25_rank for h in hits) and any(h.dense_rank for h in hits)
    assert any(h.dense_similarity is not None for h in hits)      # the weak-retrieval check still has a score
    one_line = "Quem tributa a pensão do INSS de quem vive em Portugal?"
    hybrid.search(one_line, 5, {"pt-br-2000"}, "hybrid")
    assert log.queries[-1] == one_line


class _CountingEmbedder(HashEmbedder):
    def __init__(self):
        super().__init__()
        self.embedded: list[str] = []

    def embed_query(self, text):
        self.embedded.append(text)
        return super().embed_query(text)


def test_dense_search_reads_the_asking_sentences_vectors_the_topic_reader_already_computed(tmp_path, corpus_chunks):
    """The topic reader embeds the asking sentences (DenseIndex.embed_many); dense search of the ticket then
    embeds nothing more: it searches by the normalised mean of those vectors, while BM25 still reads the
    focus with the article headings."""
    import numpy as np

    settings = load_settings().replace(index_dir=tmp_path / "index", chroma_mode="embedded", collection="chunks")
    sync(chunk_collection(chroma_client(settings), settings.collection), corpus_chunks, HashEmbedder, "fake",
         progress=False)
    embedder = _CountingEmbedder()
    dense = open_dense(settings, embedder, corpus_chunks)
    hybrid = HybridSearch(corpus_chunks, dense)
    tq = ticket_query(PT_BR_EMAIL, ("pensions",), ("PT-BR",), hybrid.headings)
    assert tq.asked == ("Minha dúvida: essa aposentadoria vai ser tributada aqui ou continua só no Brasil?",)
    dense.embed_many(list(tq.asked))                       # what the topic reader does first
    before = list(embedder.embedded)
    hits = hybrid.search(tq.text, 5, {"pt-br-2000"}, "hybrid", tq.focus, tq.articles, tq.asked)
    assert hits and embedder.embedded == before            # no second embedding of the ticket's question
    two = ("Quem tributa a pensão?", "E os juros?")
    mean = np.asarray(dense.query_vector(two))
    expected = np.mean([HashEmbedder().embed_query(t) for t in two], axis=0)
    assert np.allclose(mean, expected / np.linalg.norm(expected)) and abs(np.linalg.norm(mean) - 1) < 1e-6
    assert embedder.embedded.count("Quem tributa a pensão?") == 1
    dense.embed_many(["Quem tributa a pensão?", "E os juros?"])   # kept: not embedded again
    assert embedder.embedded.count("Quem tributa a pensão?") == 1


def test_a_batch_mixing_kept_and_new_texts_past_the_memory_limit_gets_every_vector(tmp_path, corpus_chunks):
    """The memory of asked vectors is emptied when it grows past its limit; a batch with a text it already held
    and enough new ones to overflow it still gets a vector for each text (it raised KeyError)."""
    settings = load_settings().replace(index_dir=tmp_path / "index", chroma_mode="embedded", collection="chunks")
    sync(chunk_collection(chroma_client(settings), settings.collection), corpus_chunks, HashEmbedder, "fake",
         progress=False)
    dense = open_dense(settings, _CountingEmbedder(), corpus_chunks)
    dense.embed_many([f"pergunta {i}" for i in range(30)])
    batch = ["pergunta 0"] + [f"outra {i}" for i in range(5)]
    vectors = dense.embed_many(batch)
    assert len(vectors) == len(batch)
    assert vectors[0] == HashEmbedder().embed_query("pergunta 0")
