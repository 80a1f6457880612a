"""deciding_facts(): the Facts fields the data's conditions read for a topic (written from the data files'
conditions as the corpus states them, not from the code)."""
from __future__ import annotations

from rules.deciding import deciding_facts


def test_withholding_facts_come_from_the_rules_and_the_common_exclusions():
    assert {"holding_pct", "holding_months", "beneficiary_kind"} <= deciding_facts("PT-BR", "dividends")
    assert "free_zone_regime" in deciding_facts("PT-BR", "interest")          # PT-BR Protocol exclusion
    assert {"loan_term_years", "loan_purpose"} <= deciding_facts("BR-ES", "interest")


def test_a_redirect_brings_the_facts_of_the_income_it_sends_to():
    assert {"pension_kind", "national_of_paying_state"} <= deciding_facts("PT-BR", "pensions")   # 18(1) -> 19(2)
    assert "pension_annual_usd" in deciding_facts("BR-ES", "pensions")                         # US$ 3,000


def test_unknown_treaty_means_every_treaty_and_unknown_topic_nothing():
    assert deciding_facts(None, "pensions") >= deciding_facts("BR-ES", "pensions")
    assert deciding_facts("PT-BR", "no_such_topic") == frozenset()
    assert "holding_pct" not in deciding_facts("PT-BR", "pensions")
