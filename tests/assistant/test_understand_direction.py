"""Source and residence when the payer or the beneficiary's State is named first (issue 18, answer level):
"dividendos japoneses a uma sociedade portuguesa" is Japanese income of a Portuguese company. Phrasings
written for these tests, in pt-PT, pt-BR, es and en."""
from __future__ import annotations

import pytest

from assistant.understand import understand

TREATIES = {"PT-BR": ("PT", "BR"), "BR-ES": ("BR", "ES"), "PT-JP": ("PT", "JP"), "MLI": ()}


@pytest.mark.parametrize("text, treaty, residence, source", [
    # the income's State first, the beneficiary after "pagos a"
    ("Qual a retenção sobre dividendos japoneses pagos a uma sociedade portuguesa?", "PT-JP", "PT", "JP"),
    ("Royalties japonesas pagas a uma empresa portuguesa, quanto fica retido?", "PT-JP", "PT", "JP"),
    ("Juros espanhóis pagos a um banco brasileiro: qual é a alíquota?", "BR-ES", "BR", "ES"),
    ("Dividendos brasileños pagados a una sociedad española: ¿cuál es la retención?", "BR-ES", "ES", "BR"),
    ("Japanese dividends paid to a Portuguese company: what is the withholding rate?", "PT-JP", "PT", "JP"),
    # the payer first, where the person lives after
    ("A empresa brasileira paga-me dividendos, moro em Lisboa. Quanto retêm?", "PT-BR", "PT", "BR"),
    ("A empresa brasileira me paga dividendos e eu moro em Lisboa. Quanto é retido?", "PT-BR", "PT", "BR"),
    ("La empresa brasileña me paga dividendos y vivo en Madrid. ¿Cuánto retienen?", "BR-ES", "ES", "BR"),
    ("The Brazilian company pays me dividends, I live in Lisbon. How much is withheld?", "PT-BR", "PT", "BR"),
    # the withholding State first, the beneficiary inside a relative clause
    ("O Japão retém 20% dos dividendos que a minha empresa portuguesa recebe?", "PT-JP", "PT", "JP"),
    # the holder named with "de" before its verb: "a Câmara Municipal de Lisboa recebe"
    ("A Câmara Municipal de Lisboa recebe juros de obrigações de uma empresa brasileira. Retenção?",
     "PT-BR", "PT", "BR"),
    ("Japan withholds tax on the dividends that our Portuguese company receives. How much?", "PT-JP", "PT", "JP"),
])
def test_direction_when_the_payer_or_the_beneficiary_comes_first(text, treaty, residence, source):
    q = understand(text, TREATIES)
    assert (q.treaty, q.residence_state, q.source_state) == (treaty, residence, source)


def test_a_relative_clause_does_not_cut_a_plain_place():
    q = understand("Recibo dividendos de la empresa que tengo en Brasil y vivo en Madrid.", TREATIES)
    assert (q.residence_state, q.source_state) == ("ES", "BR")


@pytest.mark.parametrize("text, treaty, residence, source", [
    # the first source State is not covered with the residence; a second one is
    ("Moro em Lisboa e recebo duas pensões, uma de um fundo francês e outra de um fundo do Brasil. "
     "Quem tributa?", "PT-BR", "PT", "BR"),
    ("Vivo en Madrid; cobro dividendos de una empresa italiana y de una empresa brasileña. ¿Qué retención?",
     "BR-ES", "ES", "BR"),
    ("I live in Porto and get rent from a flat in Paris and interest from a bank in Tokyo. Who taxes it?",
     "PT-JP", "PT", "JP"),
])
def test_a_covered_source_state_is_chosen_over_an_uncovered_one(text, treaty, residence, source):
    q = understand(text, TREATIES)
    assert (q.treaty, q.residence_state, q.source_state) == (treaty, residence, source)
    assert q.pair_not_covered is None


