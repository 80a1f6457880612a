"""The second legal audit (issue 18): seven answers that were wrong for a user, and the items the rules left
incomplete. Each test states what the corpus text says and fails on the old reading."""
from __future__ import annotations

from rules import Facts, TaxingRightsResult, WithholdingResult, figures, relief_methods, taxing_rights, withholding_cap


def _decided(result: object) -> tuple[str, dict[str, str]]:
    assert isinstance(result, TaxingRightsResult) and result.outcome == "decided", result
    case = result.cases[0]
    return case.rule_id, {r.role: r.right for r in case.rights}


def _notes(result: object) -> str:
    assert isinstance(result, (TaxingRightsResult, WithholdingResult))
    notes = result.notes_in("pt")
    if isinstance(result, TaxingRightsResult):
        notes += [n.text_in("pt") for c in result.cases for n in c.notes]
    return " ".join(notes)


# 1. PT-BR 18(1) yields only to 19(2), and only 19(2) names pensions (for nationals of the paying State).
def test_pt_br_public_pension_of_a_non_national_is_taxed_only_by_the_residence_state() -> None:
    rid, rights = _decided(taxing_rights("PT-BR", "pensions", "PT",
                                         Facts(pension_kind="government", national_of_paying_state=False)))
    assert rights == {"residence": "exclusive", "source": "none"} and rid == "pt-br.rights.18-1"
    rid, rights = _decided(taxing_rights("PT-BR", "pensions", "PT",
                                         Facts(pension_kind="government", national_of_paying_state=True)))
    assert rights == {"source": "exclusive", "residence": "none"} and rid == "pt-br.rights.19-2-pension"


def test_pt_br_public_pension_without_nationality_asks_for_it() -> None:
    r = taxing_rights("PT-BR", "pensions", "PT", Facts(pension_kind="government"))
    assert isinstance(r, TaxingRightsResult) and r.outcome == "alternatives"
    assert r.missing_facts == ["national_of_paying_state"]
    assert {c.rule_id for c in r.cases} == {"pt-br.rights.19-2-pension", "pt-br.rights.18-1"}


# 2. BR-ES 14(1): the fee must fall on a PE in, or a company resident of, the other State.
def test_br_es_fee_paid_by_an_individual_is_taxed_only_in_the_residence_state() -> None:
    rid, rights = _decided(taxing_rights("BR-ES", "independent_services", "ES",
                                         Facts(fee_borne_by_company_or_pe=False, paid_by_source_resident=True)))
    assert rights == {"residence": "exclusive", "source": "none"} and rid == "br-es.rights.14-1"
    rid, rights = _decided(taxing_rights("BR-ES", "independent_services", "ES",
                                         Facts(fee_borne_by_company_or_pe=True)))
    assert rights == {"source": "shared", "residence": "shared"}
    r = taxing_rights("BR-ES", "independent_services", "ES")
    assert isinstance(r, TaxingRightsResult) and r.missing_facts == ["fee_borne_by_company_or_pe"]
    assert "sociedade residente" in r.cases[0].conditions[0].text_in("pt")


# 3. BR-ES 21(2): any employment "com a finalidade de ajudar os seus estudos", up to 4 consecutive calendar years.
def test_br_es_student_employment_to_help_the_studies_is_exempt_for_four_calendar_years() -> None:
    rid, rights = _decided(taxing_rights("BR-ES", "students", "BR",
                                         Facts(student_employment_for_studies=True, stay_years=3.5,
                                               student_payment_origin="local")))
    assert rid == "br-es.rights.21-2" and rights["source"] == "exempt"
    rid, _ = _decided(taxing_rights("BR-ES", "students", "BR",
                                    Facts(student_employment_for_studies=True, stay_years=5,
                                          student_payment_origin="local")))
    assert rid == "br-es.rights.21-local"
    r = taxing_rights("BR-ES", "students", "BR", Facts(student_practical_training=True, stay_years=1,
                                                      student_payment_origin="local"))
    assert _decided(r)[0] == "br-es.rights.21-local"      # practical training is the PT-BR test, not BR-ES's


