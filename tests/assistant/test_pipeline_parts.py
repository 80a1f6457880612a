"""A ticket with several questions: a section per question, each with its own reading; an out-of-scope
question gets its one-line note and the rest is answered; the JSON answer carries the parts."""
from __future__ import annotations

import pytest

from assistant.presentation.values import msg

TWO_QUESTIONS = ("Bom dia. Sou residente em Portugal, reformado. Recebo dividendos de uma empresa brasileira e "
                 "também uma pensão privada de um fundo de pensões do Brasil. Qual é a taxa máxima de retenção "
                 "no Brasil sobre os dividendos? E a pensão privada, quem a tributa?")
WITH_VAT = ("Vivo em Lisboa e recebo juros de um banco brasileiro. Quanto pode o Brasil reter sobre os juros? "
            "E sobre o IVA da fatura da consultoria, tenho de liquidar IVA em Portugal?")



def _rights(part) -> set[tuple[str, str]]:
    """(State, right) of a part's first taxing-rights result, over all its cases."""
    return {(r.state, r.right) for c in part.rule_results.rights[0].cases for r in c.rights}

def test_each_question_gets_its_own_section_and_reading(make_assistant):
    answer = make_assistant().ask(TWO_QUESTIONS)
    asked = [p for p in answer.parts if not p.alternative]
    assert [p.topic for p in asked] == ["dividends", "pensions"]
    assert answer.card.count("#### ") >= 2 and "Pergunta: «E a pensão privada, quem a tributa?»" in answer.card
    pension = asked[1]
    assert pension.rule_results is not None and pension.rule_results.rights
    assert all(0 < p.confidence <= 1 for p in asked) and pension.citations
    data = answer.to_dict()
    assert [p["topic"] for p in data["parts"] if not p["alternative"]] == ["dividends", "pensions"]
    assert data["parts"][0]["rule_results"]


def test_an_out_of_scope_question_gets_its_note_and_the_rest_is_answered(make_assistant):
    answer = make_assistant().ask(WITH_VAT)
    assert not answer.abstained and answer.rates
    assert [p.out_of_scope for p in answer.parts if p.topic == "out_of_scope"] == ["vat"]
    assert any("IVA" in n for n in answer.notices)


def test_two_questions_on_one_topic_each_get_the_answer_of_their_own_words(make_assistant):
    """"E a do fundo?" asks about another pension than the INSS one before it: a section each, and each
    question's own kind of pension decides it (PT-BR 18(2) for INSS, 18(1) for the fund)."""
    answer = make_assistant().ask(
        "Moro em Setúbal. O meu marido recebe uma pensão do INSS e eu recebo uma pensão de um fundo de pensões "
        "de uma empresa brasileira. A pensão do INSS dele pode ser tributada no Brasil? E a minha, do fundo de "
        "pensões, quem a tributa?")
    asked = [p for p in answer.parts if not p.alternative]
    assert [p.topic for p in asked] == ["pensions", "pensions"]
    states = [_rights(p) for p in asked]
    assert states[0] == {("BR", "exclusive"), ("PT", "none")}
    assert states[1] == {("PT", "exclusive"), ("BR", "none")}


def test_the_pension_the_question_names_decides_over_another_named_before(make_assistant):
    """One question, about the fund's pension; the Social Security pension is only mentioned before it: the
    question's own words decide (PT-BR 18(1): a private pension, taxed only where its receiver lives)."""
    answer = make_assistant().ask(
        "Reformei-me em Lisboa e recebo a pensão da Segurança Social e ainda um complemento de um fundo de "
        "pensões privado. Vivo agora em Salvador, no Brasil. O complemento do fundo de pensões pode ser "
        "tributado em Portugal?")
    part = answer.parts[0]
    states = _rights(part)
    assert states == {("BR", "exclusive"), ("PT", "none")}


def test_shares_the_story_says_are_worth_their_buildings_stay_so_when_the_question_says_shares(make_assistant):
    """"Can Portugal tax the gain on my shares?" of a company whose assets are buildings: the question's plain
    "shares" does not undo what the story says of them (art. 13: the State where the buildings are may tax)."""
    answer = make_assistant().ask(
        "Moro em Quioto e tenho 25% de uma Lda. de Braga cujos únicos ativos são dois prédios em Braga. Vou vender "
        "as minhas quotas. Portugal pode tributar o ganho com a venda das quotas?")
    assert answer.query.facts.gain_kind == "shares_immovable"
    assert ("PT", "none") not in _rights(answer.parts[0])


def test_a_dividends_question_beside_one_on_interest_on_equity_is_about_dividends(make_assistant):
    """JCP are interest under PT-BR Protocol 4; the ticket's other question, about the dividends proper, is
    capped by art. 10(2)(a) (a company holding 25% or more for two years: 10%), not redirected to interest."""
    answer = make_assistant().ask(
        "A nossa SGPS do Porto detém diretamente 40% de uma Ltda. de Campinas há seis anos; a participada vai "
        "pagar juros sobre o capital próprio e dividendos. Indiquem-nos: (i) a taxa máxima sobre os juros sobre o "
        "capital próprio; (ii) a taxa máxima sobre os dividendos.")
    caps = {p.topic: {float(w.rate) for w in p.rule_results.withholding if w.rate is not None}
            for p in answer.parts if not p.alternative}
    assert caps == {"interest": {15.0}, "dividends": {10.0}}


def test_a_later_relief_question_is_about_the_income_the_first_one_asks(make_assistant):
    """"Can Brazil tax the rent? And how do I avoid paying twice?": the relief section answers for the rent
    (art. 6 and the residence State's credit), not for the lawyer's fees the ticket's words also suggest."""
    from assistant.understand.sentences import asking
    from tests.fakes import ScriptedTopics
    text = ("Vivo em Setúbal e herdei um apartamento arrendado no Recife; um advogado de lá recebe as rendas e "
            "paga o condomínio. As rendas podem ser tributadas no Brasil? E como evito pagar imposto duas vezes?")
    first, second = (s.text for s in asking(text)[-2:])
    assistant = make_assistant()
    assistant.reader = ScriptedTopics({first: (("immovable_property", 0.9),),
                                       second: (("double_taxation_relief", 0.9),)})
    relief = [p for p in assistant.ask(text).parts if p.topic == "double_taxation_relief"]
    assert relief and [r.income for r in relief[0].rule_results.rights] == ["immovable_property"]



