"""Facts the taxing-rights rules need, read from how a question places its countries: who pays, the
person's nationality, where the work is done, where a student's money comes from, the host of a visiting
teacher, the length of stay. Phrasings written for these tests (none is in the eval set)."""
from __future__ import annotations

import pytest

from assistant.understand import Query, understand

TREATIES = {"PT-BR": ("PT", "BR"), "BR-ES": ("BR", "ES"), "PT-JP": ("PT", "JP"), "MLI": ()}


def q(text: str) -> Query:
    return understand(text, TREATIES)


def test_a_state_paying_a_national_in_the_other_state():
    r = q("Tenho nacionalidade portuguesa, moro em Curitiba e trabalho lá para o Estado português, "
          "que me paga o ordenado. Onde pago imposto sobre essa remuneração?")
    assert (r.treaty, r.residence_state, r.source_state) == ("PT-BR", "BR", "PT")
    assert "government_service" in r.topics
    assert r.facts.national_of_paying_state is True and r.facts.national_of_residence_state is False


def test_a_foreign_government_employing_a_local_national():
    r = q("I am a Brazilian citizen living in Brasília and I work in Brasília for the Spanish government, "
          "which pays my salary. Which country taxes it?")
    assert (r.treaty, r.residence_state, r.source_state) == ("BR-ES", "BR", "ES")
    assert r.facts.national_of_residence_state is True and r.facts.services_in_residence_state is True
    assert r.facts.national_of_paying_state is False


def test_nationality_is_not_guessed():
    r = q("Trabalho para o governo brasileiro em Lisboa e vivo em Lisboa. Quem tributa o salário?")
    assert r.source_state == "BR" and r.residence_state == "PT"
    assert r.facts.national_of_paying_state is None and r.facts.national_of_residence_state is None


def test_he_estado_is_not_a_government():
    r = q("He estado en España trabajando y vivo en Brasil. ¿Quién grava mi sueldo?")
    assert r.residence_state == "BR" and r.source_state == "ES"


def test_fees_paid_by_a_company_resident_in_the_other_state():
    r = q("Sou advogado em regime de recibos verdes, moro em Braga, e uma sociedade residente em São Paulo "
          "paga os meus honorários. Quem pode tributar?")
    assert (r.treaty, r.residence_state, r.source_state) == ("PT-BR", "PT", "BR")
    assert r.topic == "independent_services" and r.facts.paid_by_source_resident is True


@pytest.mark.parametrize("text, source", [
    ("Sou psicóloga em Curitiba e atendo por vídeo pacientes em Lisboa, que me pagam por transferência. "
     "Portugal pode tributar?", "PT"),
    ("Soy traductora autónoma en Málaga y trabajo para una editorial de Fortaleza. ¿Brasil puede retener?", "BR"),
])
def test_patients_and_publishers_are_the_payers(text, source):
    r = understand(text, TREATIES, topic="independent_services")
    assert r.source_state == source and r.facts.paid_by_source_resident is True


@pytest.mark.parametrize("text, source", [
    ("Sou designer independente, moro em Aveiro e os meus clientes são todos empresas portuguesas. Vou passar três "
     "meses em Salvador a trabalhar daí. O Brasil pode tributar o que eu faturar nesse tempo?", "BR"),
    ("Soy traductor autónomo, resido en Sevilla y mis clientes son editoriales españolas; este invierno trabajo "
     "desde Río de Janeiro. ¿Puede Brasil gravar mis honorarios?", "BR"),
    # no client there, said outright
    ("I'm a freelance illustrator living in Valencia and I'll spend the winter in Recife; none of my clients are "
     "Brazilian. Can Brazil tax my fees?", "BR"),
    ("Sou tradutora independente em Lisboa e passo dois meses em Tóquio a trabalhar; não tenho clientes no Japão. "
     "O Japão pode tributar os meus honorários?", "JP"),
])
def test_clients_all_elsewhere_do_not_pay_from_the_state_of_a_stay(text, source):
    r = understand(text, TREATIES, topic="independent_services")
    assert r.source_state == source and r.facts.paid_by_source_resident is False


def test_a_client_in_the_one_country_named_pays_under_every_candidate_treaty():
    r = understand("Freelancer aqui, programação. O meu cliente é uma empresa brasileira e vai reter IR sobre o meu "
                   "pagamento: a convenção permite?", TREATIES, topic="independent_services")
    assert r.treaty is None and {x.treaty for x in r.readings} == {"PT-BR", "BR-ES"}
    assert r.facts.paid_by_source_resident is True


