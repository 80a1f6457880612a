"""The trained direction reader: which of a treaty's two States is the residence, on phrasings the grammar
misreads, and understand() taking its reading only when it is sure."""
from __future__ import annotations

import pytest

import rules
from assistant.understand import understand
from assistant.understand.direction_model import (
    DirectionExample,
    DirectionModel,
    party_features,
    ticket_mentions,
    trained_direction,
)
from config import load_settings


@pytest.fixture(scope="module")
def model() -> DirectionModel:
    return trained_direction(load_settings().cache_dir)


@pytest.mark.parametrize("text, topic, residence, source", [
    ("quick one: I'm a PT resident and made two trips to Sao Paulo this year, 80 + 60 days, my Lisbon employer "
     "pays me. Can Brazil tax the salary?", "employment", "PT", "BR"),
    ("Boa tarde. Dou aulas numa escola em Aveiro e recebo uma reforma do INSS todos os meses. "
     "Quem tributa a reforma?", "pensions", "PT", "BR"),
    ("Tengo acciones de Petrobras y vivo en Zaragoza desde hace años. ¿Cuánto me pueden retener en Brasil "
     "por los dividendos?", "dividends", "ES", "BR"),
    ("Our company in Osaka receives royalties for a patent licensed to a manufacturer in Aveiro. "
     "What is the Portuguese withholding?", "royalties", "JP", "PT"),
])
def test_the_trained_reader_reads_the_residence_of_phrasings_not_in_the_bank(model, text, topic, residence, source):
    q = understand(text, rules.known_treaties(), topic=topic, read_residence=model.residence)
    assert (q.residence_state, q.source_state) == (residence, source)


def _sure(state: str, probability: float):
    return lambda text, tokens, mentions, parties, topic, grammar: (state, probability)


def test_understand_takes_the_trained_residence() -> None:
    """However close the trained reader's call, it decides over the grammar's (grouped CV: 93.3% against 91.3%
    when it decided only from 0.6)."""
    text = "Recebo dividendos de uma empresa portuguesa e vivo no Brasil. Qual a retenção?"
    treaties = rules.known_treaties()
    plain = understand(text, treaties, topic="dividends")
    assert (plain.residence_state, plain.source_state) == ("BR", "PT")
    close = understand(text, treaties, topic="dividends", read_residence=_sure("PT", 0.55))
    assert (close.residence_state, close.source_state) == ("PT", "BR")
    agrees = understand(text, treaties, topic="dividends", read_residence=_sure("BR", 0.51))
    assert (agrees.residence_state, agrees.source_state) == ("BR", "PT")


@pytest.mark.parametrize("text, wrong, way", [
    ("Aposentada pelo INSS, mudei-me para Aveiro no ano passado. A aposentadoria é tributada onde?", "BR",
     ("PT", "BR")),
    ("Cobro la pensión de la Seguridad Social española y me fui a vivir a Recife. ¿Dónde tributa?", "ES",
     ("BR", "ES")),
    ("My mother draws her kosei nenkin and has lived with us in Coimbra since May. Who taxes it?", "JP",
     ("PT", "JP")),
])
def test_a_pension_schemes_state_is_the_source_whatever_the_trained_reader_says(text, wrong, way) -> None:
    q = understand(text, rules.known_treaties(), topic="pensions", read_residence=_sure(wrong, 0.9))
    assert (q.residence_state, q.source_state) == way


@pytest.mark.parametrize("text, treaty, trained, way", [
    ("Recebo a pensão do INSS e a da Segurança Social portuguesa e moro no Porto. Quem tributa cada uma?", "PT-BR",
     "PT", ("PT", "BR")),
    # a scheme whose State the words leave open may be the other State's
    ("Descontei para a Seguridad Social muitos anos e agora recebo também do INSS; vivo em Natal. A Espanha pode "
     "tributar a pensão?", "BR-ES", "BR", ("BR", "ES")),
])
def test_two_schemes_or_an_unplaced_one_leave_the_trained_residence(text, treaty, trained, way) -> None:
    q = understand(text, rules.known_treaties(), topic="pensions", read_residence=_sure(trained, 0.9))
    assert q.treaty == treaty and (q.residence_state, q.source_state) == way


