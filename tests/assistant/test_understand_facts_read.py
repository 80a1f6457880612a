"""Facts that decide an alternative in rules/data, read from phrasings written for these tests (none is in
the eval set or the ticket bank), in pt-PT, pt-BR, es and en; and the sanity checks on numbers (an age or
the years someone has lived in a city is no holding period, a return is no holding)."""
from __future__ import annotations

from datetime import date

import pytest

from assistant.lexicon.quantities import dates
from assistant.lexicon.text import tokenize
from assistant.understand import understand
from assistant.understand.facts import Hits
from assistant.understand.stated import read_facts

TREATIES = {"PT-BR": ("PT", "BR"), "BR-ES": ("BR", "ES"), "PT-JP": ("PT", "JP"), "MLI": ()}


def read(text: str) -> dict:
    return read_facts(understand(text, TREATIES))


@pytest.mark.parametrize("text", [
    "Tenho dupla nacionalidade, portuguesa e brasileira, e recebo uma pensão do Estado brasileiro por ter sido "
    "servidor. Moro em Lisboa.",
    "Tengo doble nacionalidad española y brasileña; cobro una pensión de funcionario del Estado español y vivo "
    "en São Paulo.",
    "I'm a dual citizen (Brazil and Spain), living in Madrid, and I get a pension from the Brazilian government "
    "for my years as a civil servant.",
    "Tenho as duas nacionalidades, moro em Campinas e recebo a aposentadoria de servidor do Estado português.",
])
def test_dual_nationality_makes_the_person_a_national_of_both(text):
    got = read(text)
    assert got["national_of_paying_state"] is True and got["national_of_residence_state"] is True
    assert got["pension_kind"] == "government"


def test_a_payer_state_in_the_sentence_is_not_a_nationality():
    got = read("I am a Brazilian citizen living in Brasília and I work in Brasília for the Spanish government.")
    assert got["nationality"] == ["BR"] and got["national_of_paying_state"] is False


def test_a_government_that_pays_is_not_the_beneficiary():
    got = read("Recebo do governo português uma pensão de ex-funcionário e vivo no Recife.")
    assert got.get("beneficiary_kind") != "government" and got["pension_kind"] == "government"
    assert read("A Câmara Municipal de Lisboa recebe juros de obrigações de uma empresa brasileira.")[
        "beneficiary_kind"] == "government"


@pytest.mark.parametrize("text, kind", [
    ("Recebo reforma da Segurança Social portuguesa e moro no Rio de Janeiro.", "social_security"),
    ("Sou aposentado pelo INSS e moro em Setúbal; quem tributa?", "social_security"),
    ("Recibo una pensión de la Seguridad Social española y vivo en Brasil. ¿Dónde tributa?", "social_security"),
    ("Recebo do fundo de pensões da minha antiga empresa portuguesa e vivo em Recife.", "private"),
    # the company's own pension, named by a short follow-up's words alone
    ("¿Y la pensión de la empresa, quién la grava?", "private"),
    ("Vivo en Ourense. ¿Y la pensión del fondo de la empresa, dónde tributa?", "private"),
    ("I receive an annuity from a Spanish insurer and live in Brazil. Who taxes it?", "annuity"),
    ("Sou ex-funcionário público português, aposentado pela CGA, moro em Fortaleza. Quem tributa a pensão?",
     "government"),
    # the kind beside the pension word names it, over a kind the story names first
    ("Fui técnico do Instituto da Segurança Social durante 30 anos; hoje recebo a pensão da CGA e vivo em "
     "Natal. Quem tributa?", "government"),
    ("I was an accountant at the Ministry of Finance in Lisbon, then moved to a bank; now I get a Social "
     "Security pension and live in Recife. Who taxes it?", "social_security"),
])
def test_pension_kind(text, kind):
    assert read(text)["pension_kind"] == kind


@pytest.mark.parametrize("text", [
    "Tenho 40 anos, moro há 12 anos em Lisboa e recebo dividendos de uma empresa brasileira.",
    "Vivi 40 anos em Curitiba e agora moro em Lisboa. Recebo dividendos da Petrobras.",
    "Aos 62 anos recebo dividendos de uma empresa japonesa. Vivo no Porto.",
    "Tengo 55 años, vivo en Madrid y cobro dividendos de una empresa brasileña.",
    "I'm 58 years old, I've lived in Porto for 20 years and get dividends from a Japanese company.",
])
def test_an_age_or_years_lived_somewhere_is_no_holding_period(text):
    got = read(text)
    assert "holding_months" not in got and "stay_months" not in got


@pytest.mark.parametrize("text, months", [
    ("Tenho 40 anos e detenho 15% de uma empresa brasileira há 2 anos; moro em Lisboa.", 24),
    ("Tengo 55 años y un 30% de una sociedad brasileña desde hace 3 años; vivo en Madrid.", 36),
    ("I'm 45, I've held 30% of a Brazilian company for 18 months, and I live in Lisbon.", 18),
])
def test_the_holding_period_beside_an_age(text, months):
    assert read(text)["holding_months"] == months


@pytest.mark.parametrize("text, months", [
    # a holding counted in days: the unit is no stay in a ticket that asks nothing about a stay
    ("Our Porto SA bought 40% of a Brazilian Ltda last spring; by the dividend date we will have held it for about "
     "250 days. What is the most Brazil can withhold on the dividend?", 8.21),
    ("A nossa SGPS detém 25% de uma Ltda de Goiânia há 400 dias. Qual a retenção máxima sobre os dividendos?", 13.14),
])
def test_a_holding_period_in_days(text, months):
    got = read(text)
    assert got["holding_months"] == pytest.approx(months, abs=0.01) and "stay_days" not in got


def test_amounts_and_returns_are_not_holdings():
    got = read("Ganhei 10% de valorização nas ações da Petrobras; moro em Lisboa, quanto retém o Brasil nos "
               "dividendos?")
    assert "holding_pct" not in got
    got = read("La empresa pagó 1.500 euros de dividendos, el 19% retenido; tengo el 5% del capital y vivo en Madrid.")
    assert got["holding_pct"] == 5
    # the relief's share is no holding
    assert "holding_pct" not in read("A nossa SGPS tem direito à dedução de 95% dos dividendos brasileiros?")
    assert "holding_pct" not in read("Does our Lisbon company get the 95% deduction on the Brazilian dividends?")


@pytest.mark.parametrize("text, months, pe_state", [
    ("A minha empresa portuguesa tem uma obra em São Paulo que vai durar 7 meses. Há estabelecimento estável?",
     7, None),
    ("Nossa construtora vai montar um estaleiro em Lisboa durante 8 meses; há estabelecimento estável?", 8, None),
    ("Nuestra constructora española tiene una obra en Brasil de 5 meses. ¿Hay establecimiento permanente?",
     5, None),
    ("Our Japanese company has a building site in Portugal lasting 10 months. Is that a permanent establishment?",
     10, None),
    # the works contract's term is the site's duration
    ("Ganhámos a empreitada de uma ponte no Ceará; o prazo contratual é de 11 meses. Há estabelecimento estável?",
     11, None),
    ("La constructora de Vigo tiene en Recife un plazo de ejecución de 7 meses. ¿Hay establecimiento permanente?",
     7, None),
])
def test_a_building_site_duration_is_a_stay_in_months_not_a_holding(text, months, pe_state):
    got = read(text)
    assert got["stay_months"] == months and "holding_months" not in got


@pytest.mark.parametrize("text", [
    "Estudio en Madrid desde hace 3 años con una beca brasileña de CAPES.",
    "Sou estudante em Coimbra há 3 anos com bolsa da CAPES.",
])
def test_a_student_with_a_grant_has_a_stay_not_a_holding(text):
    got = read(text)
    assert "holding_months" not in got and got["stay_years"] == 3          # the unit it is written in


def test_dates_of_a_stay_are_its_days():
    got = read("Trabalhei em Madrid de 1 de março a 15 de setembro de 2024 para uma empresa brasileira; "
               "moro em São Paulo.")
    assert got["stay_days"] == 199 and got["employer_resident_in_work_state"] is False


@pytest.mark.parametrize("text", [
    "Worked 200 days in Spain in 2023 for a Brazilian employer, I live in São Paulo.",
    "Trabajé 200 días en España en 2023 para un empleador brasileño; vivo en São Paulo.",
])
def test_an_employer_of_the_other_state(text):
    got = read(text)
    assert got["employer_resident_in_work_state"] is False and got["stay_days"] == 200


