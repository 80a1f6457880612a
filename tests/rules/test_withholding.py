"""withholding_cap(): expected rates are those the treaty texts state (read independently of the data files)."""
from __future__ import annotations

from datetime import date

import pytest

from rules import Facts, NotCovered, RulesInputError, WithholdingResult, taxing_rights, withholding_cap

PARENT = dict(beneficiary_kind="company", direct_holding=True, free_zone_regime=False, attributable_to_pe=False,
              registered_central_bank=True)


def cap(treaty: str, income: str, source: str, **facts) -> WithholdingResult:
    result = withholding_cap(treaty, income, source, Facts(**facts))
    assert isinstance(result, WithholdingResult), result
    return result


@pytest.mark.parametrize("pct,months,rate", [(25, 24, 10.0), (24.9, 24, 15.0), (25, 23, 15.0), (100, 23.9, 15.0)])
def test_pt_br_dividend_boundaries(pct: float, months: float, rate: float) -> None:
    r = cap("PT-BR", "dividends", "BR", holding_pct=pct, holding_months=months, **PARENT)
    assert (r.outcome, r.rate) == ("cap", rate)


def test_pt_br_dividend_holding_period_from_dates() -> None:
    two_years = cap("PT-BR", "dividends", "PT", holding_pct=30, holding_since=date(2022, 3, 1),
                    payment_date=date(2024, 3, 1), **PARENT)
    one_day_short = cap("PT-BR", "dividends", "PT", holding_pct=30, holding_since=date(2022, 3, 2),
                        payment_date=date(2024, 3, 1), **PARENT)
    assert (two_years.rate, one_day_short.rate) == (10.0, 15.0)


def test_missing_facts_give_alternatives_not_a_rate() -> None:
    r = cap("PT-BR", "dividends", "BR")
    assert r.outcome == "alternatives" and r.rate is None
    assert [a.rate for a in r.alternatives] == [10.0, 15.0]
    assert {"beneficiary_kind", "holding_pct", "holding_months", "direct_holding"} <= set(r.missing_facts)
    assert "registered_central_bank" in r.missing_facts          # Portaria, Brazil as source
    assert {c.code for c in r.assumptions} == {"free_zone_regime", "attributable_to_pe"}
    assert r.alternatives[1].conditions[0].code == "otherwise"


def test_individual_needs_no_holding_facts() -> None:
    r = cap("PT-BR", "dividends", "PT", beneficiary_kind="individual")
    assert (r.outcome, r.rate, r.missing_facts) == ("cap", 15.0, [])
    assert all(c.doc == "pt-br-2000" for c in r.citations)         # the Portaria only acts in Brazil


def test_portaria_cited_and_required_when_brazil_is_source() -> None:
    r = cap("PT-BR", "dividends", "BR", beneficiary_kind="individual")
    assert r.rate == 15.0 and "registered_central_bank" in r.missing_facts
    assert {"pt-br-2000", "br-portaria-pt-br"} <= {c.doc for c in r.citations}
    unregistered = cap("PT-BR", "dividends", "BR", beneficiary_kind="individual", registered_central_bank=False)
    assert any("Banco Central" in n for n in unregistered.notes_in("pt"))


def test_pt_br_exclusions_decide_when_stated() -> None:
    assert cap("PT-BR", "dividends", "BR", free_zone_regime=True).outcome == "no_treaty_benefit"
    assert cap("PT-BR", "royalties", "PT", attributable_to_pe=True).outcome == "pe_article_7"
    third = cap("PT-BR", "interest", "BR", paid_to_pe_third_state=True, attributable_to_pe=False)
    assert third.outcome == "no_treaty_limit" and any(c.article == "III" for c in third.citations)


def test_pt_br_interest() -> None:
    assert cap("PT-BR", "interest", "BR", beneficiary_kind="government").outcome == "exempt"
    assert cap("PT-BR", "interest", "PT", beneficiary_kind="company").rate == 15.0
    jcp = cap("PT-BR", "dividends", "BR", interest_on_equity=True, beneficiary_kind="company")
    assert (jcp.income, jcp.rate) == ("interest", 15.0)
    assert any(c.article == "Protocolo 4" for c in jcp.citations)