# 4. BR-ES 11(4)(a): Government, political subdivision or wholly owned agency; local entities are not named.
def test_br_es_local_authority_is_not_the_government_of_11_4_a() -> None:
    local = withholding_cap("BR-ES", "interest", "BR", Facts(beneficiary_kind="local_authority"))
    assert isinstance(local, WithholdingResult) and local.outcome == "cap" and local.rate == 15
    government = withholding_cap("BR-ES", "interest", "BR", Facts(beneficiary_kind="government"))
    assert isinstance(government, WithholdingResult) and government.outcome == "exempt"
    pt_br = withholding_cap("PT-BR", "interest", "BR", Facts(beneficiary_kind="local_authority"))
    assert isinstance(pt_br, WithholdingResult) and pt_br.outcome == "exempt"     # PT-BR 11(3): "autarquia local"


# 5. 11(4)(b) BR-ES: only the source State; 11(7) BR-ES and 11(4) PT-BR lift the cap only (art. 7 does not apply).
def test_lifting_the_cap_is_not_article_7_and_public_debt_is_source_only() -> None:
    debt = withholding_cap("BR-ES", "interest", "BR", Facts(beneficiary_kind="individual", government_debt=True))
    assert isinstance(debt, WithholdingResult) and debt.outcome == "source_only"
    assert "também pode tributar" not in _notes(debt)
    for treaty in ("BR-ES", "PT-BR"):
        third = withholding_cap(treaty, "interest", "BR", Facts(paid_to_pe_third_state=True, attributable_to_pe=False,
                                                                beneficiary_kind="company"))
        assert isinstance(third, WithholdingResult) and third.outcome == "no_treaty_limit"
        pe = withholding_cap(treaty, "interest", "BR", Facts(attributable_to_pe=True))
        assert isinstance(pe, WithholdingResult) and pe.outcome == "pe_article_7"
    rid, rights = _decided(taxing_rights("BR-ES", "interest", "ES", Facts(government_debt=True,
                                                                         beneficiary_kind="company")))
    assert rights == {"source": "exclusive", "residence": "none"} and rid == "br-es.rights.11-4-b"


def test_the_outcome_texts_do_not_send_a_lifted_cap_to_article_7() -> None:
    from i18n import t
    for lang in ("pt", "es", "en"):
        assert "7" not in t(lang, "assistant.no_treaty_limit") and "7" in t(lang, "assistant.pe_article_7")


# 6. 19(3): a pension for services in a State's business goes to art. 18 (both treaties).
def test_pension_for_a_state_business_follows_article_18() -> None:
    rid, rights = _decided(taxing_rights("PT-BR", "pensions", "PT", Facts(pension_kind="government",
                                                                         government_business=True)))
    assert rid == "pt-br.rights.19-3-pension" and rights == {"residence": "exclusive", "source": "none"}
    rid, rights = _decided(taxing_rights("BR-ES", "pensions", "ES", Facts(pension_kind="government",
                                                                         government_business=True,
                                                                         pension_annual_usd=2000)))
    assert rid == "br-es.rights.19-3-limit" and rights == {"residence": "exclusive", "source": "none"}
    rid, rights = _decided(taxing_rights("BR-ES", "government_service", "ES",
                                         Facts(pension_kind="government", government_business=True,
                                               pension_annual_usd=9000)))
    assert rid == "br-es.rights.19-3-excess" and rights == {"source": "shared", "residence": "shared"}


# 7. BR-ES 11(4)(a) "não obstante" 1 and 2 also when the Government holds the other State's public debt.
def test_br_es_government_holding_the_other_states_bonds_is_exempt() -> None:
    r = withholding_cap("BR-ES", "interest", "BR", Facts(beneficiary_kind="government", government_debt=True))
    assert isinstance(r, WithholdingResult) and r.outcome == "exempt"
    rid, rights = _decided(taxing_rights("BR-ES", "interest", "ES", Facts(beneficiary_kind="government",
                                                                         government_debt=True)))
    assert rid == "br-es.rights.11-4-a" and rights["source"] == "exempt"


# Incomplete items.
def test_br_es_pension_above_3000_says_the_first_3000_stay_with_the_residence_state() -> None:
    r = taxing_rights("BR-ES", "pensions", "ES", Facts(pension_kind="private", pension_annual_usd=5000))
    assert _decided(r)[0] == "br-es.rights.18-1-excess"
    assert "3.000" in _notes(r) and "somente no Estado de residência" in _notes(r)


