"""Art. 4 tie-breaker facts read clause by clause, on phrasings not in the eval set (pt, es, en)."""
from __future__ import annotations

import pytest

from assistant.lexicon.text import tokenize
from assistant.understand import understand
from assistant.understand.places import find_mentions
from assistant.understand.residence import pointed
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
    # the writer cannot tell where life is centred; half the year in each home
    ("I own a flat in Porto and a house in Osaka; my work is half and half, so honestly I can't say which "
     "country my life is centred in. I live mostly in Osaka. Which State am I resident of under the treaty?",
     "PT-JP", {"PT", "JP"}, "undetermined", {"JP"}, None, "JP"),
    ("Tenho casa em Braga e em Fortaleza. Passo metade do ano em cada uma e não sei dizer qual é o centro da "
     "minha vida. Sou só brasileiro. Pela convenção, onde sou residente?", "PT-BR", {"PT", "BR"}, "undetermined",
     {"PT", "BR"}, {"BR"}, "BR"),
    # a client's or relative's stays, in the third person: the longer one is the habitual abode
    ("A minha mãe não tem casa em nenhum dos países (fica em hotéis) e passa uns 220 dias em Coimbra e o resto "
     "em Quioto. Onde é residente pela convenção?", "PT-JP", set(), None, {"PT"}, None, "PT"),
    # a family split between the two is no centre of vital interests
    ("Mi cliente tiene piso en Sevilla y otro en Recife, la familia repartida, y pasó 200 días en Sevilla el "
     "año pasado. ¿De qué país es residente según el convenio?", "BR-ES", {"ES", "BR"}, "undetermined", {"ES"},
     None, "ES"),
    # the writer cannot tell where life is centred, or splits it evenly: the habitual abode decides
    ("Tenho casa em Braga e outra em Fortaleza e não sei onde é o meu centro de vida; passo uns 8 meses por ano "
     "no Brasil. Sou residente de qual país pela convenção?", "PT-BR", {"PT", "BR"}, "undetermined", {"BR"}, None,
     "BR"),
    ("I own a flat in Porto and one in Recife. My family is in Porto, my business in Recife: 50/50 really. I spend "
     "most of the year in Recife. Which country am I resident of under the treaty?", "PT-BR", {"PT", "BR"},
     "undetermined", {"BR"}, None, "BR"),
    # the person lives with the family in one State and keeps a home in the other: homes in both
    ("Vivo em Braga com a minha mulher e os miúdos desde 2023, mas mantenho o meu apartamento em Natal, fechado. "
     "Portugal e Brasil consideram-me residente. Pela convenção?", "PT-BR", {"PT", "BR"}, "PT", None, None, "PT"),
    ("Moro em Coimbra com meu marido; o apê de Manaus continua meu e vazio. Quem ganha pelo tratado?", "PT-BR",
     {"PT", "BR"}, "PT", None, None, "PT"),
    ("I live in Kyoto with my wife and our son and still own a house in Faro we use in summer. Portugal says I "
     "am still resident. Which State wins under the treaty?", "PT-JP", {"PT", "JP"}, "JP", None, None, "JP"),
    # ... but not in a room or a hotel there, nor where they lived once
    ("Moro em Lisboa num quarto de uma amiga e tenho a minha casa em Recife, onde está a família. Qual país "
     "ganha pela convenção?", "PT-BR", {"BR"}, "BR", None, None, "BR"),
])
def test_tiebreaker_facts_by_clause(text, treaty, homes, vital, abodes, nationality, result):
    query = understand(text, TREATIES)
    assert query.treaty == treaty
    assert query.topic == "residence"
    tb = query.facts.residence
    assert tb is not None and tb.person == "individual"
    assert set(tb.permanent_home_in) == homes
    assert tb.vital_interests_in == vital
    assert (set(tb.habitual_abode_in) if tb.habitual_abode_in is not None else None) == abodes
    assert (set(tb.nationality) if tb.nationality is not None else None) == nationality
    assert residence_tiebreaker(treaty, tb).result == result


def test_a_home_lived_in_once_and_now_let_is_no_home():
    text = ("I lived in Porto until 2021; now I live in Campinas, where I own my flat. My old flat in Porto is "
            "rented out. Portugal still says I'm resident. Under the treaty?")
    tb = understand(text, TREATIES, topic="residence").facts.residence
    assert tb is not None and tb.permanent_home_in == ("BR",)
    assert residence_tiebreaker("PT-BR", tb).result == "BR"


def test_own_business_does_not_make_the_person_a_company():
    query = understand("Tengo casa en Valencia y otra en Fortaleza; mis hijos estudian en Valencia, donde tengo "
                       "mi empresa. ¿Dónde soy residente?", TREATIES)
    assert query.facts.residence.person == "individual"
    assert query.facts.residence.vital_interests_in == "ES"


