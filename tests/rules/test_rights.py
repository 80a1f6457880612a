"""Taxing rights: every distributive article of each convention (and every row of the Portugal–Japan
summary) has a cited entry; taxing_rights() decides, lists alternatives with the deciding facts, caps from
the withholding rules and returns the residence State's relief."""
from __future__ import annotations

import pytest

from ingest.corpus import DEFAULT_CORPUS_DIR, cached_corpus
from rules import Facts, NotCovered, RulesInputError, TaxingRightsResult, taxing_rights
from rules.treaty_data import load_all

CONVENTIONS = {"PT-BR": "pt-br-2000", "BR-ES": "br-es-1974"}


def _docs():
    return cached_corpus(DEFAULT_CORPUS_DIR)[1]


@pytest.mark.parametrize("treaty,doc", sorted(CONVENTIONS.items()))
def test_every_parsed_article_6_to_22_has_a_taxing_rights_entry(treaty: str, doc: str) -> None:
    parsed = {u.article for u in _docs()[doc].units if u.article and u.article.isdigit() and 6 <= int(u.article) <= 22}
    assert len(parsed) == 17, sorted(parsed)
    data = load_all()[treaty]
    missing = sorted(parsed - set(data.rights_articles), key=int)
    assert not missing, f"{treaty}: artigos sem entrada em taxing_rights.articles: {missing}"
    for entry in data.rights_articles.values():
        assert entry.incomes or (entry.reason is not None and entry.citations), entry.article
        for income in entry.incomes:
            assert income in data.rights, f"{treaty} art. {entry.article}: {income} sem casos"


def test_every_row_of_the_portugal_japan_summary_has_an_entry() -> None:
    rows = {u.article for u in _docs()["pt-jp-2011-summary"].units if u.kind == "table_row"}
    data = load_all()["PT-JP"]
    cited = {c.citation.article for spec in data.rights.values() for case in spec.cases for c in case.citations
             if c.citation.doc == "pt-jp-2011-summary"}
    assert rows and rows <= cited, sorted(rows - cited)
    relief_rows = {u.article for u in _docs()["pt-jp-2011-summary"].units if u.article == "22"}
    assert relief_rows <= {c.citation.article for r in data.relief for c in r.citations}


def _only(result: TaxingRightsResult) -> dict[str, str]:
    assert isinstance(result, TaxingRightsResult) and result.outcome == "decided", result
    return {r.role: r.right for r in result.cases[0].rights}


def test_brazilian_social_security_pension_of_a_resident_of_portugal_only_brazil() -> None:
    r = taxing_rights("PT-BR", "pensions", "PT", Facts(pension_kind="social_security"))
    assert _only(r) == {"source": "exclusive", "residence": "none"}
    assert r.cases[0].rights[0].state == "BR" and r.cases[0].article == "18"
    assert [x.method for x in r.cases[0].relief] == ["exemption_progression"]      # art. 23(4)


def test_the_same_pension_under_brazil_spain_is_taxed_only_by_the_residence_state() -> None:
    r = taxing_rights("BR-ES", "pensions", "ES", Facts(pension_kind="social_security"))
    assert _only(r) == {"residence": "exclusive", "source": "none"} and r.cases[0].article == "19"


def test_missing_fact_gives_alternatives_naming_it_and_assumes_rare_exceptions_away() -> None:
    r = taxing_rights("PT-BR", "pensions", "PT")
    assert r.outcome == "alternatives" and r.missing_facts == ["pension_kind"]
    assert {c.rule_id for c in r.cases} == {"pt-br.rights.18-2", "pt-br.rights.18-1"}
    assert [a.code for a in r.assumptions] == ["pension_government"]
    r = taxing_rights("PT-BR", "pensions", "PT", Facts(pension_kind="government", national_of_paying_state=True))
    assert _only(r) == {"source": "exclusive", "residence": "none"}
    assert r.cases[0].rule_id == "pt-br.rights.19-2-pension"


