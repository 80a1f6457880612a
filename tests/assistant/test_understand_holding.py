"""Holding facts on phrasings not in the eval set: a holding "since <year>" and a company as the holder."""
from __future__ import annotations

from datetime import date

import pytest

from assistant.lexicon.text import fold, tokenize
from assistant.understand import understand
from assistant.understand.facts import Hits, read_facts
from assistant.understand.places import Grammar, assign_roles, find_mentions, roles_of

TREATIES = {"PT-BR": ("PT", "BR"), "BR-ES": ("BR", "ES"), "PT-JP": ("PT", "JP"), "MLI": ()}


def read_on(text: str, today: date, topic: str = "dividends"):
    tokens = tokenize(text)
    mentions = find_mentions(text, tokens, "pt")
    grammar = Grammar(tokens)
    assign_roles(mentions, grammar, False)
    return read_facts(tokens, Hits(tokens), fold(text), "pt", (topic,), grammar, mentions, roles_of(mentions),
                      {"PT", "BR"}, None, today=today)


def facts_on(text: str, today: date):
    return read_on(text, today).facts


def test_held_since_a_year_counts_from_the_end_of_that_year():
    text = "A nossa SGPS em Leiria detém 30% de uma S.A. de Recife desde 2020. Que retenção nos dividendos?"
    assert 22 < facts_on(text, date(2022, 12, 1)).holding_months < 24          # not yet 2 years for sure
    assert 24 < facts_on(text, date(2023, 1, 15)).holding_months < 25


@pytest.mark.parametrize("text", [
    "A SGPS portuguesa é sócia direta da nossa Ltda. de Campinas desde março de 2019, com 60%. Os lucros vão ser "
    "distribuídos agora. Qual o limite de retenção no Brasil?",
    "Nuestra sociedad tiene el 40% de una empresa de Recife desde octubre de 2021. ¿Qué retención sobre los "
    "dividendos?",
])
def test_held_since_a_month_with_no_payment_date_counts_until_today(text):
    """No payment date: the dividend is paid now or later, so the holding lasts at least until today."""
    assert 24 < facts_on(text, date(2024, 1, 15)).holding_months < 60
    assert facts_on(text, date(2019, 1, 1)).holding_months is None        # a start in the future counts nothing


def test_held_since_a_year_counts_until_the_payment_date():
    text = "A SGPS do Porto detém diretamente 40% de uma Ltda. de Belém desde 2019; o dividendo será pago em maio " \
           "de 2025. Qual a retenção?"
    assert 63 < facts_on(text, date(2030, 1, 1)).holding_months < 65     # Dec 2019 to May 2025, not to today
    early = "A SGPS do Porto detém 40% de uma Ltda. de Belém desde 2024; o dividendo será pago em maio de 2025."
    assert facts_on(early, date(2030, 1, 1)).holding_months < 24


@pytest.mark.parametrize("text", [
    "Emprestámos 2 milhões a uma Ltda. de Natal com juros de 9% a.a. e ela retém imposto. Qual o limite?",
    "Our Braga company lent money to a Recife firm at 7% p.a. What is the cap on the interest?",
    "Prestamos dinero a una empresa de Vigo al 6% al año. ¿Cuánto puede retener España?",
])
def test_a_percentage_per_year_is_a_yield_not_a_holding_nor_a_rate(text):
    read = read_on(text, date(2026, 1, 1), "interest")
    assert read.facts.holding_pct is None and not read.stated_rates


def test_a_stated_period_wins_over_the_year():
    text = "Compramos 30% de uma S.A. de Recife em 2015 e detemos a participação há 8 meses."
    assert facts_on(text, date(2026, 1, 1)).holding_months == 8


def test_company_as_holder_and_ten_percent():
    query = understand("Somos uma Lda. de Viseu; desde 2017 a sociedade tem 40% de uma fábrica em Joinville, "
                       "que vai pagar dividendos. Quanto retém o Brasil?", TREATIES)
    assert query.facts.beneficiary_kind == "company"
    assert query.facts.holding_months > 24


@pytest.mark.parametrize("text, since, paid", [
    ("Our Lisbon company has owned 30% of a Brazilian Ltda. since October 2021; the dividend is due in "
     "January 2024. What is the cap?", date(2021, 10, 31), date(2024, 1, 1)),
    ("A SGPS detém 35% de uma S.A. de Manaus desde maio de 2022 e os dividendos serão pagos em abril de 2024. "
     "Qual a taxa?", date(2022, 5, 31), date(2024, 4, 1)),
    ("Poseemos el 60% de una sociedad de Recife desde febrero de 2019; el dividendo se pagará en julio de 2023. "
     "¿Qué retención?", date(2019, 2, 28), date(2023, 7, 1)),
    # the purchase verb with its object before the date; the payment read from "recebe"
    ("A nossa SGPS comprou 30% de uma empresa de Curitiba em março de 2024 e recebe dividendos em dezembro de "
     "2025. Qual a taxa?", date(2024, 3, 31), date(2025, 12, 1)),
    ("Compramos el 40% de una sociedad de Fortaleza en junio de 2023 y recibimos el dividendo en mayo de 2025. "
     "¿Qué retención?", date(2023, 6, 30), date(2025, 5, 1)),
])
def test_a_month_and_year_start_the_holding_and_date_the_payment(text, since, paid):
    """The month's last day starts the holding and the payment month's first day ends it: never longer than
    stated."""
    f = understand(text, TREATIES, topic="dividends").facts
    assert (f.holding_since, f.payment_date) == (since, paid)


def test_a_month_is_no_holding_outside_a_holding_question():
    f = understand("Vivo no Porto desde março de 2020 e recebi a pensão do INSS em maio de 2024. Quem tributa?",
                   TREATIES, topic="pensions").facts
    assert f.holding_since is None and f.payment_date is None


@pytest.mark.parametrize("text, since, paid", [
    # the date first, the purchase after it: the holding starts then
    ("In March 2021 we bought 30% of a company in Curitiba. It pays a dividend in June 2025. What is the cap?",
     date(2021, 3, 31), date(2025, 6, 1)),
    ("En enero de 2022 nuestra SL adquirió el 40% de una sociedad de Recife; reparte dividendos en marzo de 2025. "
     "¿Retención?", date(2022, 1, 31), date(2025, 3, 1)),
    # a date with no purchase after it in its sentence starts nothing
    ("Em março de 2021 abrimos o escritório. A participada de Natal paga dividendos em junho de 2025. Que taxa?",
     None, date(2025, 6, 1)),
])
def test_a_purchase_written_after_its_date_starts_the_holding(text, since, paid):
    facts = facts_on(text, date(2026, 12, 1))
    assert (facts.holding_since, facts.payment_date) == (since, paid)