def test_retrieval_searches_the_articles_of_every_question_the_ticket_asks(make_assistant):
    """The parts' topics lead the search's articles, before the other topics the words name: a ticket whose
    words name a salary, a pension and interest but whose questions ask about rent and a sale searches arts. 6
    and 13."""
    import dataclasses

    from assistant.understand import understand
    from assistant.understand.parts import PartTopic
    from assistant.understand.sentences import asking
    from rules import known_treaties

    text = ("Sou assalariado em Coimbra, com pensão de viuvez e juros de um depósito. Herdei uma casa em Recife. "
            "Quem pode tributar as rendas dessa casa? E se a vender com mais-valia, o Brasil pode tributar o ganho?")
    spans = asking(text)
    asked = [PartTopic(spans[0], "immovable_property", 0.9), PartTopic(spans[1], "capital_gains", 0.9)]
    query = dataclasses.replace(understand(text, known_treaties()), topics=("employment", "pensions", "interest"))
    assistant = make_assistant()
    articles = assistant._search_query(text, query, asked).articles
    assert articles[:2] == (("pt-br-2000", "6"), ("pt-br-2000", "13"))


def test_the_complement_asked_about_is_read_as_the_private_pension_it_is(make_assistant):
    """A public pension named first, the question about the company's complement: BR-ES 18(1), private pensions
    up to US$ 3,000 a year taxable only where the retiree lives (not art. 19's public pensions)."""
    answer = make_assistant().ask(
        "Además de la pensión pública de Clases Pasivas, cobro un complemento de jubilación de mi antigua empresa "
        "de Bilbao, unos 2.000 dólares al año. Vivo en Recife desde 2022. ¿Puede España gravar el complemento?")
    rights = answer.parts[0].rule_results.rights[0]
    assert {c.article for c in rights.citations} == {"18"}
    states = {(r.state, r.right) for c in rights.cases for r in c.rights}
    assert states == {("BR", "exclusive"), ("ES", "none")}


def test_a_question_on_another_treaty_does_not_take_the_rest_of_the_ticket_with_it(make_assistant):
    """"¿Y los de EE.UU.?" asks about another treaty (its note); the United States, named only for it, do not
    make the ticket's other question a Spain–US one: that one is answered under BR-ES."""
    answer = make_assistant().ask(
        "Soy residente fiscal en España y trabajo como autónomo para clientes de EE.UU. y para una agencia de "
        "Porto Alegre. ¿Brasil puede retenerme por lo que cobro de la agencia? ¿Y los de EE.UU.?")
    assert not answer.abstained and answer.treaty == "BR-ES"
    assert [p.topic for p in answer.parts if not p.alternative][-1] == "out_of_scope"


def test_a_later_question_with_its_own_length_of_stay_is_answered_for_that_length(make_assistant):
    """"E se eu ficar 8 meses no total?" asks the 183-day test again for a longer stay than the story's 4
    months: the first question keeps the short stay (only the residence State), the second gets its own."""
    answer = make_assistant().ask(
        "Sou residente em Lisboa e a minha empresa portuguesa vai destacar-me para São Paulo durante 4 meses; "
        "continua a pagar-me o salário cá e não tem filial no Brasil. O Brasil pode tributar o meu salário "
        "desses 4 meses? E se o projeto for prolongado e eu lá ficar 8 meses no total?")
    asked = [p for p in answer.parts if not p.alternative]
    assert [p.topic for p in asked] == ["employment", "employment"]
    rights = [_rights(p) for p in asked]
    assert rights == [{("PT", "exclusive"), ("BR", "none")}, {("PT", "shared"), ("BR", "shared")}]


@pytest.mark.parametrize("text", [
    "Vivo em Braga e a minha empresa portuguesa manda-me 175 dias para Belém; não tem filial no Brasil. O Brasil "
    "tributa o salário? E se eu ficar mais duas semanas em Belém, o Brasil já pode tributar o salário?",
    "I live in Porto; my Portuguese employer sends me to Nagoya for 170 days and has no branch in Japan. Can Japan "
    "tax my salary? And if I stay another 20 days?",
])
def test_a_later_question_that_lengthens_the_stay_adds_to_the_storys(make_assistant, text):
    """"E se eu ficar mais duas semanas?" lengthens the story's stay (175 + 14 > 183), not a stay of 14 days."""
    asked = [p for p in make_assistant().ask(text).parts if not p.alternative]
    assert [p.topic for p in asked] == ["employment", "employment"]
    rights = [_rights(p) for p in asked]
    assert ("PT", "exclusive") in rights[0] and {right for _, right in rights[0]} == {"exclusive", "none"}
    assert {right for _, right in rights[1]} == {"shared"}


@pytest.mark.parametrize("text", [
    "Uma engenheira que vive em Salvador vai trabalhar numa obra em Valência de fevereiro a novembro de 2027, uns "
    "nove meses. A Espanha pode tributar o salário dela durante esses nove meses?",
    "An engineer who lives in Recife will work on a plant in Bilbao from April to December 2027, about nine "
    "months. Can Spain tax her salary for those nine months?",
])
def test_a_question_that_restates_the_storys_stay_keeps_its_dates(make_assistant, text):
    """"durante esses nove meses" restates the story's "de fevereiro a novembro de 2027": the stay keeps its
    dates, all in one year and over 183 days (the work State may tax), instead of an undated nine months."""
    asked = [p for p in make_assistant().ask(text).parts if not p.alternative]
    assert asked[0].topic == "employment"
    assert {right for _, right in _rights(asked[0])} == {"shared"}


@pytest.mark.parametrize("question, extends", [
    ("E se eu ficar mais duas semanas?", True), ("¿Y si me quedo tres semanas más?", True),
    ("And if the project is extended by ten days?", True), ("And if I stay another 20 days?", True),
    ("E se eu ficar mais de 6 meses?", False), ("And if I stay 200 days or more?", False),
    ("E se ficar 8 meses no total?", False),
])
def test_what_lengthens_a_stay(question, extends):
    from assistant.lexicon.text import fold
    from assistant.pipeline import _EXTENSION

    assert bool(_EXTENSION.search(fold(question))) is extends


def test_a_later_question_on_a_preparatory_role_is_answered_for_that_role(make_assistant):
    """The story's agent signs contracts (a PE, art. 5(5)); "¿Y si solo hiciera estudios de mercado?" asks about
    an activity that is no PE (art. 5(4)): the second question gets only the residence State."""
    answer = make_assistant().ask(
        "Somos una S.L. de Valencia. Queremos contratar en São Paulo a un comercial que firmará contratos con "
        "clientes brasileños en nuestro nombre de forma habitual. ¿Podrá Brasil gravar parte de nuestros "
        "beneficios? ¿Y si solo se dedicara a recopilar información del mercado, sin vender, seguiría habiendo "
        "establecimiento permanente?")
    asked = [p for p in answer.parts if not p.alternative]
    assert [p.topic for p in asked] == ["permanent_establishment"] * 2
    rights = [_rights(p) for p in asked]
    assert rights[1] == {("ES", "exclusive"), ("BR", "none")} and rights[0] != rights[1]