@pytest.mark.parametrize("text, usd", [
    ("Recebo uma aposentadoria de US$ 2.500 por ano de um fundo de pensão espanhol e moro em Salvador.", 2500),
    ("Cobro 300 dólares americanos al mes de una pensión privada de Brasil, vivo en Madrid.", 3600),
    # the dollar figure of an amount stated in euros takes that amount's period
    ("Vivo en Valencia y cobro un plan de pensiones de una empresa de Brasil, unos 5.000 € al año (aprox. 5.400 "
     "dólares).", 5400),
    ("I live in Madrid and get a private pension from a Brazilian fund: EUR 400 a month (about US$ 430).", 5160),
])
def test_a_pension_in_dollars_is_an_amount_not_a_country(text, usd):
    q = understand(text, TREATIES)
    assert q.treaty == "BR-ES" and "US" not in q.countries
    assert read_facts(q)["pension_annual_usd"] == usd


@pytest.mark.parametrize("text, usd", [
    # a stay of a year or less is paid within one: an amount without a period is that year's
    ("Vou fazer um estágio de 6 meses em Campinas ligado ao curso de Coimbra e vou receber uns 7 mil dólares. "
     "O Brasil tributa?", 7000),
    # the pay for the whole internship bounds each year's part of it
    ("Student from Recife on an internship in Lisbon tied to my degree, paid USD 12,000 during the internship. "
     "Is it exempt in Portugal?", 12000),
    # no stay length and no period: not a yearly amount
    ("Sou estudante em Braga e trabalho numa loja; ganhei 5 mil dólares. O Brasil tributa?", None),
])
def test_a_trainees_pay_in_dollars_within_a_year(text, usd):
    assert read_facts(understand(text, TREATIES, topic="students")).get("student_annual_usd") == usd


@pytest.mark.parametrize("text, state", [
    ("A nossa sociedade espanhola tem uma sucursal em Curitiba. Quem tributa os lucros?", "BR"),
    ("Tenemos un establecimiento permanente en Oporto y la sociedad es española... no, brasileña.", "PT"),
    ("Our Portuguese company has a branch in Osaka. Who taxes the branch's profits?", "JP"),
])
def test_where_the_pe_is(text, state):
    assert read(text)["pe_in"] == state


@pytest.mark.parametrize("text, name, value", [
    ("Sou estudante de engenharia no Porto e faço um estágio numa fábrica de Matosinhos; sou de Goiânia.",
     "student_practical_training", True),
    # a bar job that helps the studies is employment for the studies (BR-ES 21(2)), not practical training
    ("Estudo em Salamanca e trabalho num bar para me ajudar nos estudos; sou de Recife. Quem tributa?",
     "student_employment_for_studies", True),
    ("Soy estudiante de grado en Coimbra y los findes trabajo de camarero para costear mis estudios. ¿Quién grava?",
     "student_employment_for_studies", True),
    ("I study in Madrid and work at a café to help pay for my studies; I'm from Belo Horizonte. Who taxes it?",
     "student_employment_for_studies", True),
    ("I'm a commercial pilot living in Lisbon flying to São Paulo for a Portuguese airline. Who taxes my salary?",
     "employment_kind", "ship_aircraft"),
    # a pilot named by the job and the carrier, no "airline" word
    ("Soy piloto de Iberia, vivo en Madrid y hago la ruta a São Paulo. ¿Brasil puede gravar mi sueldo?",
     "employment_kind", "ship_aircraft"),
    ("Sou copiloto da TAP e vivo em Lisboa; o Brasil pode tributar o meu salário dos voos para Recife?",
     "employment_kind", "ship_aircraft"),
    ("Sou subtenente reformado da GNR e vivo em Natal, no Brasil. A minha pensão paga imposto onde?",
     "pension_kind", "government"),
    ("Fui diplomata de carreira e vivo hoje em Vigo; a minha pensão é paga por Brasília. Quem tributa?",
     "pension_kind", "government"),
    ("Cobro una pensión pública portuguesa y vivo en Fortaleza. ¿Dónde tributa?", "pension_kind", "government"),
    ("Trabajo en Madrid para la Caixa Econômica Federal, que es estatal brasileña; soy brasileño. ¿Quién grava mi "
     "sueldo?", "government_business", True),
    # how the business is done in the other State says whether there is a PE (art. 5)
    ("A nossa fábrica de Braga tem em Curitiba um representante que assina contratos em nome da empresa todas as "
     "semanas. O Brasil pode tributar os lucros?", "attributable_to_pe", True),
    ("Our Lisbon design studio sells in Japan through an independent agent who works for several firms. Can Japan "
     "tax our profit?", "attributable_to_pe", False),
    ("Tenemos en Lisboa una oficina de representación que solo recoge información de mercado para la matriz de "
     "Sevilla. ¿Hay establecimiento permanente?", "attributable_to_pe", False),
    # the verb, the contracts and the authority, in any order of words
    ("Our sales manager travels to Recife and signs the distribution contracts there in the company's name. Can "
     "Brazil tax our profit?", "attributable_to_pe", True),
    ("Nuestro delegado en Oporto firma los pedidos con poder notarial de la empresa. ¿Puede Portugal gravar el "
     "beneficio?", "attributable_to_pe", True),
    # securities a government body issued: public debt, and the government is their payer, not the beneficiary
    ("A nossa empresa de Campinas tem obrigações emitidas pelo ICO, entidade pública detida a 100% pelo Governo "
     "espanhol. Os juros podem ser tributados no Brasil?", "government_debt", True),
    # the State by its formal name
    ("Nuestra sociedad de Bilbao compró bonos emitidos por la República Federativa del Brasil en 2019. ¿Puede "
     "Brasil retener algo sobre los cupones?", "government_debt", True),
    ("A nossa empresa do Recife tem títulos emitidos pelo Reino de Espanha. A Espanha pode tributar os juros?",
     "government_debt", True),
    ("Our Madrid company holds bonds issued by a Brazilian federal agency, which the government owns "
     "outright. Who may tax the interest?", "beneficiary_kind", "company"),
    # an agent of independent status acting in the ordinary course of its business, even one that signs in the
    # enterprise's name, is no PE
    ("A distribuidora de Vigo vende em Portugal por um comissionista que assina os contratos em nome dela, mas que "
     "tem outros clientes e atua no âmbito normal da sua atividade. Há estabelecimento estável?",
     "attributable_to_pe", False),
    ("Our agent in Osaka concludes contracts in our name; he is an independent agent with several other principals. "
     "Can Japan tax our profits?", "attributable_to_pe", False),
    # the branch earns the profits, or they are earned by it
    ("We are a Kyoto maker opening a branch in Porto next month. Can Portugal tax the profits the Porto branch "
     "makes?", "attributable_to_pe", True),
    ("A nossa empresa de Sevilha abriu uma sucursal em Belo Horizonte. Os lucros gerados pela sucursal pagam "
     "imposto no Brasil?", "attributable_to_pe", True),
    # the authority in an aside between the verb and the contracts
    ("O nosso vendedor em Recife tem procuração para negociar e assinar, em nome da empresa, os contratos com "
     "os clientes. O Brasil pode tributar os lucros?", "attributable_to_pe", True),
    ("Nuestra comercial en São Paulo firma ella misma, en nombre de la empresa, los contratos de venta. ¿Puede "
     "Brasil gravar el beneficio?", "attributable_to_pe", True),
    # short asides between the verb and the contracts, the authority after them; no office beside it
    ("Temos em Lisboa um vendedor com procuração que assina ele próprio, todas as semanas, os contratos com os "
     "clientes. Não temos escritório. Portugal pode tributar os lucros?", "attributable_to_pe", True),
    ("Our rep in Osaka signs, quite often, the sales contracts on the company's behalf; we have no office there. "
     "Can Japan tax our profit?", "attributable_to_pe", True),
    # the local subsidiary or branch pays the salary: it bears it; a place denied anywhere in the clause
    ("Vamos destacar um técnico de Aveiro 5 meses para Goiânia; o salário é pago pela nossa filial brasileira. "
     "O Brasil tributa?", "borne_by_pe", True),
    ("Nuestra empresa de Zaragoza vende maquinaria en Brasil sin que la empresa tenga oficina allí. ¿Puede Brasil "
     "gravar el beneficio?", "attributable_to_pe", False),
    # the host invites in the active voice
    ("Sou professora em Braga; a Universidade de Brasília convidou-me para ensinar um ano lá. O Brasil tributa?",
     "invited_to_teach_or_research", True),
    # the invitation in the present, and a visiting post
    ("Soy profesora en Granada y la Universidad de Campinas me invita a enseñar un semestre allí. ¿Tributo en "
     "Brasil?",
     "invited_to_teach_or_research", True),
    ("I'll spend a year in Coimbra as a visiting researcher at the law faculty. Can Portugal tax what I'm paid?",
     "invited_to_teach_or_research", True),
    # the bank that pays or withholds is not the one receiving
    ("Vivo en Bilbao y tengo un depósito en Brasil; el banco retuvo un 15% de los intereses. ¿Es correcto?",
     "beneficiary_kind", "individual"),
    ("Tenho ações de uma empresa de Lisboa e o banco português reteve 25% dos dividendos. Qual o limite?",
     "beneficiary_kind", None),
    ("Exportamos cortiça de Santa Maria da Feira para Osaka; não temos escritório nem pessoal no Japão. O Japão pode "
     "tributar o lucro?", "attributable_to_pe", False),
    ("We make olive oil in Jaén and sell to shops in Recife; we have no office, warehouse or agent in Brazil. Can "
     "Brazil tax the profit?", "attributable_to_pe", False),
    # the writer works at the bank that gives the credit: the bank is the lender, whatever words lie between
    ("trabajo en comercio exterior en un banco de Bilbao; vamos a dar un crédito a un importador de Recife para "
     "comprar maquinaria. ¿Cuánto retiene Brasil sobre los intereses?", "beneficiary_kind", "financial_institution"),
    ("I work in trade finance at a bank in Porto and we extend a loan to a Brazilian buyer of our client's machines. "
     "What can Brazil withhold on the interest?", "beneficiary_kind", "financial_institution"),
])
def test_more_deciding_facts(text, name, value):
    assert read(text).get(name) == value


