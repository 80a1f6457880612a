"""Stated durations and amounts applied to the treaty's thresholds, and the card saying so in the question's
language (issue 17 item 5). The thresholds are read from rules/data here too, never written in the test."""
from __future__ import annotations

import pytest

import rules
from rules.labels import unit_label


def _site_months(treaty: str) -> int:
    fig = next(f for f in rules.figures(treaty, "permanent_establishment") if f.id.endswith(".pe.construction-site"))
    return int(fig.value)


@pytest.mark.parametrize("question, treaty, lang, months, pe, only", [
    ("A minha empresa portuguesa tem uma obra em São Paulo que vai durar 7 meses. Quem tributa o lucro?",
     "PT-BR", "pt", 7, False, "Portugal"),
    # The trained topic reader (issue 17, still open) reads this one as employment: a known misread, kept
    # strict so that the marker must go when the reader gets it right (its Spanish twin is now read right).
    ("Nuestra constructora española tiene una obra en Brasil de 8 meses. ¿Quién grava el beneficio?",
     "BR-ES", "es", 8, True, None),
    ("Our Portuguese company has a building site in Brazil lasting 6 months. Who taxes the profit?",
     "PT-BR", "en", 6, False, "Portugal"),
    ("Nossa construtora paulista vai tocar uma obra em Portugal por 10 meses. Há estabelecimento estável?",
     "PT-BR", "pt", 10, True, None),
])
def test_a_site_duration_is_applied_to_the_figure(make_assistant, question, treaty, lang, months, pe, only):
    answer = make_assistant().ask(question)
    limit = _site_months(treaty)
    assert (months > limit) is pe                                   # the case is on the side the test says
    sign = ">" if pe else "<"
    line = f"{months} {unit_label('months', months, lang)} {sign} {limit} {unit_label('months', limit, lang)}"
    assert line in answer.card
    run = answer.rule_results
    assert run.site is not None and run.site.permanent_establishment is pe
    rights = [r for r in run.rights if r.income == "business_profits"]
    assert rights and rights[0].outcome == "decided"
    if only:
        assert f"**{only}**" in answer.card.split(line)[1].split("\n")[0]   # "…; só Portugal pode tributar (art. 7)"


@pytest.mark.parametrize("question, treaty, months", [
    # a subsidiary or a branch denied is no denial of the site: art. 5 makes a long enough site a PE
    ("A nossa construtora de Braga vai montar uma ponte em Recife; a empreitada dura 11 meses e não vamos abrir "
     "filial no Brasil. O Brasil pode tributar o lucro da obra?", "PT-BR", 11),
    ("Our Spanish company has an installation project in Campinas lasting 9 months; we will not set up any "
     "branch or office there. Can Brazil tax the profit?", "BR-ES", 9),
])
def test_a_named_site_longer_than_the_figure_is_a_pe_whatever_else_is_denied(make_assistant, question, treaty,
                                                                               months):
    assert months > _site_months(treaty)
    run = make_assistant().ask(question).rule_results
    assert run.site is not None and run.site.permanent_establishment
    profits = [r for r in run.rights if r.income == "business_profits"]
    assert profits and {r.role: r.right for r in profits[0].cases[0].rights}["source"] != "none"


@pytest.mark.parametrize("question, activity, only, line", [
    ("A nossa empresa de Guimarães arrendou um armazém em Campinas só para guardar stock e entregar aos clientes; "
     "as vendas fecham-se todas em Portugal. O Brasil pode tributar o lucro?", "auxiliary", "Portugal",
     "não é estabelecimento estável"),
    ("Somos una empresa de Zaragoza y vendemos en Brasil solo por medio de un agente comercial independiente que "
     "trabaja para varias empresas. ¿Tenemos establecimiento permanente en Brasil?", "independent_agent", "España",
     "no crea establecimiento permanente"),
    ("We're a Brazilian firm with a liaison office in Lisbon that only does market research. Is that a permanent "
     "establishment in Portugal?", "auxiliary", "Brazil", "is not a permanent establishment"),
    # a company it controls there is no PE by itself (art. 5(7))
    ("A nossa empresa de Leiria tem uma subsidiária em Joinville, detida a 100%. O facto de a controlarmos faz com "
     "que tenhamos um estabelecimento estável no Brasil?", "subsidiary", "Portugal", "não faz, por si só"),
    ("Our Curitiba company owns a wholly owned subsidiary in Valencia. Does controlling it give us a permanent "
     "establishment in Spain?", "subsidiary", "Brazil", "does not of itself"),
    # controlling the "filial" the question names, in words other than a subsidiary's
    ("Somos uma Lda. de Viseu e criámos uma sociedade em Goiânia. O simples facto de controlarmos a filial de "
     "Goiânia dá-nos um estabelecimento estável no Brasil?", "subsidiary", "Portugal", "não faz, por si só"),
    ("Somos una SL de Burgos con una sociedad en Fortaleza. ¿Controlar la filial de Fortaleza nos da un "
     "establecimiento permanente en Brasil?", "subsidiary", "España", "no convierte por sí solo"),
])
def test_an_activity_the_treaty_says_is_no_pe_decides_who_taxes_the_profits(make_assistant, question, activity,
                                                                            only, line):
    answer = make_assistant().ask(question)
    run = answer.rule_results
    assert run.activity is not None and run.activity.activity == activity
    profits = [r for r in run.rights if r.income == "business_profits"]
    assert profits and profits[0].outcome == "decided"
    assert {r.role: r.right for r in profits[0].cases[0].rights} == {"residence": "exclusive", "source": "none"}
    shown = next(text for text in answer.card.split("\n") if line in text)
    assert f"**{only}**" in shown                                  # "…; só Portugal pode tributar (art. 7)"