def test_a_free_zone_a_later_question_supposes_is_not_the_storys(make_assistant):
    """"E se a SGPS estivesse licenciada na Zona Franca da Madeira?" supposes a regime (Protocol 9 would take
    the treaty's limits away); the first question, on the holding as it is, keeps its 10% cap (art. 10(2)(a))."""
    answer = make_assistant().ask(
        "A nossa SGPS detém diretamente 30% de uma S.A. brasileira há 3 anos. Qual a retenção máxima no Brasil "
        "sobre os dividendos? E se a SGPS estivesse licenciada na Zona Franca da Madeira, mantinha os limites?")
    first = answer.parts[0]
    assert first.topic == "dividends"
    assert [w.rate for w in first.rule_results.withholding] == [10.0]


@pytest.mark.parametrize("text, topics", [
    # a counted-off statement before the question that supposes the regime
    ("A nossa SGPS de Braga detém diretamente 35% de uma S.A. de Curitiba desde 2020. Primeiro, qual a retenção "
     "máxima no Brasil sobre os dividendos? Em segundo lugar, pensamos passar a participação para uma sociedade da "
     "Zona Franca da Madeira; os limites da convenção continuariam a aplicar-se?", ("dividends", "anti_abuse")),
    # the later question names a holding under no special regime, after a story on a free-zone one
    ("We are weighing a Madeira free zone holding for our stake in a Recife company. Question 1: could it claim the "
     "treaty's limits on the dividends? Question 2: if we used a Porto holding company outside any special regime, "
     "holding 30% of the Recife company directly for four years, what is the maximum Brazilian withholding?",
     ("anti_abuse", "dividends")),
])
def test_a_free_zone_regime_is_the_case_of_the_question_whose_statement_names_it(make_assistant, text, topics):
    """The holding as it is keeps the 10% cap (PT-BR art. 10(2)(a)); a free-zone holding is another question's
    case (Protocol 9), stated in the sentence that counts that question off or denied in its own words."""
    answer = _scripted(make_assistant(), text, *topics).ask(text)
    dividends = [p for p in answer.parts if p.topic == "dividends" and not p.alternative]
    assert dividends and [w.rate for w in dividends[0].rule_results.withholding] == [10.0]


@pytest.mark.parametrize("text", [
    "Trabajo en Sevilla para una empresa andaluza y cada año paso unos 100 días en Brasil con clientes. ¿Brasil "
    "puede gravar ese sueldo?",
    "Vivo e trabalho no Porto para uma empresa portuguesa e este ano vou estar 4 meses em Curitiba num "
    "projeto. O Brasil tributa o salário?",
    "I live and work in Lisbon for a Portuguese company and will spend 90 days in Osaka this year on a "
    "project. Can Japan tax my salary?",
])
def test_an_employer_at_home_is_not_resident_where_the_stay_is(make_assistant, text):
    """Working at home and staying some time in the other State: the 183-day test is that State's, and an
    employer of the home State is not resident there (art. 15(2)(b))."""
    query = make_assistant().ask(text).query
    assert query.work_state == query.source_state != query.residence_state
    assert query.facts.employment.employer_resident_in_work_state is False


def test_a_kind_of_income_another_question_names_is_that_questions(make_assistant):
    """The board seat belongs to the fees question: the salary, earned working from home in Recife, is taxed
    only in Brazil (art. 15(1)), not as directors' fees (art. 16), which Portugal may tax."""
    answer = make_assistant().ask(
        "Vivo no Recife e trabalho de casa como engenheira para uma empresa de Lisboa, sem nunca ir a Portugal. "
        "Também sou membro do conselho de administração de uma S.A. do Porto e recebo senhas de presença. "
        "Portugal pode tributar o meu salário? E as senhas de presença do conselho?")
    asked = {p.topic: p for p in answer.parts if not p.alternative}
    assert set(asked) == {"employment", "directors_fees"}
    assert _rights(asked["employment"]) == {("BR", "exclusive"), ("PT", "none")}
    assert ("PT", "none") not in _rights(asked["directors_fees"])


def test_a_board_the_fees_question_asks_about_in_short_words_is_still_its_own(make_assistant):
    """"E a remuneração do conselho?" does not name the board of directors itself; the story does, and the seat
    is still the fees question's, not the salary's: the salary, earned at home in Floripa, is Brazil's alone."""
    answer = make_assistant().ask(
        "Moro em Florianópolis e sou contratada por uma empresa de Barcelona como analista de dados. Trabalho 100% de "
        "casa, aqui em Floripa. Desde o ano passado também faço parte do conselho de administração de outra "
        "sociedade espanhola. O salário da empresa de Barcelona pode ser tributado na Espanha? E a remuneração do "
        "conselho?")
    asked = {p.topic: p for p in answer.parts if not p.alternative}
    assert set(asked) == {"employment", "directors_fees"}
    assert _rights(asked["employment"]) == {("BR", "exclusive"), ("ES", "none")}


def test_a_pe_question_about_the_other_enterprise_is_read_from_that_enterprise(make_assistant):
    """The Leiria agency asks about its own commissions, then whether the Brazilian brand it represents has a PE
    in Portugal: the second question's enterprise is Brazilian, so Brazil is its residence and Portugal, where the
    PE would be, the source; an independent agent makes none (only Brazil taxes the brand's profits)."""
    answer = make_assistant().ask(
        "Somos uma Lda de Leiria e representamos uma marca brasileira de calçado, com outras marcas; não assinamos "
        "contratos em nome dela. 1) O Brasil pode tributar as nossas comissões? 2) E por a representarmos cá, a "
        "empresa brasileira passa a ter um estabelecimento estável em Portugal?")
    asked = [p for p in answer.parts if not p.alternative]
    assert [p.topic for p in asked][1] == "permanent_establishment"
    assert _rights(asked[0]) == {("PT", "exclusive"), ("BR", "none")}
    assert _rights(asked[1]) == {("BR", "exclusive"), ("PT", "none")}


def test_a_ticket_refused_as_a_whole_keeps_each_question_and_names_each_subject(make_assistant):
    """Every question out of scope: one refusal, but each question is a part (the JSON a helpdesk posts lists
    them) and the refusal names what each asks about."""
    answer = make_assistant().ask(
        "Herdei um apartamento em Lisboa da minha tia. Pago imposto do selo sobre a herança? E a fatura das "
        "obras que fiz lá leva IVA a 6% ou a 23%?")
    assert answer.abstained
    assert [p.topic for p in answer.parts] == ["out_of_scope", "out_of_scope"]
    codes = [p.out_of_scope for p in answer.parts]
    assert len(set(codes)) == 2
    assert all(msg("pt", f"out_of_scope.{c}") in answer.card for c in codes)
    assert [p["out_of_scope"] for p in answer.to_dict()["parts"]] == codes