@pytest.mark.parametrize("text, kind", [
    # the subject of the holding verb is a company: the 10% company rate can apply
    ("Os dividendos da Lda. do Porto vão para uma S.A. de Fortaleza que detém 45% do capital. Qual a retenção?",
     "company"),
    ("The shareholder is a trading company in Osaka holding 60% of the Lisbon subsidiary. What's the dividend cap?",
     "company"),
    ("La Bodegas Ribera S.L., con sede en Valladolid, posee el 35% de una Ltda de Manaus. ¿Retención sobre los "
     "dividendos?", "company"),
    # a person who is a partner of a company, holding the stake personally, is not one
    ("Sou sócia de uma empresa de Goiânia e tenho 40% das quotas; moro em Braga. Quanto retêm nos dividendos?",
     "individual"),
])
def test_the_holder_of_a_stake_is_read_from_the_verbs_subject(text, kind):
    assert read(text)["beneficiary_kind"] == kind


def test_a_payment_date_named_before_the_payment_word():
    got = read("A participação de 30% é detida desde fevereiro de 2021; está marcada para setembro de 2025 a "
               "distribuição dos dividendos. Qual a taxa máxima?")
    assert got["payment_date"] == "2025-09-01"


@pytest.mark.parametrize("text", [
    "A minha filha estuda em Curitiba e eu mando-lhe dinheiro todos os meses de Lisboa. O Brasil tributa isso?",
    "Meu filho faz mestrado em Coimbra; a gente manda uns 700 euros por mês pra ele. Portugal cobra imposto?",
    "Mi hijo estudia en São Paulo y le mandamos dinero desde Sevilla cada mes. ¿Brasil puede gravarlo?",
])
def test_family_money_sent_to_a_student_comes_from_abroad(text):
    got = read_facts(understand(text, TREATIES, topic="students"))
    assert got["student_payment_origin"] == "abroad"


@pytest.mark.parametrize("text, topic", [
    # the place word inside a longer cue ("oficina en", "no office") is still a place of business denied
    ("Mi empresa de Sevilla me manda a Natal del 3 de marzo al 30 de julio; no tiene oficina en Brasil y me sigue "
     "pagando la nómina. ¿Brasil puede gravar mi sueldo?", "employment"),
    ("Our Porto company is sending me to Fortaleza from 1 February to 15 June; it has no office in Brazil and "
     "keeps paying me. Can Brazil tax my salary?", "employment"),
])
def test_an_office_denied_in_the_work_state_bears_no_pay(text, topic):
    query = understand(text, TREATIES, topic=topic)
    assert query.facts.employment.borne_by_pe is False


def test_an_office_denied_is_no_pe_for_the_profits():
    query = understand("Somos una sociedad de Valencia, no tenemos oficina en Brasil y vendemos allí por internet. "
                       "¿Puede Brasil gravar el beneficio?", TREATIES, topic="business_profits")
    assert query.facts.attributable_to_pe is False


@pytest.mark.parametrize("text, paying, residence", [
    # a third country's nationality: a national of neither State
    ("I'm local staff at the Brazilian embassy in Lisbon; I'm an Italian citizen and have lived in Portugal for "
     "12 years. Who taxes my salary?", False, False),
    # a nationality denied, and the person's own
    ("En el consulado de España trabaja un chófer; es brasileño, sin nacionalidad española, y vive en Recife "
     "desde siempre. ¿Dónde tributa su sueldo?", False, True),
])
def test_a_stated_nationality_decides_both_nationality_facts(text, paying, residence):
    facts = understand(text, TREATIES, topic="government_service").facts
    assert (facts.national_of_paying_state, facts.national_of_residence_state) == (paying, residence)


@pytest.mark.parametrize("text", [
    "Sou professora de espanhol numa escola pública de Curitiba, brasileira. Quem tributa o meu salário?",
    "I give English classes for the Portuguese consulate in Rio; I'm Brazilian. Who taxes this pay?",
])
def test_a_language_taught_is_no_nationality(text):
    tb = understand(text, TREATIES).facts.residence
    assert tb is None or tb.nationality in (None, ("BR",))


@pytest.mark.parametrize("text, treaty", [
    # before an academic, the adjective is the visitor's country: the treaty with it, not every treaty of Portugal
    ("A Japanese lecturer is coming to the University of Coimbra for a year to teach. Does Portugal tax his pay?",
     "PT-JP"),
    # before a language's teacher, it is the language
    ("I give Japanese lessons in Lisbon to a Brazilian company's staff. Can Brazil tax my fee?", "PT-BR"),
])
def test_an_academics_nationality_names_the_treaty_a_languages_teacher_does_not(text, treaty):
    assert understand(text, TREATIES).treaty == treaty


def test_a_lifelong_resident_did_not_move_for_the_post():
    facts = understand("Trabajo en la embajada de Brasil en Madrid; soy madrileña, he vivido siempre aquí. ¿Quién "
                       "grava mi sueldo?", TREATIES, topic="government_service").facts
    assert facts.resident_not_solely_for_services is True


@pytest.mark.parametrize("text, nationality", [
    ("O meu marido é brasileiro e a pensão dele é portuguesa; vivemos em Faro. Quem tributa a pensão?", ("BR",)),
    ("Ana Sato? She is Japanese and lives in Lisbon; her salary comes from the Japanese consulate.", ("JP",)),
])
def test_a_person_said_to_be_of_a_country_is_its_national_a_thing_is_not(text, nationality):
    tb = understand(text, TREATIES).facts.residence
    assert tb is not None and tb.nationality == nationality


@pytest.mark.parametrize("text, name, value", [
    ("Sou comandante de A320 numa companhia portuguesa e vivo em Natal; faço voos de longo curso para Lisboa. "
     "Quem tributa o salário?", "employment_kind", "ship_aircraft"),
    ("Una orquesta de Belo Horizonte da dos conciertos en Sevilla; la gira está financiada principalmente por el "
     "gobierno de Minas Gerais. ¿Puede España gravar el caché de los músicos?", "public_funds_visit", True),
    ("I taught at a federal university in Brazil and now receive my pension from the federal government; I live "
     "in Valencia. Where is it taxed?", "pension_kind", "government"),
])
def test_crews_public_funding_and_federal_pensions(text, name, value):
    assert read(text)[name] == value


