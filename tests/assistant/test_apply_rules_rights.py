"""Who may tax, from an understood question through the real rules: the case the question's facts decide.
Phrasings written for these tests (none is in the eval set)."""
from __future__ import annotations

import dataclasses

import pytest

import rules
from assistant.apply_rules import run_rules
from assistant.understand import understand


def rights(text: str):
    query = understand(text, rules.known_treaties())
    run = run_rules(query, query.facts)
    return [(r.residence_state, [c.rule_id for c in r.cases]) for r in run.rights]


def test_profits_of_a_branch_are_business_profits():
    assert rights("A nossa sociedade espanhola tem uma filial em São Paulo; os lucros imputáveis a essa filial "
                  "podem ser tributados no Brasil?") == [("ES", ["br-es.rights.7-1-pe"])]


def test_a_local_employer_fails_the_short_stay_test():
    assert rights("Moro em Lisboa e vou trabalhar seis semanas em Recife, contratado por uma empresa "
                  "brasileira. Quem tributa o salário?") == [("PT", ["pt-br.rights.15-1"])]


def test_a_stated_stay_longer_than_the_limit_fails_the_short_stay_test():
    assert rights("Vivo em Coimbra e vou trabalhar em Tóquio durante nove meses, pago pela empresa portuguesa. "
                  "O Japão pode tributar?") == [("PT", ["pt-jp.rights.14"])]


def test_a_visiting_teacher_is_resident_of_the_home_state():
    assert rights("Una universidad portuguesa me ha invitado a investigar allí durante un año; soy profesora "
                  "en Fortaleza. ¿Quién grava esa remuneración?") == [("BR", ["pt-br.rights.20"])]


def test_public_pay_to_a_national_of_the_paying_state():
    assert rights("Sou cidadão brasileiro, vivo em Lisboa e trabalho no consulado; o governo brasileiro "
                  "paga-me o salário. Quem tributa?") == [("PT", ["pt-br.rights.19-2"])]


def test_the_card_names_the_short_stay_condition_that_fails():
    from assistant.presentation.build import Part, build_card
    from assistant.presentation.markdown import card_markdown
    query = understand("Vivo em Braga e vou trabalhar 60 dias em Tóquio; o salário é suportado pela sucursal "
                       "(estabelecimento estável) que a minha empresa tem no Japão. O Japão tributa?",
                       rules.known_treaties())
    run = run_rules(query, query.facts)
    assert [c.rule_id for c in run.rights[0].cases] == ["pt-jp.rights.14"]
    card = build_card([Part(None, "employment", run)], lambda c: None, "pt", [], [], [])
    failed = [c.phrase.key for line in card.lines() for c in line.checks() if c.status == "not_met"]
    assert "rules.conditions.not_borne_by_pe_in_work_state" in failed
    assert "✘ as remunerações não são suportadas por um estabelecimento estável" in card_markdown(card)


def test_other_income_from_the_other_state_is_shared_under_22_3():
    assert rights("Vivo no Porto e recebo outros rendimentos vindos do Brasil, não tratados em nenhum artigo "
                  "específico. O Brasil pode tributar esses outros rendimentos?") == [("PT", ["pt-br.rights.22-3"])]


def test_a_crews_pay_does_not_ask_for_the_stay_dates():
    query = understand("Sou comissária de bordo numa companhia aérea portuguesa e vivo em Fortaleza. Quem tributa o "
                       "meu salário?", rules.known_treaties(), topic="employment")
    run = run_rules(query, query.facts)
    assert [c.rule_id for r in run.rights for c in r.cases] == ["pt-br.rights.15-3"]
    assert "stays" not in run.missing_facts


def test_a_salary_from_a_branch_where_one_lives_is_taxed_there_only():
    query = understand("Trabajo como jefa de ventas en la sucursal española de un grupo brasileño y vivo en Bilbao. "
                       "¿Brasil puede gravar mi sueldo?", rules.known_treaties(), topic="employment")
    assert query.facts.services_in_residence_state is True
    run = run_rules(query, query.facts)
    rights = {r.role: r.right for r in run.rights[0].cases[0].rights}
    assert rights["residence"] == "exclusive"