def test_a_question_read_out_of_scope_without_certainty_is_answered_as_its_words_read_it(make_assistant):
    """The model leans, unsurely, to "out of scope" on the only question, and the word lists read a pension: the
    card answers the pension, and the question is that answer's part, not an out-of-scope note beside it."""
    from assistant.understand.sentences import asking
    from tests.fakes import ScriptedTopics
    text = "A minha mãe, reformada da Segurança Social portuguesa, vive em Osaka. Paga IRS em Portugal?"
    assistant = make_assistant()
    assistant.reader = ScriptedTopics({asking(text)[-1].text: (("out_of_scope", 0.43), ("pensions", 0.38))})
    answer = assistant.ask(text)
    assert not answer.abstained
    assert [p.topic for p in answer.parts if not p.alternative] == ["pensions"]
    assert answer.parts[0].rule_results is not None and answer.parts[0].rule_results.rights
    # read out of scope surely, the question stays an out-of-scope part whatever pension words it holds
    assistant.reader = ScriptedTopics({asking(text)[-1].text: (("out_of_scope", 0.9), ("pensions", 0.05))})
    assert [p.topic for p in assistant.ask(text).parts if not p.alternative] == ["out_of_scope"]


def test_a_later_question_is_read_with_the_residence_the_tie_breaker_gave(make_assistant):
    """"Which country am I resident of? And my private pension?": the pension's section takes the tie-breaker's
    answer as the residence, whatever the direction reader would say alone (here scripted to say Brazil)."""
    from tests.fakes import ScriptedResidence
    assistant = make_assistant()
    assistant.direction_reader = ScriptedResidence("BR")
    answer = assistant.ask(
        "Vivo em Lisboa com a minha mulher e os filhos, numa casa que comprei; no Brasil não tenho casa. O Brasil "
        "diz que ainda sou residente lá. De que país sou residente pela convenção? E a minha pensão de um fundo "
        "privado brasileiro, quem a tributa?")
    asked = {p.topic: p for p in answer.parts if not p.alternative}
    assert asked["residence"].rule_results.tiebreaker.result == "PT"
    assert _rights(asked["pensions"]) == {("PT", "exclusive"), ("BR", "none")}


def test_a_relief_question_after_a_gain_knows_the_kind_of_gain(make_assistant):
    """"Can Portugal tax the gain on the villa? And will Japan credit the tax?": the relief section is about an
    immovable gain, as the first question's reading reads it, and does not ask again what was sold."""
    from assistant.understand.sentences import asking
    from tests.fakes import ScriptedTopics
    text = ("We live in Kobe and have agreed to sell the small villa we bought in Tavira years ago, at a good profit. "
            "1) Can Portugal tax this gain at all? 2) If it does, will Japan give us a credit for the Portuguese tax?")
    first, second = (s.text for s in asking(text)[-2:])
    assistant = make_assistant()
    assistant.reader = ScriptedTopics({first: (("capital_gains", 0.9),), second: (("double_taxation_relief", 0.9),)})
    relief = [p for p in assistant.ask(text).parts if p.topic == "double_taxation_relief"]
    assert relief and "gain_kind" not in relief[0].rule_results.missing_facts
    assert [r.income for r in relief[0].rule_results.rights] == ["capital_gains"]


def test_a_later_question_that_supposes_its_own_residence_keeps_it(make_assistant):
    """"¿Dónde soy residente? Y si fuera residente en Brasil, ¿quién grava mi pensión?": the pension's section is
    read as the question supposes, not with the tie-breaker's answer."""
    from tests.fakes import ScriptedResidence
    assistant = make_assistant()
    assistant.direction_reader = ScriptedResidence("BR")
    answer = assistant.ask(
        "Vivo en Sevilla con mi mujer y mis hijos, en una casa mía; en Brasil no tengo casa, pero allí dicen que sigo "
        "siendo residente. ¿De qué país soy residente según el convenio? Y si viviera en Brasil, ¿quién grava mi "
        "pensión de un plan privado español?")
    asked = {p.topic: p for p in answer.parts if not p.alternative}
    assert asked["residence"].rule_results.tiebreaker.result == "ES"
    rights = _rights(asked["pensions"])      # BR-ES 18: the residence, Brazil; Spain too above US$ 3,000 a year
    assert ("BR", "exclusive") in rights and ("ES", "exclusive") not in rights


@pytest.mark.parametrize("text, home", [
    ("Boa tarde. Vivo em Aveiro há seis anos e sou contratado por uma consultora de Belo Horizonte. No ano passado "
     "passei 120 dias em Minas numa obra. O Brasil também pode cobrar imposto sobre o ordenado dos meses em que "
     "trabalhei aqui em Aveiro?", "PT"),
    ("Hola, resido en Sevilla y trabajo para una empresa de Curitiba. Este año estuve dos meses allí. ¿Brasil puede "
     "gravar lo que cobro por los días que trabajo en Sevilla?", "ES"),
    ("I live in Porto and my employer is in São Paulo; I spent 50 days in Brazil this year. Can Brazil tax the "
     "salary for the weeks I worked in Porto?", "PT"),
])
def test_pay_for_work_the_question_places_at_home_is_taxed_only_there(make_assistant, text, home):
    """A stay in the other State told in the story, and a question on the pay for the work done at home: that
    pay is taxed only where the person lives (art. 15(1)), not left to the 183-day test of the stay."""
    _assert_salary_taxed_only_at_home(make_assistant, text, home)


@pytest.mark.parametrize("text, home", [
    ("O meu irmão vive em Leiria e é programador de uma empresa de Recife, sem escritório em Portugal. Trabalha "
     "de casa e ao Brasil não vai há três anos. O salário dele pode ser tributado no Brasil?", "PT"),
    ("Mi hija vive en Málaga y trabaja desde casa para una agencia de Salvador; no va a Brasil desde hace dos "
     "años. ¿Brasil puede gravar su sueldo?", "ES"),
])
def test_years_without_going_there_are_no_stay(make_assistant, text, home):
    """"não vai há três anos" counts the years since the last trip, not a stay: the work is done at home, taxed
    only there (art. 15(1))."""
    _assert_salary_taxed_only_at_home(make_assistant, text, home)


def _assert_salary_taxed_only_at_home(make_assistant, text: str, home: str) -> None:
    """The ticket's first question is a salary one, and only `home` may tax it; Brazil, the other State, not."""
    asked = [p for p in make_assistant().ask(text).parts if not p.alternative]
    assert asked[0].topic == "employment"
    assert dict(_rights(asked[0])) == {home: "exclusive", "BR": "none"}


@pytest.mark.parametrize("text, window", [
    ("Uma dúvida rápida: na convenção Portugal-Brasil, os 183 dias são contados por ano civil ou de outra forma?",
     "qualquer período de 12 meses"),
    ("For our engineers posted from Valencia to Recife: under the Spain–Brazil treaty, is the 183-day rule counted "
     "per calendar year or over any 12 months?", "calendar year"),
])
def test_a_question_on_how_the_183_days_are_counted_gets_the_rules_window_not_who_taxes(make_assistant, text, window):
    """The window is the answer; "the 183-day rule" states no stay, so nothing is checked against it."""
    from assistant.understand.sentences import asking
    from tests.fakes import ScriptedTopics
    assistant = make_assistant()
    assistant.reader = ScriptedTopics({asking(text)[-1].text: (("employment", 0.9), ("residence", 0.05))})
    answer = assistant.ask(text)
    run = answer.parts[0].rule_results
    assert run.figures and not run.rights and run.employment is None
    assert window in answer.card and "183" in answer.card
    assert answer.query.facts.employment.stay_days is None