@pytest.mark.parametrize("text, residence", [
    ("Sou engenheira, trabalho 100% de casa, em Joinville, para uma empresa do Porto. Portugal pode tributar o "
     "meu salário?", "BR"),
    ("Trabajo para una empresa de Oporto; soy de Bilbao y siempre he vivido aquí. ¿Portugal grava mi sueldo?",
     "ES"),
])
def test_where_one_works_from_home_or_has_always_lived_is_the_residence(text, residence):
    assert understand(text, TREATIES, topic="employment").residence_state == residence


@pytest.mark.parametrize("text, treaty, residence, source", [
    # a company of the other State that the self-employed person works for is the client who pays
    ("Soy autónoma en Zaragoza y diseño webs para una empresa de Fortaleza. ¿Brasil puede retenerme impuesto?",
     "BR-ES", "ES", "BR"),
    ("Sou tradutora em Braga e faço traduções para uma editora de Curitiba. O Brasil pode reter imposto?",
     "PT-BR", "PT", "BR"),
])
def test_the_client_of_a_self_employed_person_is_the_payer(text, treaty, residence, source):
    query = understand(text, TREATIES, topic="independent_services")
    assert (query.treaty, query.residence_state, query.source_state) == (treaty, residence, source)
    assert query.facts.paid_by_source_resident is True


@pytest.mark.parametrize("text", [
    "A nossa empresa de Campinas paga juros a um fundo público português (propriedade exclusiva do Estado). Qual a "
    "retenção?",
    "Una sociedad de Recife paga intereses a un fondo español de propiedad exclusiva del Estado. ¿Qué retención?",
])
def test_an_institution_the_state_owns_outright_is_the_government(text):
    assert understand(text, TREATIES, topic="interest").facts.beneficiary_kind == "government"


@pytest.mark.parametrize("text, nationality", [
    ("A minha mãe é só portuguesa, vive em Niterói e recebe uma pensão da CGA. O Brasil pode tributar?", ("PT",)),
    ("Mi abuelo es solo español, vive en Recife y cobra una pensión de Clases Pasivas. ¿Dónde tributa?", ("ES",)),
    # the subject left unsaid after "y" or a full stop
    ("Profesor jubilado de la Xunta, vive en Fortaleza y es solo español. ¿Brasil grava su pensión?", ("ES",)),
    ("Cobra una pensión del Exército brasileño y vive en Cádiz. Es solo brasileño. ¿Tributa en España?", ("BR",)),
    # a demonym right after "un"/"uma" is the person
    ("¿Un español jubilado de la Guardia Civil que vive en Natal tributa en Brasil por su pensión?", ("ES",)),
    ("Uma brasileira aposentada da Prefeitura de Santos mora em Coimbra. Portugal tributa a pensão dela?", ("BR",)),
    # someone the person deals with is not the person
    ("Sou só portuguesa, aposentada da Câmara de Faro; a minha neta casou com um japonês e vou viver para Quioto. "
     "O Japão tributa a pensão?", ("PT",)),
    # typed without accents: "e" after a person is "é"
    ("o meu sogro e portugues, mora em niteroi e recebe a reforma da cga. o brasil pode tributar?", ("PT",)),
])
def test_a_relative_said_to_be_only_of_a_country_is_its_national(text, nationality):
    tb = understand(text, TREATIES, topic="pensions").facts.residence
    assert tb is not None and tb.nationality == nationality


@pytest.mark.parametrize("text", [
    "Vou trabalhar 3 meses em Recife para a minha empresa; a empresa não tem filial nem escritório no Brasil. "
    "Moro em Lisboa. O Brasil pode tributar o salário?",
    "I'll work from Madrid for two months; my company has no branch or office in Spain. I live in Recife. "
    "Can Spain tax my salary?",
])
def test_an_employer_with_no_branch_in_the_work_state_is_not_resident_there(text):
    got = read(text)
    assert got["employer_resident_in_work_state"] is False and got["borne_by_pe"] is False


@pytest.mark.parametrize("text", [
    "My cousin lives in Fortaleza and works as a waiter on cruise ships of a Spanish cruise line. Can Spain tax "
    "his wages?",
    "Trabajo de camarero en cruceros de una naviera española y vivo en Recife. ¿España puede gravar mi sueldo?",
])
def test_cruise_staff_work_aboard_a_ship(text):
    assert read(text).get("employment_kind") == "ship_aircraft"


def test_a_bands_crew_is_not_a_ships_crew():
    got = read("Our Brazilian band and its crew (sound and lights technicians, employees of our São Paulo company) "
               "will tour Portugal for 3 weeks. Can Portugal tax the crew's salaries?")
    assert got.get("employment_kind") != "ship_aircraft"


@pytest.mark.parametrize("text", [
    "Sou brasileira e estou em Lisboa há 4 meses com visto de trabalho; trabalho num restaurante na Baixa. "
    "O Brasil ou Portugal tributam o meu salário?",
    "Vivo en Valencia y este verano trabajaré tres meses en un hotel en Fortaleza. ¿Brasil puede gravar ese sueldo?",
    "I'm Japanese, on a working holiday in Porto, working in a coffee shop downtown. Does Portugal tax my pay?",
])
def test_a_shop_or_cafe_where_the_work_is_done_is_a_local_employer(text):
    assert understand(text, TREATIES, topic="employment").facts.employment.employer_resident_in_work_state is True


@pytest.mark.parametrize("text", [
    "Trabalho no RH de uma metalúrgica de Viseu. Vamos deslocar um engenheiro para um cliente em Curitiba por 100 "
    "dias; o ordenado é pago por nós e não temos filial no Brasil. O Brasil pode tributar o ordenado?",
    "Escrevo pela Têxteis Ave, Lda (Guimarães). A Joana vai dar formação num cliente em Kobe durante 80 dias; o "
    "salário continua a ser pago por nós e não temos filial nem escritório no Japão. O Japão pode tributá-lo?",
])
def test_a_client_in_the_work_state_is_not_the_employer(text):
    assert understand(text, TREATIES).facts.employment.employer_resident_in_work_state is False


@pytest.mark.parametrize("text", [
    "I live in Braga now and keep a few Japanese shares (tiny stakes) with my Japanese broker. What withholding "
    "cap applies to the dividends in Japan?",
    "Vivo en Málaga y tengo acciones de Petrobras en mi banco brasileño. ¿Cuánto puede retener Brasil de los "
    "dividendos?",
])
def test_the_broker_or_bank_that_keeps_the_shares_is_not_the_owners_company(text):
    assert understand(text, TREATIES).facts.beneficiary_kind != "company"



@pytest.mark.parametrize("text, public", [
    ("Sou técnico de manutenção aeronáutica numa empresa de Alverca e vou três meses para São Paulo. Quem "
     "tributa o meu salário?", False),
    ("Trabajo en la industria aeronáutica en Getafe y me envían a Brasil cuatro meses. ¿Quién grava mi sueldo?",
     False),
    ("Sou sargento da Aeronáutica reformado e vivo em Coimbra. A minha pensão paga imposto onde?", True),
    ("I retired from the Brazilian Air Force and now live in Lisbon. Where is my pension taxed?", True),
])
def test_the_air_force_is_a_government_payer_but_the_aircraft_industry_is_not(text, public):
    """"manutenção aeronáutica" names an industry; "da Aeronáutica" (Brazil's air force) a State's service, which
    makes pay public (art. 19) and a pension a government one."""
    assert bool(Hits(tokenize(text))("pension_kind:government")) is public


@pytest.mark.parametrize("text", [
    "to em lisboa fazendo mestrado (vim so pra estudar) e arrumei um bico num restaurante pra ajudar a pagar o "
    "mestrado. portugal pode cobrar imposto sobre esse salario?",
    "Estoy en Oporto con una beca y trabajo de recepcionista para ayudarme a pagar el máster. ¿Portugal grava "
    "ese sueldo?",
    "I'm a Brazilian student in Valencia and I work weekends at a bakery to help cover my tuition. Can Spain tax "
    "the wages?",
])
def test_a_job_that_helps_pay_the_course_is_a_students_job(text):
    """"pra ajudar a pagar o mestrado", "to help cover my tuition": the job helps the studies (BR-ES 21(2))."""
    assert read(text).get("student_employment_for_studies") is True