def test_a_branch_opened_there_is_a_pe_and_both_may_tax(make_assistant):
    answer = make_assistant().ask("Uma empresa de Campinas vai abrir uma sucursal em Lisboa com cinco vendedores. "
                                  "Passa a ter estabelecimento estável em Portugal e Portugal tributa os lucros?")
    run = answer.rule_results
    assert run.activity is not None and run.activity.permanent_establishment
    profits = [r for r in run.rights if r.income == "business_profits"]
    assert profits and {r.role: r.right for r in profits[0].cases[0].rights} == {"residence": "shared",
                                                                                "source": "shared"}
    assert "Uma sucursal, um escritório, uma fábrica ou uma oficina são estabelecimento estável" in answer.card


@pytest.mark.parametrize("question", [
    "Somos uma empresa de Lisboa com participação num campo de gás na bacia de Santos, com pessoal nosso na "
    "plataforma há três anos. Temos estabelecimento estável no Brasil?",
    "Our Madrid company operates an oil well in the Campos basin with its own crew. Does that give us a permanent "
    "establishment in Brazil?",
    "Una empresa de Oviedo explota un yacimiento de gas en Bahía con sus propios técnicos. ¿Tiene establecimiento "
    "permanente en Brasil?",
])
def test_a_place_of_extraction_is_a_pe_and_both_may_tax(make_assistant, question):
    """Art. 5(2)(f): "minas, poços de petróleo ou de gás, pedreiras ou qualquer outro local de extracção de
    recursos naturais" are a PE, also one placed in a basin named after a town ("na bacia de Santos")."""
    run = make_assistant().ask(question).rule_results
    assert run.activity is not None and run.activity.permanent_establishment
    profits = [r for r in run.rights if r.income == "business_profits"]
    assert profits and {r.role: r.right for r in profits[0].cases[0].rights} == {"residence": "shared",
                                                                                "source": "shared"}


def test_contracts_concluded_there_are_not_an_auxiliary_activity(make_assistant):
    answer = make_assistant().ask("A nossa empresa de São Paulo tem um armazém em Lisboa e dois vendedores que "
                                  "fecham contratos com clientes portugueses. Há estabelecimento estável?")
    assert answer.rule_results.activity is None


def test_days_stated_without_dates_meet_the_short_stay_condition(make_assistant):
    answer = make_assistant().ask("Estuve 120 días en Portugal trabajando para mi empresa de Brasil, que no tiene "
                                  "establecimiento permanente en Portugal; vivo en São Paulo. "
                                  "¿Dónde tributa el salario?")
    rights = answer.rule_results.rights[0]
    assert rights.outcome == "decided" and rights.cases[0].article.startswith("15")
    assert {r.role: r.right for r in rights.cases[0].rights} == {"residence": "exclusive", "source": "none"}
    assert "(contados: 120)" in answer.card or "120" in answer.card


def test_days_in_a_named_year_over_the_limit_fail_it(make_assistant):
    answer = make_assistant().ask("Worked 200 days in Spain in 2023 for a Brazilian employer, I live in São Paulo. "
                                  "Who taxes my salary?")
    case = answer.rule_results.rights[0].cases[0]
    assert {r.role: r.right for r in case.rights}["source"] == "shared"
    assert any(c.code == "days_within_limit" and c.status == "not_met" for c in case.conditions)


