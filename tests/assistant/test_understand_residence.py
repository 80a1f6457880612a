"""Art. 4 tie-breaker facts read clause by clause, on phrasings not in the eval set (pt, es, en)."""
from __future__ import annotations

import pytest

from assistant.understand import understand
from rules import residence_tiebreaker

TREATIES = {"PT-BR": ("PT", "BR"), "BR-ES": ("BR", "ES"), "PT-JP": ("PT", "JP"), "MLI": ()}


@pytest.mark.parametrize("text, treaty, homes, vital, abodes, nationality, result", [
    # homes in both, the family in one: the centre of vital interests decides
    ("Tenho um T2 meu no Porto e uma casa em Recife; o meu marido e os miúdos vivem no Porto. "
     "Portugal e Brasil dizem que sou residente. Qual prevalece?", "PT-BR", {"PT", "BR"}, "PT", None, None, "PT"),
    ("Mantengo una vivienda en Sevilla y otra en Salvador, donde viven mi esposa y mis hijas. "
     "¿De qué país soy residente según el convenio?", "BR-ES", {"ES", "BR"}, "BR", None, None, "BR"),
    # no home anywhere, dual national, time split evenly: mutual agreement
    ("I have no permanent home, I rent rooms, and I'm a dual Brazilian-Portuguese citizen spending half the "
     "year in Lisbon and half in Recife. Which country am I resident of under the treaty?", "PT-BR", set(),
     None, {"PT", "BR"}, {"PT", "BR"}, "mutual_agreement"),
    # homes in both, centre undetermined, habitual abode in one
    ("Tenho casa em Coimbra e em Osaka, não se consegue determinar o centro de interesses vitais, "
     "e moro habitualmente no Japão. Onde sou residente?", "PT-JP", {"PT", "JP"}, "undetermined", {"JP"}, None,
     "JP"),
])
def test_tiebreaker_facts_by_clause(text, treaty, homes, vital, abodes, nationality, result):
    query = understand(text, TREATIES)
    assert query.treaty == treaty
    assert query.topic == "residence"
    tb = query.tiebreaker
    assert tb is not None and tb.person == "individual"
    assert set(tb.permanent_home_in) == homes
    assert tb.vital_interests_in == vital
    assert (set(tb.habitual_abode_in) if tb.habitual_abode_in is not None else None) == abodes
    assert (set(tb.nationality) if tb.nationality is not None else None) == nationality
    assert residence_tiebreaker(treaty, tb).result == result


def test_own_business_does_not_make_the_person_a_company():
    query = understand("Tengo casa en Valencia y otra en Fortaleza; mis hijos estudian en Valencia, donde tengo "
                       "mi empresa. ¿Dónde soy residente?", TREATIES)
    assert query.tiebreaker.person == "individual"
    assert query.tiebreaker.vital_interests_in == "ES"


def test_centre_of_interests_is_not_interest_income():
    query = understand("Tenho casa nos dois países e o centro de interesses não está definido; sou só "
                       "espanhol. Brasil e Espanha dizem que sou residente.", TREATIES)
    assert query.topic == "residence"
    assert query.tiebreaker.vital_interests_in == "undetermined"


def test_a_house_sold_is_not_a_tiebreaker_question():
    query = understand("Vendi uma casa em Recife e moro em Lisboa. Quem tributa a mais-valia?", TREATIES)
    assert query.topic == "capital_gains"


@pytest.mark.parametrize("text, residence, source", [
    ("Trabalho em Aveiro mas tenho um apartamento arrendado em Recife. O aluguel paga imposto onde?", "PT", "BR"),
    ("Moro em Lisboa e tenho uma casa alugada em Fortaleza. Onde pago imposto sobre isso?", "PT", "BR"),
    ("Resido en Valencia y tengo un piso alquilado en Belo Horizonte; ¿quién grava lo que me pagan los inquilinos?",
     "ES", "BR"),
    ("I live in Porto and rent out my flat in Rio. Who taxes the rent?", "PT", "BR"),
])
def test_a_home_let_to_others_is_an_income_source_not_a_tiebreaker_home(text, residence, source):
    """A let flat is the source of rent: the question is who taxes the rent (art. 6), not where the
    person is resident."""
    query = understand(text, TREATIES)
    assert query.topic == "immovable_property", query.topics
    assert query.source_state == source and query.residence_state in (None, residence)   # None: the other party
    assert query.tiebreaker is None or query.tiebreaker.permanent_home_in in (None, (residence,))


def test_a_rented_home_the_person_lives_in_is_still_a_home():
    query = understand("Moro numa casa alugada em Lisboa e tenho casa própria em Campinas, onde vive a minha "
                       "mulher. De que país sou residente?", TREATIES)
    assert query.topic == "residence"
    assert set(query.tiebreaker.permanent_home_in) == {"PT", "BR"}