@pytest.mark.parametrize("text, at_least, below", [
    ("to em valencia fazendo mestrado desde set/2023 e trabalho numa cafeteria pra ajudar a pagar o curso. a "
     "espanha pode cobrar imposto sobre esse salario?", 3.2, None),
    ("I've been a PhD student in Lisbon since October 2019, on a grant from Brazil. Can Portugal tax it?", 7.1,
     None),
    ("Soy profesora invitada en la Universidad de Oporto desde 2025. ¿Portugal grava mi sueldo?", 1.0, None),
    # a length stated is the stay, not the time since it began
    ("Estudo em Coimbra desde 2024 e fico 3 anos no total. Portugal tributa a bolsa?", 3.0, 3.01),
])
def test_a_students_stay_since_a_date_lasts_until_today(text, at_least, below):
    """"desde set/2023", "since October 2019": with no length stated, the stay so far counts for the students'
    and teachers' limits in years (BR-ES 21(2): four calendar years)."""
    years = read(text).get("stay_years")
    assert years is not None and years >= at_least and (below is None or years < below)


def test_a_month_and_year_joined_by_a_slash_is_a_date():
    text = "trabalhei la de jan/2024 a jun/24 e volto em set/2025"
    found = [(d.year, d.month) for d in dates(text, date(2026, 1, 1))]
    assert found == [(2024, 1), (2024, 6), (2025, 9)]


@pytest.mark.parametrize("text", [
    "Detemos diretamente 40% de uma sociedade de Braga, participação que mantemos há mais de quatro anos sem "
    "interrupção. Qual a retenção máxima sobre os dividendos?",
    "We have held 40% of a Braga company for more than four years. What is the dividend cap?",
    "Tenemos el 40% de una sociedad de Oporto desde hace más de cuatro años. ¿Retención máxima sobre dividendos?",
])
def test_a_holding_of_more_than_some_years_lasted_at_least_that_long(text):
    """"há mais de quatro anos" is a lower bound: the holding has lasted at least 48 months (a 24-month test is
    met), not an unknown length."""
    assert read(text).get("holding_months", 0) >= 48


def test_santa_maria_da_feira_is_a_town_not_the_azores_free_zone():
    assert read("A nossa sociedade, com sede em Santa Maria da Feira, detém 30% de uma Ltda. de Bento Gonçalves. "
                "Qual a taxa máxima sobre os dividendos?").get("free_zone_regime") is None
    assert read("A nossa SGPS está licenciada na ilha de Santa Maria, nos Açores, e detém 30% de uma Ltda. Qual a "
                "taxa máxima sobre os dividendos?")["free_zone_regime"] is True


@pytest.mark.parametrize("text", [
    "A nossa SGPS pediu licença na Zona Franca da Madeira, mas ainda não decidimos se vamos ficar no regime do "
    "CINM ou no regime geral. Detém 40% de uma Ltda. de Joinville: qual a retenção máxima sobre os dividendos?",
    "Our holding is being licensed in the Madeira free zone; the board has not decided yet whether it will opt into "
    "that regime. It owns 40% of a Brazilian company. What is the maximum withholding on the dividends?",
])
def test_a_free_zone_regime_not_yet_chosen_is_not_stated(text):
    """"ainda não decidimos se vamos ficar no regime do CINM ou no regime geral": whether the company enjoys the
    free zone's regime (PT-BR Protocol 9) is open, not stated."""
    assert read(text).get("free_zone_regime") is None


def test_a_holding_since_a_date_lasts_at_least_until_the_year_whose_profits_are_paid():
    """"desde fevereiro de 2018" and "os lucros do exercício de 2024": the dividend is paid in 2024 or later, so
    the holding has lasted at least until 1 January 2024 (over 24 months: PT-BR 10(2)(a))."""
    got = read("A nossa Lda. detém diretamente 30% de uma Ltda. brasileira desde fevereiro de 2018. Vão distribuir "
               "os lucros do exercício de 2024. Qual a taxa máxima de retenção no Brasil sobre esses dividendos?")
    assert got["fiscal_year"] == 2024 and 69 <= got["holding_months"] <= 71


@pytest.mark.parametrize("text", [
    "Trabajo en una entidad pública empresarial española cuyo capital pertenece en su totalidad al Estado; hemos "
    "prestado dinero a una empresa de Recife y cobramos intereses. ¿Brasil puede gravarlos?",
    "Somos um organismo público português e uma empresa de Campinas paga-nos juros de um empréstimo. O Brasil pode "
    "reter imposto?",
    "Our lender is an agency owned entirely by the State of Japan and a Porto company pays it interest. Can "
    "Portugal tax the interest?",
])
def test_a_public_entity_the_state_owns_outright_is_a_government_beneficiary(text):
    """Interest paid to a public entity the State owns outright is the government's (BR-ES 11(4)(a))."""
    assert read(text)["beneficiary_kind"] == "government"


@pytest.mark.parametrize("text, days, one_year", [
    ("A nossa técnica, contratada pela empresa de Setúbal, vai trabalhar em Manaus de 1 de abril a 31 de outubro. "
     "O Brasil pode tributar o salário dela?", 214, True),
    ("Mi hijo, empleado de una empresa de Zaragoza, trabajará en Belém del 1 de noviembre al 28 de febrero. "
     "¿Brasil grava su sueldo?", 120, False),
    ("Our welder, employed by a firm in Vigo, works in Natal from 15 March to 30 September (about 199 days). "
     "Can Brazil tax his wages?", 199, True),
])
def test_a_stay_given_by_dates_without_a_year_is_counted(text, days, one_year):
    """No year anywhere: the dates still give the stay's length and whether it falls in one calendar year
    (BR-ES and PT-BR count the 183 days per year)."""
    stay = understand(text, TREATIES).facts.employment
    assert stay.stay_days == days and stay.stay_in_one_year is one_year


def test_a_yearless_stay_in_one_calendar_year_over_183_days_lets_the_work_state_tax(make_assistant):
    answer = make_assistant().ask(
        "La ingeniera, contratada por nuestra empresa de Logroño, trabajará en Porto Alegre del 1 de marzo al 15 "
        "de octubre; seguimos pagándole desde España. ¿Puede Brasil gravar su sueldo?")
    rights = {(r.state, r.right) for c in answer.parts[0].rule_results.rights[0].cases for r in c.rights}
    assert rights == {("ES", "shared"), ("BR", "shared")}


@pytest.mark.parametrize("text, pct", [
    ("A nossa SGPS de Viseu comprou a totalidade do capital de uma Ltda de Goiânia. Que retenção nos dividendos?",
     100),
    ("Nuestra SL de Zaragoza es dueña de todas las acciones de una sociedad de Manaus. ¿Retención de dividendos?",
     100),
    ("Our Osaka parent has a wholly owned subsidiary in Coimbra paying dividends. What's the Portuguese cap?", 100),
    # a stated figure stands; with none and no whole capital, nothing is read
    ("A nossa SGPS de Viseu comprou 40% do capital de uma Ltda de Goiânia. Que retenção nos dividendos?", 40),
    ("A nossa SGPS de Viseu comprou capital de uma Ltda de Goiânia. Que retenção nos dividendos?", None),
])
def test_the_whole_capital_said_without_a_figure_is_a_full_holding(text, pct):
    assert read(text).get("holding_pct") == pct


@pytest.mark.parametrize("text, employer_there", [
    ("Sou engenheiro em Braga e passo 4 meses numa obra em Recife; a empresa continua a pagar-me, paga a partir de "
     "Braga. O Brasil tributa o salário?", False),
    ("Vivo en Valencia y me mandan 90 días a Campinas; la empresa me sigue pagando desde Valencia. ¿Tributo en "
     "Brasil?", False),
    ("I live in Porto and work 100 days in Osaka this year; our firm pays from Portugal. Can Japan tax my pay?", False),
    # paid from a place in the work State: nothing said of a foreign employer
    ("Vivo em Lisboa e trabalho 4 meses em Fortaleza; o cliente paga a partir de Fortaleza. O Brasil tributa?", None),
])
def test_pay_sent_from_a_place_outside_the_work_state_is_a_foreign_employers(text, employer_there):
    assert read(text).get("employer_resident_in_work_state") is employer_there


@pytest.mark.parametrize("text", [
    "A Universidade de Salamanca abriu vagas para professores visitantes e fui escolhida; dou aulas lá 18 meses. "
    "Moro no Recife. O salário fica isento?",
    "Me seleccionaron en el programa de profesores visitantes de la USP, 12 meses; vivo en Sevilla. ¿Estoy exento?",
])
def test_a_post_as_visiting_professor_is_an_invitation(text):
    assert read(text).get("invited_to_teach_or_research") is True


