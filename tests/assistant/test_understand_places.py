"""Places, institutions, taxes, company forms, IDs and currencies name a country (assistant/lexicon/places.yaml),
and the readings that follow from them. Phrasings written for these tests, not taken from the eval set."""
from __future__ import annotations

import pytest

import rules
from assistant.lexicon.text import tokenize
from assistant.understand import Query, understand
from assistant.understand.places import Grammar, assign_roles, find_mentions

TREATIES = {"PT-BR": ("PT", "BR"), "BR-ES": ("BR", "ES"), "PT-JP": ("PT", "JP"), "MLI": ()}


def q(text: str) -> Query:
    return understand(text, TREATIES)


@pytest.mark.parametrize("text, code", [
    # places: cities, districts, States, autonomous communities, prefectures
    ("Tenho um apartamento em Viseu que arrendo", "PT"),
    ("A empresa fica em Vila Nova de Gaia", "PT"),
    ("Vivo no Porto há três anos", "PT"),
    ("Moro em Florianópolis", "BR"),
    ("A fábrica é em Minas Gerais", "BR"),
    ("O cliente é do Rio e paga em dia", "BR"),
    ("Vivo en Valladolid desde 2019", "ES"),
    ("Mi empresa está en Cataluña", "ES"),
    ("Mudei-me para Sevilha no verão", "ES"),
    ("Vou passar o inverno trabalhando de Madri", "ES"),
    ("A subsidiária fica na prefeitura de Kanagawa", "JP"),
    ("Our office is in Fukuoka", "JP"),
    # institutions
    ("Recebo uma carta da Autoridade Tributária", "PT"),
    ("A Receita Federal reteve parte do pagamento", "BR"),
    ("Hacienda me pide un certificado", "ES"),
    ("The NTA sent me a form", "JP"),
    # taxes
    ("Passo recibos verdes a um cliente", "PT"),
    ("Pago CSLL e IRPJ sobre o lucro", "BR"),
    ("Presento el modelo 210 cada año", "ES"),
    # company forms
    ("A minha SGPS recebeu lucros", "PT"),
    ("Sou sócio de uma Ltda", "BR"),
    ("Tengo una S.L. con mi socio", "ES"),
    ("The kabushiki kaisha pays my fee", "JP"),
    # ID names
    ("Já tenho CPF e conta bancária", "BR"),
    ("Acabo de obtener el NIE", "ES"),
    ("Pedi o NISS esta semana", "PT"),
    # neighbourhoods and wards people name their home by
    ("Alugamos um T3 em Benfica", "PT"),
    ("Tenho um apê em Moema", "BR"),
    ("Vivimos en un piso en Chamberí", "ES"),
    ("We still own our apartment in Setagaya", "JP"),
    # a region a business is named by
    ("Somos um pequeno produtor de azeite do Douro", "PT"),
    ("We buy cork from a supplier in the Ribatejo", "PT"),
    # currencies
    ("Recebo 3000 reais por mês", "BR"),
    ("The fee is paid in yen", "JP"),
])
def test_a_cue_names_its_country(text, code):
    assert code in q(text).countries


@pytest.mark.parametrize("text, code", [
    ("Pago IRS em Portugal? Não, pergunto pelo IRPF", "BR"),   # IRPF in Portuguese: the Brazilian tax
    ("¿Tengo que declarar en el IRPF?", "ES"),                 # IRPF in Spanish: the Spanish tax
])
def test_a_cue_can_depend_on_the_language(text, code):
    assert code in q(text).countries


@pytest.mark.parametrize("text", [
    "O porto de Santos está congestionado",        # lower-case "porto": a harbour; "Santos" is BR, not PT
    "Vivo perto de um rio",
])
def test_common_words_are_not_places(text):
    assert "PT" not in q(text).countries


@pytest.mark.parametrize("text, lang", [
    # common words one letter from a place name: no country at all
    ("Estoy haciendo las prácticas y la mayoria del sueldo va al alquiler", "es"),
    ("A maioria das vezes a nota vem gravada no recibo", "pt"),
    ("our HR (Recursos Humanos) team studies the islands case", "en"),
])
def test_a_common_word_one_letter_from_a_place_is_no_place(text, lang):
    assert find_mentions(text, tokenize(text), lang) == []