def test_a_question_of_residence_is_left_to_the_tie_breaker() -> None:
    text = "Tenho casa em Lisboa e casa em São Paulo e passo metade do ano em cada. Onde sou residente?"
    q = understand(text, rules.known_treaties(), read_residence=_sure("BR", 0.99))
    assert q.topic == "residence" and q.residence_state is None


def test_a_model_fitted_on_a_few_examples_learns_the_words_around_a_state() -> None:
    texts = [("Moro em {r} e recebo juros de um banco em {s}. Qual a taxa?", True),
             ("Vivo em {r} e tenho um depósito em {s}. Qual a retenção?", True)]
    pairs = [("Portugal", "Brasil", "PT", "BR"), ("Brasil", "Portugal", "BR", "PT")]
    examples = [DirectionExample(t.format(r=r, s=s), ("PT", "BR"), code, "interest", f"p{k}{n}", None)
                for n, (t, _) in enumerate(texts) for k, (r, s, code, _) in enumerate(pairs) for _ in range(3)]
    fitted = DirectionModel.fit(examples)
    text = "Moro em Portugal e tenho juros de um banco no Brasil."
    tokens, mentions = ticket_mentions(text, "interest")
    state, probability = fitted.residence(text, tokens, mentions, ("PT", "BR"), "interest", None)
    assert state == "PT" and probability > 0.5


def test_the_words_around_here_and_the_tie_breaker_clauses_are_the_states_features() -> None:
    """"Sempre morei aqui" is said of the country "aqui" points to; a home and the family named in a State are
    that State's, whichever way the sentence names it."""
    text = ("A empresa é de São Paulo e paga-me em reais. Trabalho em Braga e sempre morei aqui; a família "
            "vive toda em Portugal. O Brasil pode tributar o salário?")
    tokens, mentions = ticket_mentions(text, "employment")
    pt = party_features(text, tokens, mentions, "PT", "BR", "employment", None)
    br = party_features(text, tokens, mentions, "BR", "PT", "employment", None)
    assert "cL:morei" in pt and "cL:morei" not in br
    assert "c:vital" in pt and "c:vital" not in br


def test_a_student_read_as_resident_of_the_home_state_is_visiting_the_other(model) -> None:
    from assistant.apply_rules import run_rules

    text = ("Olá, sou brasileira e faço o doutoramento em Coimbra. A minha mãe manda-me 700 euros por mês de "
            "São Paulo. Tenho de pagar IRS sobre esse dinheiro?")
    q = understand(text, rules.known_treaties(), topic="students", read_residence=model.residence)
    case = run_rules(q, q.facts).rights[0].cases[0]
    assert case.income == "students"
    assert [(r.state, r.right) for r in case.rights if r.role == "source"] == [("PT", "exempt")]


@pytest.mark.parametrize("text, host", [
    # the grammar and the trained reader agree on the home State (nationality before the city): still visiting
    ("Good morning, I am a Brazilian student in the Science Without Borders programme, funded by CAPES, "
     "spending a year at the University of Porto. Does Portugal tax the Brazilian grant?", "PT"),
    ("Sou estudante brasileiro a fazer mestrado em Coimbra e recebo uma bolsa paga do Brasil para a minha "
     "manutenção. Portugal tributa esse dinheiro?", "PT"),
])
def test_a_student_whose_home_both_readers_agree_on_studies_in_the_other_state(model, text, host) -> None:
    from assistant.apply_rules import run_rules

    q = understand(text, rules.known_treaties(), topic="students", read_residence=model.residence)
    assert q.host_state == host
    case = run_rules(q, q.facts).rights[0].cases[0]
    assert [(r.state, r.right) for r in case.rights if r.role == "source"] == [(host, "exempt")]