def test_a_foreign_company_after_and_is_the_payer_not_a_second_home():
    r = q("I'm a freelance architect living in Madrid and a Brazilian firm pays my design fees.")
    assert r.residence_states == ("ES",) and r.source_state == "BR"
    assert r.facts.paid_by_source_resident is True


def test_my_own_company_resident_somewhere_is_not_a_payer():
    r = q("A minha empresa é residente em Portugal e recebe dividendos de uma sociedade brasileira.")
    assert r.residence_state == "PT" and r.source_state == "BR"


def test_no_fixed_installation_in_the_other_state():
    r = q("Sou intérprete autónoma e vivo em Osaka, sem instalação fixa em Portugal; um cliente português "
          "paga-me as traduções. Quem tributa?")
    assert (r.treaty, r.residence_state, r.source_state) == ("PT-JP", "JP", "PT")
    assert r.facts.attributable_to_pe is False


def test_student_money_from_the_home_state_is_from_abroad():
    r = q("Estudo em Sevilha, sou brasileira, e o dinheiro para as despesas vem de São Paulo. "
          "A Espanha tributa esse dinheiro?")
    assert r.topic == "students" and r.residence_state == "ES"
    assert r.facts.student_payment_origin == "abroad"


@pytest.mark.parametrize("text, origin", [
    # a grant is from its body's country: abroad or local depending on where the student is
    ("Sou doutoranda portuguesa e passo este ano em Quioto com uma bolsa da FCT. O Japão tributa a bolsa?", "abroad"),
    ("Estoy en Oporto haciendo el doctorado, soy brasileño y tengo una beca de la CAPES. ¿Portugal la grava?",
     "abroad"),
    ("Portuguese PhD student in Nagoya on a MEXT scholarship from the Japanese government: does Japan tax it?",
     "local"),
    # a student's part-time job is where the student is
    ("Brazilian student in Porto here, I work part-time in a bakery for about 500 euros a month. Is that pay "
     "exempt under the treaty?", "local"),
    ("Sou estudante brasileira em Madri e trabalho meio período numa loja. A Espanha pode tributar?", "local"),
])
def test_where_a_students_money_comes_from(text, origin):
    r = understand(text, TREATIES, topic="students")
    assert r.facts.student_payment_origin == origin


def test_student_paid_by_a_local_company_is_local():
    r = q("Estoy estudiando en Valencia, vine de Brasil, y una empresa española me paga una beca. ¿Está exenta?")
    assert r.topic == "students" and r.residence_state == "ES"
    assert r.facts.student_payment_origin == "local"


def test_visiting_teacher_host_is_the_inviting_institution():
    r = q("A Spanish university invited me to teach there for 10 months; I am a lecturer in Curitiba. "
          "Is that pay taxed?")
    assert r.topic == "professors" and r.host_state == "ES"
    assert r.facts.invited_to_teach_or_research is True and r.facts.stay_years == 0.83


@pytest.mark.parametrize("text, host", [
    ("A Dra. Marta, catedrática da Universidade de Salamanca (Espanha), vem a convite da USP como professora "
     "visitante durante 10 meses. O salário dela é isento no Brasil?", "BR"),
    ("El profesor Ribeiro, de la Universidade de São Paulo, viene invitado por la Universidad de Sevilla a investigar "
     "un año. ¿Tributa en España su sueldo?", "ES"),
])
def test_visiting_teacher_host_is_the_one_named_after_the_invitation(text, host):
    """The home university named first is not the host: the State named right after the invitation is."""
    assert q(text).host_state == host


def test_retired_somewhere_is_living_there_but_retired_by_an_institution_is_the_payer():
    r = q("I am retired in Lisbon and receive an INSS pension. Who taxes it?")
    assert (r.residence_state, r.source_state) == ("PT", "BR")
    r = q("Sou aposentado pelo INSS e moro em Faro. Quem tributa a aposentadoria?")
    assert (r.residence_state, r.source_state) == ("PT", "BR")


def test_an_institution_followed_by_another_countrys_adjective():
    r = q("Recebo uma pensão da Segurança Social espanhola e vivo em Recife. Quem a tributa?")
    assert r.treaty == "BR-ES" and r.source_state == "ES" and r.residence_state == "BR"