@pytest.mark.parametrize("text, code", [
    ("recebo uma pensão do Brasil e moro em portgal", "PT"),      # a country's name mistyped
    ("Trabajo para una empresa de Barcelone", "ES"),             # a place written as a name, mistyped
])
def test_a_mistyped_name_still_names_its_country(text, code):
    assert code in {m.code for m in find_mentions(text, tokenize(text), "pt")}


def test_a_city_and_a_city_give_the_direction():
    r = q("Vivo em Leiria e uma editora de Belo Horizonte paga-me direitos de autor")
    assert (r.treaty, r.residence_state, r.source_state) == ("PT-BR", "PT", "BR")


def test_the_supplier_lives_where_the_service_is_provided_from():
    r = q("Prestamos serviços técnicos desde Coimbra a um cliente de Recife. Qual a retenção?")
    assert (r.treaty, r.residence_state, r.source_state) == ("PT-BR", "PT", "BR")
    assert r.topic == "technical_services"          # "prestamos" is a Portuguese verb here, not loans


def test_one_country_named_gives_a_reading_per_candidate_treaty():
    r = q("A nossa empresa tem 30% de uma sociedade em Campinas. Quanto retêm sobre os dividendos?")
    assert r.treaty is None and r.pair_not_covered is None
    assert [(x.treaty, x.residence_state, x.source_state) for x in r.readings] == \
        [("PT-BR", "PT", "BR"), ("BR-ES", "ES", "BR")]          # Portuguese question: Portugal first
    es = q("Nuestra empresa tiene el 30% de una sociedad en Campinas. ¿Cuánto retienen sobre los dividendos?")
    assert [x.treaty for x in es.readings] == ["BR-ES", "PT-BR"]


@pytest.mark.parametrize("text", [
    "moro fora faz 3 anos e deixei uns investimentos no Nubank. quanto o banco pode reter de IR nos juros?",
    "Tenho um CDB rendendo e moro na Europa desde 2022. Qual o limite de retenção sobre os juros?",
    "I emigrated in 2021 and keep some LCI and Tesouro Selic. How much can be withheld on the interest?",
])
def test_what_only_a_brazilian_saver_names_names_brazil(text):
    """Nubank, a CDB, an LCI or Tesouro Selic are Brazil's: the interest is Brazilian, read under each treaty Brazil
    has in the corpus."""
    r = q(text)
    assert r.treaty is None and {x.treaty for x in r.readings} == {"PT-BR", "BR-ES"}


def test_a_named_residence_reads_the_other_party_as_source():
    r = q("Sou residente em Portugal e recebo royalties. Qual o limite?")
    assert {(x.treaty, x.residence_state, x.source_state, x.assumed_role) for x in r.readings} == \
        {("PT-BR", "PT", "BR", "source"), ("PT-JP", "PT", "JP", "source")}


def test_no_reading_without_a_subject():
    assert q("Conhecem um bom café em Lisboa?").readings == ()


def test_an_uncovered_source_is_not_hidden_by_readings():
    r = q("Moro em Portugal e recebo dividendos de uma empresa francesa")
    assert r.pair_not_covered == ("PT", "FR") and r.readings == ()


@pytest.mark.parametrize("text, nations", [
    ("Sou professora aposentada da UFMG, brasileira, e moro em Aveiro. A aposentadoria paga IRS?", ("BR",)),
    ("Militar reformado, português nato, a viver em Curitiba: a pensão paga imposto onde?", ("PT",)),
    ("Tengo una pensión del Estado, soy jubilada (española de nacimiento) y vivo en Recife.", ("ES",)),
    ("Retired teacher, Spanish citizen living in Lisbon: is my state pension taxed in Portugal?", ("ES",)),
])
def test_a_demonym_set_off_by_commas_or_born_or_citizen_is_the_persons_nationality(text, nations):
    assert q(text).facts.residence is not None and q(text).facts.residence.nationality == nations


