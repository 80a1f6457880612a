"""A bank granting a loan: the lender is the beneficiary (residence), the borrower the source of the interest.
Phrasings not in the eval set."""
from __future__ import annotations

import pytest

from assistant.understand import understand

TREATIES = {"PT-BR": ("PT", "BR"), "BR-ES": ("BR", "ES"), "PT-JP": ("PT", "JP"), "MLI": ()}


def test_bank_lending_abroad_is_the_beneficiary():
    query = understand("Trabalho na área de crédito de um banco de Lisboa. Vamos emprestar a uma siderúrgica de "
                       "Vitória, a 11 anos, para comprar equipamento industrial. "
                       "Que retenção aplica o Brasil aos juros?",
                       TREATIES)
    assert (query.treaty, query.residence_state, query.source_state) == ("PT-BR", "PT", "BR")
    assert query.facts.beneficiary_kind == "financial_institution"
    assert query.facts.loan_term_years == 11
    assert query.facts.loan_purpose == "equipment"


@pytest.mark.parametrize("text", [
    "Sou analista num banco de Coimbra. Vamos emprestar 4 milhões a uma fábrica de Joinville por 9 anos. Quanto "
    "pode o Brasil reter sobre os juros?",
    "I work at a bank in Valencia. We're lending 2 million to a mill in Belém for 11 years. How much can Brazil "
    "withhold on the interest?",
    "Trabajo en una entidad financiera de Oviedo: vamos a dar un préstamo a 10 años a una empresa de Natal. ¿Qué "
    "retención aplica Brasil a los intereses?",
])
def test_a_writer_who_works_at_the_lending_bank_makes_the_bank_the_beneficiary(text):
    assert understand(text, TREATIES).facts.beneficiary_kind == "financial_institution"


@pytest.mark.parametrize("text", [
    # working at a bank is no lending: the bank is the employer; money kept at a bank is the payer's side
    "Trabalho num banco em Setúbal e recebo dividendos de uma empresa de Curitiba. Qual a retenção no Brasil?",
    "Tenho as poupanças num banco de Faro e emprestei dinheiro a um amigo em Recife. Quanto retém o Brasil nos "
    "juros que ele me paga?",
    # a lender that says it is no bank
    "A nossa empresa de Aveiro não é um banco, mas emprestou dinheiro a um cliente de Goiânia. Quanto pode o "
    "Brasil reter sobre os juros?",
    "We are not a bank: our Osaka trading firm lent money to a Porto distributor. What can Portugal withhold on "
    "the interest?",
])
def test_a_bank_that_is_not_the_lender_is_not_the_beneficiary(text):
    assert understand(text, TREATIES).facts.beneficiary_kind != "financial_institution"


def test_interest_from_a_bank_deposit_keeps_the_bank_as_payer():
    query = understand("Vivo em Madrid e recebo juros de um banco de Curitiba por um depósito a prazo.", TREATIES)
    assert (query.residence_state, query.source_state) == ("ES", "BR")
    assert query.facts.beneficiary_kind != "financial_institution"


def test_a_city_with_a_free_zone_is_not_a_free_zone_regime():
    query = understand("Uma empresa de Manaus paga juros a um banco do Porto. Qual o limite?", TREATIES)
    assert query.facts.free_zone_regime is None


def test_loan_from_a_bank_makes_the_bank_the_lender():
    query = understand("A nossa fábrica tem um empréstimo de um banco de Osaka, a 4 anos. Quanto retemos nos juros "
                       "que pagamos a partir do Porto?", TREATIES)
    assert query.facts.beneficiary_kind == "financial_institution"
    assert query.facts.loan_term_years == 4


def test_a_production_line_bought_on_credit_is_equipment():
    query = understand("Um banco de Madrid financia por 12 anos a importação de uma linha de produção para a nossa "
                       "fábrica em Joinville. Qual a retenção máxima sobre os juros?", TREATIES)
    assert query.facts.loan_purpose == "equipment"


@pytest.mark.parametrize("text", [
    "Un banco de Valencia presta a 11 años a una eléctrica de Recife para comprar dos turbinas. ¿Cuánto retiene "
    "Brasil sobre los intereses?",
    "A Bilbao bank is financing locomotives for a Brazilian railway over 14 years. What is the cap on the interest?",
])
def test_machines_named_by_name_are_equipment(text):
    assert understand(text, TREATIES).facts.loan_purpose == "equipment"


def test_a_loan_booked_at_a_branch_in_a_third_country_is_paid_to_that_branch():
    for text in ("A Brazilian manufacturer repays a loan through the Singapore branch of a bank from Porto. "
                 "Which withholding cap applies in Brazil?",
                 "Os juros vão para a sucursal de Luanda de um banco português; a empresa de Campinas retém quanto?"):
        query = understand(text, TREATIES)
        assert query.facts.paid_to_pe_third_state is True, text


def test_a_branch_in_a_treaty_state_is_not_a_third_country_one():
    query = understand("The Lisbon branch of a Spanish bank lent money to a company in Recife. "
                       "What can Brazil withhold on the interest?", TREATIES)
    assert query.facts.paid_to_pe_third_state is not True
