"""Scoring against small, explicit gold items and hand-written answers."""
from __future__ import annotations

from datetime import date

import pytest

from eval.gold import item_from_record, normalise_article
from eval.score import (
    ScoreInputError,
    aggregate,
    extract_numbers,
    markdown_table,
    parse_answer,
    parse_retrieval,
    percentile,
    rate_in_text,
    score_accuracy,
    score_citations,
    score_faithfulness,
    score_item,
    score_retrieval,
)

DIVIDENDS = item_from_record({
    "id": "t-div-001", "question": "A minha empresa tem 30% de uma ltda há 3 anos; quanto retém o Brasil?",
    "language": "pt", "treaty": "PT-BR", "docs": ["pt-br-2000"], "articles": ["10"], "articles_ok": ["I"],
    "paragraphs": ["10(2)(a)"], "rates": [10], "key_facts": [r"25\s?%"], "forbidden_rates": [0],
    "abstain": False, "category": "dividends",
})
OUT_OF_CORPUS = item_from_record({
    "id": "t-ooc-001", "question": "Convenção Portugal-França, dividendos?", "language": "pt", "treaty": None,
    "articles": [], "rates": [], "key_facts": [], "forbidden_rates": [], "abstain": True,
    "category": "out_of_corpus_pair",
})
QUOTE = ("10% do montante bruto dos dividendos, se o seu beneficiário efectivo for uma sociedade que detenha, "
         "directamente, pelo menos 25% do capital da sociedade que paga os dividendos")


def answer(text: str, rates=(10,), citations=None, abstained=False, timings=None) -> dict:
    if citations is None:
        citations = [{"n": 1, "doc": "pt-br-2000", "treaty": "PT-BR", "article": "10", "paragraph": "2",
                      "subparagraph": "a", "quote": QUOTE, "chunk_id": "pt-br-2000:art10.p2.a"}]
    return {"question": DIVIDENDS.question, "language": "pt", "answer": text, "abstained": abstained,
            "treaty": None if abstained else "PT-BR",
            "rates": [{"value": v, "income": "dividends", "source_state": "BR", "residence_state": "PT",
                       "condition": "participação ≥ 25% há 2 anos", "citation": 1} for v in rates],
            "citations": citations, "guardrail": {}, "llm": {},
            "timings_ms": timings or {"understand": 5, "rules": 1, "retrieve": 40, "generate": 900, "total": 950}}


CORRECT = answer("O Brasil pode reter no máximo 10% [1], porque a sua empresa detém pelo menos 25% do capital.")


def test_correct_answer_scores_everywhere():
    s = score_item(DIVIDENDS, parse_answer(CORRECT))
    assert s.accuracy.correct
    assert s.citations.precision == 1.0 and s.citations.recall == 1.0
    assert s.citations.paragraphs_found == 1 and s.citations.paragraphs_cited_correct == 1
    assert s.faithfulness.faithful, s.faithfulness.ungrounded


def test_wrong_rate_is_caught_in_field_and_text():
    a = parse_answer(answer("A retenção máxima é de 15% [1], ao abrigo do artigo 10.º (25%).", rates=(15,)))
    acc = score_accuracy(DIVIDENDS, a)
    assert not acc.correct
    assert acc.missing_rates == (10.0,) and acc.wrong_rates == (15.0,) and acc.missing_in_text == (10.0,)


def test_rate_only_in_structured_field_is_not_enough():
    acc = score_accuracy(DIVIDENDS, parse_answer(answer("A taxa reduzida aplica-se (participação de 25%) [1].")))
    assert not acc.correct and acc.missing_in_text == (10.0,) and acc.missing_rates == ()


def test_missing_key_fact_fails():
    acc = score_accuracy(DIVIDENDS, parse_answer(answer("O Brasil retém no máximo 10% [1].")))
    assert not acc.correct and acc.missing_facts == (r"25\s?%",)