@pytest.mark.parametrize("text, counting", [
    ("¿El convenio cuenta los 183 días por año natural o por cualquier período de 12 meses?", True),
    ("Is my Lisbon salary counted in Portugal or in Brazil?", False),
    ("Trabalhei 100 dias em São Paulo em 2025: o Brasil tributa o salário desses dias?", False),
])
def test_only_a_question_on_the_window_asks_how_the_days_are_counted(text, counting):
    from assistant.understand.topics import asks_counting
    assert asks_counting(text) is counting


@pytest.mark.parametrize("text", [
    "Representamos uma sociedade de Viseu que licenciou a sua marca de mobiliário a um fabricante de Campinas. "
    "1) Quanto pode o Brasil reter, no máximo, sobre os royalties? 2) O grupo está a estudar transferir a marca "
    "para uma sociedade licenciada na Zona Franca da Madeira. Nesse cenário o Brasil continua a ter de respeitar "
    "o limite da convenção?",
    "Our company in Leiria licenses its trademark to a distributor in Recife; the licence is registered with "
    "the Banco Central. What is the most Brazil can "
    "withhold on the royalties? The board is thinking of moving the trademark to a group company in the Madeira "
    "free zone. In that case, would Brazil still have to keep to the treaty limit?",
])
def test_the_case_a_later_question_supposes_is_not_the_first_questions(make_assistant, text):
    """The free zone the sentences before "Nesse cenário…?" suppose belongs to that question: the first
    question keeps the treaty's 15% cap; the second is answered by the Protocol's exclusion (no treaty benefit),
    not by the multilateral instrument's figures."""
    from assistant.understand.sentences import asking
    from tests.fakes import ScriptedTopics
    first, second = (s.text for s in asking(text)[-2:])
    assistant = make_assistant()
    assistant.reader = ScriptedTopics({first: (("royalties", 0.9), ("interest", 0.05)),
                                       second: (("anti_abuse", 0.9), ("royalties", 0.05))})
    asked = [p for p in assistant.ask(text).parts if not p.alternative]
    assert asked[0].topic == "royalties"
    assert [w.rate for w in asked[0].rule_results.withholding] == [15]
    assert asked[1].topic == "anti_abuse"
    assert [w.outcome for w in asked[1].rule_results.withholding] == ["no_treaty_benefit"]
    assert not asked[1].rule_results.instrument_figures


@pytest.mark.parametrize("text, last", [
    # Portugal–Spain is no treaty of the corpus: the question on the Spanish days is out of scope, the rest answered
    ("Moro em Coimbra e trabalhei 50 dias em Recife e 15 em Sevilha para uma empresa de Aveiro. O Brasil pode "
     "tributar o salário dos 50 dias? E Espanha, pode tributar os 15 dias?", "out_of_scope"),
    ("I live in Valencia and rent out a flat in Natal. Can Brazil tax the rent? And the flat in Porto, can Portugal "
     "tax that rent?", "out_of_scope"),
    # Portugal–Japan is: the question on Japanese interest stays a question on interest
    ("Vivo em Faro e recebo juros de um banco de Belo Horizonte. Quanto retém o Brasil? E os juros de um banco de "
     "Osaka, quanto retém o Japão?", "interest"),
])
def test_a_later_question_on_a_country_no_treaty_joins_to_the_residence_is_out_of_scope(make_assistant, text, last):
    answer = make_assistant().ask(text)
    asked = [p for p in answer.parts if not p.alternative]
    assert not answer.abstained and len(asked) == 2 and asked[-1].topic == last


def _scripted(assistant, text: str, *topics: str):
    """The assistant reading the ticket's asking sentences, in order, as `topics` (surely)."""
    from assistant.understand.sentences import asking
    from tests.fakes import ScriptedTopics
    spans = asking(text)
    assert len(spans) == len(topics)
    assistant.reader = ScriptedTopics({s.text: ((t, 0.9),) for s, t in zip(spans, topics)})
    return assistant


def test_each_list_item_s_own_statement_names_its_pension_kind(make_assistant):
    """"1) … a closed fund's supplement. Who taxes it? 2) … the city's own scheme. Is it taxed in Portugal
    too?": each question is about the pension its list item names, not the one the other item names."""
    text = ("Sou brasileira e mudo-me para Setúbal em março.\n1) A minha mãe recebe um complemento de um fundo de "
            "pensões fechado. Quem o tributa?\n2) O meu pai foi servidor da prefeitura de Recife e recebe a "
            "aposentadoria do regime próprio do município. Também é tributada em Portugal?")
    answer = _scripted(make_assistant(), text, "pensions", "pensions").ask(text)
    asked = [p for p in answer.parts if not p.alternative]
    assert len(asked) == 2
    assert _rights(asked[0]) == {("PT", "exclusive"), ("BR", "none")}
    assert _rights(asked[1]) == {("BR", "exclusive"), ("PT", "none")}


def test_a_ticket_refused_for_its_pair_of_states_keeps_each_question(make_assistant):
    """Two questions on a pair of States no treaty of the corpus joins (a pension from France and a flat in Lyon,
    of a resident of Portugal): one refusal, each question a part of it, out of scope for that reason."""
    text = ("Vivo em Braga desde 2022 e recebo uma reforma francesa da CNAV. Quem a tributa? E as rendas do meu "
            "apartamento em Lyon, onde pago imposto?")
    answer = _scripted(make_assistant(), text, "pensions", "immovable_property").ask(text)
    assert answer.abstained
    assert [(p.topic, p.out_of_scope) for p in answer.parts] == [("out_of_scope", "other_treaty")] * 2
    assert [p["out_of_scope"] for p in answer.to_dict()["parts"]] == ["other_treaty"] * 2


def test_a_later_question_s_own_place_of_management_is_its_own(make_assistant):
    """A seafarer whose ship is managed from Rio asks, and then asks about a job with an operator managed from
    Lisbon: Brazil may tax the first pay (art. 15(3)); the second is taxed in Portugal only."""
    text = ("Sou português, vivo em Aveiro e sou imediato num petroleiro em tráfego internacional de uma armadora "
            "cuja direção efetiva fica no Rio de Janeiro. O Brasil pode tributar o meu salário? Ofereceram-me "
            "lugar num navio de uma armadora gerida a partir de Lisboa: nesse caso só Portugal tributa?")
    answer = _scripted(make_assistant(), text, "employment", "employment").ask(text)
    asked = [p for p in answer.parts if not p.alternative]
    assert ("BR", "shared") in _rights(asked[0]) or ("BR", "limited") in _rights(asked[0])
    assert _rights(asked[1]) == {("PT", "exclusive"), ("BR", "none")}