def test_a_pension_amount_against_the_usd_limit(make_assistant):
    answer = make_assistant().ask("Cobro una pensión privada de 200 dólares al mes de Brasil y vivo en Valencia. "
                                  "¿Quién la grava?")
    usd = next(c.params["usd"] for r in answer.rule_results.rights for case in r.cases for c in case.conditions
               if c.code == "pension_within_usd")
    assert f"US$ 2400 < US$ {usd:g}" in answer.card


@pytest.mark.parametrize("question, status", [
    # 6 x 700 € = 4,200 € and 9 x R$ 1,000: under US$ 10,000 at any rate since 1999
    ("Sou estudante da USP e vou fazer um estágio curricular de 6 meses numa empresa do Porto, ligado ao curso, "
     "com uma bolsa de 700 € por mês paga pela empresa. Portugal pode tributar a bolsa?", "met"),
    ("Estudo na Universidade de Coimbra e faço 9 meses de estágio curricular numa empresa de Recife que me paga "
     "R$ 1.000 por mês. O Brasil pode tributar esse dinheiro?", "met"),
])
def test_a_trainees_pay_in_euros_or_reais_against_the_usd_limit(make_assistant, question, status):
    """The amount decides the US$ limit only when it is on one side of it at every rate since 1999."""
    answer = make_assistant().ask(question)
    conditions = [c for p in answer.parts if p.rule_results for r in p.rule_results.rights for case in r.cases
                  for c in case.conditions if c.code == "student_within_usd"]
    assert conditions and conditions[0].status == status
    assert "US$ 10000)" in answer.card


def test_a_pension_in_euros_over_the_usd_limit_at_any_rate(make_assistant):
    answer = make_assistant().ask("Mi madre vive en Fortaleza y cobra una pensión del plan de empresa de su antiguo "
                                  "empleador de Bilbao, unos 8.000 euros al año. ¿Quién grava esa pensión?")
    case = answer.rule_results.rights[0].cases[0]
    assert {r.role: r.right for r in case.rights} == {"source": "shared", "residence": "shared"}


def test_a_holding_period_against_the_years_the_cap_needs(make_assistant):
    answer = make_assistant().ask("A nossa SGPS portuguesa detém 30% de uma empresa brasileira há 18 meses. "
                                  "Qual a retenção no Brasil sobre os dividendos?")
    years = next(c.params["years"] for r in answer.rule_results.withholding for alt in r.ruled_out
                 for c in alt.conditions if c.code == "holding_min_years")
    assert f"18 meses < {years:g} anos" in answer.card


def test_a_visit_against_the_professors_years(make_assistant):
    answer = make_assistant().ask("I was invited by the University of São Paulo to teach for 18 months; I live in "
                                  "Lisbon. Who taxes my salary as a visiting professor?")
    years = next(c.params["years"] for r in answer.rule_results.rights for case in r.cases for c in case.conditions
                 if c.code == "stay_within_years")
    assert f"1.5 years < {years:g} years" in answer.card


def test_the_users_numbers_ground_no_rate(make_assistant):
    from tests.assistant.conftest import scripted
    answer = make_assistant(scripted("O Brasil retém 20% [1].", "O Brasil retém 20% [1].")).ask(
        "A nossa SGPS portuguesa detém 20% de uma empresa brasileira há 3 anos. Qual a retenção sobre os dividendos?")
    pct = next(c.params["pct"] for r in answer.rule_results.withholding for alt in r.ruled_out
               for c in alt.conditions if c.code == "holding_min_pct")
    assert f"(20% < {pct:g}%)" in answer.card                       # shown against the threshold …
    assert answer.guardrail.action == "fallback" and "numbers 20" in answer.guardrail.dropped[0]   # … no ground


def test_a_stay_in_months_is_counted_in_whole_days():
    from assistant.apply_rules import run_rules
    from assistant.understand import understand

    query = understand("Vou trabalhar 7 meses em São Paulo para a minha empresa portuguesa. Pago imposto no Brasil?",
                       rules.known_treaties(), topic="employment")
    run = run_rules(query, query.facts)
    counted = [c.params["days"] for r in run.rights for case in r.cases for c in case.conditions
               if c.code == "days_within_limit"]
    assert counted == [213]          # 7 × 365 / 12 = 212.9, not "212,917 dias"