def test_capital_gains_by_kind() -> None:
    assert _only(taxing_rights("PT-BR", "capital_gains", "PT", Facts(gain_kind="immovable"))) == {
        "source": "shared", "residence": "shared"}
    assert _only(taxing_rights("PT-BR", "capital_gains", "PT", Facts(gain_kind="ships_aircraft"))) == {
        "effective_management": "exclusive"}
    assert _only(taxing_rights("PT-JP", "capital_gains", "PT", Facts(gain_kind="shares"))) == {
        "residence": "exclusive", "source": "none"}
    r = taxing_rights("PT-JP", "capital_gains", "PT", Facts(gain_kind="shares_immovable"))
    assert any(c.doc == "mli-pt-2019" and "365 dias" in c.quote for c in r.cases[0].citations)


def test_capped_right_comes_from_the_withholding_rules() -> None:
    r = taxing_rights("PT-BR", "dividends", "PT", Facts(beneficiary_kind="individual"))
    source = next(x for x in r.cases[0].rights if x.role == "source")
    assert source.right == "capped" and source.cap is not None and source.cap.rate == 15.0


def test_relief_depends_on_the_residence_state() -> None:
    facts = Facts(beneficiary_kind="company", direct_holding=True, holding_pct=30, holding_months=30)
    pt = taxing_rights("PT-BR", "dividends", "PT", facts).cases[0].relief
    assert {x.method for x in pt} == {"credit", "dividend_deduction"}
    assert any(f.value == 95 for x in pt for f in x.figures)
    es = taxing_rights("BR-ES", "dividends", "ES").cases[0].relief
    assert [x.method for x in es] == ["exemption_progression"]            # 23(3) replaces the credit
    br = taxing_rights("BR-ES", "dividends", "BR").cases[0].relief
    assert [x.method for x in br] == ["exemption"]
    sparing = taxing_rights("BR-ES", "interest", "ES").cases[0].relief
    assert {x.method for x in sparing} == {"credit", "tax_sparing"}
    assert [x.method for x in taxing_rights("PT-JP", "royalties", "JP").cases[0].relief] == ["credit"]


def test_students_payments_from_abroad_vs_local() -> None:
    assert _only(taxing_rights("PT-BR", "students", "BR", Facts(student_payment_origin="abroad")))["source"] == "exempt"
    local = taxing_rights("PT-BR", "students", "BR", Facts(student_payment_origin="local"))
    assert _only(local)["source"] == "shared" and local.cases[0].notes


def test_not_covered_only_when_the_corpus_is_silent_and_bad_input() -> None:
    r = taxing_rights("PT-JP", "directors_fees", "PT")
    assert isinstance(r, NotCovered) and "pensions" in r.covered
    assert all(r.message_in(lang) for lang in ("pt", "es", "en"))
    assert isinstance(taxing_rights("PT-FR", "pensions", "PT"), NotCovered)
    with pytest.raises(RulesInputError):
        taxing_rights("PT-BR", "pensions", "ES")
    with pytest.raises(RulesInputError):
        taxing_rights("PT-BR", "pensions", "PT", Facts(pension_kind="lottery"))


def test_a_cap_that_is_an_exemption_is_no_right_to_tax() -> None:
    """PT-BR 11(3): interest paid to the other State's Government-owned institution "são isentos de imposto no
    primeiro Estado" — the source State may not tax it, so nothing is left for the residence State to relieve."""
    result = taxing_rights("PT-BR", "interest", "PT", Facts(beneficiary_kind="government"))
    assert isinstance(result, TaxingRightsResult) and result.outcome == "decided"
    rights = {r.state: r.right for r in result.cases[0].rights}
    assert rights == {"BR": "exempt", "PT": "shared"}
    assert result.cases[0].relief == []
    ordinary = taxing_rights("PT-BR", "interest", "PT", Facts(beneficiary_kind="individual"))
    assert {r.state: r.right for r in ordinary.cases[0].rights}["BR"] == "capped"
    assert ordinary.cases[0].relief