def test_private_pension_words():
    assert q("Vivo en Bilbao y cobro una pensión privada de Brasil.").facts.pension_kind == "private"
    assert q("I live in Osaka and get a pension from a past employment in Porto.").facts.pension_kind == "private"


def test_the_brazilian_closed_funds_supplement_is_private():
    assert q("Moro em Braga e recebo uma pensão do Brasil, a complementação da fundação de previdência.").facts \
        .pension_kind == "private"
    assert q("Vivo em Faro; recebo do Brasil a aposentadoria da fundação de previdência. Quem tributa?").facts \
        .pension_kind == "private"


def test_a_pension_paid_by_a_company_is_private():
    assert q("Moro em Fukuoka e recebo uma pensão paga por uma empresa portuguesa onde trabalhei.").facts.pension_kind \
        == "private"
    assert q("Moro em Fukuoka e recebo uma pensão de Portugal.").facts.pension_kind is None


def test_an_english_adjective_before_employer_names_a_company():
    r = q("I live in Kyoto and get a pension from my old Portuguese employer. Who taxes it?")
    assert r.source_state == "PT" and r.facts.pension_kind == "private"


def test_a_state_that_holds_is_the_beneficiary_and_retired_needs_a_place():
    r = q("O Estado português detém obrigações de uma empresa brasileira. Os juros pagam imposto no Brasil?")
    assert (r.residence_state, r.source_state) == ("PT", "BR")
    r = q("Retired Spanish teacher now living in Recife with a pension from Madrid. Who taxes it?")
    assert r.residence_states == ("BR",) and r.source_state == "ES"
    r = q("Compro acções através de uma corretora e vivo em Braga; quanto retém o Brasil nos dividendos?")
    assert (r.residence_state, r.source_state) == ("PT", "BR")


def test_a_demonym_before_resident_is_the_residence():
    r = q("I'm a Spanish resident with a Brazilian social security pension. Who taxes it?")
    assert (r.residence_state, r.source_state) == ("ES", "BR")
    r = q("Sou cidadão português residente no Brasil e recebo juros de Portugal.")
    assert (r.residence_state, r.source_state) == ("BR", "PT")


def test_a_yearly_amount_in_dollars():
    assert q("Moro em Valência e recebo do Brasil uma pensão privada de US$ 200 por mês.").facts.pension_annual_usd \
        == 2400
    assert q("Moro em Valência e recebo uma pensão privada do Brasil de 5.000 dólares.").facts.pension_annual_usd \
        is None                                        # no period stated
    # a total for the whole stay bounds each calendar year's part of it
    assert q("Sou estudante em Madrid e faço um estágio de 5 meses na Espanha pago pelo Brasil, com bolsa de "
             "US$ 7.500 no total. A Espanha tributa?").facts.student_annual_usd == 7500
    assert q("I'm a Brazilian student doing a 4-month internship in Lisbon, paid 6,000 dollars in total by a "
             "Portuguese firm. Does Portugal tax it?").facts.student_annual_usd == 6000
    assert q("Sou estudante de Lisboa num estágio de 6 meses em Campinas e vou ganhar no total cerca de 5.200 "
             "dólares pagos pela empresa. O Brasil tributa?").facts.student_annual_usd == 5200
    # thousands in words, "no ano"
    assert q("Faço um estágio remunerado no Porto, estudante brasileira, 12 mil dólares no ano. Portugal "
             "tributa?").facts.student_annual_usd == 12000
    assert q("Brazilian trainee in Lisbon on USD 9k a year: does Portugal tax it?").facts.student_annual_usd == 9000


@pytest.mark.parametrize("text, usd", [
    # "monthly" before the amount, and a total for the whole stay beside the monthly amount it sums
    ("Estudante de Braga, vou fazer 4 meses de estágio numa fábrica de Joinville com uma bolsa mensal de US$ 600. "
     "O Brasil tributa?", 7200),
    ("I'm a student from Aveiro on a 6-month traineeship in Curitiba: a monthly allowance of about US$ 300, so "
     "US$ 1,800 for the whole traineeship. Does Brazil tax it?", 1800),
    ("Soy estudiante de Vigo y haré 5 meses de prácticas en Recife; me pagan unos 400 dólares al mes, 2.000 "
     "dólares por todo el periodo. ¿Brasil lo grava?", 2000),
])
def test_a_students_pay_stated_monthly_or_for_the_whole_stay(text, usd):
    assert q(text).facts.student_annual_usd == usd