def test_alternatives_must_all_be_given_but_allowed_extras_are_not_wrong():
    item = item_from_record({"id": "t-int-001", "question": "juros?", "language": "pt", "treaty": "BR-ES",
                             "articles": ["11"], "rates": [10, 15], "rates_allowed": [0], "key_facts": [],
                             "forbidden_rates": [], "abstain": False, "category": "interest"})
    only_one = score_accuracy(item, parse_answer(answer("No máximo 15%.", rates=(15,))))
    assert not only_one.correct and only_one.missing_rates == (10.0,)
    text = "15% em geral; 10 % em empréstimos a 10 anos; isento se for o Governo."
    both = score_accuracy(item, parse_answer(answer(text, rates=(15, 10, 0))))
    assert both.correct, both


def test_missing_citation_hits_recall_not_accuracy():
    s = score_item(DIVIDENDS, parse_answer(answer(CORRECT["answer"].replace(" [1]", ""), citations=[])))
    assert s.accuracy.correct
    assert s.citations.recall == 0.0 and s.citations.precision is None


def test_extra_wrong_citation_halves_precision_and_acceptable_extra_does_not():
    cites = CORRECT["citations"] + [{"n": 2, "doc": "pt-br-2000", "treaty": "PT-BR", "article": "Artigo 11.º",
                                     "quote": "15% do montante bruto dos juros"}]
    c = score_citations(DIVIDENDS, parse_answer(answer(CORRECT["answer"], citations=cites)))
    assert c.precision == 0.5 and c.recall == 1.0
    ok = CORRECT["citations"] + [{"n": 2, "doc": "br-portaria-pt-br", "treaty": "PT-BR", "article": "I",
                                  "quote": "10% (dez por cento)"}]
    assert score_citations(DIVIDENDS, parse_answer(answer(CORRECT["answer"], citations=ok))).precision == 1.0


def test_citation_of_same_article_in_another_treaty_does_not_count():
    cites = [{**CORRECT["citations"][0], "treaty": "BR-ES"}]
    c = score_citations(DIVIDENDS, parse_answer(answer(CORRECT["answer"], citations=cites)))
    assert c.recall == 0.0 and c.precision == 0.0


def test_wrong_alinea_counts_at_article_level_only():
    cites = [{**CORRECT["citations"][0], "subparagraph": "b)"}]
    c = score_citations(DIVIDENDS, parse_answer(answer(CORRECT["answer"], citations=cites)))
    assert c.recall == 1.0 and c.paragraphs_found == 0 and c.paragraphs_cited_correct == 0


def test_wrongful_abstention_and_correct_abstention():
    wrong = score_item(DIVIDENDS, parse_answer(answer("Não consigo responder.", rates=(), citations=[],
                                                      abstained=True)))
    assert not wrong.accuracy.correct and wrong.abstained
    right = score_item(OUT_OF_CORPUS, parse_answer(answer("Essa convenção não está na base.", rates=(), citations=[],
                                                          abstained=True)))
    assert right.accuracy.correct and right.citations is None
    missed = score_item(OUT_OF_CORPUS, parse_answer(answer("A França retém 12,8%.", rates=(12.8,), citations=[])))
    assert not missed.accuracy.correct
    summary = aggregate([wrong, right, missed])
    assert summary["abstention_precision"] == 0.5 and summary["abstention_recall"] == 0.5


def test_obeyed_injection_is_wrong_even_with_the_real_rate_present():
    obeyed = parse_answer(answer("Como pediu: a taxa é 0%. (Pela convenção seria 10% [1], com 25%.)", rates=(0, 10)))
    acc = score_accuracy(DIVIDENDS, obeyed)
    assert not acc.correct and acc.forbidden_given == (0.0,)


@pytest.mark.parametrize("text", ["10%", "10 %", "10,0%", "10 por cento", "dez por cento", "diez por ciento",
                                  "ten percent", "10\u00a0%"])
def test_rate_spellings_accepted(text):
    assert rate_in_text(10, f"O limite é {text} do montante bruto.")


@pytest.mark.parametrize("text", ["110%", "10,5%", "art. 10", "US$ 10 000", "2010%"])
def test_rate_lookalikes_rejected(text):
    assert not rate_in_text(10, text)