@pytest.mark.parametrize("text, years", [
    # a student's or trainee's dated stay is its length in years, for the one-year and two-year limits
    ("Uma estudante da USP faz um estágio curricular na nossa fábrica de Aveiro de 3 de março a 31 de outubro de "
     "2025, com subsídio de 700 euros por mês. Retemos IRS?", 0.67),
    ("A Spanish PhD student will research at UNICAMP from 1 September 2025 to 31 August 2026 on a grant from "
     "Madrid. Can Brazil tax the grant?", 1.0),
])
def test_a_student_s_dated_stay_is_its_length_in_years(text, years):
    facts = understand(text, TREATIES, topic="students").facts
    assert facts.stay_years == pytest.approx(years, abs=0.01)
    assert "stay_years" not in read(text)        # the bank's fact is the stay as written: its days


@pytest.mark.parametrize("text", [
    "I live in Porto and my only income is a complementary pension from Brazil. Who taxes it?",
    "My father lives in Braga and gets a pension from the company fund of Vale. Who taxes it?",
])
def test_a_complementary_or_company_fund_pension_is_private(text):
    assert read(text)["pension_kind"] == "private"


@pytest.mark.parametrize("text", [
    "Our Lisbon engineer will work 4 months at the Osaka plant. HQ has not decided yet whether his salary will be paid "
    "by the Osaka subsidiary or stay on the Lisbon payroll. Can Japan tax it?",
    "A nossa técnica vai 5 meses para a obra de Fortaleza; ainda não decidimos se o salário é pago pela filial de lá "
    "ou continua a ser pago cá. O Brasil pode tributar?",
])
def test_a_payer_not_decided_yet_states_no_employer(text):
    stay = understand(text, TREATIES, topic="employment").facts.employment
    assert stay.employer_resident_in_work_state is None and stay.borne_by_pe is None


@pytest.mark.parametrize("text, attributable", [
    ("We are a Japanese maker of machine tools with a branch in Porto that has its own staff. May Portugal tax the "
     "profits earned through the Porto branch?", True),
    ("Somos uma Lda de Aveiro e vendemos no Brasil através da nossa filial em Recife. O Brasil pode tributar esses "
     "lucros?", True),
    ("Vendemos en Portugal a través de nuestra sucursal de Lisboa. ¿Portugal puede gravar esos beneficios?", True),
    # a branch elsewhere in the ticket, and the sales not made through it: not attributable
    ("We have a branch in Lisbon, but these sales to Portuguese clients are made from Osaka, not through any branch. "
     "May Portugal tax the profit?", False),
])
def test_income_earned_through_a_named_branch_is_attributable_to_it(text, attributable):
    assert read(text).get("attributable_to_pe") is attributable


@pytest.mark.parametrize("text, employer_there", [
    ("One of our engineers, resident in Nagoya, spends five weeks a year at our Lisbon branch. His salary is paid "
     "by head office in Japan and is not charged to the branch. Is that salary taxable in Portugal?", False),
    ("Trabalho três meses por ano em Campinas; o ordenado é pago pela sede em Braga. O Brasil tributa o salário?",
     False),
])
def test_a_head_office_that_pays_the_salary_is_the_employer(text, employer_there):
    assert read(text)["employer_resident_in_work_state"] is employer_there


@pytest.mark.parametrize("text, months, low_days", [
    ("Our firm from Curitiba will assemble a bottling line near Valladolid: planned for 5 months on site, though "
     "the client says it could stretch to 10 months. Will Spain tax our profit?", 10, 152),
    ("A empreitada em Natal está prevista para 7 meses, mas pode prolongar-se até 12 meses. O Brasil tributa o "
     "lucro?", 12, 213),
])
def test_a_site_that_may_run_longer_is_the_range_between_its_two_lengths(text, months, low_days):
    stay = understand(text, TREATIES).facts.employment
    assert stay.stay_months == months and stay.stay_low_days == low_days


def test_two_lengths_of_two_stays_are_no_range():
    stay = understand("Trabalhei 4 meses em Lisboa em 2023 e depois 8 meses em 2024 para a mesma empresa "
                      "brasileira. Portugal tributa o salário?", TREATIES).facts.employment
    assert stay.stay_low_days is None


@pytest.mark.parametrize("text, months", [
    ("La obra de la subestación en Pará durará más de dos años. ¿Brasil puede gravar el beneficio?", 24.01),
    ("A empreitada em Natal vai demorar mais de um ano. O Brasil tributa o lucro?", 12.01),
])
def test_a_site_that_lasts_more_than_a_year_is_past_every_limit(text, months):
    stay = understand(text, TREATIES, topic="permanent_establishment").facts.employment
    assert stay.stay_months == months


def test_more_than_a_few_months_is_left_unknown():
    stay = understand("A obra em Natal vai durar mais de seis meses. O Brasil tributa o lucro?", TREATIES,
                      topic="permanent_establishment").facts.employment
    assert stay.stay_months is None


@pytest.mark.parametrize("text", [
    "Tenemos una oficina en Recife solo para publicidad. ¿Es un establecimiento permanente?",
    "Temos um escritório em Osaka só para fazer publicidade dos nossos vinhos. É estabelecimento estável?",
])
def test_an_office_kept_for_advertising_is_auxiliary(text):
    assert understand(text, TREATIES, topic="permanent_establishment").facts.pe_activity == "auxiliary"


def test_a_longer_length_a_question_supposes_is_no_range_of_the_story():
    stay = understand("Me invitó la Unicamp por 18 meses para investigar. ¿Y si me prorrogan el contrato hasta los "
                      "28 meses?", TREATIES, topic="professors").facts.employment
    assert stay.stay_months == 18 and stay.stay_low_days is None


@pytest.mark.parametrize("text", [
    "Sou estudante em Florianópolis e vou trabalhar num bar, nada a ver com o curso. Esse salário paga imposto no "
    "Brasil?",
    "Estudio en São Paulo y trabajo de camarero los fines de semana, nada que ver con mis estudios. ¿Brasil grava "
    "ese sueldo?",
])
def test_a_students_side_job_unrelated_to_the_course_is_paid_where_they_study(text):
    facts = understand(text, TREATIES, topic="students").facts
    assert facts.student_practical_training is False and facts.student_payment_origin == "local"


@pytest.mark.parametrize("text, attributable", [
    # the business's one place is where its owner lives: no fixed place in the other State
    ("I'm Portuguese and have lived in Osaka since 2008; my wife and I run our own restaurant in Osaka. Can Portugal "
     "tax the profits of the restaurant?", False),
    ("Tenho uma loja em Braga e vendo online para clientes no Brasil. O Brasil pode tributar os lucros da loja?",
     False),
    # premises in the other State too: that is what decides, not read from the first one
    ("Vivo em Braga e tenho uma loja em Braga e outra loja em São Paulo. O Brasil pode tributar os lucros?", None),
])
def test_premises_only_where_the_owner_lives_are_no_pe_in_the_other_state(text, attributable):
    query = understand(text, TREATIES, topic="business_profits")
    assert query.facts.attributable_to_pe is attributable


@pytest.mark.parametrize("text, pct, rates", [
    # the percentage withheld, after "com"/"with", is a rate
    ("tenho acoes da petrobras pela corretora e moro em leiria. os dividendos chegaram com 15% de ir retido, o "
     "brasil pode isso?", None, [15.0]),
    ("I hold Itaú ADRs and live in Porto; the dividends came with 15% withheld in Brazil. Is that the treaty rate?",
     None, [15.0]),
    # a holding after "com" stays one
    ("A nossa SGPS é sócia com 30% de uma Ltda de Campinas. Que retenção nos dividendos?", 30, []),
])
def test_a_percentage_withheld_after_with_is_a_rate_not_a_holding(text, pct, rates):
    got = read(text)
    assert got.get("holding_pct") == pct
    assert list(understand(text, TREATIES).stated_rates) == rates