def test_a_trainees_pay_comes_from_the_job_where_the_training_is():
    r = understand("Sou estudante brasileiro e faço um estágio remunerado em Lisboa, 14 mil dólares por ano. "
                   "Portugal tributa?", TREATIES, topic="students")
    assert r.facts.student_practical_training is True and r.facts.student_payment_origin == "local"


@pytest.mark.parametrize("text", [
    # not paid where the training is: the grant comes from elsewhere, whatever "here" names
    "Faço um estágio curricular de 4 meses numa clínica no Recife, não remunerado; vivo da bolsa que a minha "
    "universidade me paga aqui. O Brasil tributa a bolsa?",
    "Unpaid internship at a design studio in Madrid for my degree in Rio; I live on a grant they send me from "
    "here. Does Spain tax the grant?",
])
def test_an_unpaid_trainee_lives_on_money_from_elsewhere(text):
    r = understand(text, TREATIES, topic="students")
    assert r.facts.student_practical_training is True and r.facts.student_payment_origin == "abroad"


@pytest.mark.parametrize("text, origin", [
    # the body named right after "funded by", whatever else the ticket names (a summer job)
    ("I'm doing a year abroad in Coimbra, funded by my university in Brazil. I might take a summer job at a "
     "hostel. Is the grant taxed in Portugal?", "abroad"),
    ("Faço mestrado em Coimbra com uma bolsa pública do Estado de Minas Gerais. Portugal tributa a bolsa?",
     "abroad"),
])
def test_a_grant_is_from_the_state_of_the_body_named_as_funding_it(text, origin):
    assert understand(text, TREATIES, topic="students").facts.student_payment_origin == origin


@pytest.mark.parametrize("text", [
    # the funder named is no place: a State named in the next sentence or after a bracket is not its seat
    "Vou de Braga para a UFMG por um ano com bolsa da Fundação Oriente. O Brasil tributa a bolsa?",
    "Brazilian student in Seville on a stipend paid by the EU programme (run from Spain). Does Spain tax it?",
])
def test_a_state_outside_the_funders_clause_is_not_the_funders(text):
    assert understand(text, TREATIES, topic="students").facts.student_payment_origin != "local"




@pytest.mark.parametrize("text", [
    "I live in Kobe and hold 25% of a Portuguese Lda whose main asset is an office building in Porto. Who taxes "
    "the gain if I sell my quota?",
    "Vivo en Osaka y vendo mis participaciones de una sociedad portuguesa; el edificio de Faro es casi todo el "
    "patrimonio, el 85% del valor de la sociedad. ¿Quién grava la ganancia?",
])
def test_a_company_whose_main_asset_is_a_building(text):
    assert q(text).facts.gain_kind == "shares_immovable"


def test_shares_whose_value_comes_from_real_estate():
    r = q("Vivo em Osaka e vendi quotas de uma empresa portuguesa cujo valor resulta sobretudo de terrenos no Algarve.")
    assert r.facts.gain_kind == "shares_immovable"
    assert q("Vivo em Osaka e vendi ações de uma empresa portuguesa. Quem tributa o ganho?").facts.gain_kind == "shares"
    # the assets named in the plural, the value in other words
    assert q("I live in Nagoya and sell my stake in a Porto Lda whose only assets are two warehouses and a "
             "building. Who taxes the gain?").facts.gain_kind == "shares_immovable"
    assert q("Vendo mis participaciones en una SL de Oporto: más del 70% de su valor son pisos en "
             "Oporto. ¿Quién grava la ganancia?").facts.gain_kind == "shares_immovable"


@pytest.mark.parametrize("text", [
    "Soy funcionario del Ministerio brasileño y trabajo en teletrabajo desde Valencia, donde vivo. "
    "¿Quién grava mi sueldo?",
    "I'm a Brazilian federal employee working remotely from Porto, where I live. Who taxes my government salary?",
    # the verb's other persons and the plain adjective
    "A minha tia é funcionária da Prefeitura de Campinas e trabalha remoto a partir de Coimbra, onde vive com o "
    "marido. Quem tributa o vencimento dela?",
    "Mi hermano, funcionario del Ayuntamiento de Madrid, teletrabaja desde Recife, donde vive. ¿Quién grava su "
    "sueldo?",
])
def test_a_public_servant_working_remotely_renders_the_services_where_they_live(text):
    facts = understand(text, TREATIES, topic="government_service").facts
    assert facts.services_in_residence_state is True and facts.resident_not_solely_for_services is True


