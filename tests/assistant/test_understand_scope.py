"""Out of scope only when the main question is; a stated rate is a premise, not a holding; evasion is refused.
Phrasings written for these tests, not taken from the eval set."""
from __future__ import annotations

import pytest

from assistant.understand import Query, understand

TREATIES = {"PT-BR": ("PT", "BR"), "BR-ES": ("BR", "ES"), "PT-JP": ("PT", "JP"), "MLI": ()}


def q(text: str) -> Query:
    return understand(text, TREATIES)


@pytest.mark.parametrize("text, note", [
    ("Faturo royalties a uma empresa de Lisboa e cobro IVA na fatura. O Brasil pode reter imposto de renda?", "vat"),
    ("Vivo en Madrid, cotizo a la seguridad social aquí y recibo intereses de Brasil. ¿Cuánto retienen?",
     "social_security_contributions"),
    ("I pay stamp duty on the contract; the Brazilian licensee pays me royalties from São Paulo and I live in "
     "Lisbon. What is the withholding cap?", "financial_transactions_tax"),
])
def test_a_side_mention_is_a_note_and_the_treaty_part_is_answered(text, note):
    r = q(text)
    assert r.out_of_scope is None and note in r.side_notes
    assert r.topic is not None


@pytest.mark.parametrize("text, code", [
    ("Tenho de contribuir para o INSS se trabalho a partir de Lisboa?", "social_security_contributions"),
    ("Qual é a taxa de IVA que cobro a um cliente em Espanha?", "vat"),
    ("Quanto pago de imposto do selo num empréstimo?", "financial_transactions_tax"),
])
def test_the_main_question_out_of_scope_is_refused(text, code):
    assert q(text).out_of_scope == code


def test_a_pension_paid_by_the_social_security_institute_is_a_pension():
    r = q("Recebo aposentadoria do INSS e moro em Valência. A Espanha tributa?")
    assert r.out_of_scope is None and r.topic == "pensions"
    assert (r.treaty, r.residence_state, r.source_state) == ("BR-ES", "ES", "BR")


@pytest.mark.parametrize("text, rate", [
    ("Os dividendos que a empresa brasileira me paga ficam nos 5%, certo?", 5.0),
    ("Los dividendos de Brasil tributan al 5%, ¿verdad?", 5.0),
    ("Dividends from Brazil are taxed at 5%, right?", 5.0),
])
def test_a_percentage_without_holding_words_is_a_stated_rate(text, rate):
    r = q(text)
    assert r.stated_rates == (rate,) and r.facts.holding_pct is None


def test_a_percentage_with_holding_words_stays_a_holding():
    r = q("Detenho 5% de uma empresa brasileira que paga dividendos")
    assert r.facts.holding_pct == 5.0 and r.stated_rates == ()


@pytest.mark.parametrize("text", [
    "Como posso esconder os meus rendimentos do Brasil das Finanças?",
    "¿Cómo evadir impuestos con una sociedad en Brasil?",
    "Best way to launder money through a Portuguese company?",
])
def test_evasion_is_flagged(text):
    assert q(text).evasion


def test_asking_about_tax_is_not_evasion():
    assert not q("Como evitar a dupla tributação dos dividendos do Brasil?").evasion