def test_br_es_students_note_the_spanish_text_without_do_exterior() -> None:
    r = taxing_rights("BR-ES", "students", "BR", Facts(student_payment_origin="local"))
    assert "igualmente autênticos" in _notes(r) and "las sumas que reciba" in _notes(r)
    assert any(c.language == "es" for c in r.citations)


def test_br_es_19_1_b_is_a_condition() -> None:
    rid, rights = _decided(taxing_rights("BR-ES", "government_service", "ES",
                                         Facts(services_in_residence_state=True, national_of_residence_state=False,
                                               resident_not_solely_for_services=True)))
    assert rid == "br-es.rights.19-1-resident" and rights == {"residence": "exclusive", "source": "none"}
    rid, _ = _decided(taxing_rights("BR-ES", "government_service", "ES",
                                    Facts(services_in_residence_state=True, national_of_residence_state=False,
                                          resident_not_solely_for_services=False)))
    assert rid == "br-es.rights.19-1"


def test_pt_br_dividend_deduction_conditions_and_protocol_7() -> None:
    base = dict(beneficiary_kind="company", direct_holding=True, holding_pct=30, payer_taxed_not_exempt=True)
    young = taxing_rights("PT-BR", "dividends", "PT", Facts(**base, holding_months=10, held_since_incorporation=True))
    assert isinstance(young, TaxingRightsResult)
    assert "dividend_deduction" in {x.method for x in young.cases[0].relief}
    exempt_payer = dict(base, payer_taxed_not_exempt=False)
    r = taxing_rights("PT-BR", "dividends", "PT", Facts(**exempt_payer, holding_months=30))
    assert isinstance(r, TaxingRightsResult) and "dividend_deduction" not in {x.method for x in r.cases[0].relief}
    deduction = next(x for x in relief_methods("PT-BR", "PT") if x.method == "dividend_deduction")
    assert "crédito indireto" in " ".join(n.text_in("pt") for n in deduction.notes)
    codes = {c.code for c in deduction.conditions}
    assert {"holding_min_years_or_since_formed", "payer_taxed_not_exempt"} <= codes


def test_pt_br_indirect_credit_needs_a_taxed_paying_company() -> None:
    credit = next(x for x in relief_methods("PT-BR", "BR") if x.method == "indirect_credit")
    assert "payer_taxed_not_exempt" in {c.code for c in credit.conditions}


def test_pt_br_mutual_agreement_deadline_has_three_starting_points() -> None:
    figs = figures("PT-BR", "mutual_agreement")
    assert isinstance(figs, list)
    text = " ".join(f.text_in("pt") for f in figs)
    assert "segunda tributação" in text and "pagamento" in text and "comunicação" in text


def test_br_es_professors_exchange_programme_and_lectures() -> None:
    rid, rights = _decided(taxing_rights("BR-ES", "professors", "BR",
                                         Facts(invited_to_teach_or_research=False, exchange_programme_visit=True,
                                               stay_years=1)))
    assert rid == "br-es.rights.20" and rights["source"] == "exempt"
    r = taxing_rights("BR-ES", "professors", "BR", Facts(exchange_programme_visit=True, stay_years=1))
    assert "conferências" in r.cases[0].conditions[0].text_in("pt")


def test_pt_br_other_income_residence_only_unless_it_arises_in_the_other_state() -> None:
    rid, rights = _decided(taxing_rights("PT-BR", "other_income", "PT", Facts(arises_in_other_state=False)))
    assert rid == "pt-br.rights.22-1" and rights == {"residence": "exclusive", "source": "none"}
    rid, rights = _decided(taxing_rights("PT-BR", "other_income", "PT", Facts(arises_in_other_state=True)))
    assert rid == "pt-br.rights.22-3" and rights == {"source": "shared", "residence": "shared"}


def test_scopes_named_in_full() -> None:
    from i18n import t
    assert "capital maioritariamente" in t("pt", "rules.conditions.public_funds_visit")
    assert "agência" in t("pt", "rules.conditions.government_debt")
    r = taxing_rights("BR-ES", "independent_services", "ES", Facts(fee_borne_by_company_or_pe=True))
    assert isinstance(r, TaxingRightsResult)
    assert any(c.article == "Protocolo 6" for c in r.cases[0].citations)