def test_living_somewhere_since_a_year_is_no_holding_period():
    text = "Vivo en Madrid desde 2017 y trabajo para el Gobierno brasileño. ¿Quién grava mi sueldo?"
    assert understand(text, TREATIES, topic="government_service").facts.holding_months is None
    held = "Tenho ações da Petrobras desde 2017 e moro em Lisboa. Qual a retenção nos dividendos?"
    assert understand(held, TREATIES, topic="dividends").facts.holding_months is not None


@pytest.mark.parametrize("text, not_solely", [
    ("Sou brasileira e vim para Lisboa pelo trabalho do meu marido; agora trabalho no consulado do Brasil em "
     "Lisboa. Quem tributa o meu salário?", True),
    ("I'm Brazilian, I was already living in Madrid when the Brazilian embassy there hired me as a driver. "
     "Who taxes my pay?", True),
    ("Fui destacado pelo Itamaraty para a embaixada em Lisboa e vivo lá desde então. Quem tributa o salário?",
     None),
])
def test_a_residence_not_taken_up_for_the_post_is_read(text, not_solely):
    facts = understand(text, TREATIES, topic="government_service").facts
    assert facts.resident_not_solely_for_services is not_solely


@pytest.mark.parametrize("text, attributable", [
    ("Tradutora freelancer em Lisboa, só tenho clientes japoneses, sem escritório no Japão. "
     "O Japão pode tributar os meus honorários?", False),
    ("Freelance designer living in Osaka; I keep a small studio in Porto where I work 5 months a year. "
     "Can Portugal tax the fees?", True),
])
def test_an_office_or_studio_in_the_other_state_is_where_the_service_profits_belong(text, attributable):
    facts = understand(text, TREATIES, topic="independent_services").facts
    assert facts.attributable_to_pe is attributable


def test_a_fee_paid_by_private_people_falls_on_no_company():
    r = q("Sou fotógrafo autónomo em Salvador e fiz um casamento em Sevilha para uma família espanhola "
          "(particulares), que me pagou. A Espanha pode tributar?")
    assert r.facts.fee_borne_by_company_or_pe is False
    company = q("Sou fotógrafo autónomo em Salvador e uma empresa espanhola pagou-me um trabalho em Sevilha. "
                "A Espanha pode tributar?")
    assert company.facts.fee_borne_by_company_or_pe is not False


@pytest.mark.parametrize("text", [
    "Sou português, vivo em Brasília e trabalho como motorista na Embaixada de Portugal. Quem tributa o salário?",
    "Soy uruguaya, vivo en Valencia y trabajo de secretaria en el Consulado de Brasil. ¿Dónde tributa mi sueldo?",
    # a State's cultural institute abroad, like its consulate
    "Soy brasileño y vivo en Recife; trabajo como administrativo en el Instituto Cervantes de Recife, pagado por "
    "el Estado español. ¿Brasil puede gravar mi sueldo?",
])
def test_an_embassy_or_consulate_of_the_paying_state_is_in_the_other_state(text):
    facts = understand(text, TREATIES, topic="government_service").facts
    assert facts.services_in_residence_state is True


@pytest.mark.parametrize("text, kind", [
    # a State's pay: the public words name the employer, not a pension
    ("Sou brasileira, moro em Sevilha há anos e fui contratada localmente pelo Consulado do Brasil (Itamaraty) "
     "como secretária. Quem tributa o meu salário?", None),
    ("I'm a clerk for the Guardia Civil, posted to the Spanish embassy in Brasília. Who taxes my pay?", None),
    # a pension named: the public words give its kind
    ("Sou ex-servidora pública federal aposentada e moro em Madrid. Quem tributa a minha aposentadoria?",
     "government"),
])
def test_a_pay_question_names_no_pension_kind(text, kind):
    facts = understand(text, TREATIES, topic="government_service").facts
    assert facts.pension_kind == kind