def test_pt_br_technical_services_are_royalties() -> None:
    r = cap("PT-BR", "technical_services", "PT")
    assert r.rate == 15.0 and any(c.article == "Protocolo 5" for c in r.citations)


def test_pt_br_branch_profits_use_10_2_a() -> None:
    r = cap("PT-BR", "branch_profits", "BR", free_zone_regime=False)
    assert r.rate == 10.0 and {(c.article, c.paragraph) for c in r.citations} >= {("10", "6"), ("10", "2")}


def test_br_es_rates() -> None:
    assert cap("BR-ES", "dividends", "BR", beneficiary_kind="company", holding_pct=100).rate == 15.0
    assert cap("BR-ES", "branch_profits", "BR").rate == 15.0
    assert isinstance(withholding_cap("BR-ES", "branch_profits", "ES", Facts()), NotCovered)
    assert cap("BR-ES", "interest", "ES", beneficiary_kind="government").outcome == "exempt"
    loan = dict(beneficiary_kind="financial_institution", loan_purpose="equipment")
    assert cap("BR-ES", "interest", "BR", loan_term_years=10, **loan).rate == 10.0
    assert cap("BR-ES", "interest", "BR", loan_term_years=9.9, **loan).rate == 15.0
    assert cap("BR-ES", "interest", "BR", beneficiary_kind="individual").rate == 15.0
    assert cap("BR-ES", "interest", "BR", paid_to_pe_third_state=True).outcome == "no_treaty_limit"


def test_br_es_royalty_kinds() -> None:
    assert cap("BR-ES", "royalties", "BR", royalty_kind="copyright_film").rate == 10.0
    assert cap("BR-ES", "royalties", "BR", royalty_kind="copyright_film_other").rate == 15.0
    assert cap("BR-ES", "royalties", "ES", royalty_kind="trademark").rate == 15.0
    unknown = cap("BR-ES", "royalties", "BR")
    assert [a.rate for a in unknown.alternatives] == [10.0, 15.0] and unknown.missing_facts == ["royalty_kind"]
    ts = cap("BR-ES", "technical_services", "BR")
    assert ts.rate == 15.0 and any(c.article == "Protocolo 5" for c in ts.citations)


def test_pt_jp_summary_rates_and_limits() -> None:
    assert [cap("PT-JP", i, "JP").rate for i in ("interest", "royalties")] == [10.0, 5.0]
    assert cap("PT-JP", "dividends", "JP", beneficiary_kind="individual").rate == 10.0
    assert cap("PT-JP", "dividends", "PT").coverage == "summary"


def test_audit_pt_jp_company_dividends_are_not_in_the_corpus() -> None:
    """The summary's 10% is for individuals; a company shareholder gets an honest "not in the corpus"."""
    company = withholding_cap("PT-JP", "dividends", "JP", Facts(beneficiary_kind="company"))
    assert company.outcome == "not_in_corpus" and company.rate is None
    unknown = withholding_cap("PT-JP", "dividends", "JP", Facts())
    assert unknown.outcome == "alternatives" and {a.rate for a in unknown.alternatives} == {10.0, None}


def test_audit_br_es_third_state_pe_does_not_swallow_11_3_or_the_government_exemption() -> None:
    equipment = Facts(beneficiary_kind="financial_institution", loan_term_years=12, loan_purpose="equipment",
                      paid_to_pe_third_state=True)
    assert withholding_cap("BR-ES", "interest", "BR", equipment).rate == 10.0
    government = Facts(beneficiary_kind="government", paid_to_pe_third_state=True)
    assert withholding_cap("BR-ES", "interest", "BR", government).outcome == "exempt"
    plain = Facts(beneficiary_kind="company", paid_to_pe_third_state=True)
    assert withholding_cap("BR-ES", "interest", "BR", plain).outcome == "no_treaty_limit"


