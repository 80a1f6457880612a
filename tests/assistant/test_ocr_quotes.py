"""Answers citing an OCR treaty quote its corrected reading; the rule data keep quoting the raw scan."""
from __future__ import annotations

import rules.treaty_data as td
from ingest.ocr_reading import clean_passage


def test_rule_quotes_of_an_ocr_treaty_reach_the_answer_corrected(make_assistant):
    answer = make_assistant().ask("Sou residente em Espanha e recebo dividendos de uma empresa brasileira. "
                                  "Quanto imposto pagam no Brasil?")
    rule_quotes = [c.quote for c in answer.citations if c.source == "rule" and c.doc == "br-es-1974"]
    assert rule_quotes
    raw = {" ".join(c.citation.quote.split()) for _, c in _br_es_citations()}
    assert "a alíquota que teria sido aplicável se tais dividendos não" in " ".join(rule_quotes)
    assert not any("dividen.d os" in q for q in rule_quotes)
    assert any("dividen.d os" in q for q in raw)          # the data still quote the scan


def test_a_clean_quote_is_the_raw_one_when_there_was_nothing_to_correct():
    quote = "mas o imposto assim estabelecido não poderá exceder 15%"
    assert clean_passage(quote, "pt", "es") == quote


def _br_es_citations():
    from tests.rules.test_citations import all_citations
    return all_citations(td.load_all()["BR-ES"])