@pytest.mark.parametrize("text, at_home", [
    # work done where one lives, for an employer of the other State: art. 15(1), only the residence taxes
    ("Moro em Braga e sou empregado de uma empresa de Belo Horizonte; trabalho a partir de casa. O Brasil "
     "pode tributar o meu salário?", True),
    ("Vivo en Zaragoza y trabajo 100% en remoto para una empresa de Recife, nunca voy a Brasil. ¿Puede "
     "Brasil gravar mi sueldo?", True),
    ("I live in Coimbra and work from home for a company in Fortaleza. Can Brazil tax my salary?", True),
    # a stay in the employer's State: the work is done there for that time
    ("Moro em Braga, trabalho remotamente para uma empresa de Belo Horizonte e vou passar 3 meses lá a "
     "trabalhar. O Brasil pode tributar o salário?", None),
    # the work named in the other State
    ("Moro em Braga e trabalho em São Paulo para uma empresa brasileira. O Brasil pode tributar o salário?",
     False),
    # an employment contract of the employer's State says nothing of where the work is done
    ("Tenho contrato de trabalho espanhol com uma empresa de Bilbao, mas trabalho de casa em Natal e nunca "
     "fui a Espanha. A Espanha pode tributar o meu salário?", True),
    # years abroad in the past, and no trip since: the work is all done at home now
    ("I came back to Lisbon after eight years in Osaka; my Osaka employer lets me work fully remotely and I "
     "haven't been to Japan since. Can Japan tax my salary?", True),
    # a demonym, one word, then the company: the employer ("a Brazilian fintech company"), not the work place
    ("Moved to Faro last year and kept my job with a Brazilian fintech company, working from my flat. Can Brazil "
     "tax my salary?", True),
    # working remotely for a company "em Campinas": the employer's city, not where the work is done
    ("Vivo em Viseu desde 2022 e sou programador; trabalho para uma empresa com sede em Campinas, sempre "
     "remotamente. O Brasil pode tributar o meu ordenado?", True),
    ("Resido em Aveiro; o meu empregador fica no Recife mas não me desloco ao Brasil. Quem tributa o salário?",
     True),
    # the whole job remote, said after the employer ("para uma agência de Recife, tudo remoto")
    ("Sou brasileira, moro em Braga e trabalho como ilustradora para uma agência de Natal, tudo remoto. O Brasil "
     "pode tributar o meu salário?", True),
    ("Vivo en Murcia y llevo la contabilidad de una empresa de Salvador, totalmente en remoto. ¿Brasil puede "
     "gravar mi sueldo?", True),
    # the employer named first is where one lives; a parent elsewhere pays a part
    ("Moro em Cascais e trabalho como gestor numa empresa portuguesa em Lisboa, mas a empresa-mãe em São Paulo "
     "paga-me parte do salário. O Brasil pode tributar essa parte?", True),
    ("Vivo en Sevilla y trabajo en una empresa española de Sevilla; la matriz brasileña me paga un bonus desde "
     "São Paulo. ¿Puede Brasil gravar ese bonus?", True),
])
def test_where_the_employment_is_exercised(text, at_home):
    r = understand(text, TREATIES, topic="employment")      # the topic as the trained reader gives it
    assert r.residence_state in ("PT", "ES", "BR")
    assert r.facts.services_in_residence_state is at_home


@pytest.mark.parametrize("text, days", [
    # the days are spent where one lives ("cá", "aquí", the country named): the work is done there, not in the
    # employer's State, whose 183-day test they are not
    ("Moro no Porto desde março e trabalho remotamente para uma empresa de Belo Horizonte, que me paga em reais. "
     "Este ano já estou cá há 250 dias. O Brasil pode tributar o meu salário?", 250),
    ("Vivo en Madrid desde hace dos años y teletrabajo para una empresa de Recife. Este año he pasado 200 días "
     "aquí. ¿Puede Brasil gravar mi sueldo?", 200),
    ("I moved to Lisbon in January and work from my flat for a firm in Curitiba; so far I've spent 210 days in "
     "Portugal this year. Can Brazil tax my salary?", 210),
])
def test_days_spent_where_one_lives_are_no_stay_in_the_employers_state(text, days):
    r = understand(text, TREATIES, topic="employment")
    assert r.facts.employment.stay_days == days
    assert r.facts.services_in_residence_state is True
    assert r.facts.employment.employer_resident_in_work_state is False


def test_a_self_employed_persons_client_company_pays_the_fees():
    r = q("Sou tradutora independente e vivo em Lisboa. Trabalho para uma editora de São Paulo como freelancer, "
          "à peça. O Brasil pode tributar os meus honorários?")
    assert r.residence_state == "PT" and r.source_state == "BR"
    assert r.topic == "independent_services" and r.facts.paid_by_source_resident is True