@pytest.mark.parametrize("text, nations", [
    # English puts the demonym before the noun of the person
    ("Quick one: my client is 71 and he's a retired Portuguese civil servant living in Maceió. Who taxes his "
     "CGA pension?", ("PT",)),
    ("I'm a Spanish architect and I moved to Belém last year. Does Brazil tax my Spanish civil-service pension?",
     ("ES",)),
    ("As a Brazilian dentist now living in Braga, who taxes the rent from my flat in Goiânia?", ("BR",)),
])
def test_an_english_demonym_before_a_persons_noun_is_the_nationality(text, nations):
    assert q(text).facts.residence is not None and q(text).facts.residence.nationality == nations


@pytest.mark.parametrize("text, nations", [
    # "he's", "she's": the contracted copula after a pronoun
    ("Asking for my father-in-law. He's Japanese, 68, and gets a kyosai pension; he now lives with us in Faro. "
     "Who taxes it?", ("JP",)),
    ("My mother lives in Recife. She’s Spanish and receives a pension from the Spanish State. Who taxes it?", ("ES",)),
])
def test_a_demonym_after_a_pronoun_and_its_contracted_is_is_the_nationality(text, nations):
    assert q(text).facts.residence is not None and q(text).facts.residence.nationality == nations


def test_a_name_and_its_possessive_s_before_a_demonym_is_no_nationality():
    query = q("Kenji's Japanese pension is paid in Tokyo and he lives in Porto. Who taxes it?")
    assert query.facts.residence is None or not query.facts.residence.nationality


@pytest.mark.parametrize("text, residence", [
    # a demonym used as a noun ("la portuguesa": the Portuguese pension) is no place one goes to
    ("Vivo en Vigo y cobro la jubilación del INSS. ¿Tributa solo en Brasil? ¿Y para la portuguesa qué convenio se "
     "aplica?", "ES"),
    # a visit set off by a comma ("ir ao Brasil no Natal, uma semana") is no move
    ("Mudei-me para Lisboa em fevereiro e trabalho remotamente para uma empresa de São Paulo. Só devo ir ao Brasil "
     "no Natal, uma semana. O Brasil pode tributar o meu ordenado?", "PT"),
])
def test_a_demonym_as_a_noun_or_a_short_visit_does_not_move_the_residence(text, residence):
    assert q(text).residence_state == residence


@pytest.mark.parametrize("text", [
    "Trabalho numa empresa brasileira, e moro em Lisboa. Quem tributa o salário?",
    "We're a Brazilian engineering firm with a client in Porto. Who taxes the fees?",
    "I work for a Japanese company from my home in Faro. Who taxes my salary?",
])
def test_a_company_described_by_a_demonym_gives_no_nationality(text):
    query = q(text)
    assert query.facts.residence is None or not query.facts.residence.nationality


def test_a_branch_in_an_offshore_centre_is_a_third_state():
    q = understand("Sou controller de uma empresa em Ribeirão Preto; o empréstimo é de um banco português, mas quem "
                   "recebe os juros é a sucursal do banco nas Ilhas Cayman. Vale o limite da convenção?",
                   rules.known_treaties(), topic="interest")
    assert q.treaty == "PT-BR" and "KY" in q.countries
    assert q.facts.paid_to_pe_third_state is True


@pytest.mark.parametrize("text, pair_not_covered", [
    ("Juros devidos a um banco português através da sua agência num terceiro país (Bahamas): vale o limite de "
     "15% da Portaria?", False),
    ("Moro em Portugal e trabalho nas Bahamas. Quem tributa o salário?", True),
])
def test_a_third_country_is_a_fact_not_the_treaty_pair(text, pair_not_covered):
    q = understand(text, rules.known_treaties())
    assert "BS" in q.countries
    assert (q.pair_not_covered is not None) is pair_not_covered