def test_a_later_question_on_another_kind_of_pension_does_not_take_the_amount_told_of_the_first(make_assistant):
    text = ("Mi tía vive en Salvador de Bahía. Cobra una pensión de la Seguridad Social española de 700 euros al mes "
            "y otra del plan de pensiones de su antigua empresa. ¿La de la Seguridad Social quién la grava? ¿Y la "
            "complementaria?")
    answer = _scripted(make_assistant(), text, "pensions", "pensions").ask(text)
    first, second = [p for p in answer.parts if not p.alternative]
    assert first.rule_results.rights[0].outcome == "decided"
    assert second.rule_results.facts.pension_kind == "private"
    assert second.rule_results.facts.pension_annual_usd is None
    assert "pension_annual_usd" in second.rule_results.missing_facts


def test_a_ticket_whose_pair_of_states_is_uncertain_answers_every_question(make_assistant):
    """Only Brazil named, in Spanish: the likeliest treaty (Brazil–Spain) answers the second question too, and the
    office asked about is read by what is done there while the works are read by their length."""
    text = ("Somos una empresa de montajes eléctricos. Tenemos una obra en Belém que durará más de dos años, y una "
            "oficina en Recife solo para publicidad.\n- ¿La oficina de Recife es un establecimiento permanente?\n"
            "- ¿Y la obra de Belém?")
    answer = _scripted(make_assistant(), text, "permanent_establishment", "permanent_establishment").ask(text)
    office, works = [p for p in answer.parts if not p.alternative]
    assert office.rule_results.activity is not None and not office.rule_results.activity.permanent_establishment
    assert works.rule_results.site is not None and works.rule_results.site.permanent_establishment
    assert works.rule_results.rights and works.rule_results.rights[0].treaty == office.rule_results.rights[0].treaty


def test_a_later_question_keeps_the_amount_the_story_tells_of_its_own_pension(make_assistant):
    text = ("Vivo en Natal desde marzo. Cobro la pensión de jubilación de la Seguridad Social española, 1.500 euros al "
            "mes. También cobro el plan de pensiones de mi antigua empresa, unos 9.000 dólares al año. ¿Quién grava la "
            "de la Seguridad Social? ¿Y la del plan de pensiones?")
    answer = _scripted(make_assistant(), text, "pensions", "pensions").ask(text)
    second = [p for p in answer.parts if not p.alternative][1]
    assert second.rule_results.facts.pension_annual_usd == 9000
    assert "pension_annual_usd" not in second.rule_results.missing_facts


@pytest.mark.parametrize("text, home, visited", [
    ("Vou fazer um estágio curricular de 5 meses num hospital em São Paulo, sem salário lá, só com a bolsa de "
     "mobilidade que a minha faculdade me paga cá. O Brasil pode tributar essa bolsa?", "PT", "BR"),
    ("Haré un máster de un año en Recife; mis padres me mandan el dinero desde casa todos los meses. ¿Brasil puede "
     "gravar ese dinero?", "ES", "BR"),
])
def test_a_student_assumed_resident_of_the_other_state_is_exempt_where_studying(make_assistant, text, home,
                                                                                visited):
    """Only the State of study named: the likeliest reading assumes the student resident of the other, the home
    State; the State visited is where the payments from abroad are exempt (art. 21), never the other way round."""
    part = make_assistant().ask(text).parts[0]
    assert part.topic == "students"
    assert (visited, "source", "exempt") in {(r.state, r.role, r.right) for c in part.rule_results.rights[0].cases
                                              for r in c.rights}
    assert part.rule_results.rights[0].treaty in {"PT-BR", "BR-ES"} and home in part.rule_results.rights[0].treaty


def test_a_later_list_items_own_stay_is_not_the_sites_length(make_assistant):
    """"1) Is the 6-to-12-month site a PE? 2) Our engineer will be there 90 days … Is his salary taxed there?": the
    90 days are the second item's; the site's length stays open between its two figures."""
    text = ("A nossa empresa de Aveiro vai montar uma linha de engarrafamento perto de Salvador; a obra deve levar 6 "
            "meses, mas o cliente admite que se prolongue até 12 meses.\n1) Essa obra é um estabelecimento estável "
            "no Brasil?\n2) O engenheiro-chefe vai ficar lá 90 dias, pago pela sede em Aveiro. O salário dele paga "
            "imposto no Brasil?")
    answer = _scripted(make_assistant(), text, "permanent_establishment", "employment").ask(text)
    works, salary = [p for p in answer.parts if not p.alternative]
    assert "stay_months" in works.rule_results.missing_facts and works.rule_results.site is None
    assert salary.rule_results.facts.employment.stay_days == 90


def test_a_later_relief_question_that_names_its_own_income_is_about_that_one(make_assistant):
    """"What is the cap on the interest? And are the dividends exempt in Spain?": the relief section answers for the
    dividends its own words name (BR-ES 23(3): Spain exempts them), not for the first question's interest."""
    text = ("Our Valencia company owns 60% of a Brazilian Ltda that pays us both interest on a loan and dividends. "
            "What is the most Brazil can withhold on the interest? And are the dividends exempt from tax in Spain?")
    answer = _scripted(make_assistant(), text, "interest", "double_taxation_relief").ask(text)
    relief = [p for p in answer.parts if p.topic == "double_taxation_relief"]
    assert relief and [r.income for r in relief[0].rule_results.rights] == ["dividends"]


def test_a_later_supposition_of_an_agent_does_not_make_the_story_a_pe(make_assistant):
    """"Is a showroom used only for display a PE? And if we hire a rep who signs contracts there, does that
    change?": the first question is about the showroom as it is (no PE, only the residence State taxes the
    profits); the agent is the supposition's."""
    text = ("Somos uma fábrica de azulejos de Aveiro e vamos arrendar uma loja em Curitiba só para expor os nossos "
            "produtos; nenhum contrato é assinado lá.\n1) Essa loja é um estabelecimento estável?\n2) E se "
            "contratarmos um vendedor brasileiro que assina os contratos em nome da empresa, muda alguma coisa?")
    answer = _scripted(make_assistant(), text, "permanent_establishment", "permanent_establishment").ask(text)
    shop, agent = [p for p in answer.parts if not p.alternative]
    assert shop.rule_results.facts.attributable_to_pe is False
    assert _rights(shop) == {("PT", "exclusive"), ("BR", "none")}
    assert agent.rule_results.facts.attributable_to_pe is True