@pytest.mark.parametrize("text", [
    "Mandamos três técnicos da nossa fábrica de Joinville para Aveiro por 5 meses, de março a julho. O salário "
    "continua sendo pago aqui pela matriz, sem repasse de custo para a filial portuguesa. Portugal pode tributar?",
    "Enviamos a dos técnicos de nuestra planta de Zaragoza a Curitiba cuatro meses. La nómina se sigue pagando aquí "
    "y no se repercute el coste a la filial brasileña. ¿Puede Brasil gravar esos sueldos?",
])
def test_pay_still_made_at_home_without_recharge_is_not_the_work_states_employers(text):
    """"continua sendo pago aqui pela matriz, sem repasse de custo": the employer is not of the work State and
    the branch there bears nothing, whatever company of that State the ticket names."""
    got = understand(text, TREATIES, topic="employment").facts.employment
    assert got.employer_resident_in_work_state is False and got.borne_by_pe is False


@pytest.mark.parametrize("text", [
    "Somos una productora de Bilbao y vendemos a una cadena de Recife los derechos de emisión de nuestra serie. "
    "¿Qué retención puede aplicar Brasil?",
    "A nossa produtora de Lisboa licenciou uma telenovela a uma emissora de São Paulo. Quanto pode o Brasil reter?",
    "Our Tokyo studio licensed the broadcast rights of an anime to a Lisbon channel. What withholding applies?",
])
def test_a_programmes_broadcast_licence_is_a_films_copyright(text):
    """Broadcast rights of a series or a soap opera are royalties for "filmes ou fitas de gravação de programas de
    televisão" (BR-ES 12(2)(a), PT-BR's protocol), not any other royalty."""
    assert understand(text, TREATIES, topic="royalties").facts.royalty_kind == "copyright_film"


@pytest.mark.parametrize("text", [
    "hi - my company back home is sending me to osaka for a project, about 150 days this yr, salary still paid by "
    "them and they dont have any office or branch in japan. do i owe japanese tax??",
    "My employer back home is posting me to Recife for 140 days this year; I'm still paid by my company and it "
    "doesn't have a branch in Brazil. Will Brazil tax my salary?",
])
def test_a_company_back_home_that_has_no_branch_there_neither_employs_nor_bears_the_pay_there(text):
    """"my company back home … salary still paid by them … they dont have any office or branch in japan": the
    employer is not of the work State and no PE there bears the pay (art. 15(2)(b), (c)); the days fall in one
    year ("this yr")."""
    got = understand(text, TREATIES, topic="employment").facts.employment
    assert got.employer_resident_in_work_state is False and got.borne_by_pe is False
    assert got.stay_in_one_year is True


@pytest.mark.parametrize("text", [
    "I live in Porto and a Tokyo house bought the rights to a Japanese translation of my first novel. What can "
    "Japan withhold on the royalties?",
    "Moro em Curitiba e uma editora de Lisboa vai publicar o meu romance; pagam-me royalties duas vezes por ano. "
    "Quanto pode Portugal reter?",
    "Vivo en Vigo y una editorial de São Paulo publica mis poemas. ¿Cuánto me puede retener Brasil por los "
    "derechos de traducción?",
])
def test_a_writers_book_is_a_copyright(text):
    """A novel, poems or their translation rights, paid by a publisher, are royalties for "obras literárias"
    (PT-BR 12(2)(a)'s "direitos de autor sobre obras literárias"), not any other royalty."""
    assert understand(text, TREATIES, topic="royalties").facts.royalty_kind == "copyright"


@pytest.mark.parametrize("text", [
    "Vamos a mandar a tres ingenieros de Sevilla a la obra de Recife durante 120 días; su coste no se cargará a la "
    "sucursal que tenemos allí. ¿Tributan sus sueldos en Brasil?",
    "Two of our Porto engineers will spend 100 days at the São Paulo branch; their cost will not be charged to the "
    "branch. Can Brazil tax their salaries?",
])
def test_a_cost_said_not_to_be_charged_to_the_branch_in_the_future_is_not_borne_by_it(text):
    """"su coste no se cargará a la sucursal": the branch there will bear nothing (art. 15(2)(c))."""
    assert understand(text, TREATIES, topic="employment").facts.employment.borne_by_pe is False


@pytest.mark.parametrize("text", [
    "Our sales rep Marta spent 12 days in Osaka at a trade fair; her salary is paid by us here in Portugal. Does "
    "she owe tax in Japan?",
    "Nuestro técnico pasó tres semanas en Curitiba montando una máquina, pagado por nosotros desde España. ¿Debe "
    "tributar en Brasil?",
])
def test_pay_from_the_writers_company_in_a_named_place_is_not_the_work_states_employer(text):
    """"paid by us here in Portugal" while the work was done in Japan: the employer is not of the work State."""
    got = understand(text, TREATIES, topic="employment").facts.employment
    assert got.employer_resident_in_work_state is False


@pytest.mark.parametrize("text", [
    "A nossa filial foi constituída em Campinas, mas ambos os seus administradores vivem no Porto e as reuniões do "
    "conselho fazem-se aqui. De que Estado é residente a sociedade?",
    "Our subsidiary is registered in Madrid, but both of its directors live in Curitiba and every board meeting is "
    "held there. Where is the company resident under the treaty?",
])
def test_both_of_a_companys_directors_counts_people_not_states(text):
    """"both of its directors": the directors, not both States; the management is where they meet."""
    got = understand(text, TREATIES, topic="residence").facts.residence
    expected = "PT" if "Porto" in text else "BR"
    assert got is not None and got.effective_management_in == expected


@pytest.mark.parametrize("text", [
    "vou vender meu ap em curitiba q comprei em 2015, o brasil cobra imposto sobre o lucro mesmo eu morando em lisboa?",
    "vendi o apto da minha mae em fortaleza, moro em madrid, quem tributa o ganho",
])
def test_a_flat_typed_short_is_immovable_property_in_a_gain(text):
    assert understand(text, TREATIES, topic="capital_gains").facts.gain_kind == "immovable"


@pytest.mark.parametrize("text, expected", [
    ("Sou leitor do programa Leitorado Guimarães Rosa e dou aulas de português na Universidade de Salamanca por dois "
     "anos. O meu salário é tributado em Espanha?", True),
    ("I'm a Spanish lecturer teaching at the University of Brasília for a year under an official cultural exchange "
     "programme. Is my salary taxed in Brazil?", True),
    ("Soy profesor de la Universidad de Vigo y daré clases un año en la USP. ¿Tributa mi sueldo en Brasil?", None),
])
def test_a_visit_under_an_exchange_programme_is_read(text, expected):
    """BR-ES art. 20 exempts a visit at an institution's invitation or under an official programme of cultural
    exchange: the programme is read when the ticket names one."""
    assert understand(text, TREATIES, topic="professors").facts.exchange_programme_visit is expected


def test_pay_sent_from_home_wins_over_a_local_company_the_ticket_names():
    """"we sell through a Japanese importer … her salary is paid by us here in Portugal": the importer is a client,
    the employer is the writer's company, not of the work State."""
    text = ("We are a cork maker in Santa Maria da Feira and sell through a Japanese importer. Our sales manager spent "
            "10 days in Osaka at a fair; her salary is paid by us here in Portugal. Does she owe tax in Japan?")
    assert understand(text, TREATIES, topic="employment").facts.employment.employer_resident_in_work_state is False


@pytest.mark.parametrize("text, employer_there", [
    ("Our engineer lives in Aveiro and is seconded to our Osaka subsidiary for five months, but he stays on the "
     "Aveiro payroll. Can Japan tax his salary?", False),
    ("Moro em Braga e a empresa vai destacar-me para a filial de Curitiba durante 4 meses, mas continuo na folha de "
     "pagamento de Braga. O Brasil tributa o salário?", False),
    ("Vivo en Bilbao. Trabajaré cuatro meses en São Paulo y durante ese tiempo estaré en la nómina de São Paulo. "
     "¿Brasil grava el sueldo?", True),
    # pay split over payrolls of both States: the payrolls decide nothing, the employer named does
    ("Our site manager lives in Valencia and spends about 90 days a year on works in Brazil. The Brazil part of his "
     "salary goes through the payroll of our Brazilian subsidiary in Salvador and the rest stays on the Spanish "
     "payroll. Can Brazil tax the part the subsidiary pays?", True),
])
def test_the_payroll_the_pay_is_on_names_the_employer_over_the_host_of_a_secondment(text, employer_there):
    """"seconded to our Osaka subsidiary … but he stays on the Aveiro payroll": the company whose payroll
    pays employs him (art. 15(2)(b)), not the group company he works at."""
    got = understand(text, TREATIES, topic="employment").facts.employment
    assert got.employer_resident_in_work_state is employer_there