@pytest.mark.parametrize("text, residence, work, employer_local", [
    # work trips are stays where the work is done, not a move
    ("Consultora residente em Lisboa: 3 viagens de trabalho ao Brasil este ano, 90 dias ao todo, salário pago "
     "pela entidade patronal portuguesa. O Brasil tributa?", "PT", "BR", False),
    ("Resident in Valencia; two business trips to Brazil (70 days), salary paid by my Spanish employer. Does "
     "Brazil tax it?", "ES", "BR", False),
    # a group company named in a clause about the employer is not the employer
    ("Vivo en Sevilla; mi empleador español, que tiene una subsidiaria brasileña, me envía 60 días a Recife. "
     "¿Tributa en Brasil?", "ES", "BR", False),
    ("I'm resident in Porto and make 3 trips to Brazil (100 days) for my Portuguese employer, which has a "
     "Brazilian subsidiary. Can Brazil tax my salary?", "PT", "BR", False),
])
def test_work_trips_and_the_employer_beside_a_group_company(text, residence, work, employer_local):
    r = understand(text, TREATIES, topic="employment")
    assert (r.residence_state, r.work_state) == (residence, work)
    assert r.facts.employment.employer_resident_in_work_state is employer_local


@pytest.mark.parametrize("text, work", [
    # a title's full stop does not hide the sending verb from the place the person is sent to
    ("Somos uma gráfica de Coimbra e vamos enviar o Sr. António Faria para Osaka durante 3 meses. "
     "O Japão tributa o salário dele?", "JP"),
    ("Our Lisbon studio will send Dr. Marta Reis to Recife for two months. Can Brazil tax her salary?", "BR"),
])
def test_sending_someone_named_with_a_title_names_the_work_state(text, work):
    query = q(text)
    assert query.work_state == work and query.residence_state != work


@pytest.mark.parametrize("text, work", [
    # the person writes that the employer sent them: the place is where they work, not where they moved to
    ("Mi empresa me desplazó a Brasil en marzo y sigo cobrando de la matriz española. ¿Dónde tributo?", "BR"),
    ("Moro no Porto e a minha empresa destacou-me... aliás, me destacou para Belém por 5 meses. Quem tributa?",
     "BR"),
    ("I live in Seville and my employer seconded me to Curitiba for 100 days. Is my salary taxed in Brazil?",
     "BR"),
])
def test_being_sent_by_the_employer_names_the_work_state(text, work):
    query = q(text)
    assert query.work_state == work and query.residence_state != work


@pytest.mark.parametrize("text, treaty", [
    ("Sou doutoranda em Coimbra com bolsa da CAPES. Pago IRS sobre a bolsa?", "PT-BR"),
    ("Tengo una beca de la FAPESP para un máster en Salamanca. ¿Tributa en España?", "BR-ES"),
    ("Cobro una pensión de Clases Pasivas y vivo en Recife. ¿Quién la grava?", "BR-ES"),
    # a Portuguese university's school named by its acronym, beside a Brazilian city
    ("Sou aluno da FEUP e vou estagiar cinco meses em Campinas. O Brasil tributa a bolsa?", "PT-BR"),
    ("Hago el doctorado en el IST y paso tres meses en Recife. ¿Brasil grava la beca?", "PT-BR"),
])
def test_an_institution_names_its_country(text, treaty):
    assert understand(text, rules.known_treaties()).treaty == treaty


@pytest.mark.parametrize("text, residence, source", [
    # "sou/soy/I'm … in <city>" says where the person is, not a nationality
    ("im a translator in recife, freelance. a company in Lisbon pays me every month, can portugal tax it?",
     "BR", "PT"),
    ("Soy diseñadora autónoma en Sevilla y facturo a una agencia de Curitiba. ¿Brasil puede retenerme?",
     "ES", "BR"),
    # the company that hires is the payer ("contratada pela empresa"), the one invoiced is the client
    ("Vivo em Coimbra e sou contratado pela empresa brasileira como consultor. Podem reter IR?", "PT", "BR"),
    ("I live in Madrid and invoice a company in Fortaleza for my translations. Can Brazil withhold?", "ES", "BR"),
])
def test_the_freelancer_is_where_they_work_from_and_the_client_pays(text, residence, source):
    query = understand(text, rules.known_treaties())
    assert (query.residence_state, query.source_state) == (residence, source)