@pytest.mark.parametrize("question, employer_in_work_state", [
    ("Vivo em Braga. Em 2026 vou receber um ordenado de um clube brasileiro por 50 dias de trabalho em Manaus. "
     "O Brasil tributa?", True),
    ("Resido en Sevilla y un hospital de Madrid me contrata para 30 días de guardias en Fortaleza. "
     "¿Me gravan en Brasil?", False),
])
def test_a_salary_questions_one_company_with_a_country_is_the_employer(question, employer_in_work_state):
    from assistant.apply_rules import run_rules
    from assistant.understand import understand

    query = understand(question, rules.known_treaties(), topic="employment")
    assert query.facts.employment.employer_resident_in_work_state is employer_in_work_state
    run = run_rules(query, query.facts)
    assert "employer_resident_in_work_state" not in run.missing_facts
    if not employer_in_work_state:      # days and a foreign employer stated, no branch named: decided, saying
        rights = run.rights[0]          # that it assumes the pay is not borne by a PE in the work State
        assert rights.outcome == "decided" and "borne_by_pe" not in run.missing_facts
        assert "borne_by_pe_in_work_state" in [c.code for c in rights.assumptions if c.status == "assumed_not_met"]


@pytest.mark.parametrize("question", [
    "Vivo em Lisboa e a minha empresa portuguesa, que tem uma sucursal em Tóquio, manda-me 90 dias para o Japão. "
    "O Japão tributa o salário?",
    "I live in Madrid; my Spanish employer sends me to its branch in São Paulo for 100 days. Does Brazil tax my pay?",
])
def test_a_named_branch_leaves_who_bears_the_pay_open(question):
    from assistant.apply_rules import run_rules
    from assistant.understand import understand

    query = understand(question, rules.known_treaties(), topic="employment")
    run = run_rules(query, query.facts)
    assert run.rights and run.rights[0].outcome == "alternatives"
    assert "borne_by_pe" in run.missing_facts
    assert not any(c.code == "borne_by_pe_in_work_state" for r in run.rights for c in r.assumptions)


@pytest.mark.parametrize("question", [
    "I live in São Paulo and my employer is a Brazilian company; I'll be in Lisbon for 120 days at a client's "
    "office. Salary paid in Brazil, no Portuguese branch. Is it taxed in Portugal?",
    "Moro em Curitiba e a minha empresa brasileira, sem filial em Portugal, manda-me 100 dias para o Porto. "
    "Portugal tributa o salário?",
    # the branch exists, but the employer at home does not pass the salary on to it
    "Vivo em Osaka; a casa-mãe japonesa manda-me 80 dias à nossa filial de Lisboa e não lhe debita o meu salário. "
    "Portugal tributa?",
    "Vivo en Valencia y mi empresa española me manda 90 días a su sucursal de Recife; el sueldo no se repercute a la "
    "sucursal. ¿Tributa en Brasil?",
    # plural and cost-centre forms
    "Vivo em Braga e a minha empresa portuguesa manda-me 60 dias à sua sucursal de Manaus; os salários não são "
    "refaturados à sucursal. O Brasil tributa?",
    "I live in Madrid; my Spanish employer sends me 50 days to its São Paulo branch and my pay is charged entirely "
    "to the Madrid cost centre. Does Brazil tax it?",
    # a negation before alternatives denies each of them
    "I live in Seville; my Spanish employer sends me 120 days to Recife. No Brazilian company or branch pays or "
    "bears my salary. Can Brazil tax it?",
    "Moro em Leiria e a minha empresa portuguesa manda-me 100 dias a Campinas; nenhuma filial ou escritório "
    "brasileiro suporta o meu salário. O Brasil pode tributar?",
])
def test_a_branch_denied_is_no_pe_bearing_the_pay(question):
    from assistant.apply_rules import run_rules
    from assistant.understand import understand

    query = understand(question, rules.known_treaties(), topic="employment")
    assert query.facts.employment.borne_by_pe is False
    run = run_rules(query, query.facts)
    assert run.rights[0].outcome == "decided"
    assert {r.role: r.right for r in run.rights[0].cases[0].rights} == {"residence": "exclusive", "source": "none"}


def test_crew_pay_names_the_state_of_effective_management_and_no_183_day_condition():
    from assistant.apply_rules import run_rules
    from assistant.understand import understand

    query = understand("Sou comissária de bordo, moro em São Paulo, contratada por uma companhia aérea portuguesa "
                       "com direção efetiva em Lisboa, em voos internacionais. Portugal pode tributar o meu salário?",
                       rules.known_treaties(), topic="employment")
    run = run_rules(query, query.facts)
    case = run.rights[0].cases[0]
    assert {r.role: r.state for r in case.rights} == {"effective_management": "PT", "residence": "BR"}
    assert [c.code for c in case.conditions] == ["employment_ship_aircraft"]