def test_centre_of_interests_is_not_interest_income():
    query = understand("Tenho casa nos dois países e o centro de interesses não está definido; sou só "
                       "espanhol. Brasil e Espanha dizem que sou residente.", TREATIES)
    assert query.topic == "residence"
    assert query.facts.residence.vital_interests_in == "undetermined"


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
    assert query.facts.residence is None or query.facts.residence.permanent_home_in in (None, (residence,))


@pytest.mark.parametrize("text, homes", [
    ("Moro numa casa alugada em Lisboa e tenho casa própria em Campinas, onde vive a minha mulher. De que país sou "
     "residente?", {"PT", "BR"}),
    # a tenancy verb before the home
    ("Vim para Madrid com a família. Alquilamos un piso en Madrid, pero tengo casa en Recife. ¿De qué país soy "
     "residente según el convenio?", {"ES", "BR"}),
    ("I rent a flat in Lisbon and kept my house in Curitiba. Which country am I resident in under the treaty?",
     {"PT", "BR"}),
    # a rented home where the sentence says the person lives ("aqui"), not a flat let in another country
    # the home of a country followed by "está alugado" is let
    ("Tenho apartamento próprio em Lisboa e o de São Paulo está alugado para terceiros. Pela convenção, sou "
     "residente de qual país?", {"PT"}),
    ("Vivo em Lisboa com o meu marido, temos casa alugada aqui; mantive o apartamento de São Paulo. Se os dois "
     "países me consideram residente, qual prevalece pela convenção?", {"PT", "BR"}),
    # the family lives in it (third person plural), the let word after the place
    ("Mi hermano vendió su casa de Recife; él, su mujer y sus hijos viven ahora en un piso en Zaragoza alquilado "
     "por dos años. ¿De qué país es residente según el convenio?", {"ES"}),
    ("A minha cliente e o marido moram num apartamento em Coimbra arrendado desde 2023 e já não têm casa no "
     "Brasil. De que país é residente pela convenção?", {"PT"}),
])
def test_a_rented_home_the_person_lives_in_is_still_a_home(text, homes):
    query = understand(text, TREATIES)
    assert "residence" in query.topics
    assert set(query.facts.residence.permanent_home_in or ()) == homes


@pytest.mark.parametrize("text, treaty, homes, vital, abodes, result", [
    # "lá" and "here" name the place last named; a tenant's flat is a home; the family clause says where
    ("Mudei-me para Osaka em 2022 e vivo lá com o meu marido numa casa arrendada; a casa de Setúbal foi vendida "
     "no ano passado. A AT e o Japão dizem os dois que sou residente. Qual vale?", "PT-JP", {"JP"}, "JP", None,
     "JP"),
    ("We moved to Braga last year, my husband and the kids came too and they go to school here. We still own "
     "our house in Curitiba and the flat we rent in Braga. Both countries treat me as resident: which one wins "
     "under the treaty?", "PT-BR", {"PT", "BR"}, "PT", None, "PT"),
    # "here" is where the writer is, not the country of a company named just before
    ("I've owned a house in Évora for years. I work remotely for an Osaka company, and my wife and kids live "
     "here with me. I also keep a flat in Kobe. Both Portugal and Japan treat me as resident: which one wins?",
     "PT-JP", {"PT", "JP"}, "PT", None, "PT"),
    # no home anywhere: the long stay says where the person stays habitually
    ("Desde que vendí mi piso de Zaragoza no tengo vivienda en ningún país, voy de hotel en hotel. Este año pasé "
     "unos 240 días en Brasil y el resto en España. ¿De qué país soy residente según el convenio?", "BR-ES",
     set(), None, {"BR"}, "BR"),
])
def test_places_named_by_here_and_there_sales_and_long_stays(text, treaty, homes, vital, abodes, result):
    query = understand(text, TREATIES)
    assert query.treaty == treaty
    tb = query.facts.residence
    assert tb is not None and set(tb.permanent_home_in or ()) == homes
    assert tb.vital_interests_in == vital
    assert (set(tb.habitual_abode_in) if tb.habitual_abode_in is not None else None) == abodes
    assert residence_tiebreaker(treaty, tb).result == result


@pytest.mark.parametrize("text", [
    "Is there a treaty between Portugal and Brazil on pensions? I live in Lisbon.",
    "Passei 20 dias no Brasil de férias e vivo em Lisboa. Quem tributa a minha pensão?",
])
def test_no_place_from_there_is_or_a_short_stay(text):
    query = understand(text, TREATIES)
    assert query.facts.residence is None or not query.facts.residence.habitual_abode_in


@pytest.mark.parametrize("text, treaty, management", [
    ("A nossa sociedade foi constituída no Porto, mas as reuniões do conselho de administração e todas as "
     "decisões acontecem em Campinas. As duas administrações fiscais dizem que é residente. E agora?", "PT-BR",
     "BR"),
    ("Our company is incorporated in Japan but the board meetings are held in Lisbon and the managers decide "
     "everything there. Which State is the company resident in under the treaty?", "PT-JP", "PT"),
])
def test_where_a_company_takes_its_decisions(text, treaty, management):
    tb = understand(text, TREATIES).facts.residence
    assert tb is not None and tb.person == "company"
    assert tb.effective_management_in == management