def test_audit_portaria_proviso_and_government_exemption_without_registration() -> None:
    registered = withholding_cap("PT-BR", "dividends", "BR", Facts(registered_central_bank=True))
    assert any("ressalvada isenção" in c.quote for c in registered.citations)
    assert any("lei interna" in n for n in registered.notes_in("pt"))
    government = withholding_cap("PT-BR", "interest", "BR", Facts(beneficiary_kind="government"))
    assert government.outcome == "exempt" and "registered_central_bank" not in government.missing_facts
    assert not any(c.code == "registered_central_bank" for c in government.conditions)


def test_audit_br_es_government_text_lists_only_its_entities() -> None:
    result = withholding_cap("BR-ES", "interest", "BR", Facts(beneficiary_kind="government"))
    text = " ".join(c.text_in("pt") for c in result.conditions)
    assert "agência" in text and "autarquia" not in text
    debt = taxing_rights("BR-ES", "interest", "ES", Facts(government_debt=True))
    assert debt.cases[0].rule_id == "br-es.rights.11-4-b"
    assert isinstance(withholding_cap("PT-JP", "technical_services", "JP", Facts()), NotCovered)


def test_not_covered_and_bad_input() -> None:
    for result in (withholding_cap("PT-FR", "dividends", "PT", Facts()),
                   withholding_cap("PT-BR", "vat", "PT", Facts()),
                   withholding_cap("MLI", "dividends", "PT", Facts())):
        assert isinstance(result, NotCovered) and result.covered and result.message
    for bad in (Facts(holding_pct=-1), Facts(holding_pct=100.1), Facts(holding_months=-3),
                Facts(beneficiary_kind="alien"), Facts(holding_since=date(2024, 1, 2), payment_date=date(2024, 1, 1))):
        with pytest.raises(RulesInputError):
            withholding_cap("PT-BR", "dividends", "PT", bad)
    with pytest.raises(RulesInputError, match="não é parte"):
        withholding_cap("PT-BR", "dividends", "FR", Facts())


def test_results_serialise() -> None:
    d = cap("PT-BR", "dividends", "BR").to_dict()
    assert d["type"] == "WithholdingResult" and d["alternatives"][0]["conditions"][0]["code"]
    assert cap("BR-PT".lower(), "interest", "PT").treaty == "PT-BR"


def test_br_es_public_debt_interest_has_no_treaty_cap():
    """BR-ES 11(4)(b): interest on a Government's public debt is taxable only in that State ("só são
    tributáveis nesse Estado"): the source State alone, no cap, and no "the residence State may also tax" note;
    without that fact the 15% cap stands and public debt is listed as assumed not."""
    from rules import withholding_cap
    from rules.facts import Facts
    debt = withholding_cap("BR-ES", "interest", "BR", Facts(beneficiary_kind="individual", government_debt=True))
    assert debt.outcome == "source_only" and debt.rate is None
    assert not any("também pode tributar" in n for n in debt.notes_in("pt"))
    assert any(c.paragraph == "4" and c.subparagraph == "b" for c in debt.citations)
    plain = withholding_cap("BR-ES", "interest", "BR", Facts(beneficiary_kind="individual"))
    assert plain.rate == 15 and "government_debt" in [a.code for a in plain.assumptions]


def test_a_stated_fact_that_fails_the_lower_rate_is_reported():
    """24% held: the 15% cap applies, and the result says which condition of the 10% rate failed."""
    from rules import withholding_cap
    from rules.facts import Facts
    r = withholding_cap("PT-BR", "dividends", "BR", Facts(beneficiary_kind="company", holding_pct=24,
                                                          direct_holding=True, holding_months=40))
    assert r.rate == 15
    assert [a.rate for a in r.ruled_out] == [10]
    assert [c.code for c in r.ruled_out[0].conditions] == ["holding_min_pct"]
    unknown = withholding_cap("PT-BR", "dividends", "BR", Facts())
    assert unknown.outcome == "alternatives" and unknown.ruled_out == []