@pytest.mark.parametrize("text, treaties", [
    # a third State read into the pair (a ship's flag, a former home): the one covered pair named is the treaty
    ("Vivo em Matosinhos e sou maquinista num navio de bandeira de Malta; o armador é brasileiro e paga-me do "
     "Rio. O Brasil pode tributar o ordenado?", ("PT-BR",)),
    # moving between two States, the income from a third that a treaty joins with each: both readings
    ("I live in Valencia and move to Lisbon in June. A publisher in São Paulo pays me royalties. How much can "
     "Brazil withhold?", ("BR-ES", "PT-BR")),
])
def test_a_covered_pair_among_the_states_named_is_answered_not_refused(text, treaties):
    q = understand(text, TREATIES)
    assert q.pair_not_covered is None
    assert ((q.treaty,) if q.treaty else tuple(sorted(r.treaty for r in q.readings))) == treaties


def test_a_state_named_only_as_a_home_makes_no_pair():
    q = understand("Moro em Paris e recebo uma pensão do INSS; tenho também uma casa em Portugal. Quem tributa a "
                   "pensão?", TREATIES)
    assert q.treaty is None and q.readings == () and q.pair_not_covered == ("FR", "BR")


def test_only_uncovered_source_states_stay_not_covered():
    q = understand("Moro em Lisboa e recebo dividendos de uma empresa francesa. Qual a retenção?", TREATIES)
    assert q.treaty is None and q.pair_not_covered == ("PT", "FR")


@pytest.mark.parametrize("text, residence, source", [
    # the State of an embassy, consulate or city hall is the one that pays, not where the person lives
    ("Soy brasileño, vivo en Brasilia y trabajo de conductor en la Embajada de Portugal. ¿Quién grava mi sueldo?",
     "BR", "PT"),
    ("Sou secretária no Consulado-Geral do Japão, moro perto do trabalho, no Porto. Quem tributa o meu salário?",
     "PT", "JP"),
])
def test_a_missions_state_pays(text, residence, source):
    r = understand(text, TREATIES, topic="government_service")
    assert (r.residence_state, r.source_state) == (residence, source)


@pytest.mark.parametrize("text, readings", [
    # the only country named is where the work is done, named again at the end as an institution
    ("Vou passar 4 meses a trabalhar em Fortaleza para o meu empregador, que não tem nada no Brasil. A Receita "
     "Federal pode tributar o meu salário?", {("BR-ES", "ES", "BR"), ("PT-BR", "PT", "BR")}),
    ("Voy a pasar de octubre a enero en Salvador de Bahía teletrabajando para mi empresa, que no tiene nada en "
     "Brasil. ¿La Receita Federal puede cobrarme algo por el sueldo?", {("BR-ES", "ES", "BR"), ("PT-BR", "PT", "BR")}),
])
def test_one_named_work_state_keeps_its_role_in_every_reading(text, readings):
    q = understand(text, TREATIES)
    assert {(r.treaty, r.residence_state, r.source_state) for r in q.readings} == readings


@pytest.mark.parametrize("text, source", [
    # living outside the one State named: it is the source in every reading, never the residence, and no
    # "domestic" situation
    ("Sou brasileira mas moro fora do Brasil há três anos; ainda tenho 30% de uma Ltda em Campinas e vou vender a "
     "minha parte. A Receita pode tributar o ganho?", "BR"),
    ("Vivo fuera de España desde 2019 y vendo un piso que tengo en Alicante. ¿Hacienda puede gravar la ganancia?",
     "ES"),
    ("I've lived outside Brazil since 2020 and still rent out a flat in Recife. Can Brazil tax the rent?", "BR"),
])
def test_a_state_one_lives_outside_is_the_source(text, source):
    q = understand(text, TREATIES)
    assert q.out_of_scope is None and q.residence_state != source
    assert ({r.source_state for r in q.readings} or {q.source_state}) == {source}



@pytest.mark.parametrize("text", [
    "Sou professor da rede estadual de São Paulo e estou três semanas em Coimbra num intercâmbio; continuo a receber "
    "o meu salário normal. Portugal pode tributar esse salário?",
    "sou professora da rede municipal de curitiba, vou passar 10 dias em lisboa numa formação e a prefeitura segue me "
    "pagando. portugal pode cobrar imposto desse salario?",
])
def test_a_town_s_or_a_state_s_teacher_is_paid_by_the_state_of_that_place(text):
    """"professora da rede municipal de Curitiba": art. 19 pay of a Brazilian local authority, so Brazil is the
    paying State (the source), whatever State the visit is to."""
    query = understand(text, TREATIES, topic="government_service")
    assert (query.source_state, query.residence_state) == ("BR", "PT")