@pytest.mark.parametrize("question, residence", [
    ("Sou piloto e vivo em Cascais; voo para uma companhia aérea portuguesa com sede e direção em Lisboa, em rotas "
     "para o Brasil. O Brasil pode tributar o meu salário?", "PT"),
    ("Soy marinero, vivo en Vigo y trabajo en un buque de una naviera española con dirección en Bilbao que hace "
     "viajes a Santos. ¿Brasil puede gravar mi sueldo?", "ES"),
])
def test_crew_of_an_enterprise_managed_where_they_live_is_taxed_only_there(question, residence):
    from assistant.apply_rules import run_rules
    from assistant.understand import understand

    query = understand(question, rules.known_treaties(), topic="employment")
    assert query.facts.residence is not None and query.facts.residence.person == "individual"
    case = run_rules(query, query.facts).rights[0].cases[0]
    assert {(r.role, r.state, r.right) for r in case.rights} >= {("residence", residence, "exclusive")}
    assert not case.relief


def test_a_client_the_employee_is_sent_to_is_not_the_employer():
    """"num cliente brasileiro": the work is done for a client there, the employer is not named as resident
    there (the 183-day test must not read the client as the employer)."""
    from assistant.understand import understand

    query = understand("A nossa fábrica vai destacar a Eng.ª Sara para um cliente brasileiro em Manaus durante "
                       "80 dias, para instalar uma linha de produção. O Brasil tributa o ordenado dela?",
                       rules.known_treaties(), topic="employment")
    assert query.facts.employment.employer_resident_in_work_state is not True


@pytest.mark.parametrize("text, employer_in_work_state", [
    # a company said not to be in the work State is not an employer there
    ("Vivo em Leiria e a minha empresa destaca-me 3 meses para Recife; a empresa não tem sucursal nem escritório no "
     "Brasil. O Brasil tributa o meu salário?", False),
    ("Mi empresa de Bilbao me envía cuatro meses a Recife y no tiene ninguna filial en Brasil. ¿Tributa mi sueldo "
     "allí?", False),
    # the salary still paid at home during the stay: the employer is not of the work State
    ("Somos uma metalúrgica de Águeda e vamos enviar o Eng. Hugo para Sendai durante quatro meses. Continua a "
     "receber o ordenado pela nossa empresa, em Portugal. O Japão pode tributar o salário dele?", False),
    ("Trabajo en una consultora de Sevilla que me desplaza cinco meses a Recife; sigo cobrando la nómina en "
     "España. ¿Brasil puede gravar mi sueldo?", False),
    # who hires names the employer
    ("Portuguese resident working four months on a platform off Rio, employed by a Brazilian driller. Can "
     "Brazil tax my pay?", True),
    # the payroll the pay stays on is the employer's
    ("I live in Osaka and will work in Lisbon for 120 days; my salary stays on the Osaka payroll. Is it exempt "
     "from Portuguese tax?", False),
    ("Sou residente em Curitiba e vou trabalhar 3 meses em Lisboa; o salário continua na folha de pagamento de "
     "Curitiba. Portugal pode tributar o salário?", False),
    # a software house is a company: the one hiring, even when it has nothing in the home State
    ("Vivo em Recife; trabalho remoto para uma software house de Coimbra que nao tem nada no Brasil. Em marco "
     "fico 20 dias em Coimbra. Portugal pode tributar esses dias?", True),
    # "paid by the … employer": the employer, though it also owns a company in the work State
    ("Portuguese resident engineer, 120 days on a site in Belém this year; salary paid by the Portuguese "
     "employer, which also owns a Brazilian subsidiary. Can Brazil tax it?", False),
    # a company's home in brackets ("our firm (Braga)")
    ("Our firm (Braga) hired a developer living in Fortaleza; he spends 20 days a year at our office. Can "
     "Portugal tax those days?", True),
])
def test_where_the_employer_is_from_who_pays_and_where_a_company_is_not(text, employer_in_work_state):
    from assistant.understand import understand

    query = understand(text, rules.known_treaties(), topic="employment")
    assert query.facts.employment.employer_resident_in_work_state is employer_in_work_state