@pytest.mark.parametrize("text, nations", [
    ("Sou brasileira e não tenho nacionalidade portuguesa; vivo em Faro e recebo pensão do Estado brasileiro.",
     ("BR",)),
    ("Soy español, sin nacionalidad brasileña, y vivo en Salvador con mi pensión de funcionario.", ("ES",)),
    ("I'm Portuguese and have applied for Brazilian citizenship; I live in Recife on a civil service pension.",
     ("PT",)),
])
def test_a_denied_or_requested_nationality_is_not_held(text, nations):
    query = q(text)
    assert query.facts.residence is None or query.facts.residence.nationality in (None, nations)
    assert query.facts.national_of_residence_state is not True


@pytest.mark.parametrize("text, treaty", [
    # a treaty named by its two countries decides the pair, whatever other nationality the ticket mentions
    ("Meu avô é brasileiro com cidadania portuguesa, trabalhou numa fábrica em Toyohashi e recebe a aposentadoria "
     "japonesa (kosei nenkin). Desde 2023 mora em Coimbra. O Japão desconta imposto. Pela convenção Portugal–Japão, "
     "essa aposentadoria pode ser tributada no Japão?", "PT-JP"),
    ("Soy argentino, vivo en Valencia y cobro alquileres de un piso en Recife. ¿Qué dice el convenio entre España y "
     "Brasil?", "BR-ES"),
    ("I'm a US citizen in Lisbon with a Japanese company pension: under the Japan–Portugal tax treaty, who taxes "
     "it?", "PT-JP"),
])
def test_a_treaty_named_by_its_countries_is_the_pair(text, treaty):
    assert understand(text, rules.known_treaties()).treaty == treaty


@pytest.mark.parametrize("text, work", [
    # "a partir de", "desde", "(remotely) from" after working words: the place the work is done from
    ("Presto trabalho para uma empresa de Campinas a partir de Aveiro, onde vivo. O Brasil pode tributar?", "PT"),
    ("Trabajo en remoto desde Bilbao para un banco de Curitiba. ¿Brasil puede gravar mi sueldo?", "ES"),
    ("I'm working remotely from Kyoto for a software company in Porto. Who taxes my pay?", "JP"),
])
def test_the_place_worked_from_is_the_work_state(text, work):
    query = understand(text, rules.known_treaties(), topic="employment")
    assert query.work_state == work
    assert query.facts.services_in_residence_state is not False


def test_a_salary_paid_from_a_country_is_not_work_there():
    text = "Vivo em Braga e a empresa paga-me o salário desde São Paulo. Quem tributa?"
    tokens = tokenize(text)
    mentions = find_mentions(text, tokens, "pt")
    assign_roles(mentions, Grammar(tokens), employment=True)
    assert [(m.code, m.role) for m in mentions] == [("PT", "residence"), ("BR", "source")]


@pytest.mark.parametrize("text, residence", [
    # of several moves, the last is home: "emigrei para São Paulo … e regressei a Viseu"
    ("Emigrei para Curitiba em 1995 e voltei para Leiria no ano passado; recebo a aposentadoria do INSS. Quem "
     "tributa?", "PT"),
    ("Me fui a Osaka en 2010 y regresé a Valencia en 2024. ¿Japón puede gravar mi pensión japonesa?", "ES"),
])
def test_the_last_move_is_where_the_person_lives(text, residence):
    query = understand(text, rules.known_treaties(), topic="pensions")
    assert query.residence_states == (residence,) and query.residence_state == residence


def _roles(text: str, language: str) -> list[tuple[str, str | None]]:
    tokens = tokenize(text)
    mentions = find_mentions(text, tokens, language)
    assign_roles(mentions, Grammar(tokens), employment=False)
    return [(m.code, m.role) for m in mentions]