@pytest.mark.parametrize("text, treaty, management", [
    ("I'm Japanese and live in Lisbon with my wife. I own all of a trading company in Osaka, but every decision is "
     "taken by me here in Lisbon. If both States treat the company as resident, which one wins?", "PT-JP", "PT"),
    ("Sou brasileira e moro em Braga com os meus filhos. Tenho 80% de uma Ltda em Fortaleza e todas as decisões "
     "são tomadas por mim aqui em Braga. Qual é a residência fiscal da empresa pela convenção?", "PT-BR", "PT"),
    ("Soy español y vivo en Valencia con mi familia. Mi sociedad está registrada en Recife, pero las decisiones se "
     "toman en Valencia. ¿Dónde es residente la sociedad según el convenio?", "BR-ES", "ES"),
])
def test_the_owners_story_does_not_hide_where_the_company_asked_about_is_managed(text, treaty, management):
    """The owner's home, family and nationality are told, but the question asks where the company is resident:
    art. 4(3) decides it by its place of effective management, where its decisions are taken."""
    tb = understand(text, TREATIES).facts.residence
    assert tb is not None and tb.person == "company"
    assert tb.effective_management_in == management


def test_a_person_who_manages_a_business_stays_a_person():
    tb = understand("Sou gestor numa empresa em Lisboa, tenho casa lá e a família vive comigo; o Brasil ainda me "
                    "considera residente. De que país sou residente?", TREATIES).facts.residence
    assert tb is not None and tb.person == "individual" and tb.effective_management_in is None


def test_a_family_listed_in_brackets_lives_where_the_sentence_ends():
    tb = understand("Tenho casa em Faro e outra em Natal. A minha vida (mulher, filhos, trabalho) continua em "
                    "Natal. Pela convenção, sou residente onde?", TREATIES).facts.residence
    assert tb.vital_interests_in == "BR"


def test_a_companys_city_is_not_a_home_of_the_person():
    """"trabalho de casa em Curitiba para uma empresa de Lisboa": one home, in Brazil; not a tie-breaker
    question between two homes."""
    query = understand("Trabalho de casa, em Curitiba, para uma empresa de Lisboa e recebo o salário numa conta "
                       "portuguesa. Portugal pode tributar o meu salário?", TREATIES)
    assert query.topic == "employment"
    assert query.facts.residence is None or tuple(query.facts.residence.permanent_home_in or ()) in ((), ("BR",))


@pytest.mark.parametrize("text, homes", [
    # hotels and tourist flats where one stays for work are no permanent home
    ("Paso unos 200 días al año en Oporto, siempre en apartamentos turísticos; mi piso en propiedad está en "
     "Fortaleza. ¿Dónde soy residente?", ("BR",)),
    ("I stay in Tokyo in a serviced apartment for my project; my own house is in Lisbon. Where am I resident?",
     ("PT",)),
    # a home named in a clause of its own, then the place with the family: the home is there too
    ("Tenho nacionalidade portuguesa. A minha casa (comprada em 2015), a mulher e os filhos estão em Vitória. "
     "De onde sou residente?", ("BR",)),
])
def test_a_place_to_stay_is_no_home_and_a_home_takes_the_place_named_after_it(text, homes):
    query = understand(text, TREATIES, topic="residence")
    assert query.facts.residence is not None and query.facts.residence.permanent_home_in == homes


@pytest.mark.parametrize("text, treaty, management", [
    # a company's residence: where its directors decide, even when "the two" of them are named
    ("Somos una SL de Zaragoza, pero los dos socios administradores viven en Fortaleza y todas las decisiones se "
     "toman allí. ¿De qué país es residente la sociedad según el convenio?", "BR-ES", "BR"),
    ("Our company was incorporated in Portugal (Lda) but the sole director lives in Osaka and runs everything from "
     "there. Which country is it resident in under the treaty?", "PT-JP", "JP"),
])
def test_a_company_is_resident_where_it_is_managed(text, treaty, management):
    query = understand(text, TREATIES, topic="residence")
    assert query.treaty == treaty
    assert query.facts.residence is not None and query.facts.residence.person == "company"
    assert query.facts.residence.effective_management_in == management


