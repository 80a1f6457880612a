"""Purely domestic situations (one country, as residence and as source) are out of scope; listed companies
point to their country. Phrasings not in the eval set."""
from __future__ import annotations

import pytest

from assistant.understand import understand

TREATIES = {"PT-BR": ("PT", "BR"), "BR-ES": ("BR", "ES"), "PT-JP": ("PT", "JP"), "MLI": ()}


@pytest.mark.parametrize("text", [
    "Recebi dividendos da EDP e moro em Setúbal. Quanto retêm?",
    "Resido en Valencia y he vendido acciones de Iberdrola con plusvalía. ¿Qué tributo?",
    "I live in Osaka and received dividends from Toyota. What is the withholding?",
    "Vivo em Faro e recebo juros de um banco português.",
])
def test_one_country_as_residence_and_source_is_domestic(text):
    assert understand(text, TREATIES).out_of_scope == "domestic"


@pytest.mark.parametrize("text, treaty, source", [
    ("Moro em Madrid e recebo dividendos do Itaú. Qual a retenção?", "BR-ES", "BR"),
    ("A Sony paga-me royalties e vivo em Lisboa.", "PT-JP", "JP"),
    ("Resido em São Paulo e tenho ações da Galp; dividendos?", "PT-BR", "PT"),
])
def test_listed_company_names_the_source_country(text, treaty, source):
    query = understand(text, TREATIES)
    assert query.out_of_scope is None
    assert (query.treaty, query.source_state) == (treaty, source)


def test_one_country_without_a_source_still_gets_candidate_treaties():
    query = understand("Moro em Braga e recebo royalties. Qual a retenção máxima?", TREATIES)
    assert query.out_of_scope is None and query.readings


@pytest.mark.parametrize("text", [
    "Vivo em Coimbra e tenho juros de um banco de fora; quanto pode o país do banco reter, e abato isso no IRS?",
    "Resido en Sevilla y cobro intereses de un banco extranjero; ¿cuánto retienen y lo deduzco en el IRPF?",
    "I live in Kyoto and get interest from a foreign bank; what can that country withhold, and do I claim it "
    "against Japanese income tax?",
])
def test_an_income_from_outside_the_one_country_named_is_not_domestic(text):
    """"um banco de fora", "un banco extranjero", "a foreign bank": a foreign element, even when the one country
    named is also the tax's ("no IRS", "el IRPF", "Japanese income tax")."""
    assert understand(text, TREATIES).out_of_scope is None
