"""Out of scope only when the main question is; a stated rate is a premise, not a holding; evasion is refused.
Phrasings written for these tests, not taken from the eval set."""
from __future__ import annotations

import pytest

from assistant.understand import Query, understand

TREATIES = {"PT-BR": ("PT", "BR"), "BR-ES": ("BR", "ES"), "PT-JP": ("PT", "JP"), "MLI": ()}


def q(text: str) -> Query:
    return understand(text, TREATIES)


@pytest.mark.parametrize("text, note", [
    ("Faturo royalties a uma empresa de Lisboa e cobro IVA na fatura. O Brasil pode reter imposto de renda?", "vat"),
    ("Vivo en Madrid, cotizo a la seguridad social aquí y recibo intereses de Brasil. ¿Cuánto retienen?",
     "social_security_contributions"),
    ("I pay stamp duty on the contract; the Brazilian licensee pays me royalties from São Paulo and I live in "
     "Lisbon. What is the withholding cap?", "financial_transactions_tax"),
])
def test_a_side_mention_is_a_note_and_the_treaty_part_is_answered(text, note):
    r = q(text)
    assert r.out_of_scope is None and note in r.side_notes
    assert r.topic is not None


@pytest.mark.parametrize("text, code", [
    ("Tenho de contribuir para o INSS se trabalho a partir de Lisboa?", "social_security_contributions"),
    ("Qual é a taxa de IVA que cobro a um cliente em Espanha?", "vat"),
    ("Sou freelancer em Lisboa com clientes no Brasil: tenho de pagar Segurança Social cá?",
     "social_security_contributions"),
    ("¿Tengo que pagar cotizaciones en España si trabajo en remoto para una empresa de Brasil?",
     "social_security_contributions"),
    ("My Brazilian employer deducts nothing; should I pay contributions myself in Portugal?",
     "social_security_contributions"),
    # paying in to social security or registering with it
    ("Recebo honorários de uma empresa de Campinas; tenho de descontar para o INSS sobre eles?",
     "social_security_contributions"),
    ("Me contrata una empresa de Sevilla desde Recife: ¿tienen que darme de alta en la Seguridad Social?",
     "social_security_contributions"),
    ("Our Lisbon hire lives in Brazil: do we need to get him registered with social security here?",
     "social_security_contributions"),
    ("Quanto pago de imposto do selo num empréstimo?", "financial_transactions_tax"),
    # a tax office's forms and deadlines
    ("Em que anexo do IRS declaro as rendas do apartamento de Santos, anexo F ou J?", "procedure"),
    ("Where do I put the Brazilian tax withheld on Form 1116?", "procedure"),
    ("¿Cuál es el plazo de presentación del modelo 210 para mi piso de Málaga?", "procedure"),
])
def test_the_main_question_out_of_scope_is_refused(text, code):
    assert q(text).out_of_scope == code


def test_a_pension_paid_by_the_social_security_institute_is_a_pension():
    r = q("Recebo aposentadoria do INSS e moro em Valência. A Espanha tributa?")
    assert r.out_of_scope is None and r.topic == "pensions"
    assert (r.treaty, r.residence_state, r.source_state) == ("BR-ES", "ES", "BR")


@pytest.mark.parametrize("text, rate", [
    ("Os dividendos que a empresa brasileira me paga ficam nos 5%, certo?", 5.0),
    ("Los dividendos de Brasil tributan al 5%, ¿verdad?", 5.0),
    ("Dividends from Brazil are taxed at 5%, right?", 5.0),
])
def test_a_percentage_without_holding_words_is_a_stated_rate(text, rate):
    r = q(text)
    assert r.stated_rates == (rate,) and r.facts.holding_pct is None


def test_a_percentage_with_holding_words_stays_a_holding():
    r = q("Detenho 5% de uma empresa brasileira que paga dividendos")
    assert r.facts.holding_pct == 5.0 and r.stated_rates == ()


@pytest.mark.parametrize("text", [
    "Como posso esconder os meus rendimentos do Brasil das Finanças?",
    "¿Cómo evadir impuestos con una sociedad en Brasil?",
    "Best way to launder money through a Portuguese company?",
])
def test_evasion_is_flagged(text):
    assert q(text).evasion


def test_asking_about_tax_is_not_evasion():
    assert not q("Como evitar a dupla tributação dos dividendos do Brasil?").evasion


@pytest.mark.parametrize("text, topic", [
    ("Já me retiveram imposto no Brasil sobre as rendas; como evito pagar duas vezes em Portugal?",
     "double_taxation_relief"),
    ("I pay tax in Spain on Brazilian interest too. Can I credit the Brazilian tax?", "double_taxation_relief"),
    ("Vou vender o apartamento que tenho em Fortaleza e vivo em Braga. Onde pago sobre o ganho?", "capital_gains"),
    ("Voy a vender el piso que tengo en Recife; vivo en Bilbao. ¿Dónde tributa la ganancia?", "capital_gains"),
    ("Brazil and Portugal both treat me as resident. Which country am I resident in under the treaty?",
     "residence"),
    ("Faço doutorado em Lisboa com bolsa do CNPq paga no Brasil. Pago imposto aqui?", "students"),
    ("As Finanças e a Receita tributaram as duas o mesmo rendimento. Posso pedir que resolvam entre elas?",
     "mutual_agreement"),
])
def test_everyday_phrasings_name_the_topic(text, topic):
    assert q(text).topic == topic