@pytest.mark.parametrize("text, treaty, homes, abodes, result", [
    # "no home" beside one country denies a home there only: the flat lived in elsewhere still counts
    ("Em Portugal já não tenho casa. Vivo com a família num apartamento arrendado em Nagoia desde 2021. "
     "Pela convenção Portugal–Japão, onde sou residente?", "PT-JP", {"JP"}, None, "JP"),
    ("Soy española. En España no tengo vivienda, la vendí; vivo en un piso en Recife desde 2020. Hacienda dice "
     "que sigo siendo residente. ¿Dónde soy residente según el convenio?", "BR-ES", {"BR"}, None, "BR"),
    # a stay in each State is a habitual abode in both
    ("I have no home anywhere, I live in hotels. I spend about 7 months in each country every year, Portugal "
     "and Brazil. Which one am I resident of under the treaty?", "PT-BR", set(), {"PT", "BR"}, None),
    # the same months in each State, however few: an abode in both (nationality decides)
    ("Tengo piso en Bilbao y casa en Salvador; no sabría decir dónde está mi centro de vida. Paso unos cuatro "
     "meses en cada país y el resto viajando. Soy brasileño. ¿Dónde soy residente?", "BR-ES", {"BR", "ES"},
     {"BR", "ES"}, "BR"),
    ("Tenho casa em Braga e outra em Natal e passo uns cinco meses em cada lado. Sou português. De onde sou "
     "residente pela convenção?", "PT-BR", {"BR", "PT"}, {"BR", "PT"}, None),
    # no permanent home anywhere: the habitual abode decides (art. 4(2)(b))
    ("Sou português, vendi o apartamento de Coimbra no ano passado e desde então não tenho habitação permanente: "
     "ando entre hostels. Estive uns 230 dias no Brasil. Pela convenção, sou residente onde?", "PT-BR", set(),
     {"BR"}, "BR"),
    ("I don't have a permanent home in either place since the divorce; I spent around 250 days in Japan last "
     "year. Which country am I resident in for the treaty?", "PT-JP", set(), {"JP"}, "JP"),
])
def test_a_home_denied_in_one_country_and_stays_in_each(text, treaty, homes, abodes, result):
    query = understand(text, TREATIES)
    assert query.treaty == treaty
    tb = query.facts.residence
    assert tb is not None and set(tb.permanent_home_in or ()) == homes
    assert (set(tb.habitual_abode_in) if tb.habitual_abode_in is not None else None) == abodes
    if result:
        assert residence_tiebreaker(treaty, tb).result == result


@pytest.mark.parametrize("text, state", [
    # the clause after the decisions only says where they are taken
    ("A sociedade está registada em Espanha, mas as decisões são tomadas pelo sócio único, em Curitiba, onde "
     "mora. Onde é residente a sociedade pela convenção?", "BR"),
    # the owners manage it from where they live
    ("We set up a company in Portugal but we will manage everything from Brazil. Where is the company resident "
     "under the treaty?", "BR"),
])
def test_where_a_company_is_managed_from(text, state):
    tb = understand(text, TREATIES).facts.residence
    assert tb is not None and tb.person == "company" and tb.effective_management_in == state


@pytest.mark.parametrize("text, treaty, homes, vital, result", [
    # a country after a stay verb is where the person stays, not where the home just named is
    ("Tenho um apartamento meu em Lisboa; vivo com a família em Fortaleza na nossa casa e passo umas 4 semanas "
     "por ano em Lisboa. Onde sou residente pela convenção?", "PT-BR", {"PT", "BR"}, "BR", "BR"),
    # a home in a town the lexicon does not know, closed by its region: that region's country
    ("Conservo un piso en Vigo y compramos una casa en Ubatuba, São Paulo, donde vive toda la familia. "
     "¿De qué país soy residente según el convenio?", "BR-ES", {"ES", "BR"}, "BR", "BR"),
    # the year split half and half speaks of the abode, not of the centre of vital interests
    ("I own a flat in Porto and a house in Recife, where my wife and kids live, and I split the year half and "
     "half. Which country am I resident of under the treaty?", "PT-BR", {"PT", "BR"}, "BR", "BR"),
])
def test_a_home_keeps_its_own_place_and_a_stay_keeps_its_own(text, treaty, homes, vital, result):
    tb = understand(text, TREATIES, topic="residence").facts.residence
    assert tb is not None and set(tb.permanent_home_in) == homes
    assert tb.vital_interests_in == vital
    assert residence_tiebreaker(treaty, tb).result == result


@pytest.mark.parametrize("text, home", [
    ("Em 2019 trabalhei para uma construtora com sede em Belo Horizonte, sempre em hotéis lá; a minha casa é em "
     "Braga, onde vivem a minha mulher e os meus filhos. Os dois países dizem que sou residente: qual fica?",
     "PT"),
    ("My employer is a Spanish firm with its head office in Madrid, where I stay in hotels; my home is in "
     "Recife with my wife and kids. Both countries say I'm resident. Which one wins under the treaty?", "BR"),
    # the old home was sold some words after it is named; the new one is rented by the person
    ("A minha irmã alugou um apartamento em Sevilha e vive lá com os filhos. O apartamento que ela tinha em "
     "Belo Horizonte acabou vendido em março. De que país é residente pela convenção?", "ES"),
    ("A Rita arrendou um T1 em Aveiro; a casa que tinha na Bahia com o ex-marido foi vendida em 2023. "
     "Para a convenção, onde é residente?", "PT"),
    # a sale followed by its own home word sold that home, not the one named just before it
    ("O meu cunhado mudou-se para Setúbal, comprou casa em Palmela e vendeu a casa de Fortaleza. Pela convenção, "
     "de que país é residente?", "PT"),
    ("Mi primo alquiló un piso en Zaragoza y vendió el apartamento de Recife. ¿De qué país es residente según el "
     "convenio?", "ES"),
])
def test_an_employers_seat_beside_a_family_home_is_not_the_askers(text, home):
    tb = understand(text, TREATIES).facts.residence
    assert tb is not None and tb.person == "individual" and tb.permanent_home_in == (home,)


