"""Holding facts on phrasings not in the eval set: a holding "since <year>" and a company as the holder."""
from __future__ import annotations

from datetime import date

from assistant.lexicon.text import fold, tokenize
from assistant.understand import understand
from assistant.understand.facts import Hits, read_facts
from assistant.understand.places import Grammar, assign_roles, find_mentions, roles_of

TREATIES = {"PT-BR": ("PT", "BR"), "BR-ES": ("BR", "ES"), "PT-JP": ("PT", "JP"), "MLI": ()}


def facts_on(text: str, today: date):
    tokens = tokenize(text)
    mentions = find_mentions(text, tokens, "pt")
    grammar = Grammar(tokens)
    assign_roles(mentions, grammar, False)
    return read_facts(tokens, Hits(tokens), fold(text), "pt", ("dividends",), grammar, mentions, roles_of(mentions),
                      {"PT", "BR"}, None, today=today).facts


def test_held_since_a_year_counts_from_the_end_of_that_year():
    text = "A nossa SGPS em Leiria detém 30% de uma S.A. de Recife desde 2020. Que retenção nos dividendos?"
    assert 22 < facts_on(text, date(2022, 12, 1)).holding_months < 24          # not yet 2 years for sure
    assert 24 < facts_on(text, date(2023, 1, 15)).holding_months < 25


def test_a_stated_period_wins_over_the_year():
    text = "Compramos 30% de uma S.A. de Recife em 2015 e detemos a participação há 8 meses."
    assert facts_on(text, date(2026, 1, 1)).holding_months == 8


def test_company_as_holder_and_ten_percent():
    query = understand("Somos uma Lda. de Viseu; desde 2017 a sociedade tem 40% de uma fábrica em Joinville, "
                       "que vai pagar dividendos. Quanto retém o Brasil?", TREATIES)
    assert query.facts.beneficiary_kind == "company"
    assert query.facts.holding_months > 24