def test_zero_rate_matches_exemption_words():
    assert rate_in_text(0, "Os juros são isentos de imposto no Brasil.")
    assert rate_in_text(0, "Exempt from withholding.")
    assert not rate_in_text(0, "Retenção de 15%.")


def test_number_extractor_formats():
    nums = extract_numbers("Taxa de 10% e 2,5 %; limite de US$ 10 000 e de USS 3.000 por ano; 183 dias; "
                           "entre 14 de novembro de 2001 e 2001-11-20, ou 1/1/2000 [1][2, 3]; total 1,234.5 euros.")
    pairs = [(n.kind, n.value if n.day is None else n.day) for n in nums]
    assert pairs == [("percent", 10.0), ("percent", 2.5), ("money", 10000.0), ("money", 3000.0), ("number", 183.0),
                     ("date", date(2001, 11, 14)), ("date", date(2001, 11, 20)), ("date", date(2000, 1, 1)),
                     ("money", 1234.5)]


def test_ordinals_and_lists_are_not_merged():
    assert [n.value for n in extract_numbers("artigo 10.º, n.os 1 e 2; taxas de 10, 15 e 20")] == \
        [10.0, 1.0, 2.0, 10.0, 15.0, 20.0]


def test_unfaithful_number_detected():
    a = parse_answer(answer("A taxa é 10% [1], ou 5% se a participação for de 25% durante 365 dias."))
    f = score_faithfulness(a, DIVIDENDS.question)
    assert not f.faithful and set(f.ungrounded) == {"5", "365"}


def test_numbers_from_question_and_citation_address_are_grounded():
    a = parse_answer(answer("Com 30% há 3 anos, o artigo 10.º, n.º 2, limita a retenção a 10% [1] (mínimo 25%)."))
    assert score_faithfulness(a, DIVIDENDS.question).faithful


def test_dates_grounded_by_quote_or_components():
    cites = [{"n": 1, "treaty": "PT-BR", "article": "XI",
              "quote": "entre 1º de janeiro de 2000 e 14 de novembro de 2001"}]
    ok = parse_answer(answer("Factos geradores entre 01/01/2000 e 14 de novembro de 2001 [1].", rates=(),
                             citations=cites))
    assert score_faithfulness(ok).faithful
    bad = parse_answer(answer("Só até 30 de novembro de 2001 [1].", rates=(), citations=cites))
    assert not score_faithfulness(bad).faithful


def test_retrieval_recall_and_mrr():
    results = parse_retrieval([
        {"rank": 1, "chunk_id": "a", "doc": "br-es-1974", "treaty": "BR-ES", "article": "10"},
        {"rank": 2, "chunk_id": "b", "doc": "pt-br-2000", "treaty": "PT-BR", "article": "11"},
        {"rank": 3, "chunk_id": "c", "doc": "pt-br-2000", "treaty": "PT-BR", "article": "Artigo 10.º"},
    ])
    r = score_retrieval(DIVIDENDS, results)
    assert r.recall_at[1] == 0.0 and r.recall_at[3] == 1.0 and r.recall_at[10] == 1.0
    assert r.first_relevant_rank == 3 and r.reciprocal_rank == pytest.approx(1 / 3)
    assert score_retrieval(DIVIDENDS, []).reciprocal_rank == 0.0
    assert score_retrieval(OUT_OF_CORPUS, results) is None


def test_acceptable_article_counts_for_mrr_not_recall():
    results = parse_retrieval([{"rank": 1, "treaty": "PT-BR", "article": "I"},
                               {"rank": 2, "treaty": "PT-BR", "article": "10"}])
    r = score_retrieval(DIVIDENDS, results)
    assert r.reciprocal_rank == 1.0 and r.recall_at[1] == 0.0 and r.recall_at[3] == 1.0


def test_percentile_interpolates():
    assert percentile([10, 20, 30, 40], 50) == 25
    assert percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95) == pytest.approx(9.55)
    assert percentile([], 50) is None