@pytest.mark.parametrize("text, expected", [
    ("A turnê da nossa banda em Portugal é financiada pela Funarte. Portugal pode tributar o cachê? Moramos "
     "no Brasil.", True),
    ("Our choir lives in Lisbon; the Brazil concerts are funded by the government of Portugal. Does Brazil tax "
     "the fee?", True),
    ("Somos una compañía de teatro de Lisboa y la gira por Brasil es con patrocinio privado. ¿Quién grava el "
     "caché?", False),
    ("Sou músico, vivo no Porto e vou atuar em São Paulo. Quem tributa o cachê?", None),
    # paid out of the State's budget; a town's own budget pays for its own feast: art. 17(3) asks for "fundos
    # públicos do outro Estado" (the performer's), not the host town's money
    ("A prefeitura de Recife traz um grupo de fado de Lisboa; tudo é pago pelo orçamento municipal. O Brasil "
     "pode tributar o cachê?", False),
    ("O município de Évora paga do orçamento municipal o cachê de uma banda de Salvador para as festas da cidade. "
     "Portugal pode reter imposto?", False),
    ("Somos atores e vivemos em Lisboa; a digressão pelo Rio é paga pela câmara municipal de Lisboa. O Brasil "
     "pode tributar o cachê?", True),
    ("Soy bailarina en Madrid; la gira por Brasil sale de los presupuestos del Estado. ¿Quién grava mi caché?",
     True),
    # a public body that funds tours abroad, named instead of "public funds"
    ("Sou músico de uma orquestra do Porto; a digressão ao Brasil é paga quase toda pela DGArtes. O Brasil pode "
     "tributar o cachê?", True),
    ("Somos un grupo de flamenco de Sevilla y la gira por Brasil la financia casi entera Acción Cultural "
     "Española. ¿Puede Brasil gravar el caché?", True),
])
def test_a_visit_paid_from_public_funds_is_read(text, expected):
    r = q(text)
    assert "artistes_sportsmen" in r.topics
    assert r.facts.public_funds_visit is expected


@pytest.mark.parametrize("text", [
    "Moro em Lisboa e tenho Tesouro IPCA+ comprado no Brasil. Quem tributa os juros?",
    "I live in Porto and hold Brazilian treasury bonds (NTN-B). Who taxes the interest?",
    "Vivo en Valencia y tengo bonos del gobierno brasileño. ¿Quién grava los intereses?",
])
def test_government_bonds_are_read_by_their_names(text):
    r = q(text)
    assert r.topic == "interest" and r.facts.government_debt is True


@pytest.mark.parametrize("text, source", [
    ("Sou tradutora independente em Coimbra e os meus clientes são agências de Curitiba que me pagam por "
     "transferência. O Brasil pode reter imposto?", "BR"),
    ("Trabalho como psicóloga a recibos verdes no Rio e uma clínica de Lisboa paga-me as consultas online. "
     "Portugal pode tributar?", "PT"),
    ("Soy diseñador autónomo en Sevilla y una fintech de São Paulo me paga cada mes. ¿Puede Brasil retener?",
     "BR"),
])
def test_a_client_company_in_the_source_state_pays_the_fees(text, source):
    r = q(text)
    assert "independent_services" in r.topics and r.source_state == source
    assert r.facts.paid_by_source_resident is True


@pytest.mark.parametrize("text, source", [
    ("Sou técnica da Câmara Municipal de Braga, portuguesa, e vou ser destacada dois anos para um projeto em "
     "Recife, sempre paga pela Câmara. O Brasil pode tributar o meu vencimento?", "PT"),
    ("Soy diplomática española destinada en Brasilia desde enero. ¿Quién grava mi sueldo de la embajada?", "ES"),
    ("A Brazilian civil servant seconded to Lisbon for a year, still paid by Brasília. Can Portugal tax it?", "BR"),
])
def test_government_pay_comes_from_the_state_that_pays_or_is_served(text, source):
    """Art. 19: the State that pays (or that a diplomat or civil servant serves) is the source, wherever the
    person is posted; the other State is the residence."""
    r = understand(text, TREATIES, topic="government_service")
    assert r.source_state == source and r.residence_state not in (None, source)