@pytest.mark.parametrize("text, vital", [
    # "both" before a family word counts people, not States
    ("Sou brasileiro e moro em Lisboa desde 2020; a minha mulher e os dois filhos vieram comigo e as crianças "
     "estudam aqui. Ainda tenho um apartamento em Curitiba, fechado. Tenho casa nos dois países: de qual sou "
     "residente pela convenção?", "PT"),
    ("Vivo en Valencia con mi mujer y los dos niños, que van al colegio aquí; conservo mi casa de Recife. Si los "
     "dos países me consideran residente, ¿cuál gana?", "ES"),
    # a nationality adjective beside the family says whose the person is, not where the family lives
    ("brazilian living in Matosinhos with my wife and our son since 2022; still own a flat in Recife. which "
     "country am i resident of under the treaty?", "PT"),
    ("Japanese engineer living in Braga with my wife and kids; we kept our house in Osaka. Which country am I "
     "resident of?", "PT"),
    # family one goes to see is not where one's own family lives
    ("Vivo em Madrid com a minha mulher e os miúdos, que estudam cá; mantive a casa de Belém, onde fico quando vou "
     "visitar a família. De que país sou residente?", "ES"),
    ("We moved to Osaka with our two kids, who go to school here; we kept our flat in Porto and use it when we visit "
     "family. Which country are we resident in?", "JP"),
])
def test_the_family_is_where_the_spouse_and_children_live(text, vital):
    tb = understand(text, TREATIES).facts.residence
    assert tb is not None and tb.vital_interests_in == vital


def test_a_home_the_person_rented_is_theirs_not_let():
    tb = understand("Me mudé a Brasil y en Fortaleza tenemos un apartamento que hemos alquilado por dos años. En "
                    "España ya no tengo casa. ¿De qué país soy residente según el convenio?", TREATIES).facts.residence
    assert tb is not None and tb.permanent_home_in == ("BR",)


@pytest.mark.parametrize("text, homes", [
    # "alugada" in a sentence after the one that says where the person lives, in that same place: rented by them
    ("Vivo em Braga com o meu marido desde 2021. Temos casa alugada em Braga e ainda o apartamento de Goiânia, "
     "fechado. Pela convenção, de que país sou residente?", {"PT", "BR"}),
    # let in another country: not a home
    ("Moro em Faro com a família. Tenho um apartamento alugado em Natal. De qual país sou residente?", None),
])
def test_a_home_rented_where_the_person_said_they_live_is_theirs(text, homes):
    tb = understand(text, TREATIES).facts.residence
    assert tb is not None and (set(tb.permanent_home_in) if tb.permanent_home_in else None) == homes


def test_a_year_split_in_two_with_no_centre_of_life_goes_to_nationality():
    tb = understand("I'm a Spanish citizen. I split my year roughly half and half between Madrid and Recife, with a "
                    "flat in each, and honestly I couldn't tell you where my centre of life is. Which country am I "
                    "resident in under the treaty?", TREATIES).facts.residence
    assert tb is not None and set(tb.habitual_abode_in or ()) == {"BR", "ES"}
    assert tb.vital_interests_in == "undetermined"


@pytest.mark.parametrize("text, abodes", [
    ("Tenho apartamento em Coimbra e outro em Salvador e fico 4 meses por ano em Salvador e 8 em Coimbra. A minha "
     "vida está nos dois lados. De onde sou residente pela convenção?", {"PT"}),
    ("Tengo piso en Sevilla y en Recife; paso unos 5 meses al año en Recife y 7 en Sevilla. ¿De dónde soy "
     "residente según el convenio?", {"ES"}),
    ("Sou português, não tenho casa em lado nenhum e passei 120 dias no Japão e outros tantos em Portugal. Onde "
     "sou residente?", {"PT", "JP"}),
    ("I keep flats in Tokyo and Lisbon and spend 7 months a year in Tokyo and 5 in Lisbon. Where am I resident?",
     {"JP"}),
])
def test_the_longer_of_two_stays_said_side_by_side_is_the_habitual_abode(text, abodes):
    tb = understand(text, TREATIES).facts.residence
    assert tb is not None and (set(tb.habitual_abode_in) if tb.habitual_abode_in else None) == abodes