@pytest.mark.parametrize("text, language, roles", [
    # the Spanish spelling of Rio names Brazil (capitalised: "río" is a river)
    ("Una editorial de Río me paga derechos de autor.", "es", [("BR", "source")]),
    ("Vivo en Río de Janeiro y alquilo un piso junto al río en Sevilla.", "es",
     [("BR", "residence"), ("ES", "property")]),
])
def test_rio_in_spanish(text, language, roles):
    assert _roles(text, language) == roles


@pytest.mark.parametrize("text, language, codes", [
    # written in lower case after an English preposition, a city that is also a Portuguese word is the city
    ("moved to porto last year, my pension comes from the inss", "en", ["PT", "BR"]),
    ("i live in rio and rent out a flat in Lisbon", "en", ["BR", "PT"]),
    # not in Portuguese, where the same words are common nouns ("no natal", "o porto de Santos")
    ("passei o natal com a família e fui ao porto de Leixões", "pt", []),
])
def test_a_city_written_in_lower_case_after_an_english_preposition(text, language, codes):
    assert [code for code, _ in _roles(text, language)] == codes


@pytest.mark.parametrize("text, language, roles", [
    # a destination followed by holiday words or a stay of days or weeks is a visit, not a new home
    ("Vivo em Lisboa e no verão passei por lá: fui ao Brasil três semanas ver a família.", "pt",
     [("PT", "residence"), ("BR", None)]),
    ("Moro em Coimbra; em agosto vou ao Japão 12 dias de passeio.", "pt", [("PT", "residence"), ("JP", None)]),
    ("Resido en Bilbao, este año viajé a Brasil de vacaciones en Navidad.", "es", [("ES", "residence"), ("BR", None)]),
    ("I live in Osaka and flew to Portugal for a week in May.", "en", [("JP", "residence"), ("PT", None)]),
    # a long stay or a move still names where one lives
    ("Vou para o Brasil 200 dias a trabalho.", "pt", [("BR", "residence")]),
    ("Me mudé a Portugal hace dos semanas.", "es", [("PT", "residence")]),
    # an account in a country is where money is kept, not where one lives
    ("A empresa deposita o salário numa conta no Brasil.", "pt", [("BR", None)]),
    ("Vivo en Sevilla, pero me pagan a una cuenta bancaria en Japón.", "es", [("ES", "residence"), ("JP", None)]),
    # paying into a State's scheme is not living there ("continuo a descontar para o INSS")
    ("Moro em Aveiro e continuo a descontar para o INSS todos os meses.", "pt", [("PT", "residence"), ("BR", None)]),
    ("I live in Valencia but still pay into the Portuguese Segurança Social.", "en",
     [("ES", "residence"), ("PT", None)]),
    # a bank's own agency abroad is its branch there
    ("o banco recebe os juros pela sua agência em Luxemburgo", "pt", [("LU", "pe")]),
])
def test_visits_accounts_and_a_banks_agency_are_not_homes(text, language, roles):
    assert [r for r in _roles(text, language) if r[0] in {c for c, _ in roles}] == roles


@pytest.mark.parametrize("text, language, roles", [
    # working "from" a place for a stated stay is a stay there, not the place one works from at home
    ("Quero trabalhar a partir de Recife durante 3 meses no verão; a empresa é de Lisboa.", "pt",
     [("BR", "work")]),
    ("I'll be working remotely from Kyoto for six weeks next spring.", "en", [("JP", "work")]),
    # without a stay it is where one works from: the residence
    ("Trabajo en remoto desde Valencia para una empresa de Campinas.", "es", [("ES", "base")]),
])
def test_working_from_a_place_for_a_stated_stay_is_a_stay(text, language, roles):
    assert [r for r in _roles(text, language) if r[0] in {c for c, _ in roles}] == roles


@pytest.mark.parametrize("text, language, roles", [
    # work done in the past is work there, as the present is ("trabalhava no Japão até março")
    ("Até março trabalhava no Japão; agora estou de volta.", "pt", [("JP", "work")]),
    ("Hasta 2024 trabajaba en Brasil para una constructora.", "es", [("BR", "work")]),
])
def test_work_in_the_past_is_work_there(text, language, roles):
    assert [r for r in _roles(text, language) if r[0] in {c for c, _ in roles}] == roles