def test_each_question_on_a_named_person_takes_that_persons_stay(make_assistant):
    """"Is Eng. Costa's salary taxed in Brazil? And Mrs. Moura's?": each question takes the stay the story tells of
    the person it names (a title's full stop ends no sentence), not the first stay the ticket tells."""
    text = ("Our Porto engineering firm is sending two people to a client in Recife; both stay on our payroll and "
            "nothing is charged to the client.\n- Eng. Costa will be there from March to May, about 80 days.\n"
            "- Mrs. Moura stays until November, some 250 days.\nIs Eng. Costa's salary taxable in Brazil? And Mrs. "
            "Moura's?")
    answer = _scripted(make_assistant(), text, "employment", "employment").ask(text)
    costa, moura = [p for p in answer.parts if not p.alternative]
    assert costa.rule_results.facts.employment.stay_days == 80
    assert moura.rule_results.facts.employment.stay_days == 250


def test_a_question_on_a_colleague_takes_the_colleagues_stay(make_assistant):
    text = ("Soy ingeniera de una constructora de Bilbao y estaré en Fortaleza 200 días este año. Un compañero de "
            "obra irá solo 60 días. Los dos cobramos de la sede en Bilbao.\n¿Puede Brasil gravar mi sueldo? ¿Y el de "
            "mi compañero?")
    answer = _scripted(make_assistant(), text, "employment", "employment").ask(text)
    mine, peer = [p for p in answer.parts if not p.alternative]
    assert mine.rule_results.facts.employment.stay_days == 200
    assert peer.rule_results.facts.employment.stay_days == 60


def test_a_country_the_story_names_is_not_set_aside_for_a_later_question_on_it(make_assistant):
    """A Colombian on an exchange in Brazil, paid from Medellín, asks whether Brazil taxes the pay and what to
    declare in Colombia: Colombia is where he lives, not only what the second question is about, so the pair
    (Colombia–Brazil) is outside the corpus and the ticket is refused, not answered under a Brazilian treaty."""
    text = ("hola, soy colombiano y estoy de intercambio un semestre en Campinas, sigo dando clases virtuales para "
            "la universidad de Medellín que me paga en pesos. brasil me puede cobrar impuesto por ese sueldo?? y "
            "en colombia tengo q declarar algo. gracias")
    answer = _scripted(make_assistant(), text, "professors", "employment").ask(text)
    assert answer.abstained
    assert {p.topic for p in answer.parts} == {"out_of_scope"}


def test_a_length_only_a_later_question_states_is_not_the_first_questions_stay(make_assistant):
    """A 4-month posting (dated) and a later question on the site "que dura como 3 años": the salary question is
    read with the posting's 120 days, not the site's three years."""
    text = ("soy ingeniero en una constructora de Madrid, me mandan a sao paulo a una obra del 1 de febrero al 31 de "
            "mayo y la nomina me la sigue pagando la empresa. tengo que pagar impuestos en brasil por esos meses?? "
            "y otra cosa, la obra (dura como 3 años) cuenta como establecimiento permanente de la empresa en brasil")
    answer = _scripted(make_assistant(), text, "employment", "permanent_establishment").ask(text)
    first = [p for p in answer.parts if not p.alternative][0]
    assert first.topic == "employment"
    assert first.rule_results.facts.employment.total_days == 120


@pytest.mark.parametrize("text, first, second", [
    ("Moro em Natal e recebo uma pensão da Segurança Social portuguesa pelos anos em que trabalhei em Lisboa. Quem a "
     "tributa? E se eu voltar a viver em Portugal, a minha aposentadoria do INSS passa a ser tributada aí?",
     "PT", "BR"),
    ("Vivo en Vigo y cobro la jubilación del INSS por mis años en Recife. ¿Quién la grava? Y si un día me vuelvo a "
     "Brasil, ¿la pensión de la Seguridad Social española tributaría allí?", "ES", "BR"),
])
def test_a_later_pension_question_naming_its_own_scheme_is_on_that_schemes_pension(make_assistant, text, first,
                                                                                     second):
    """Two social-security pensions, one per question: each question is on the scheme it names, which pays it, so
    PT-BR 18(2) leaves the second to the INSS's State, and BR-ES 19(4) to the State the Spanish pensioner would live
    in (the other one), not as the first question's scheme would."""
    answer = _scripted(make_assistant(), text, "pensions", "pensions").ask(text)
    asked = [p for p in answer.parts if not p.alternative]
    assert len(asked) == 2
    assert (first, "exclusive") in _rights(asked[0])
    assert (second, "exclusive") in _rights(asked[1])


@pytest.mark.parametrize("text", [
    "We make ceramic tiles in Aveiro and sell to Japanese distributors from here; we have nothing in Japan.\n"
    "1) Can Japan tax our profit on those sales today?\n2) Once our Osaka office is open, what changes?",
    "Fabricamos moldes na Marinha Grande e vendemos para o Japão daqui, sem nada lá.\n1) O Japão pode tributar o "
    "lucro dessas vendas?\n2) Assim que abrirmos um escritório em Nagoia, o que muda?",
])
def test_a_later_question_on_an_office_still_to_open_is_on_that_office(make_assistant, text):
    """"Once our Osaka office is open, what changes?": the office is the supposition's, a fixed installation
    there (PT-JP art. 7), so Japan may tax the profits attributable to it; today only Portugal does."""
    answer = _scripted(make_assistant(), text, "business_profits", "permanent_establishment").ask(text)
    today, office = [p for p in answer.parts if not p.alternative]
    assert _rights(today) == {("PT", "exclusive"), ("JP", "none")}
    assert office.rule_results.facts.attributable_to_pe is True
    assert ("JP", "none") not in _rights(office)


@pytest.mark.parametrize("text, home", [
    ("Uma empresa de calçado de São João da Madeira quer vender no Brasil e está a ponderar duas hipóteses:\n"
     "(a) um agente comercial independente em Recife, que trabalha para várias marcas;\n"
     "(b) um diretor comercial nosso, empregado em Recife, com poderes para assinar contratos em nome da empresa, o "
     "que fará habitualmente.\nNa hipótese (a), o Brasil pode tributar os lucros dessas vendas? E na hipótese (b)?",
     "PT"),
    ("Una bodega de La Rioja quiere vender en Brasil y duda entre dos opciones.\n"
     "Opción A: un comisionista independiente en Porto Alegre que representa a otras bodegas.\n"
     "Opción B: un empleado nuestro en Porto Alegre con poderes para firmar contratos en nombre de la bodega, "
     "cosa que hará habitualmente.\n¿Con la opción A puede Brasil gravar nuestros beneficios? ¿Y con la opción B?",
     "ES"),
])
def test_each_question_on_an_option_is_read_with_that_options_statement(make_assistant, text, home):
    """"(a) an independent agent…; (b) our own manager who signs contracts there. Under (a)…? And (b)?": the
    independent agent of option (a) makes no PE (art. 5(6)), the signing employee of option (b) does (art. 5(5));
    each question is read without the other option's statement."""
    answer = _scripted(make_assistant(), text, "permanent_establishment", "permanent_establishment").ask(text)
    first, second = [p for p in answer.parts if not p.alternative]
    assert first.rule_results.facts.pe_activity == "independent_agent"
    assert _rights(first) == {(home, "exclusive"), ("BR", "none")}
    assert ("BR", "none") not in _rights(second)