@pytest.mark.parametrize("text, homes", [
    ("I own homes in Braga and in Kyoto and my centre of vital interests is unclear. Where am I resident under "
     "the treaty?", {"PT", "JP"}),
    ("Tengo pisos en Bilbao y en Fortaleza y mi centro de intereses vitales no está claro. ¿Dónde soy residente?",
     {"ES", "BR"}),
    ("Tenho casa em Coimbra e em Natal e a minha família está dividida entre os dois. De onde sou residente?",
     {"PT", "BR"}),
])
def test_places_joined_by_and_share_the_fact_said_of_the_first(text, homes):
    tb = understand(text, TREATIES).facts.residence
    assert tb is not None and set(tb.permanent_home_in or ()) == homes


@pytest.mark.parametrize("text", [
    "I have a flat in Faro and one in Osaka; my centre of vital interests is unclear. Which State am I resident in?",
    "Tengo casa en Vigo y en Natal y no está claro dónde tengo mi centro de intereses vitales. ¿Dónde soy residente?",
])
def test_a_centre_of_life_said_to_be_unclear_is_undetermined(text):
    tb = understand(text, TREATIES).facts.residence
    assert tb is not None and tb.vital_interests_in == "undetermined"


@pytest.mark.parametrize("text", [
    "Tenho casa em Sintra e outra em Florianópolis; a família está espalhada pelos dois países e passo metade do "
    "ano em cada. Sou só brasileiro. Pela convenção, sou residente de onde?",
    "I have a flat in Osaka and a house in Faro, my wife lives in Faro and my two sons in Osaka. Which State am I "
    "resident in under the treaty?",
])
def test_family_in_both_states_leaves_the_centre_of_life_undetermined(text):
    tb = understand(text, TREATIES).facts.residence
    assert tb is not None and tb.vital_interests_in == "undetermined"


@pytest.mark.parametrize("text, lang, code", [
    # "cá" after an amount in reais: the currency is no place the writer is in
    ("Moro em Lisboa; a empresa paga-me em reais e estou cá há dois anos", "pt", "PT"),
    ("Vivo en Sevilla, el cliente me paga en BRL y aquí pago el alquiler", "es", "ES"),
    ("I live in Braga; my pension is paid in yen and here I pay no rent", "en", "PT"),
    # nor to an institution or a tax that names a country
    ("Cheguei a Faro em março e trabalho com carteira assinada (CLT); já estou aqui há 150 dias", "pt", "PT"),
    ("Vivo en Valencia, cobro del INSS y aquí pago el alquiler", "es", "ES"),
    ("I moved to Porto; my grant is from CAPES and here I rent a room", "en", "PT"),
])
def test_here_never_points_to_a_currency(text, lang, code):
    tokens = tokenize(text)
    here = pointed(tokens, find_mentions(text, tokens, lang))
    assert [m.code for m in here] == [code]


@pytest.mark.parametrize("text, homes", [
    # a tenancy given up is no home
    ("Entreguei o apê que alugava em Salvador; hoje só tenho o apartamento em Coimbra. Pela convenção sou "
     "residente de qual país?", {"PT"}),
    ("I gave up my flat in Fortaleza last spring and now rent a house in Faro with my partner. Which country "
     "am I resident of under the treaty?", {"PT"}),
    # someone else's home is a place to stay, not the person's
    ("No tengo casa en Brasil: cuando voy me quedo en casa de mis padres. Vivo en un piso mío en Vigo. ¿De "
     "qué país soy residente según el convenio?", {"ES"}),
    # none anywhere, said after the home word
    ("Casa permanente não tenho em lado nenhum: em Lisboa vivo num quarto e no Brasil fico em casa da minha "
     "irmã. Sou residente de qual país pela convenção?", set()),
])
def test_homes_given_up_or_someone_elses_are_not_the_persons(text, homes):
    facts = understand(text, TREATIES, topic="residence").facts.residence
    assert facts is not None and set(facts.permanent_home_in or ()) == homes


@pytest.mark.parametrize("text, homes", [
    ("Morei nove anos em Curitiba. Entreguei o apartamento que alugava em Curitiba e agora só tenho casa aqui em "
     "Coimbra. De que país sou residente?", {"PT"}),
    ("I lived in Osaka for years; sold the flat there in 2024 and now my only home is here in Porto. Which country "
     "am I resident in?", {"PT"}),
    ("Viví en Recife ocho años; ahora vivo aquí en Vigo y mi piso está aquí en Vigo. ¿De qué país soy residente?",
     {"ES"}),
])
def test_here_followed_by_a_place_is_that_place(text, homes):
    """"aqui em Coimbra", "here in Porto": the place named right after "here" is meant, not the country named
    last before it (the one the writer left)."""
    assert set(understand(text, TREATIES).facts.residence.permanent_home_in or ()) == homes


def test_a_rented_flat_handed_back_is_no_home():
    """"entregué el piso de alquiler": the words of its tenancy do not make it the tenant's home any more."""
    text = ("Trabajo en remoto para una empresa de Bilbao. En marzo me mudé a Fortaleza con mi pareja; entregué el "
            "piso de alquiler que tenía en Bilbao y ahora vivimos en Fortaleza en un piso nuestro. ¿De qué país soy "
            "residente?")
    assert understand(text, TREATIES).facts.residence.permanent_home_in == ("BR",)