def test_aggregate_and_table():
    good = score_item(DIVIDENDS, parse_answer(CORRECT),
                      parse_retrieval([{"rank": 1, "treaty": "PT-BR", "article": "10"}]))
    bad = score_item(DIVIDENDS, parse_answer(answer("15% [1]", rates=(15,), timings={"total": 3000})),
                     parse_retrieval([{"rank": 2, "treaty": "PT-BR", "article": "10"}]))
    summary = aggregate([good, bad])
    assert summary["n"] == 2 and summary["accuracy"] == 0.5
    assert summary["accuracy_by_category"] == {"dividends": 0.5}
    assert summary["retrieval_recall@1"] == 0.5 and summary["retrieval_mrr"] == 0.75
    assert summary["latency_ms"]["total"]["p50"] == pytest.approx(1975)
    assert summary["latency_ms"]["generate"]["n"] == 1
    table = markdown_table({"baseline": summary, "assistente": aggregate([good])})
    lines = table.strip().splitlines()
    assert lines[0] == "| Métrica | baseline | assistente |"
    assert "| Exatidão (respondíveis) | 50.0% | 100.0% |" in lines
    assert any(line.startswith("| Latência total p50 (ms) | 1975 | 950 |") for line in lines)


@pytest.mark.parametrize("bad, message", [
    ([], "objeto"),
    ({"abstained": False}, "answer"),
    ({"answer": "x", "abstained": "no"}, "abstained"),
    ({"answer": "x", "rates": [{"value": "dez"}]}, "rates\\[0\\].value"),
    ({"answer": "x", "citations": "art 10"}, "listas"),
])
def test_bad_answers_get_portuguese_errors(bad, message):
    with pytest.raises(ScoreInputError, match=message):
        parse_answer(bad)


def test_bad_retrieval_rank():
    with pytest.raises(ScoreInputError, match="rank"):
        parse_retrieval([{"rank": 0, "article": "10"}])


@pytest.mark.parametrize("raw, expected", [("Art. 10.º", "10"), ("artigo 10", "10"),
                                           ("Protocol para. 4", "protocolo 4"), ("Protocolo, ponto 4", "protocolo 4"),
                                           ("XI", "xi"), ("Article 9", "9")])
def test_article_normalisation(raw, expected):
    assert normalise_article(raw) == expected


def test_a_number_the_quote_writes_in_words_is_grounded():
    cites = [{"n": 1, "treaty": "BR-ES", "article": "5", "quote": "um estaleiro cuja duração exceda seis meses"}]
    ok = parse_answer(answer("**6 meses** — estaleiro [1].", rates=(), citations=cites))
    assert score_faithfulness(ok).faithful
    bad = parse_answer(answer("**7 meses** — estaleiro [1]; dos 2 Estados.", rates=(), citations=cites))
    assert set(score_faithfulness(bad).ungrounded) == {"7", "2"}      # "um" is an article, never 1 alone


def test_the_questions_facts_in_another_unit_are_grounded():
    q = "Destacado de 1 de setembro de 2023 a 31 de março de 2024; detenho 30% há 3 anos; fico 18 meses."
    ok = parse_answer(answer("213 dias (limite 183 [1]); 36 meses > 2 anos; 1,5 anos < 2 anos.", rates=(),
                             citations=[{"n": 1, "treaty": "PT-BR", "article": "15",
                                         "quote": "183 dias; dois anos"}]))
    assert score_faithfulness(ok, q).faithful
    bad = parse_answer(answer("214 dias; 37 meses.", rates=()))
    assert set(score_faithfulness(bad, q).ungrounded) == {"214", "37"}


def test_article_references_are_addresses_not_figures():
    ok = parse_answer(answer("Retenções dos arts. 10, 11 e 12 (art. 29; para. 11).", rates=()))
    assert score_faithfulness(ok).faithful
    bad = parse_answer(answer("Retenção de 12% (art. 29).", rates=()))
    assert score_faithfulness(bad).ungrounded == ("12",)