def test_a_relief_question_follows_the_short_stay_test_on_the_dates_given():
    query = understand("Vou trabalhar em Recife de 10 de janeiro a 30 de outubro de 2026, pago pela empresa de Braga. "
                       "Se o Brasil tributar o salário, como evito a dupla tributação em Portugal?",
                       rules.known_treaties(), topic="double_taxation_relief")
    run = run_rules(query, query.facts)
    assert run.employment is not None and run.employment.taxable_in_work_state is True
    assert "employment_183_met" not in run.missing_facts


def _missing(text: str) -> list[str]:
    query = understand(text, rules.known_treaties())
    return run_rules(query, query.facts).missing_facts


def test_a_stay_given_as_a_range_across_the_limit_leaves_the_days_to_ask():
    assert "stay_days" in _missing("Moro em Lisboa e a empresa vai-me mandar para Campinas entre três e sete "
                                   "meses. O Brasil tributa o salário?")
    assert "stay_days" not in _missing("Moro em Lisboa e a empresa portuguesa vai-me mandar para Campinas dois ou "
                                       "três meses. O Brasil tributa o salário?")


def test_a_site_given_as_a_range_across_the_treatys_months_leaves_the_pe_open():
    assert "stay_months" in _missing("Somos una constructora de Bilbao; la obra en Fortaleza durará de cuatro a "
                                     "ocho meses. ¿Brasil puede gravar el beneficio?")
    assert "stay_months" not in _missing("Somos una constructora de Bilbao; la obra en Fortaleza durará de diez a "
                                         "doce meses. ¿Brasil puede gravar el beneficio?")


def _site_run(text: str):
    query = understand(text, rules.known_treaties(), topic="permanent_establishment")
    return run_rules(query, query.facts)


@pytest.mark.parametrize("text, open_", [
    # the planned length and a longer one it may stretch to, across the treaty's months
    ("Our firm from Curitiba will assemble a bottling line at a winery near Valladolid: planned for 5 months on "
     "site, though the client says it could stretch to 10 months. Will Spain tax our profit from it?", True),
    ("A nossa empreitada em Natal está prevista para 7 meses, mas pode prolongar-se até 12 meses. Somos de Leiria. "
     "O Brasil pode tributar o lucro?", True),
    # both on the same side of the figure: decided
    ("A nossa empreitada em Natal está prevista para 10 meses, mas pode prolongar-se até 12 meses. Somos de Leiria. "
     "O Brasil pode tributar o lucro?", False),
    # a site named with no length at all: its length decides
    ("Somos uma construtora de Viseu e ganhámos a obra de um hospital em Manaus; ainda não sabemos quando termina. "
     "A obra cria estabelecimento estável no Brasil?", True),
])
def test_a_site_said_to_run_longer_than_planned_or_of_unknown_length_leaves_the_pe_open(text, open_):
    run = _site_run(text)
    assert ("stay_months" in run.missing_facts) is open_
    assert any(r.income == "business_profits" for r in run.rights)      # who may tax the profits, either way


def test_a_named_sites_length_decides_before_a_storage_word_in_what_it_builds():
    run = _site_run("We are a Porto company installing a cold-storage room for a client in Belo Horizonte; the "
                    "installation job lasts 11 months. Can Brazil tax the profit?")
    assert run.site is not None and run.site.permanent_establishment and run.activity is None


def test_a_question_on_the_works_is_read_by_their_length_beside_an_auxiliary_office():
    text = ("Somos de Bilbao. Tenemos alquilada una oficina en Recife que solo usamos para recoger información, y una "
            "obra de una subestación en Belém que durará más de dos años. ¿Y la obra sí es un establecimiento "
            "permanente?")
    query = understand(text, rules.known_treaties(), topic="permanent_establishment")
    query = dataclasses.replace(query, asked="¿Y la obra sí es un establecimiento permanente?")
    run = run_rules(query, query.facts)
    assert run.site is not None and run.site.permanent_establishment
    profits = [r for r in run.rights if r.income == "business_profits"]
    assert profits and {r.role: r.right for r in profits[0].cases[0].rights}["source"] != "none"