@pytest.mark.parametrize("text", [
    "Trabajo cuatro meses en la filial de Recife y la filial no reembolsa mi sueldo a la matriz de Vigo. ¿Brasil "
    "puede gravarlo?",
    "I'm spending 100 days at our São Paulo branch; the branch does not reimburse my salary to head office in Porto. "
    "Can Brazil tax it?",
])
def test_a_host_that_does_not_reimburse_the_pay_does_not_bear_it(text):
    assert understand(text, TREATIES, topic="employment").facts.employment.borne_by_pe is False


@pytest.mark.parametrize("text, employer_there", [
    ("Two of our technicians from Nagoya work about 100 days a year at our subsidiary in Setúbal; their salaries are "
     "paid only by the parent company in Japan. Can Portugal tax them?", False),
    # the stay is the branch's, not the home's the clause before names ("mora em Braga e vai passar 100 dias…")
    ("O nosso técnico mora em Braga e vai passar 100 dias na nossa filial brasileira de Curitiba; o salário dele é "
     "pago apenas pela empresa-mãe em Portugal. O Brasil pode tributá-lo?", False),
    ("Vivo en Sevilla y trabajaré tres meses en Recife; el sueldo de esos meses será pagado por la filial brasileña. "
     "¿Brasil puede gravarlo?", True),
])
def test_the_payer_named_after_the_pay_is_the_employer_over_the_company_worked_at(text, employer_there):
    """"they travel to our subsidiary in Setúbal … their salaries are paid only by the parent company in Japan":
    the payer employs them (art. 15(2)(b)), not the group company they work at."""
    got = understand(text, TREATIES, topic="employment").facts.employment
    assert got.employer_resident_in_work_state is employer_there


@pytest.mark.parametrize("text", [
    "Sou de Goiânia, estudo em Valência e trabalho aos fins de semana numa loja para ajudar a cobrir as despesas do "
    "mestrado. Quem tributa esse salário?",
    "I'm from Recife, studying in Madrid, and I do shifts at a bookshop to help cover my PhD costs. Who taxes it?",
    "Soy de Curitiba, estudio en Granada y trabajo en un bar para financiarme la carrera. ¿Tributa en España?",
])
def test_a_students_job_that_pays_for_the_course_in_other_words_is_for_the_studies(text):
    assert read(text)["student_employment_for_studies"] is True


def test_a_job_for_other_costs_is_not_one_for_the_studies():
    got = read("Estudo em Salamanca e trabalho num bar para pagar a renda do carro; sou de Recife. Quem tributa?")
    assert "student_employment_for_studies" not in got


@pytest.mark.parametrize("text, vital", [
    # "contrato indefinido" is a permanent contract, not a centre of life that cannot be told
    ("Soy brasileña, me voy a Barcelona con contrato indefinido; alquilo un piso allí y conservo mi casa en Belém. "
     "Mi marido y la niña vienen conmigo a Barcelona. ¿De qué país soy residente?", "ES"),
    ("Tengo un contrato indefinido en Madrid y un piso alquilado allí, y mi casa en Natal. Mi mujer y los niños "
     "siguen en Natal. ¿De qué país soy residente?", "BR"),
])
def test_a_permanent_contract_leaves_the_family_to_decide_the_centre_of_life(text, vital):
    assert read(text)["vital_interests_in"] == vital


@pytest.mark.parametrize("text, activity", [
    # the enterprise's own plant at home is no place of business in the other State
    ("We are a Japanese company with a factory in Osaka and we will sell to shops in Portugal through an independent "
     "agent who represents several brands. Do we have a permanent establishment in Portugal?", "independent_agent"),
    ("Tenemos una fábrica de muebles en Valencia y vamos a vender en Brasil por medio de un representante autónomo "
     "que trabaja para otras empresas. ¿Tendremos un establecimiento permanente en Brasil?", "independent_agent"),
    # an office opened in the other State is one, whatever plant the enterprise has at home
    ("Temos uma fábrica em Braga e abrimos um escritório em São Paulo com dois vendedores. Temos estabelecimento "
     "estável no Brasil?", "place_of_business"),
])
def test_a_plant_in_the_enterprise_s_own_state_is_not_the_pe(text, activity):
    assert read(text)["pe_activity"] == activity


@pytest.mark.parametrize("text, pct", [
    ("E se a sociedade mineira tiver só 12% da Lda. de Aveiro, qual a retenção sobre os dividendos?", 12.0),
    ("¿Y si la sociedad española tuviera solo el 20% de la brasileña? ¿Cuánto retendría Brasil?", 20.0),
])
def test_a_supposed_holding_is_read(text, pct):
    assert read(text)["holding_pct"] == pct


@pytest.mark.parametrize("text, paid", [
    # the words that name the payer are a payment's words too
    ("A nossa SGPS detém 40% da Ltda brasileira desde 10 de março de 2024; os dividendos são pagos pela Ltda a 30 de "
     "junho de 2025. Qual a retenção máxima?", "2025-06-30"),
    # "to pay" is a payment, whatever a student's job pays for elsewhere
    ("We have held 30% of a Goiânia company since March 2019 and it intends to pay a dividend in April 2026. What is "
     "the cap?", "2026-04-01"),
])
def test_a_payment_said_with_its_payer_or_purpose_still_dates_the_payment(text, paid):
    assert read(text)["payment_date"] == paid


@pytest.mark.parametrize("text, pct", [
    ("Our Lisbon subsidiary, 100% owned by the Brazilian parent since 2012, will pay a dividend. What is the "
     "maximum withholding in Portugal?", 100),
    ("A filial de Sevilha é detida a 100% pela sociedade-mãe brasileira desde 2015. Qual a retenção sobre os "
     "dividendos?", 100),
])
def test_a_subsidiary_owned_by_a_parent_company_is_a_company_holding(text, pct):
    """"100% owned by the Brazilian parent": a holding, held by a company (PT-BR 10(2)(a))."""
    got = read(text)
    assert got["holding_pct"] == pct and got["beneficiary_kind"] == "company"


def test_a_holding_owned_by_a_person_is_no_company_holding():
    got = read("My Lisbon company is 60% owned by my brother, who lives in São Paulo. Dividend withholding?")
    assert got["holding_pct"] == 60 and got.get("beneficiary_kind") != "company"


@pytest.mark.parametrize("text", [
    "Escrevo pelo meu cliente, o Sr. Paulo Serra, residente em Braga, que detém 35% de uma Ltda. de Recife. Qual "
    "o limite da retenção sobre os dividendos?",
    "Our client Mrs. Ito, who lives in Osaka, holds 40% of a Lisbon company. What is the dividend withholding cap?",
    "La Sra. Gómez, residente en Sevilla, posee el 30% de una empresa de Natal. ¿Cuánto puede retener Brasil de "
    "los dividendos?",
])
def test_a_holder_named_with_a_title_is_an_individual(text):
    assert read(text)["beneficiary_kind"] == "individual"


def test_a_holding_bought_last_month_has_lasted_under_a_month():
    got = read("Our Porto company bought 30% of a Brazilian Ltda last month. What can Brazil withhold on the "
               "first dividend?")
    assert got["holding_pct"] == 30 and got["holding_months"] < 1
    today = date.today()
    assert [(d.month, d.year) for d in dates("comprei no mes passado", today)] == \
        [((today.month - 2) % 12 + 1, today.year - (today.month == 1))]


@pytest.mark.parametrize("text", [
    "Penso comprar ações de uma cotada do Porto morando em Curitiba. Quanto Portugal retém nos dividendos?",
    "Investing in Lisbon-listed shares while living in Recife: what dividend withholding applies?",
])
def test_someone_living_somewhere_said_in_passing_is_an_individual(text):
    assert read(text)["beneficiary_kind"] == "individual"


@pytest.mark.parametrize("text", [
    "Quick one: Brazilian, moved to Madrid last year — what's the most Brazil can withhold on the interest from my "
    "CDBs?",
    "Tenho uns depósitos a prazo em Portugal e moro em Natal: quanto Portugal retém nos juros?",
])
def test_deposits_counted_in_the_plural_are_a_persons_savings(text):
    assert read(text)["beneficiary_kind"] == "individual"