@pytest.mark.parametrize("text, name, value", [
    # a consulate where only the proof of life is done is not where the civil servant worked; one worked at is
    ("Fui servidor federal em Brasília 30 anos e moro em Lisboa; a prova de vida faço todos os anos no consulado do "
     "Brasil em Lisboa. A aposentadoria pode ser tributada em Portugal?", "services_in_residence_state", None),
    ("Sou brasileira, trabalho no consulado do Brasil em Lisboa e moro em Lisboa. O salário do consulado é "
     "tributado em Portugal?", "services_in_residence_state", True),
    # a State bank that only holds the pension account is no State business; one worked at is
    ("Sou funcionária pública aposentada do Brasil, moro em Braga e a aposentação cai numa conta da Caixa Econômica "
     "Federal. Quem tributa?", "government_business", None),
    ("Fui funcionária pública do Brasil, moro em Braga e a minha aposentação cai numa conta da Caixa Econômica "
     "Federal. Quem tributa?", "pension_kind", "government"),          # "aposentação" is a pension word (pt-PT)
    ("Trabalhei 25 anos na Caixa Econômica Federal e agora moro em Braga com a aposentadoria. Quem tributa?",
     "government_business", True),
    # shares of a property company named after the shares; of another company, plain shares
    ("Moro em Osaka e vendi as minhas quotas de uma sociedade imobiliária de Lisboa. Portugal pode tributar a "
     "mais-valia?", "gain_kind", "shares_immovable"),
    ("Moro em Osaka e vendi as minhas quotas de uma sociedade de software de Lisboa. Portugal pode tributar a "
     "mais-valia?", "gain_kind", "shares"),
    # the writer who calls herself a natural person is not who pays; natural persons who pay are
    ("Soy arquitecta autónoma en Sevilla (persona física) y hago proyectos para una constructora de São Paulo, que me "
     "paga cada plano. ¿Puede Brasil gravar esos honorarios?", "fee_borne_by_company_or_pe", True),
    ("Soy fisioterapeuta en Valencia y atiendo en Natal a clientes particulares (personas físicas) que me pagan en "
     "mano. ¿Brasil puede gravar esos honorarios?", "fee_borne_by_company_or_pe", False),
])
def test_a_fact_is_read_from_what_the_words_say_it_is(text, name, value):
    read = getattr(q(text).facts, name)
    assert read is value if value is None or isinstance(value, bool) else read == value


@pytest.mark.parametrize("text", [
    "Mudei-me para o Porto e continuo em teletrabalho para uma empresa de Campinas; só vou ao Brasil no Natal, "
    "uma semana. O Brasil ainda pode tributar o meu ordenado?",
    "I moved to Lisbon and work fully remote for a São Paulo company; I'll fly to Brazil for ten days at Easter. "
    "Can Brazil still tax my salary?",
])
def test_a_short_visit_beside_remote_work_is_no_work_done_there(text):
    facts = understand(text, TREATIES, topic="employment").facts
    assert facts.services_in_residence_state is True


def test_a_long_stay_beside_remote_work_is_not_a_visit():
    facts = understand("Trabalho remotamente para uma empresa de São Paulo, a partir de casa, em Braga, mas este ano "
                       "vou passar cinco meses a trabalhar no Brasil. O Brasil pode tributar o salário?",
                       TREATIES, topic="employment").facts
    assert facts.services_in_residence_state is not True


def test_a_short_work_trip_beside_remote_work_is_work_done_there():
    facts = understand("Nuestra empresa de Valladolid tiene un diseñador que teletrabaja desde Curitiba; viene una "
                       "semana tres veces al año a nuestras oficinas para reuniones. ¿Tributa en España por esos días?",
                       TREATIES, topic="employment").facts
    assert facts.services_in_residence_state is not True


@pytest.mark.parametrize("text", [
    "sou tradutor autônomo, moro em Fortaleza e presto serviço pra uma agência de tradução de fora. Eles podem reter "
    "imposto lá sobre o que me pagam?",
    "Soy diseñadora autónoma en Valencia y mis clientes son del exterior; ¿pueden retenerme impuesto en su país?",
])
def test_a_client_from_abroad_pays_from_the_other_state(text):
    facts = understand(text, TREATIES, topic="independent_services").facts
    assert facts.paid_by_source_resident is True


def test_a_foreign_word_far_from_the_client_says_nothing_of_the_payer():
    facts = understand("Morei no estrangeiro até 2020. Hoje sou arquiteto autônomo em Recife e tenho um cliente "
                       "novo. Quem tributa os honorários?", TREATIES, topic="independent_services").facts
    assert facts.paid_by_source_resident is not True