def test_a_sister_is_not_german():
    """"hermana" is one letter from "germana" (German, feminine): it names no country."""
    assert [c for c, _ in _roles("Mi hermana vive en Oporto y mis hermanos en Madrid.", "es")] == ["PT", "ES"]


def test_countries_set_aside_take_no_part_in_the_direction():
    """A ticket whose other question is about another treaty ("¿Y los clientes de EE.UU.?"): the countries only
    that question is about are set aside, and the rest is read under the treaty the other countries share."""
    text = ("Soy residente fiscal en España y trabajo como autónomo para clientes de EE.UU. y para una agencia de "
            "Recife. ¿Brasil puede retenerme por lo que cobro de la agencia de Recife? ¿Y los de EE.UU.?")
    whole = q(text)      # read whole, the covered pair among the States named is the treaty, the US no party
    assert (whole.treaty, whole.residence_state, whole.source_state) == ("BR-ES", "ES", "BR")
    read = understand(text, TREATIES, set_aside={"US"})
    assert (read.treaty, read.residence_state, read.source_state) == ("BR-ES", "ES", "BR")


@pytest.mark.parametrize("text, code", [
    ("Sou português (só tenho passaporte PT) e vivo em Osaka há dois anos.", "PT"),
    ("Retired here, only BR passport, living in Valencia since 2021.", "BR"),
])
def test_a_two_letter_code_in_capitals_names_the_country(text, code):
    """Tickets write "PT" and "BR" for the countries ("only PT passport", "sem filial no BR"); in capitals only,
    so "pt" or "br" in a word or an address are not countries."""
    tokens = tokenize(text)
    assert code in [m.code for m in find_mentions(text, tokens, "pt")]
    assert not find_mentions("ver pt.wikipedia e www.gov.br", tokenize("ver pt.wikipedia e www.gov.br"), "pt")


@pytest.mark.parametrize("text, codes", [
    ("does the japan us tax treaty have a 183 day rule", ["JP", "US"]),
    ("any us-spain treaty relief on my pension", ["US", "ES"]),
    # the pronoun: a word between it and the country
    ("Brazil taxes us twice on the same rent", ["BR"]),
    ("Spain sent us the refund", ["ES"]),
])
def test_lower_case_us_beside_a_country_is_the_united_states(text, codes):
    assert [m.code for m in find_mentions(text, tokenize(text), "en")] == codes


@pytest.mark.parametrize("text, language, left", [
    # the one who came back from a country left it: it is no longer where the person lives
    ("Sou emigrante regressada do Brasil desde março; recebo a aposentadoria do INSS. Quem tributa?", "pt", "BR"),
    ("Soy un emigrante retornado de Venezuela; cobro una pensión del INSS de Brasil. ¿Quién la grava?", "es", "VE"),
])
def test_one_who_came_back_from_a_country_left_it(text, language, left):
    assert (left, "former_residence") in _roles(text, language)


@pytest.mark.parametrize("text, language, nation", [
    # a ticket that opens by describing the writer: the demonym after the noun is the nationality
    ("Ex-militar brasileiro, vivo em Évora. A pensão da Aeronáutica paga IRS?", "pt", "BR"),
    ("Jubilada española, resido en Recife desde 2020. ¿Quién grava mi pensión de Clases Pasivas?", "es", "ES"),
    ("Sou enfermeira portuguesa e vou trabalhar para São Paulo. Quem tributa o salário?", "pt", "PT"),
])
def test_a_ticket_that_opens_with_the_writers_description_states_the_nationality(text, language, nation):
    assert (nation, "nationality") in _roles(text, language)


def test_a_demonym_later_in_the_story_is_not_the_writers_description():
    assert ("BR", "nationality") not in _roles("Trabalho numa empresa brasileira, em Lisboa. Quem tributa?", "pt")