@pytest.mark.parametrize("text, not_vital", [
    ("Sou portuguesa; morei dez anos no Recife e em 2024 regressei com o meu marido e os miúdos, que já estudam "
     "aqui. Tenho casa em Leiria e mantenho o apartamento do Recife. De que país sou residente?", "BR"),
    ("Viví siete años en Osaka y el año pasado volví con mi mujer y los niños, que van al colegio aquí. Tengo casa "
     "en Gijón y conservo el piso de Osaka. ¿De qué país soy residente?", "JP"),
])
def test_a_family_that_came_along_is_not_in_the_place_left(text, not_vital):
    """"morei dez anos no Recife e em 2024 regressei com o meu marido e os miúdos, que já estudam aqui": the
    family moved with the person, so neither it nor "aqui" is in the place left."""
    assert understand(text, TREATIES).facts.residence.vital_interests_in != not_vital


def test_miudos_are_family():
    """pt-PT "os miúdos" is the children: "os dois miúdos" counts people, not the two States."""
    text = ("Moro em Lisboa com a minha mulher e os dois miúdos; tenho ainda um apartamento em Fortaleza que uso nas "
            "férias. De que país sou residente?")
    assert understand(text, TREATIES).facts.residence.vital_interests_in == "PT"


@pytest.mark.parametrize("text, not_vital", [
    ("Mi hermano, jugador de baloncesto brasileño, fichó por un club de Málaga. Vino con su mujer y los niños, que "
     "ya van al colegio aquí; en Brasil conserva su casa de Curitiba, vacía. ¿De qué país es residente?", "BR"),
    ("O meu cunhado é engenheiro japonês e foi contratado por uma empresa de Aveiro. Veio com a mulher e os filhos, "
     "que já estudam aqui; mantém a casa de Nagoya fechada. De que país é residente?", "JP"),
])
def test_here_never_points_to_a_nationality_adjective(text, not_vital):
    """"jugador brasileño … los niños van al colegio aquí": the adjective says whose the person is, not where the
    writer is, so the family is not put in Brazil."""
    assert understand(text, TREATIES).facts.residence.vital_interests_in != not_vital


@pytest.mark.parametrize("text, homes", [
    ("Trabajo en remoto para una empresa de Bilbao. El año pasado me mudé a Natal; ya no tengo casa en España, "
     "entregué el piso de alquiler de Getafe y aquí vivimos en un piso que compramos. ¿De qué país soy residente?",
     {"BR"}),
    ("Sou brasileiro e vim para o Porto em 2023; vendi o apartamento de Recife e aqui moramos num T2 que "
     "comprámos. De que país sou residente?", {"PT"}),
])
def test_here_is_not_the_place_whose_home_was_given_up(text, homes):
    """"entregué el piso de alquiler de Getafe y aquí vivimos…": "aquí" is not the place just given up."""
    assert set(understand(text, TREATIES).facts.residence.permanent_home_in or ()) == homes


@pytest.mark.parametrize("text, not_home", [
    ("Viví doce años en España con mi familia. Ahora me instalo en Belém con mi mujer en un piso que compramos y ya "
     "no me queda ninguna vivienda en España. ¿Dónde soy residente para el convenio?", "ES"),
    ("Morei quinze anos no Brasil. Agora vivo em Setúbal com a minha mulher, numa casa nossa, e não tenho nenhuma "
     "casa no Brasil. De que país sou residente?", "BR"),
])
def test_a_home_denied_where_the_person_once_lived_is_no_home(text, not_home):
    """Having lived in a country does not make the home denied there theirs; only living there now would."""
    assert not_home not in (understand(text, TREATIES).facts.residence.permanent_home_in or ())


@pytest.mark.parametrize("text, homes", [
    ("sou brasileira, moro em coimbra com o meu marido, temos apto alugado aqui. mas mantive meu apto em bh. sou "
     "residente de qual pais?", {"PT", "BR"}),
    ("moro em lisboa faz 3 anos num ap alugado. continuo com meu ap em sp. onde sou residente?", {"PT", "BR"}),
])
def test_a_flat_typed_short_in_a_city_typed_by_its_initials(text, homes):
    """pt-BR phone shorthand: "apto", "ap" are a flat; "bh", "sp" in lower case are Belo Horizonte and São Paulo."""
    assert set(understand(text, TREATIES).facts.residence.permanent_home_in or ()) == homes


