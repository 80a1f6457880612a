"""construction_site(): a site is a PE only when it lasts longer than the treaty's figure (PT-BR 5(3) "só
constitui um estabelecimento estável se a sua duração exceder nove meses"; BR-ES 5(2)(g) "cuya duración
exceda de seis meses")."""
from __future__ import annotations

import pytest

from rules import RulesInputError
from rules.thresholds import construction_site


@pytest.mark.parametrize("treaty, months, pe", [
    ("PT-BR", 7, False), ("PT-BR", 9, False), ("PT-BR", 9.5, True), ("BR-ES", 6, False), ("BR-ES", 7, True),
    ("br-pt", 12, True),
])
def test_a_site_is_a_pe_only_beyond_the_figure(treaty, months, pe):
    test = construction_site(treaty, months)
    assert test is not None and test.permanent_establishment is pe
    assert test.figure.citations and test.figure.citations[0].article == "5"


def test_no_site_figure_no_test_and_bad_input_refused():
    assert construction_site("PT-JP", 10) is None            # the summary sets no site duration
    with pytest.raises(RulesInputError):
        construction_site("PT-BR", -1)


def test_stated_days_against_the_short_stay_limit():
    from rules.thresholds import stated_days
    assert stated_days("PT-BR", 120).status == "met"
    assert stated_days("PT-BR", 200).status == "not_met"            # any 12 months: whatever the dates
    assert stated_days("BR-ES", 200).status == "unknown"            # a calendar year: it may straddle two
    assert stated_days("BR-ES", 200, one_year=True).status == "not_met"
    assert stated_days("PT-BR", 120).params["days"] == 120


@pytest.mark.parametrize("treaty, activity, article, paragraph, words", [
    ("PT-BR", "auxiliary", "5", "4", "armazenar, expor ou entregar"),
    ("PT-BR", "independent_agent", "5", "6", "agente independente"),
    ("BR-ES", "auxiliary", "5", "3", "armazenagem"),
    ("BR-ES", "independent_agent", "5", "6", "estatuto"),
    ("PT-BR", "place_of_business", "5", "2", "sucursal"),
    ("BR-ES", "place_of_business", "5", "2", "sucursais"),
    ("PT-BR", "subsidiary", "5", "7", "controlar ou ser controlada"),
    ("BR-ES", "subsidiary", "5", "7", "ser controlada"),
])
def test_an_activity_the_treaty_decides_on_is_cited_from_its_paragraph(treaty, activity, article, paragraph,
                                                                       words):
    from rules.thresholds import pe_activity_rule
    test = pe_activity_rule(treaty, activity)
    assert test is not None and test.activity == activity
    assert test.permanent_establishment is (activity == "place_of_business")
    assert {(c.article, c.paragraph) for c in test.citations} == {(article, paragraph)}
    assert any(words in c.quote for c in test.citations)


def test_no_exclusion_where_the_corpus_has_none_and_unknown_activities_refused():
    from rules.thresholds import pe_activity_rule
    assert pe_activity_rule("PT-JP", "auxiliary") is None          # the summary lists no art. 5 exclusions
    with pytest.raises(RulesInputError):
        pe_activity_rule("PT-BR", "sales_office")