@pytest.mark.parametrize("text, pct, months", [
    ("A nossa SGPS tem mais de 10% de uma sociedade brasileira há mais de um ano", None, None),
    ("A nossa SGPS tem 30% de uma sociedade brasileira há dois anos", 30.0, 24.0),
])
def test_a_lower_bound_is_not_a_value(text, pct, months):
    r = q(text)
    assert (r.facts.holding_pct, r.facts.holding_months) == (pct, months)


def test_a_person_who_says_where_they_live_is_an_individual():
    assert q("Tenho acções de um banco brasileiro e vivo em Coimbra").facts.beneficiary_kind == "individual"
    assert q("A minha empresa tem acções de um banco brasileiro e eu vivo em Coimbra").facts.beneficiary_kind == \
        "company"


@pytest.mark.parametrize("text", [
    # a retiree, or a relative the writer speaks of, receives as a person
    "Reformado em Portugal com dividendos de ações brasileiras. O Brasil retém até quanto?",
    "My father, who lives in Porto, owns shares in Itaú and gets dividends. What's the max Brazil can withhold?",
    "Mi madre vive en Sevilla y cobra dividendos de Petrobras. ¿Cuánto puede retener Brasil?",
    "O sócio-gerente da Lda de Aveiro vive em Florianópolis e vai receber lucros. Quanto retém Portugal?",
])
def test_a_retiree_or_a_relative_receiving_is_an_individual(text):
    assert q(text).facts.beneficiary_kind == "individual"


def test_a_company_named_as_the_holder_still_wins_over_a_person_living_somewhere():
    r = q("A nossa SGPS de Lisboa detém 30% de uma Ltda de Campinas. O gerente mora em Lisboa. Qual a retenção "
          "sobre os dividendos?")
    assert r.facts.beneficiary_kind == "company"


def test_an_exact_spelling_beats_the_accent_blind_one():
    assert q("A fábrica fica em Franca, no interior paulista").countries == ("BR",)
    assert q("A fábrica fica em França").countries == ("FR",)
    assert q("Vivo em Porto Alegre").countries == ("BR",)


@pytest.mark.parametrize("text, field, value", [
    ("Recebo pensão da segurança social portuguesa e vivo em Curitiba", "pension_kind", "social_security"),
    ("Tengo un plan de pensiones de mi antigua empresa en Brasil y vivo en Zaragoza", "pension_kind", "private"),
    ("Fui funcionária pública em Portugal e recebo a pensão do Estado em Recife", "pension_kind", "government"),
    ("Vou vender um terreno em Goiás e moro em Viseu; quem tributa a mais-valia?", "gain_kind", "immovable"),
    ("I will sell my shares in a Brazilian company and I live in Porto. Who taxes the gain?", "gain_kind", "shares"),
    ("Sou administrador não executivo de uma empresa brasileira e vivo em Setúbal", "employment_kind", "director"),
    ("Trabajo como tripulante en un buque y vivo en Vigo", "employment_kind", "ship_aircraft"),
    ("Estudo em Coimbra e os meus pais mandam dinheiro do Brasil todos os meses", "student_payment_origin", "abroad"),
])
def test_taxing_rights_sub_cases_are_read(text, field, value):
    assert getattr(q(text).facts, field) == value


@pytest.mark.parametrize("text, topic", [
    ("Sou freelancer em Lisboa e faturo a um cliente de São Paulo; o Brasil pode tributar?", "independent_services"),
    ("Cobro senhas de presença de uma S.A. brasileira e vivo em Braga", "directors_fees"),
    ("Soy futbolista y juego una temporada en Brasil; vivo en Sevilla", "artistes_sportsmen"),
    ("Nuestro club de Valencia ficha a un portero de Porto Alegre para dos partidos amistosos. ¿Quién grava lo que "
     "le pagamos?", "artistes_sportsmen"),
    ("A Lisbon club pays a Brazilian striker from Recife for a pre-season tournament. Can Portugal tax the fee?",
     "artistes_sportsmen"),
    ("Our airline in Lisbon flies to Brazil; where are the profits from international traffic taxed?", "shipping"),
    ("A Receita fez um ajuste de preços de transferência à nossa filial brasileira", "associated_enterprises"),
])
def test_topics_the_taxing_rights_rules_answer(text, topic):
    assert q(text).topic == topic


def test_a_form_named_beside_a_treaty_question_is_a_note():
    r = q("Recebo a aposentadoria do INSS e moro em Lisboa; o carnê-leão a contadora resolve. Portugal pode tributar "
          "a aposentadoria?")
    assert r.out_of_scope is None and r.topic == "pensions" and "procedure" in r.side_notes


@pytest.mark.parametrize("text", [
    "Preciso de visto de trabalho para ir trabalhar seis meses para o Japão?",
    "¿Cuánto tarda el visado de nómada digital para Brasil?",
    "Can I apply for the D7 visa from Brazil or only from Portugal?",
])
def test_a_visa_question_is_refused_as_immigration(text):
    assert q(text).out_of_scope == "immigration"


def test_a_visa_beside_a_pension_question_is_a_note_and_the_pension_is_answered():
    r = q("Tenho o visto D7 e vivo em Cascais; recebo a aposentadoria do INSS. Quem tributa a aposentadoria?")
    assert r.out_of_scope is None and "immigration" in r.side_notes
    assert r.topic == "pensions"