@pytest.mark.parametrize("text", [
    "We are a software company run from Lisbon. Since March, Rafael works for us from his flat in Recife (we have no "
    "Brazilian entity and no office there). He is our sales lead and habitually concludes the contracts in our "
    "name.\n1. Does Rafael concluding those contracts give us a permanent establishment in Brazil?\n2. Where is his "
    "salary taxed?",
])
def test_what_the_story_denies_of_the_person_a_question_names_does_not_undo_the_story(make_assistant, text):
    """"Rafael … (no entity, no office there) … habitually concludes contracts in our name. Does Rafael concluding
    those contracts give us a PE?": the sentences on Rafael deny an office, not the agent's PE (art. 5(5)); the
    question's own words state nothing that replaces the story's reading."""
    answer = _scripted(make_assistant(), text, "permanent_establishment", "employment").ask(text)
    first = [p for p in answer.parts if not p.alternative][0]
    assert first.rule_results.facts.attributable_to_pe is True
    assert ("BR", "none") not in _rights(first)


@pytest.mark.parametrize("text, home", [
    ("Somos uma empresa de cortiça de Santa Maria da Feira e vendemos no Brasil através de um agente comercial "
     "independente em Campinas, que representa outras marcas. Com esse agente, temos estabelecimento estável no "
     "Brasil?\nMais tarde queremos ter lá um empregado nosso com poderes para concluir contratos em nome da "
     "empresa, o que fará habitualmente. Muda alguma coisa nesse caso?", "PT"),
    ("We are a Lisbon wine exporter selling in Brazil through an independent commission agent in Recife who also "
     "works for other wineries. Does that agent give us a permanent establishment in Brazil? Later we may hire our "
     "own employee there with authority to conclude contracts in our name, which he would habitually exercise. "
     "What changes in that case?", "PT"),
])
def test_a_short_question_on_that_case_reads_the_case_it_supposes(make_assistant, text, home):
    """"…an independent agent: a PE? … our own employee who habitually concludes contracts. What changes in that
    case?": the first question is the independent agent's (no PE, art. 5(6)); the second, ending on "in that
    case", is the supposed employee's (a PE, art. 5(5))."""
    answer = _scripted(make_assistant(), text, "permanent_establishment", "permanent_establishment").ask(text)
    first, second = [p for p in answer.parts if not p.alternative]
    assert first.rule_results.facts.pe_activity == "independent_agent"
    assert ("BR", "none") in _rights(first)
    assert second.rule_results.facts.attributable_to_pe is True
    assert ("BR", "none") not in _rights(second)


@pytest.mark.parametrize("text, home", [
    ("A Marques Têxtil, de Guimarães, vai entrar no Brasil: ou abre uma sucursal em Fortaleza ou compra uma empresa "
     "local. 1) Com a sucursal, o Brasil tributa os lucros? 2) Se comprarmos a empresa, o facto de a Marques Têxtil "
     "a controlar torna-a um estabelecimento estável no Brasil?", "PT"),
    ("Bodegas Arganza, de León, duda entre abrir una sucursal en Recife o crear una sociedad brasileña propia. "
     "1) ¿Con la sucursal, Brasil grava los beneficios? 2) ¿Y el solo hecho de que Bodegas Arganza controle esa "
     "sociedad le da un establecimiento permanente en Brasil?", "ES"),
])
def test_what_a_question_says_the_enterprise_does_wins_over_the_story_on_it(make_assistant, text, home):
    """"…a branch or a company of its own. 1) With the branch…? 2) Does controlling the company make a PE?": the
    second question names the enterprise, whose story opens a branch, but says it controls a company there: by
    itself no PE (art. 5(7)); the first question keeps the branch (art. 5(2)(b))."""
    answer = _scripted(make_assistant(), text, "business_profits", "permanent_establishment").ask(text)
    first, second = [p for p in answer.parts if not p.alternative]
    assert first.rule_results.facts.pe_activity == "place_of_business"
    assert second.rule_results.facts.pe_activity == "subsidiary"
    assert ("BR", "none") in _rights(second) and (home, "exclusive") in _rights(second)


@pytest.mark.parametrize("text", [
    "Vivo em Vigo desde 2022. Tenho no Brasil um CDB do Itaú e títulos do Tesouro Direto.\n- Qual o limite de IR que "
    "o Brasil pode reter sobre os juros do CDB?\n- E os juros do Tesouro Direto, quem os tributa?",
    "I moved to Madrid last year and kept a bank deposit at Bradesco and some Brazilian treasury bonds. How much can "
    "Brazil withhold on the deposit's interest? And on the treasury bonds' interest, who may tax it?",
])
def test_the_public_debt_the_story_names_is_the_question_s_that_names_it(make_assistant, text):
    """"a CDB and Tesouro bonds … the CDB's interest? And the Tesouro's?": the bank's interest is capped at 15%
    (BR-ES 11(2)); only the public debt's is Brazil's alone (11(4)(b))."""
    answer = _scripted(make_assistant(), text, "interest", "interest").ask(text)
    asked = [p for p in answer.parts if not p.alternative]
    assert [p.rule_results.facts.government_debt for p in asked] == [None, True]
    assert ("BR", "capped") in _rights(asked[0]) and ("BR", "exclusive") in _rights(asked[1])


@pytest.mark.parametrize("text", [
    ("Dos filiales nuestras, de Bilbao, trabajan en Brasil:\n- La primera explota un pozo de petróleo en Sergipe "
     "con personal propio.\n- La segunda sólo tiene una oficina en Recife para recoger información y hacer "
     "publicidad.\n¿La primera filial tiene establecimiento permanente en Brasil? ¿Y la segunda filial?"),
    ("Two of our Porto companies work in Brazil:\n- The first runs a quarry in Minas Gerais with its own crew.\n"
     "- The second only keeps a liaison office in Recife that does market research.\nDoes the first one have a "
     "permanent establishment in Brazil? And the second one?"),
])
def test_a_question_on_one_of_the_companies_a_list_counts_off_reads_that_one_s_activity(make_assistant, text):
    """"¿La primera filial…? ¿Y la segunda?": each question reads the activity its list item tells (a place of
    extraction is a PE, art. 5(2)(f); an office for information only is not, art. 5(4)), not the first one the
    ticket tells for both."""
    answer = _scripted(make_assistant(), text, "permanent_establishment", "permanent_establishment").ask(text)
    first, second = [p for p in answer.parts if not p.alternative]
    assert first.rule_results.activity.permanent_establishment
    assert second.rule_results.activity.activity == "auxiliary"