@pytest.mark.parametrize("text, vital", [
    ("Sou portuguesa e vivo em Osaka desde 2016 com o meu marido. Deixei o meu emprego em Portugal. O nosso filho "
     "nasceu cá e já anda na escola. Tenho casa em Osaka e mantenho o apartamento em Faro. Onde sou residente?",
     "JP"),
    ("Soy español y vivo en Fortaleza desde 2019. Dejé mi trabajo en España. Mis hijos van al colegio aquí. Tengo "
     "casa en Fortaleza y conservo mi piso de Cádiz. ¿De qué país soy residente?", "BR"),
])
def test_here_is_where_the_writer_lives_after_another_sentence_named_elsewhere(text, vital):
    """"vivo em Osaka … Deixei o meu emprego em Portugal. O nosso filho nasceu cá": "cá" is where the writer
    lives, not the country the sentence before happened to name."""
    assert understand(text, TREATIES).facts.residence.vital_interests_in == vital



@pytest.mark.parametrize("text, state", [
    # the partners moved and the board now meets where they live: managed there, whatever the incorporation
    ("Our consultancy was incorporated in Brazil in 2016. In 2021 both partners moved to Vigo and since then every "
     "board meeting and all key management decisions happen in Vigo; the Recife office only does invoicing. Where is "
     "the company resident?", "ES"),
    ("A nossa Ltda foi registada no Brasil em 2015. Em 2020 os dois sócios mudaram-se para Braga e desde então as "
     "reuniões do conselho acontecem em Braga; o escritório de Campinas só fatura. Onde é residente a sociedade?",
     "PT"),
    # a control: decisions taken where the company was set up stay there
    ("Nuestra SL está registrada en Vigo y las decisiones de gestión se toman en Vigo; en Recife solo hay un "
     "almacén. ¿Dónde es residente la sociedad?", "ES"),
])
def test_where_the_board_meets_and_decides_is_the_place_of_management(text, state):
    query = understand(text, TREATIES, topic="residence")
    assert query.facts.residence is not None and query.facts.residence.effective_management_in == state


@pytest.mark.parametrize("text, state", [
    # where the decisions are taken ("daqui": the writer's Lisbon) over the seat the company keeps elsewhere
    ("Tenho uma Ltda em Curitiba. Vim viver para Lisboa no ano passado e desde então as decisões da sociedade são "
     "tomadas daqui; em Curitiba fica só a sede registada. De que país é residente a sociedade?", "PT"),
    ("Nuestra SL tiene su sede social en Vigo, pero todas las decisiones se toman en São Paulo, donde viven los "
     "socios. ¿Dónde es residente la sociedad?", "BR"),
    # the seat alone, nothing said of the decisions: where it is managed
    ("A nossa empresa tem sede em Campinas e um escritório no Porto. De que país é residente?", "BR"),
    # "management" in English names where a company is run
    ("Our company is incorporated in Spain but its management is in Recife. Where is it resident?", "BR"),
])
def test_where_decisions_are_taken_wins_over_the_seat(text, state):
    query = understand(text, TREATIES, topic="residence")
    assert query.facts.residence is not None and query.facts.residence.effective_management_in == state


@pytest.mark.parametrize("text, management", [
    # a crew member's airline "hq in brazil": where the enterprise is managed (art. 15(3)); the person stays one
    ("im cabin crew living in porto, hired by a brazilian airline with its hq in brazil for the lisbon flights. "
     "can brazil tax my pay?", "BR"),
    ("Soy azafata, vivo en Madrid y trabajo para una aerolínea brasileña headquartered in São Paulo. ¿Puede Brasil "
     "gravar mi sueldo?", "BR"),
])
def test_an_airlines_hq_is_where_it_is_managed(text, management):
    query = understand(text, TREATIES, topic="employment")
    tb = query.facts.residence
    assert tb is not None and tb.effective_management_in == management and tb.person == "individual"


@pytest.mark.parametrize("text, homes, vital", [
    # rented "here", where the writer came back to: the tenant's home, and "aquí" is where they moved, not the
    # country of the bank account named just before
    ("Soy gallego y trabajé 10 años en Manaus. En 2023 me mudé a Vigo con mi pareja y los críos, que van al cole "
     "aquí. Cobro en reales en mi cuenta de Brasil. Tenemos piso alquilado aquí y conservo mi casa de Manaus. "
     "¿Dónde soy residente?", {"ES", "BR"}, "ES"),
    ("Sou de Aveiro e trabalhei 6 anos em Fortaleza. Em 2024 voltei para Aveiro com o meu marido e os miúdos. O "
     "salário cai na minha conta do Brasil. Temos casa arrendada cá e mantenho o apartamento de Fortaleza. Onde sou "
     "residente?", {"PT", "BR"}, "PT"),
])
def test_a_home_rented_here_is_the_tenants_and_here_is_where_they_moved(text, homes, vital):
    got = understand(text, TREATIES).facts.residence
    assert set(got.permanent_home_in or ()) == homes and got.vital_interests_in == vital


def test_the_two_kids_are_family_not_both_states():
    """"con mi mujer y los dos críos": "los dos" counts the children, not the two States."""
    text = ("Me volví a Sevilla con mi mujer y los dos críos; mantengo un piso en Recife y otro en Sevilla. ¿De qué "
            "país soy residente?")
    assert understand(text, TREATIES).facts.residence.vital_interests_in == "ES"