def test_a_groups_holding_does_not_turn_a_sites_duration_into_a_holding_period():
    """"os mesmos sócios detêm 100%" elsewhere in the ticket: a building site's "11 meses" is its duration."""
    from assistant.understand import understand

    query = understand("A nossa empresa de Braga ganhou a estrutura de uma fábrica em Campinas: arrancamos em "
                       "março e, pelo cronograma, acabamos uns 11 meses depois. Os mesmos sócios detêm 100% de uma "
                       "sociedade irmã que faz os acabamentos. Temos estabelecimento estável no Brasil?",
                       rules.known_treaties(), topic="permanent_establishment")
    assert query.facts.employment.stay_months == 11


@pytest.mark.parametrize("question, one_year, status", [
    ("Vivo en Valencia. Este año he pasado 200 días en Recife trabajando para mi empresa española. ¿Puede "
     "Brasil gravar el sueldo?", True, "not_met"),
    ("Vivo en Valencia y he pasado 200 días en Recife trabajando para mi empresa española, entre octubre y "
     "mayo. ¿Puede Brasil gravar el sueldo?", False, "unknown"),
])
def test_days_said_to_fall_in_one_year_are_counted_in_it(question, one_year, status):
    """BR-ES 15(2)(a) counts days "no ano civil": 200 days "este año" exceed it; 200 days that may straddle two
    years may not, and the short stay is then not taken as met (it was, when the employer was foreign)."""
    from assistant.apply_rules import run_rules
    from assistant.understand import understand

    query = understand(question, rules.known_treaties(), topic="employment")
    stay = query.facts.employment
    assert query.treaty == "BR-ES" and stay.stay_days == 200 and stay.stay_in_one_year is one_year
    run = run_rules(query, query.facts)
    conditions = [c for r in run.rights for case in r.cases for c in case.conditions]
    assert [c.status for c in conditions if c.code == "days_within_limit"] in ([status], [])
    assert not any(c.code == "days_within_limit" and c.status == "met" for c in conditions)
    if status == "not_met":
        assert run.rights[0].outcome == "decided"
        assert {r.role: r.right for r in run.rights[0].cases[0].rights}["source"] == "shared"
    else:
        assert run.rights[0].outcome == "alternatives"


@pytest.mark.parametrize("question, one_year", [
    ("Vivo en Bilbao y mi empresa me manda a Fortaleza siete meses este año. ¿Puede Brasil gravar mi sueldo?", True),
    ("My Lisbon employer is posting me to Curitiba for 7 months this year. Can Brazil tax my salary?", True),
    ("Vivo en Bilbao y mi empresa me manda a Fortaleza siete meses, de noviembre a mayo. ¿Puede Brasil gravar mi "
     "sueldo?", False),
])
def test_months_said_to_fall_in_one_year_are_counted_in_it(question, one_year):
    """Seven months in one calendar year exceed the 183 days of art. 15(2)(a): the work State may tax."""
    from assistant.apply_rules import run_rules
    from assistant.understand import understand

    query = understand(question, rules.known_treaties(), topic="employment")
    stay = query.facts.employment
    assert stay.stay_months == 7 and stay.stay_in_one_year is one_year
    conditions = [c for r in run_rules(query, query.facts).rights for case in r.cases for c in case.conditions]
    assert any(c.code == "days_within_limit" and c.status == "not_met" for c in conditions) is one_year


def test_this_year_counts_only_for_the_days_of_its_own_sentence():
    from assistant.understand import understand

    query = understand("Este año me jubilé en Valencia. Trabajé 200 días en Recife para mi empresa española entre "
                       "octubre y mayo. ¿Puede Brasil gravar el sueldo?", rules.known_treaties(), topic="employment")
    assert query.facts.employment.stay_days == 200 and query.facts.employment.stay_in_one_year is False


@pytest.mark.parametrize("question, source", [
    # an agent who signs in the enterprise's name: a PE, the source State may tax the profits
    ("We are a software company in Braga. Our sales rep in Recife signs the customer contracts in our name every "
     "week. Can Brazil tax our profits?", "shared"),
    # a warehouse only to store goods: no PE, only the residence State taxes
    ("Tenemos una empresa en Fortaleza y alquilamos una nave en Getafe solo para guardar mercancía; las ventas se "
     "cierran desde Brasil. ¿Hacienda puede gravar los beneficios?", "none"),
])
def test_how_the_business_is_done_there_decides_the_profits(make_assistant, question, source):
    profits = [r for r in make_assistant().ask(question).rule_results.rights if r.income == "business_profits"]
    assert profits and profits[0].outcome == "decided"
    assert {r.role: r.right for r in profits[0].cases[0].rights}["source"] == source