def test_a_country_after_a_treaty_word_is_no_writers_nationality():
    """"Tratado Brasil-Argentina, juros": Argentina is a country (capitalised), not the writer's description."""
    assert ("AR", "nationality") not in _roles("Tratado Brasil-Argentina, juros, qual a alíquota?", "pt")


@pytest.mark.parametrize("text, language, roles", [
    # a length of stay before "to X": where the stay is spent, not a move or a payee
    ("Moro em Faro. A empresa quer mandar-me 2 meses pra Osaka e depois 3 semanas para Recife.", "pt",
     [("PT", "residence"), ("JP", "work"), ("BR", None)]),
    ("Vivo en Bilbao; el año que viene paso cuatro meses en Vigo y luego seis semanas a Curitiba.", "es",
     [("ES", "residence"), ("ES", None), ("BR", None)]),
    # a sum sent there, or a move, keeps its role
    ("Moro em Faro e mando 500 euros por mês para o Brasil.", "pt", [("PT", "residence"), ("BR", "residence")]),
    ("Me mudé a Valencia hace tres meses.", "es", [("ES", "residence")]),
])
def test_a_stay_length_before_a_destination_is_no_move_nor_payee(text, language, roles):
    assert _roles(text, language) == roles


@pytest.mark.parametrize("text, lang, codes", [
    # a town of several words wins over a shorter place inside it
    ("We are a cork producer from Ponte de Lima and export to Osaka.", "en", ["PT", "JP"]),
    ("Tenho uma casa em Ponte de Lima e outra em Recife.", "pt", ["PT", "BR"]),
    ("Vivo en Lima desde 2019 y cobro una pensión del INSS.", "es", ["PE", "BR"]),
])
def test_a_town_of_several_words_is_not_the_shorter_place_inside_it(text, lang, codes):
    assert [m.code for m in sorted(find_mentions(text, tokenize(text), lang), key=lambda m: m.start)] == codes


@pytest.mark.parametrize("text, language, roles", [
    # a place followed by "onde moro" / "where we live" is where the writer lives, whatever was bought there
    ("Em 2021 comprei uma casa em Braga, onde moro com os miúdos.", "pt", [("PT", "residence")]),
    ("We bought a flat in Kyoto, where we live most of the year.", "en", [("JP", "residence")]),
    ("Compré un piso en Zaragoza, donde vivo desde 2018.", "es", [("ES", "residence")]),
    # where someone else lives is not the writer's home
    ("Tenho um apartamento em Natal, onde mora a minha irmã.", "pt", [("BR", "property")]),
    ("I own a flat in Osaka, where my parents live.", "en", [("JP", "property")]),
])
def test_a_place_where_the_writer_lives_is_the_residence(text, language, roles):
    assert _roles(text, language) == roles


@pytest.mark.parametrize("text, language", [
    # trips counted to a place are visits, not a move there
    ("Moro em Coimbra e vou ao Brasil umas quatro vezes por ano para as reuniões do conselho.", "pt"),
    ("Vivo en Sevilla y viajo a Brasil tres veces al año por trabajo.", "es"),
    ("I live in Porto and fly to Japan twice a year for the board.", "en"),
])
def test_trips_counted_to_a_place_are_no_move_there(text, language):
    roles = _roles(text, language)
    assert roles[0][1] == "residence" and roles[1][1] != "residence"


@pytest.mark.parametrize("text, language, owner", [
    # the company a branch belongs to is at home where its demonym says, not where the branch is
    ("A fábrica de Manaus vai funcionar como sucursal da sociedade portuguesa.", "pt", "PT"),
    ("La planta de Recife operará como sucursal de la empresa española.", "es", "ES"),
])
def test_the_company_a_branch_belongs_to_is_not_where_the_branch_is(text, language, owner):
    assert _roles(text, language)[-1] == (owner, "residence")


def test_a_branch_of_our_company_in_a_place_is_there():
    assert _roles("Vamos abrir uma sucursal da nossa empresa no Brasil.", "pt") == [("BR", "pe")]
