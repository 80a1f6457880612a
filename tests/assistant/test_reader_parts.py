"""The trained reader: asking sentences, the topic model (fitted for real on small data), parts and their
close second readings."""
from __future__ import annotations

import pytest

from assistant.understand.parts import CLOSE, FOLLOW_UP, SAME_TOPIC_KEPT, PartTopic, out_of_scope_code, read_parts
from assistant.understand.sentences import asking, item_start, sentences
from assistant.understand.topic_model import (
    Example,
    TopicModel,
    _label_index,
    bank_examples,
    cached_model,
    context_of,
    data_hash,
    lexicon_features,
)
from eval.tickets import Ticket
from tests.fakes import ScriptedTopics


def test_sentences_end_at_question_marks_and_full_stops_but_not_inside_articles_or_numbers():
    text = "Sou sócio de uma Lda. em Aveiro (art. 10 diz 15.5%). Recebo dividendos do Brasil. Qual a taxa? E o IVA?"
    spans = sentences(text)
    assert [s.text for s in spans] == ["Sou sócio de uma Lda. em Aveiro (art. 10 diz 15.5%).",
                                       "Recebo dividendos do Brasil.", "Qual a taxa?", "E o IVA?"]
    assert all(text[s.start:s.end] == s.text for s in spans)
    assert [s.text for s in asking(text)] == ["Qual a taxa?", "E o IVA?"]


def test_a_ticket_without_a_question_mark_asks_in_its_last_sentence():
    assert [s.text for s in asking("Moro em Lisboa.\nPreciso de saber quem tributa a pensão do INSS")] == \
        ["Preciso de saber quem tributa a pensão do INSS"]


@pytest.mark.parametrize("text, asked", [
    # the closing and the signature under the last sentence ask nothing
    ("Temos 30% de uma Lda. de Aveiro há seis anos. A taxa máxima de retenção em Portugal sobre os dividendos.\n"
     "Atenciosamente, Departamento Fiscal", "A taxa máxima de retenção em Portugal sobre os dividendos."),
    ("I get a nenkin and live in Faro. Who taxes it.\nBest regards, Kenji Sato", "Who taxes it."),
    ("Cobro una pensión del INSS en Vigo. Quién la grava.\nUn saludo cordial, Marta", "Quién la grava."),
])
def test_the_last_sentence_that_asks_is_above_the_closing(text, asked):
    assert [s.text for s in asking(text)] == [asked]


@pytest.mark.parametrize("text, asked", [
    ("Boa tarde. Gostaríamos de saber se o Brasil pode tributar o cachê. Aproveitamos para perguntar qual a taxa "
     "de IVA dos bilhetes. Obrigado.",
     ["Gostaríamos de saber se o Brasil pode tributar o cachê.",
      "Aproveitamos para perguntar qual a taxa de IVA dos bilhetes."]),
    ("Hola. Quisiera saber si España grava mi pensión. ¿Y qué modelo presento?",
     ["Quisiera saber si España grava mi pensión.", "¿Y qué modelo presento?"]),
    # an agent passing a customer's questions on, in the third person
    ("Reencaminho o caso da D. Alice, reformada em Tavira. Quer saber se o Brasil lhe pode reter imposto na "
     "pensão do INSS. Pergunta também se tem de entregar o modelo 3.",
     ["Quer saber se o Brasil lhe pode reter imposto na pensão do INSS.",
      "Pergunta também se tem de entregar o modelo 3."]),
    ("El Sr. Ortiz vive en Lugo y cobra alquileres de un piso en Recife. Quiere saber si Brasil puede gravarlos. "
     "Un saludo, Marta.",
     ["Quiere saber si Brasil puede gravarlos."]),
    ("Forwarding for a client in Osaka who owns a flat in Porto. She wants to know whether Portugal taxes the rent. "
     "Thanks, Ana.",
     ["She wants to know whether Portugal taxes the rent."]),
    # a formal request ("Solicitamos confirmar…")
    ("Detemos 40% de uma sociedade de Braga. Solicitamos confirmar a retenção máxima sobre os dividendos. "
     "Atenciosamente, A Direção", ["Solicitamos confirmar a retenção máxima sobre os dividendos."]),
    # a request that opens a list of questions is not one of them
    ("Solicito esclarecimento sobre o seguinte:\n1) Quem tributa a renda?\n2) E a mais-valia?",
     ["1) Quem tributa a renda?", "2) E a mais-valia?"]),
])
def test_a_request_phrase_asks_without_a_question_mark(text, asked):
    assert [s.text for s in asking(text)] == asked


@pytest.mark.parametrize("text, asked", [
    # a courtesy, a few small words and a verb of telling, ended with a full stop, before questions that have
    # their mark: each one asks
    ("Tenemos una oficina de ventas en Recife. Nos podrían aclarar si eso ya es un establecimiento permanente. "
     "¿Y si contratamos a un agente exclusivo?",
     ["Nos podrían aclarar si eso ya es un establecimiento permanente.", "¿Y si contratamos a un agente exclusivo?"]),
    ("A Verde Lda. cobra juros de um mútuo a uma empresa de Santos. Queríamos que nos confirmassem a taxa máxima "
     "de retenção no Brasil. E o IOF entra nisso?",
     ["Queríamos que nos confirmassem a taxa máxima de retenção no Brasil.", "E o IOF entra nisso?"]),
    ("Sou sócia de uma empresa em Osaka. Agradecia ainda que me explicassem como se eliminam os dois impostos. "
     "Quem tributa os dividendos?",
     ["Agradecia ainda que me explicassem como se eliminam os dois impostos.", "Quem tributa os dividendos?"]),
    ("We hold bonds issued by a Portuguese company. Could you please explain how much Portugal may withhold. "
     "Does it matter that we are a pension fund?",
     ["Could you please explain how much Portugal may withhold.", "Does it matter that we are a pension fund?"]),
    ("I rent out a flat in Braga. Kindly let us know whether Japan also taxes that rent. Thanks, Ken.",
     ["Kindly let us know whether Japan also taxes that rent."]),
    # the same words telling what someone did ask nothing; a courtesy before a list introduces it
    ("O contabilista pediu que lhe indicassemos o NIF. Quem tributa a pensão?", ["Quem tributa a pensão?"]),
    ("Agradeceríamos que nos indicaran:\n1) ¿Quién grava el alquiler?\n2) ¿Y la venta del piso?",
     ["1) ¿Quién grava el alquiler?", "2) ¿Y la venta del piso?"]),
])
def test_a_request_made_of_a_courtesy_and_a_verb_of_telling_asks(text, asked):
    assert [s.text for s in asking(text)] == asked


@pytest.mark.parametrize("text, asked", [
    ("[09:14] oi, td bem?\n[09:15] tenho uma LCI no Brasil e moro em Braga\n[09:16] Portugal cobra IRS sobre os "
     "juros?", ["[09:16] Portugal cobra IRS sobre os juros?"]),
    ("10:02 hola, ¿qué tal?\n10:03 vivo en Málaga y cobro una pensión del INSS\n10:04 ¿quién la grava?",
     ["10:04 ¿quién la grava?"]),
])
def test_a_chats_time_stamp_does_not_turn_a_greeting_into_a_question(text, asked):
    assert [s.text for s in asking(text)] == asked


@pytest.mark.parametrize("text, asked", [
    # "another thing" before the facts of the question that follows it tells, it does not ask
    ("[14:03] ana: o imposto do selo, pagamos?\n[14:04] ana: outra coisa, a gente pensa em alugar o apê do Porto uns "
     "2 anos.\n[14:05] ana: Portugal cobra imposto desse aluguel?",
     ["[14:03] ana: o imposto do selo, pagamos?", "[14:05] ana: Portugal cobra imposto desse aluguel?"]),
    ("Vivo em Vigo. Otra cosa, mi hijo estudia en Coimbra con una beca de la Xunta. ¿Portugal grava la beca?",
     ["¿Portugal grava la beca?"]),
    # ... but asks when no question follows it, or when it opens a question itself
    ("Recebo a pensão do INSS em Lisboa. E outra coisa, o meu contador falou pra eu continuar pagando o INSS.",
     ["E outra coisa, o meu contador falou pra eu continuar pagando o INSS."]),
    ("Quem tributa a pensão? Outra coisa, quem tributa o aluguel do apartamento? Obrigada",
     ["Quem tributa a pensão?", "Outra coisa, quem tributa o aluguel do apartamento?"]),
])
def test_another_thing_before_the_facts_of_a_question_tells_them(text, asked):
    assert [s.text for s in asking(text)] == asked


@pytest.mark.parametrize("text, asked", [
    # a label that opens the story states; the questions are the sentences with their marks
    ("Consulta: vivo en Bilbao y alquilo un piso en Recife a una familia brasileña. ¿Puede Brasil gravar el alquiler? "
     "¿Cómo evito pagar dos veces?", ["¿Puede Brasil gravar el alquiler?", "¿Cómo evito pagar dos veces?"]),
    ("Pergunta: reformado da função pública, moro em Natal. Quem tributa a minha pensão da CGA?",
     ["Quem tributa a minha pensão da CGA?"]),
    # … but a label before a question asks, and so does one in a ticket with no question mark
    ("Consulta: ¿quién grava la pensión del INSS de un residente en Vigo?",
     ["Consulta: ¿quién grava la pensión del INSS de un residente en Vigo?"]),
    ("Consulta: dividendos de una Ltda de Curitiba cobrados por una SL de Madrid, retención máxima",
     ["Consulta: dividendos de una Ltda de Curitiba cobrados por una SL de Madrid, retención máxima"]),
    # a letter's opening courtesy and an offer of further help ask nothing
    ("Venho por este meio solicitar um esclarecimento. Sou reformada da Segurança Social e vou viver para Recife. O "
     "Brasil pode tributar a minha pensão? Fico à disposição.", ["O Brasil pode tributar a minha pensão?"]),
    ("¿Cuánto retiene Brasil sobre los cánones? Quedamos a su disposición para cualquier aclaración.",
     ["¿Cuánto retiene Brasil sobre los cánones?"]),
])
def test_a_labelled_story_or_a_courtesy_asks_nothing_beside_marked_questions(text, asked):
    assert [s.text for s in asking(text)] == asked


@pytest.mark.parametrize("text, asked", [
    # a colleague asked to answer, after the questions or before them, asks nothing itself
    ("Client lives in Porto and gets an INSS pension. Who taxes it? Can someone answer her by Friday?",
     ["Who taxes it?"]),
    ("Joana, consegues ver isto antes de sexta? O cliente mora em Braga e recebe royalties do Japão. Quanto retém o "
     "Japão?", ["Quanto retém o Japão?"]),
    ("Compi, ¿le contestas tú? Vive en Vigo y cobra una pensión del INSS: ¿quién la grava?",
     ["Vive en Vigo y cobra una pensión del INSS: ¿quién la grava?"]),
    ("Could you help me with two points? My wife lives in Osaka with a Portuguese pension. Which country taxes it? "
     "And do I file anything in Lisbon?", ["Which country taxes it?", "And do I file anything in Lisbon?"]),
    ("Caros colegas, alguém já teve um caso destes? Um reformado da CGA mudou-se para Curitiba. Quem tributa a "
     "pensão?", ["Quem tributa a pensão?"]),
    # … unless it goes on to ask the question itself
    ("Moro em Lisboa e recebo a pensão do INSS. Podem responder se o Brasil pode tributar a pensão? E o aluguel?",
     ["Podem responder se o Brasil pode tributar a pensão?", "E o aluguel?"]),
])
def test_a_colleague_asked_to_answer_the_ticket_is_no_question(text, asked):
    assert [s.text for s in asking(text)] == asked


def test_a_story_sentence_that_opens_like_a_question_does_not_ask_before_a_list_a_request_introduces():
    text = ("Mudei-me para Lisboa em fevereiro. Continuo a trabalhar para a mesma empresa de São Paulo, que me paga "
            "no Brasil. Gostaria de saber duas coisas:\n- se o Brasil ainda pode tributar o meu ordenado;\n"
            "- e se tenho de me inscrever na Segurança Social.")
    assert [s.text for s in asking(text)] == ["- se o Brasil ainda pode tributar o meu ordenado;",
                                            "- e se tenho de me inscrever na Segurança Social."]


def test_lexicon_features_tell_the_asking_sentence_from_the_context():
    text = "Trabalho em Braga há 5 meses. Quem tributa os dividendos da empresa brasileira?"
    index = _label_index()
    width = len(index)
    vec = lexicon_features(text, "Quem tributa os dividendos da empresa brasileira?")
    assert vec[index["dividends"]] == 1.0 and vec[width + index["dividends"]] == 0.0
    assert vec[index["employment"]] == 0.0 and vec[width + index["employment"]] == 1.0


def test_sentences_on_one_topic_make_one_part_and_a_close_second_topic_is_kept():
    text = "Vivo no Porto. Quanto retém o Brasil nos juros? E a que taxa? E o IVA da fatura?"
    model = ScriptedTopics({"Quanto retém o Brasil nos juros?": (("interest", 0.5), ("dividends", 0.5 - CLOSE / 2)),
                      "E a que taxa?": (("royalties", FOLLOW_UP - 0.05), ("interest", FOLLOW_UP - 0.06)),
                      "E o IVA da fatura?": (("out_of_scope", 0.9), ("interest", 0.05))})
    parts = read_parts(text, model)
    assert [p.topic for p in parts] == ["interest", "out_of_scope"]
    assert parts[0].runner_up == ("dividends", pytest.approx(0.5 - CLOSE / 2)) and parts[1].runner_up is None
    assert parts[0].question.text == "Quanto retém o Brasil nos juros?"
    assert out_of_scope_code(text, parts[1]) == "vat"
    assert out_of_scope_code("Pergunta?", PartTopic(asking("Pergunta?")[0], "out_of_scope", 0.9)) == "other"


@pytest.mark.parametrize("text, first, second", [
    ("Qual a taxa no Brasil e como evito a dupla tributação?", "Qual a taxa no Brasil",
     "como evito a dupla tributação?"),
    ("¿Cuánto retiene España y cómo lo deduzco en Brasil?", "¿Cuánto retiene España", "cómo lo deduzco en Brasil?"),
    ("What is the cap, and can I get a credit at home?", "What is the cap", "can I get a credit at home?"),
    # "and then": the second question is what happens next, at home
    ("Os dividendos pagam quanto em Portugal e depois aqui no Brasil pago de novo?",
     "Os dividendos pagam quanto em Portugal", "depois aqui no Brasil pago de novo?"),
    ("¿Cuánto retienen en Brasil y luego en España me lo descuentan?", "¿Cuánto retienen en Brasil",
     "luego en España me lo descuentan?"),
    # a second yes/no question on what is exempt
    ("¿Qué retención aplica Brasil a los dividendos y quedan exentos en España?",
     "¿Qué retención aplica Brasil a los dividendos", "quedan exentos en España?"),
    ("Quanto retém o Brasil sobre os dividendos e fica isento em Portugal?",
     "Quanto retém o Brasil sobre os dividendos", "fica isento em Portugal?"),
])
def test_a_second_question_joined_by_a_conjunction_is_a_part_of_its_own(text, first, second):
    model = ScriptedTopics({text: (("dividends", 0.6), ("double_taxation_relief", 0.3)),
                            first: (("dividends", 0.8),), second: (("double_taxation_relief", 0.9),)})
    parts = read_parts(text, model)
    assert [(p.topic, p.question.text) for p in parts] == [("dividends", first), ("double_taxation_relief", second)]
    assert all(text[p.question.start:p.question.end] == p.question.text for p in parts)


def test_a_conjunction_inside_one_question_does_not_split_it():
    text = "Quem tributa os juros e os dividendos do Brasil?"
    model = ScriptedTopics({text: (("interest", 0.6), ("dividends", 0.3))})
    assert [p.question.text for p in read_parts(text, model)] == [text]


EXAMPLES = [Example(f"{text} {k}", f"{text} {k}", topic, f"page-{topic}-{k}") for k in range(4) for topic, text in (
    ("dividends", "Quanto o Brasil retém nos dividendos da empresa?"),
    ("pensions", "Quem tributa a minha pensão de reforma do INSS?"),
    ("employment", "Trabalho em Braga há 5 meses, pago imposto sobre o salário onde?"))]


def test_the_model_is_fitted_for_real_and_ranks_the_topic_of_an_unseen_phrasing(tmp_path):
    model = TopicModel.fit(EXAMPLES)
    scores = model.score("Recebo uma pensão do INSS e moro em Coimbra. Quem tributa a pensão?",
                         "Quem tributa a pensão?")
    assert scores.topic == "pensions" and 0 < scores.confidence <= 1
    assert abs(sum(p for _, p in scores.ranked) - 1) < 1e-6
    cached = cached_model(EXAMPLES, tmp_path)
    again = cached_model(EXAMPLES, tmp_path)           # the second one comes from the cache file
    assert list((tmp_path / "topic_model").glob("*.joblib")) and again.score("a", "Quem tributa a pensão?").ranked == \
        cached.score("a", "Quem tributa a pensão?").ranked
    assert data_hash(EXAMPLES) != data_hash(EXAMPLES[:-1])


def test_parts_out_of_scope_because_of_another_treaty_teach_no_topic():
    ticket = Ticket.model_validate({
        "id": "tk-hand-0009", "text": "A nossa Lda. paga dividendos à mãe no Reino Unido. A que taxa retemos?",
        "language": "pt", "variant": "pt-PT", "style": "email", "source_url": "https://example.org/uk",
        "treaty": None, "parts": [{"question": "A que taxa retemos?", "topic": "out_of_scope",
                                   "out_of_scope": "other_treaty", "expected": {"outcome": "abstain"}}]})
    assert bank_examples([ticket]) == []


def test_one_sentence_asking_two_things_splits_at_the_conjunction_only_when_both_halves_are_sure():
    text = "Moro em Curitiba. Qual é o limite dos dividendos, e que formulário o banco precisa?"
    whole = "Qual é o limite dos dividendos, e que formulário o banco precisa?"
    sure = ScriptedTopics({whole: (("dividends", 0.6), ("out_of_scope", 0.3)),
                           "Qual é o limite dos dividendos": (("dividends", 0.9), ("interest", 0.05)),
                           "que formulário o banco precisa?": (("out_of_scope", 0.8), ("dividends", 0.1))})
    parts = read_parts(text, sure)
    assert [(p.topic, p.question.text) for p in parts] == [("dividends", "Qual é o limite dos dividendos"),
                                                           ("out_of_scope", "que formulário o banco precisa?")]
    assert all(text[p.question.start:p.question.end] == p.question.text for p in parts)
    unsure = ScriptedTopics({**sure.by_sentence, "que formulário o banco precisa?": (("out_of_scope", 0.4),
                                                                                      ("dividends", 0.3))})
    assert [p.topic for p in read_parts(text, unsure)] == ["dividends"]


@pytest.mark.parametrize("text, first, second", [
    ("Solicitamos nos indiquen, en primer lugar, si el sueldo del profesor invitado tributa en España, y, en segundo "
     "lugar, si su pensión del INSS tributa en Brasil.",
     "Solicitamos nos indiquen, en primer lugar, si el sueldo del profesor invitado tributa en España",
     "si su pensión del INSS tributa en Brasil."),
    ("Gostaríamos de saber, em primeiro lugar, se a bolsa da aluna é tributada em Portugal e, em segundo lugar, se a "
     "bolsa do irmão também o é.",
     "Gostaríamos de saber, em primeiro lugar, se a bolsa da aluna é tributada em Portugal",
     "se a bolsa do irmão também o é."),
])
def test_questions_counted_off_in_one_sentence_are_parts_even_on_one_topic(text, first, second):
    """"…, en primer lugar, si …, y, en segundo lugar, si …": the second counted question is a part of its own,
    whether or not its topic differs, when both are read surely; unsure halves stay one part."""
    topics = ("professors", "pensions") if text.startswith("Solicitamos") else ("students", "students")
    sure = ScriptedTopics({text: ((topics[0], 0.6), ("out_of_scope", 0.2)),
                           first: ((topics[0], 0.8), ("out_of_scope", 0.1)),
                           second: ((topics[1], 0.8), ("out_of_scope", 0.1))})
    assert [(p.topic, p.question.text) for p in read_parts(text, sure)] == [(topics[0], first), (topics[1], second)]
    unsure = ScriptedTopics({**sure.by_sentence, second: ((topics[1], 0.4), ("out_of_scope", 0.3))})
    assert len(read_parts(text, unsure)) == 1


@pytest.mark.parametrize("text, first, second", [
    ("Shall I expect Japan to withhold on my lecture fees, and do I then declare them again in Portugal?",
     "Shall I expect Japan to withhold on my lecture fees", "do I then declare them again in Portugal?"),
    ("Hi Marta, can the Spanish company deduct it, and does Brazil still tax the royalty there?",
     "Hi Marta, can the Spanish company deduct it", "does Brazil still tax the royalty there?"),
    ("Olá, quem retém o imposto sobre a renda da casa de Natal, e é preciso nomear um representante lá?",
     "Olá, quem retém o imposto sobre a renda da casa de Natal", "é preciso nomear um representante lá?"),
    ("Buenas, ¿quién grava mi pensión de Vigo, y hace falta presentar algo en Brasil?",
     "Buenas, ¿quién grava mi pensión de Vigo", "hace falta presentar algo en Brasil?"),
])
def test_a_second_yes_no_question_after_a_comma_is_a_part_even_on_one_topic(text, first, second):
    """"…, and do I then declare them again in Portugal?": a clause that opens a yes/no question of its own, after
    one that opens as a question (behind a greeting), is a part of its own on the same topic."""
    sure = ScriptedTopics({text: (("pensions", 0.6), ("out_of_scope", 0.2)),
                           first: (("pensions", 0.8), ("out_of_scope", 0.1)),
                           second: (("pensions", 0.7), ("out_of_scope", 0.1))})
    assert [p.question.text for p in read_parts(text, sure)] == [first, second]


@pytest.mark.parametrize("text, first, second", [
    # the first clause tells the story: the question is the sentence, as one part
    ("I taught in Osaka for a year, and will I owe tax in Portugal on it?", "I taught in Osaka for a year",
     "will I owe tax in Portugal on it?"),
    # the clause after the comma states, it does not ask
    ("Can Portugal tax my pension, and the company pays it monthly?", "Can Portugal tax my pension",
     "the company pays it monthly?"),
    # the other answer to the same question
    ("Is my nenkin taxed only where I live, or can Japan keep withholding on it?", "Is my nenkin taxed only where I "
     "live", "can Japan keep withholding on it?"),
])
def test_a_clause_that_tells_or_states_is_not_a_second_question(text, first, second):
    sure = ScriptedTopics({text: (("pensions", 0.6), ("out_of_scope", 0.2)),
                           first: (("pensions", 0.8), ("out_of_scope", 0.1)),
                           second: (("pensions", 0.7), ("out_of_scope", 0.1))})
    assert [p.question.text for p in read_parts(text, sure)] == [text]


@pytest.mark.parametrize("whole, clauses", [
    ("Juros pagos pela filial de Braga ao banco japonês: qual a retenção máxima, desde quando vale a convenção, e "
     "há imposto do selo?", ["Juros pagos pela filial de Braga ao banco japonês: qual a retenção máxima",
                             "desde quando vale a convenção", "há imposto do selo?"]),
    ("Royalties from our Recife licensee: what is the cap, how does Spain relieve it, and is there IOF?",
     ["Royalties from our Recife licensee: what is the cap", "how does Spain relieve it", "is there IOF?"]),
])
def test_a_list_of_questions_in_one_sentence_splits_at_each_comma_before_an_interrogative(whole, clauses):
    topics = ("interest", "entry_into_force", "out_of_scope") if whole.startswith("Juros") else \
        ("royalties", "double_taxation_relief", "out_of_scope")
    model = ScriptedTopics({whole: ((topics[0], 0.6), (topics[1], 0.3)),
                            **{c: ((t, 0.9),) for c, t in zip(clauses, topics)}})
    parts = read_parts(whole, model)
    assert [(p.topic, p.question.text) for p in parts] == list(zip(topics, clauses))


@pytest.mark.parametrize("whole, clauses", [
    ("juros da filial de aveiro ao banco de osaka: qual a retencao maxima, desde qdo vale a convencao, e tem imposto "
     "do selo?", ["juros da filial de aveiro ao banco de osaka: qual a retencao maxima", "desde qdo vale a convencao",
                  "tem imposto do selo?"]),
    ("royalties q pagamos a editora de madrid: qto o brasil pode reter, temos q pedir algum formulario, e vale o "
     "credito na espanha?", ["royalties q pagamos a editora de madrid: qto o brasil pode reter",
                            "temos q pedir algum formulario", "vale o credito na espanha?"]),
])
def test_a_phone_typed_list_of_questions_splits_at_its_shorthand_interrogatives(whole, clauses):
    """"desde qdo", "qto", "temos q": a phone's shorthand opens the next question of the list too."""
    topics = ("interest", "entry_into_force", "out_of_scope") if whole.startswith("juros") else \
        ("royalties", "out_of_scope", "double_taxation_relief")
    model = ScriptedTopics({whole: ((topics[0], 0.6), (topics[1], 0.3)),
                            **{c: ((t, 0.9),) for c, t in zip(clauses, topics)}})
    assert [(p.topic, p.question.text) for p in read_parts(whole, model)] == list(zip(topics, clauses))


def test_a_portuguese_o_after_a_comma_is_the_article_a_spanish_one_is_or():
    pt = "Moro em Braga. Nesse cenário, o Brasil continua a aplicar o limite aos dividendos?"
    whole = "Nesse cenário, o Brasil continua a aplicar o limite aos dividendos?"
    halves = {"Nesse cenário": (("anti_abuse", 0.9),), "Brasil continua a aplicar o limite aos dividendos?":
              (("dividends", 0.9),)}
    model = ScriptedTopics({whole: (("dividends", 0.6), ("anti_abuse", 0.3)), **halves})
    assert [p.question.text for p in read_parts(pt, model)] == [whole]
    es = "Vivo en Vigo. ¿Cuál es el tope de los dividendos, o qué formulario pide el banco?"
    first, second = "¿Cuál es el tope de los dividendos", "qué formulario pide el banco?"
    model = ScriptedTopics({es.split(". ", 1)[1]: (("dividends", 0.6), ("out_of_scope", 0.3)),
                            first: (("dividends", 0.9),), second: (("out_of_scope", 0.9),)})
    assert [p.question.text for p in read_parts(es, model)] == [first, second]


def test_a_question_is_read_without_the_tickets_other_questions():
    text = "Recebo dividendos do Brasil. Qual a retenção? E a CIDE?"
    assert context_of(text, "E a CIDE?", ["Qual a retenção?", "E a CIDE?"]) == \
        "Recebo dividendos do Brasil.   E a CIDE?"
    seen: list[tuple[str, str]] = []
    model = ScriptedTopics({"Qual a retenção?": (("dividends", 0.9),), "E a CIDE?": (("out_of_scope", 0.9),)})
    scores = model.scores
    model.scores = lambda pairs: seen.extend(pairs) or scores(pairs)    # type: ignore[method-assign]
    read_parts(text, model)
    assert ("Recebo dividendos do Brasil.   E a CIDE?", "E a CIDE?") in seen


def test_two_side_questions_on_different_things_are_two_parts():
    text = "Recebo juros do Brasil. Quanto retém o Brasil? E o IVA da fatura? E a herança da minha mãe?"
    model = ScriptedTopics({"Quanto retém o Brasil?": (("interest", 0.9), ("dividends", 0.05)),
                            "E o IVA da fatura?": (("out_of_scope", 0.8), ("interest", 0.1)),
                            "E a herança da minha mãe?": (("out_of_scope", 0.8), ("interest", 0.1))})
    parts = read_parts(text, model)
    assert [p.topic for p in parts] == ["interest", "out_of_scope", "out_of_scope"]
    assert [out_of_scope_code(text, p) for p in parts[1:]] == ["vat", "inheritance"]
    # the same side word, read unsurely: the same side question restated
    again = "Quanto retém o Brasil? E o IVA da fatura? E o IVA reduzido?"
    model = ScriptedTopics({"Quanto retém o Brasil?": (("interest", 0.9), ("dividends", 0.05)),
                            "E o IVA da fatura?": (("out_of_scope", 0.8), ("interest", 0.1)),
                            "E o IVA reduzido?": (("out_of_scope", SAME_TOPIC_KEPT - 0.1), ("interest", 0.1))})
    assert [p.topic for p in read_parts(again, model)] == ["interest", "out_of_scope"]


def test_a_second_sure_question_on_the_same_topic_is_its_own_part():
    text = "O meu pai recebe do INSS e mora no Porto. O Brasil pode tributar a pensão dele? E a da minha mãe, " \
           "que é de um fundo de pensões? E quanto retêm?"
    model = ScriptedTopics({"O Brasil pode tributar a pensão dele?": (("pensions", 0.95), ("employment", 0.02)),
                            "E a da minha mãe, que é de um fundo de pensões?": (("pensions", SAME_TOPIC_KEPT + 0.1),
                                                                                ("interest", 0.1)),
                            "E quanto retêm?": (("pensions", SAME_TOPIC_KEPT - 0.1), ("interest", 0.2))})
    parts = read_parts(text, model)
    assert [p.question.text for p in parts] == ["O Brasil pode tributar a pensão dele?",
                                                "E a da minha mãe, que é de um fundo de pensões?"]


def test_a_fairly_sure_second_question_on_the_topic_is_kept():
    """The SVM reader's probabilities are lower than the old reader's: a second question read at 0.4 on the
    part's topic asks about another payment ("¿Y por lo que gano en el bar?") and gets its own answer."""
    text = "Estudio en Río y mis padres me mandan dinero. ¿Brasil grava ese dinero? ¿Y lo que gano en el bar?"
    model = ScriptedTopics({"¿Brasil grava ese dinero?": (("students", 0.9), ("employment", 0.05)),
                            "¿Y lo que gano en el bar?": (("students", 0.4), ("employment", 0.35))})
    assert [p.question.text for p in read_parts(text, model)] == ["¿Brasil grava ese dinero?",
                                                                  "¿Y lo que gano en el bar?"]


@pytest.mark.parametrize("question, topic", [
    ("Who taxes my salary as a visiting professor?", "professors"),
    ("¿Y el sueldo que me paga la embajada de Brasil como funcionaria pública?", "government_service"),
    ("E o salário do meu trabalho na fábrica?", "employment"),          # no special article named: stays
])
def test_a_salary_question_naming_a_special_article_is_that_articles(question, topic):
    model = ScriptedTopics({question: (("employment", 0.7), ("professors", 0.2), ("students", 0.1))})
    parts = read_parts(question, model)
    assert [p.topic for p in parts] == [topic]
    assert parts[0].confidence == 0.7 and parts[0].runner_up is None


@pytest.mark.parametrize("text, topic", [
    ("Soy brasileño, vine a Sevilla a hacer el máster y trabajo de camarero los fines de semana para costear mis "
     "estudios. ¿Tengo que pagar impuestos en España por ese sueldo?", "students"),
    ("I'm a Brazilian student in Valencia with a part-time job to help pay for my studies. Does Spain tax my "
     "wages?", "students"),
    ("Soy brasileño, vivo en Sevilla y trabajo de camarero los fines de semana. ¿Tengo que pagar impuestos en "
     "España por ese sueldo?", "employment"),                       # no word of studies: a salary
])
def test_a_job_held_to_pay_the_studies_is_a_students(text, topic):
    question = text[text.index("¿") if "¿" in text else text.index("Does"):]
    model = ScriptedTopics({question: (("employment", 0.6), ("students", 0.3))})
    assert [p.topic for p in read_parts(text, model)] == [topic]


@pytest.mark.parametrize("question, out", [
    ("Is the UK State Pension taxable in Portugal or in the UK?", True),       # a country outside every treaty
    ("¿Y Francia puede gravarme por ser francesa la empresa?", True),
    ("Pelo acordo entre o Brasil e o Japão, quem tributa o ganho?", True),    # two States no treaty joins
    ("A reforma espanhola é tributada em Espanha ou em Portugal?", True),      # …without a treaty word
    ("Does Japan or Spain tax my royalties?", True),
    ("Segundo o MLI, a Espanha ou Portugal decide o meu caso?", False),       # the MLI may still answer
    # …named with a treaty word that is its own name, not another treaty's
    ("Que prazo de detenção exige o artigo 8.º da Convenção Multilateral a uma SL de Vigo sócia de uma Lda?", False),
    ("How long must a Madrid company hold its Portuguese shares under the Multilateral Convention's art. 8?", False),
    ("E pelo convénio entre Espanha e Portugal, aplicado com a Convenção Multilateral, qual a taxa?", True),
    ("As a US citizen living in Lisbon, who taxes my Brazilian dividends?", False),   # PT-BR named: covered
    ("O Japão pode tributar o meu salário?", False),
])
def test_a_question_about_a_treaty_outside_the_corpus_is_out_of_scope(question, out):
    text = f"Vivo em Lisboa e tenho rendimentos de fora. {question}"
    model = ScriptedTopics({question: (("pensions", 0.3), ("employment", 0.2))})
    parts = read_parts(text, model)
    assert [p.topic for p in parts] == ["out_of_scope" if out else "pensions"]
    assert (out_of_scope_code(text, parts[0]) == "other_treaty") is out


@pytest.mark.parametrize("text, ranked, topic", [
    # a profit question read as employment (crews, months on site) is the enterprise's: the next enterprise reading
    ("A nossa construtora vai ter uma obra de 7 meses em Santos. O Brasil pode tributar o lucro?",
     (("employment", 0.6), ("business_profits", 0.2)), "business_profits"),
    # none read: the PE's, when the ticket names a site
    ("Nuestra empresa monta una planta en Recife durante 8 meses, una obra grande. ¿Brasil grava los beneficios?",
     (("employment", 0.7), ("pensions", 0.1)), "permanent_establishment"),
    # a salary question stays employment, profit words or not
    ("A obra dura 7 meses em Santos. O Brasil tributa o salário que a empresa me paga com os lucros?",
     (("employment", 0.7), ("business_profits", 0.2)), "employment"),
])
def test_a_profit_question_is_not_one_of_employment(text, ranked, topic):
    asked = asking(text)[-1].text
    parts = read_parts(text, ScriptedTopics({asked: ranked}))
    assert [p.topic for p in parts] == [topic]


@pytest.mark.parametrize("text, asked", [
    # a request introduces a list of questions without question marks: each item asks
    ("A nossa SGPS detém 30% de uma Ltda. de Goiânia. Agradecemos que nos indiquem: (i) a taxa máxima sobre os "
     "dividendos; (ii) se há dedução em Portugal.",
     ["(i) a taxa máxima sobre os dividendos;", "(ii) se há dedução em Portugal."]),
    ("Tenemos dos dudas:\na) cuál es la retención sobre los intereses\nb) cómo se elimina la doble imposición",
     ["a) cuál es la retención sobre los intereses", "b) cómo se elimina la doble imposición"]),
    # courtesy that introduces the list ("grateful for your views on the following") asks through its items …
    ("Our client holds 40% of a Recife company. We would be grateful for your views on the following:\n"
     "1. the rate Brazil may withhold on the dividend\n2. the credit available in Portugal\nKind regards",
     ["1. the rate Brazil may withhold on the dividend", "2. the credit available in Portugal"]),
    ("Ficaríamos gratos pelo vosso parecer sobre o seguinte: a) a retenção sobre os juros; b) o crédito em "
     "Portugal.", ["a) a retenção sobre os juros;", "b) o crédito em Portugal."]),
    # … and in a closing asks nothing
    ("Vivo em Braga e recebo juros de um banco do Recife. Quem tributa os juros? Ficaria grato por uma resposta.",
     ["Quem tributa os juros?"]),
    # an item that tells what the question under it asks about is not a question of its own
    ("Please advise:\n1) Can Spain tax our fees from the Madrid client?\n2) We may hire a sales agent in Bilbao "
     "next year.\nWould Spain then tax part of our profit?",
     ["1) Can Spain tax our fees from the Madrid client?", "Would Spain then tax part of our profit?"]),
    # a subject line that asks restates the body's question; alone, it is the question
    ("Assunto: Pensão do INSS em Portugal?\n\nBoa tarde, recebo a aposentadoria do INSS e mudei-me para Faro. "
     "Quem tributa a pensão?", ["Quem tributa a pensão?"]),
    ("Subject: Japanese pension taxed in Portugal?\n\nThanks, Ken", ["Subject: Japanese pension taxed in Portugal?"]),
    # a list of facts is not a list of questions
    ("Dados do caso:\n- comprei em 2019\n- vendi em 2024 por 300 mil.\nQuem tributa a mais-valia?",
     ["Quem tributa a mais-valia?"]),
    # an item's mark "1." before a capital is the item's, not a sentence of its own
    ("We would appreciate your view on:\n1. Whether Spain may tax the gain on the flat.\n2. How Brazil relieves "
     "the Spanish tax.\nBest, Ana", ["1. Whether Spain may tax the gain on the flat.",
                                     "2. How Brazil relieves the Spanish tax."]),
    # items that open with "se" under an intro that thanks in advance; the sentence that points at them asks
    # nothing itself
    # "consulta" names the question only as a label; a dentist's practice is no request
    ("Soy dentista y tengo la consulta en Vigo. Consulta: ¿Brasil grava lo que cobro allí? Gracias",
     ["Consulta: ¿Brasil grava lo que cobro allí?"]),
    ("Sou dentista e tenho consultório em Braga; a minha consulta abre às nove. Pergunta: quem tributa os "
     "honorários do Recife.", ["Pergunta: quem tributa os honorários do Recife."]),
    ("Escrevo-vos sobre o seguinte. Agradecíamos que nos informassem:\na) se Portugal pode reter imposto sobre o "
     "cachê;\nb) se há IVA.", ["a) se Portugal pode reter imposto sobre o cachê;", "b) se há IVA."]),
])
def test_items_of_a_list_of_questions_each_ask(text, asked):
    assert [s.text for s in asking(text)] == asked


@pytest.mark.parametrize("text, topic", [
    # Spanish "funcionaria" names the civil servant's article; Portuguese "funcionário" is any employee
    ("Soy funcionaria del Ministerio destinada en São Paulo. ¿Puede Brasil gravar mi sueldo de funcionaria?",
     "government_service"),
    ("Sou funcionário de uma empresa de Lisboa e vou 3 meses para o Rio. O Brasil tributa o meu salário de "
     "funcionário?", "employment"),
])
def test_a_civil_servants_salary_question_is_government_service(text, topic):
    asked = asking(text)[-1].text
    parts = read_parts(text, ScriptedTopics({asked: (("employment", 0.7), ("pensions", 0.1))}))
    assert [p.topic for p in parts] == [topic]


@pytest.mark.parametrize("text, topic", [
    # the employer is a State's (a city hall, a consulate, a ministry's school): the salary is government service
    ("Trabalho para a Prefeitura de Recife, em teletrabalho desde Braga. Quem tributa o meu salário?",
     "government_service"),
    ("I'm local staff at the Spanish consulate in São Paulo. Who taxes my pay?", "government_service"),
    # a teacher hired by a city's board of education for its public schools
    ("My brother, Portuguese, was hired by the Nagoya board of education to teach English in its public schools. "
     "Who taxes his pay?", "government_service"),
    # a private employer named too: the salary may be that one's
    ("Eu sou militar e a minha mulher dá aulas numa escola privada no Rio. Quem tributa o salário dela?",
     "employment"),
    ("Trabalho numa fábrica de Setúbal e vou 3 meses ao Rio. Quem tributa o meu salário?", "employment"),
    ("The Sendai board of education offered me a post, but I took the one at a private language school in Sendai. "
     "Who taxes my salary?", "employment"),
])
def test_a_salary_paid_by_a_public_employer_is_government_service(text, topic):
    asked = asking(text)[-1].text
    parts = read_parts(text, ScriptedTopics({asked: (("employment", 0.7), ("pensions", 0.1))}))
    assert [p.topic for p in parts] == [topic]


@pytest.mark.parametrize("text, topic", [
    # where a company's decisions are taken, and a residence claimed by both: art. 4's last paragraph
    ("A nossa Lda de Aveiro é gerida de facto a partir de Campinas: os dois gerentes vivem lá e as reuniões "
     "fazem-se lá. As Finanças e a Receita consideram-na residente. Como fica?", "residence"),
    ("Our Tokyo KK holds all its board meetings in Lisbon, where both directors live; both countries treat it "
     "as resident. What now?", "residence"),
    # a company of a country no treaty joins stays out of scope
    ("Os administradores de uma sociedade francesa vivem no Porto e tomam as decisões cá. Fica residente em "
     "Portugal?", "out_of_scope"),
    # no decisions named: nothing to decide on
    ("Sou residente em Portugal e tenho uma Lda; que taxa de IRC pago?", "out_of_scope"),
])
def test_a_company_managed_in_one_state_and_claimed_as_resident_asks_the_tie_breaker(text, topic):
    asked = asking(text)[-1].text
    parts = read_parts(text, ScriptedTopics({asked: (("out_of_scope", 0.6), ("residence", 0.2))}))
    assert [p.topic for p in parts] == [topic]


@pytest.mark.parametrize("text, topic", [
    # working for oneself said outright: fees, not a salary
    ("Sou tradutora com recibos verdes em Braga e um cliente de São Paulo paga-me todos os meses. O Brasil pode "
     "tributar?", "independent_services"),
    ("I'm a self-employed designer in Valencia billing a Brazilian client by invoice. Can Brazil tax what it "
     "pays me?", "independent_services"),
    # an employment contract named too: the salary reading stays
    ("Sou autônoma mas agora tenho contrato de trabalho com uma empresa de Lisboa. Quem tributa?", "employment"),
])
def test_work_for_oneself_is_not_a_salary(text, topic):
    asked = asking(text)[-1].text
    parts = read_parts(text, ScriptedTopics({asked: (("employment", 0.7), ("pensions", 0.1))}))
    assert [p.topic for p in parts] == [topic]


@pytest.mark.parametrize("text, read, topic", [
    # the question asks when the treaty applies, whatever income it names
    ("A empresa de Campinas pagou dividendos a um sócio de Lisboa em 2001. A convenção já valia para esse "
     "pagamento?", "dividends", "entry_into_force"),
    ("Pagamos intereses a un banco de Oporto. ¿A partir de qué fecha se aplica el convenio a esas retenciones?",
     "interest", "entry_into_force"),
    # a deadline "counted from when" is the mutual agreement's
    ("Qual é o prazo do procedimento amigável contado a partir de quando?", "mutual_agreement",
     "mutual_agreement"),
])
def test_a_question_on_when_the_treaty_applies_is_its_entry_into_force(text, read, topic):
    asked = asking(text)[-1].text
    parts = read_parts(text, ScriptedTopics({asked: ((read, 0.7), ("pensions", 0.1))}))
    assert [p.topic for p in parts] == [topic]


def _topic_vectors(examples):
    """A fake embedding model that knows each training question's topic: a one-hot vector per topic, and for
    "xyzzy" (a word no n-gram was fitted on) the pensions vector."""
    from ingest.embedding_cache import QueryVectors

    topics = sorted({e.topic for e in examples})
    of = {e.question: e.topic for e in examples} | {"xyzzy": "pensions"}

    def embed(texts):
        return [[1.0 if of.get(t) == topic else 0.0 for topic in topics] for t in texts]
    return QueryVectors(embed, embed, "sha256:fake")


def test_with_an_embedding_model_the_asking_sentences_vector_is_read_too(tmp_path):
    """Words the n-grams never saw: the query vector decides (the real model's vectors carry the meaning)."""
    vectors = _topic_vectors(EXAMPLES)
    with_vectors = TopicModel.fit(EXAMPLES, vectors)
    read = dict(with_vectors.score("xyzzy", "xyzzy").ranked)
    unread = dict(TopicModel.fit(EXAMPLES).score("xyzzy", "xyzzy").ranked)
    assert max(read, key=read.get) == "pensions" and read["pensions"] > unread["pensions"] + 0.2
    without_embedder = TopicModel(with_vectors.classifier, with_vectors.features)
    with pytest.raises(ValueError, match="embeddings"):
        without_embedder.score("xyzzy", "xyzzy")


def test_a_model_fitted_with_vectors_is_cached_apart_from_one_fitted_without(tmp_path):
    vectors = _topic_vectors(EXAMPLES)
    cached_model(EXAMPLES, tmp_path)
    loaded = cached_model(EXAMPLES, tmp_path, vectors)
    assert len(list((tmp_path / "topic_model").glob("*.joblib"))) == 2
    again = cached_model(EXAMPLES, tmp_path, vectors)      # from its file, with the live embedder attached
    assert again.embed is vectors.embed_live and again.score("xyzzy", "xyzzy").topic == "pensions"
    assert loaded.score("xyzzy", "xyzzy").ranked == again.score("xyzzy", "xyzzy").ranked


@pytest.mark.parametrize("text, asked", [
    ("oii, tudo bem? moro em Braga e recebo a aposentadoria do INSS. Quem cobra o imposto?",
     ["Quem cobra o imposto?"]),
    ("Buenas, ¿qué tal? Vivo en Vigo y cobro una pensión de Brasil. ¿Dónde tributa?", ["¿Dónde tributa?"]),
    ("Hi everyone, how are you doing? I rent out a flat in Osaka. Can Japan tax the rent?",
     ["Can Japan tax the rent?"]),
    # a question about the tax is asked, whatever words it shares with small talk
    ("Tudo bem com a retenção de 15%? Ou o Brasil devia reter menos?",
     ["Tudo bem com a retenção de 15%?", "Ou o Brasil devia reter menos?"]),
])
def test_small_talk_with_a_question_mark_asks_nothing(text, asked):
    from assistant.ticket_query import asking_sentences

    assert [s.text for s in asking(text)] == asked
    assert list(asking_sentences(text)) == asked


def test_a_numbered_question_after_a_full_stop_starts_a_sentence_in_a_ticket_typed_without_capitals():
    from assistant.ticket_query import asking_sentences

    text = ("moro em faro e dou aulas de ingles online. a escola de campinas retem 15% (diz q e a lei). "
            "1) o brasil pode reter isso? 2) e em portugal eu desconto o que foi retido?")
    asked = ["1) o brasil pode reter isso?", "2) e em portugal eu desconto o que foi retido?"]
    assert [s.text for s in asking(text)] == asked
    assert list(asking_sentences(text)) == asked


@pytest.mark.parametrize("first, second, side", [
    ("Recebo a reforma da CGA e vivo em Salvador desde 2022; o Brasil tributa essa pensão?",
     "E há imposto sobre heranças no Brasil?", "inheritance"),
    ("Cobro una pensión del INSS y vivo en Málaga. ¿España puede gravarla?",
     "¿Y hasta cuándo tengo que enviar la fe de vida?", "procedure"),
    ("I live in Porto and rent out a flat in Recife. Can Brazil tax the rent?", "What about the IPTU?",
     "wealth_property_tax"),
    # the home return itself: where a line goes, which form
    ("Faço doutorado em Lisboa com bolsa da CAPES. Portugal pode tributar a bolsa?",
     "E tenho de pôr a bolsa na minha declaração do Brasil como isenta?", "procedure"),
    ("Cobro una pensión privada de Brasil y vivo en Vigo. ¿Brasil puede gravarla?",
     "¿Y qué modelo presento en Hacienda?", "procedure"),
])
def test_a_question_naming_only_a_side_matter_is_out_of_scope_whatever_the_ticket_is_about(first, second, side):
    text = f"{first} {second}"
    topic = "immovable_property" if "rent" in first else "pensions"
    asked = [a.text for a in asking(text)]
    model = ScriptedTopics({q: ((topic, 0.7), ("out_of_scope", 0.2)) if q == second else ((topic, 0.9),)
                            for q in asked})
    parts = read_parts(text, model)
    assert [p.topic for p in parts] == [topic, "out_of_scope"]
    assert out_of_scope_code(text, parts[1]) == side


def test_a_side_word_beside_a_treaty_topic_word_keeps_the_treaty_question():
    text = "Vivo em Braga e recebo um salário da União. Portugal pode tributar? E ponho-o no anexo J para " \
           "abater o imposto pago no Brasil?"
    asked = [a.text for a in asking(text)]
    model = ScriptedTopics({q: (("double_taxation_relief", 0.6), ("out_of_scope", 0.3)) if "abater" in q
                            else (("government_service", 0.9),) for q in asked})
    assert "double_taxation_relief" in [p.topic for p in read_parts(text, model)]


@pytest.mark.parametrize("text, ranked, topics", [
    # a rate question that names no income asks the cap of the income the part before it named
    ("Alugamos gruas a um cliente de Manaus. Isto conta como royalties? E quanto pode reter o Brasil?",
     {"Isto conta como royalties?": (("royalties", 0.8), ("immovable_property", 0.1)),
      "E quanto pode reter o Brasil?": (("dividends", 0.7), ("royalties", 0.2))},
     ["royalties", "royalties"]),
    # naming its own income, it is that income's question
    ("Recebo royalties e dividendos de Campinas. Quanto retém o Brasil nos royalties? E nos dividendos?",
     {"Quanto retém o Brasil nos royalties?": (("royalties", 0.8), ("dividends", 0.1)),
      "E nos dividendos?": (("dividends", 0.7), ("royalties", 0.2))},
     ["royalties", "dividends"]),
])
def test_a_rate_question_naming_no_income_asks_about_the_income_before_it(text, ranked, topics):
    assert [p.topic for p in read_parts(text, ScriptedTopics(ranked))] == topics


@pytest.mark.parametrize("text", ["Alugamos equipamento: o aluguer de equipamento paga retenção no Brasil?",
                                  "¿Cuánto retiene Brasil por el alquiler de equipos?",
                                  "Does Brazil withhold on equipment rental?"])
def test_the_rent_of_equipment_names_royalties(text):
    from assistant.lexicon.text import tokenize
    from assistant.understand.language import detect_language
    from assistant.understand.topics import topic_matches

    assert "royalties" in {m.value for m in topic_matches(tokenize(text), detect_language(text))}


@pytest.mark.parametrize("text, denied, kept", [
    ("Sou programadora em Évora com contrato de trabalho, não sou freelancer, e a empresa é de Recife. O Brasil "
     "tributa o meu ordenado?", "independent_services", "employment"),
    ("No tenemos establecimiento permanente en Brasil. ¿Puede Brasil gravar nuestros beneficios empresariales?",
     "permanent_establishment", "business_profits"),
    ("I'm not a freelancer: I'm employed by a Lisbon firm and paid a salary. Can Japan tax it?",
     "independent_services", "employment"),
    # Portuguese "no" is "in the": no denial
    ("Tenho um estabelecimento estável no Brasil. Os lucros pagam imposto lá?", None, "permanent_establishment"),
    # the relief is asked with a negation
    ("O Brasil reteve imposto sobre o meu ordenado. A AT desconta-o para eu não pagar duas vezes?", None,
     "double_taxation_relief"),
])
def test_a_topic_word_a_negation_denies_names_no_topic(text, denied, kept):
    from assistant.lexicon.text import tokenize
    from assistant.understand.language import detect_language
    from assistant.understand.topics import topic_matches

    named = {m.value for m in topic_matches(tokenize(text), detect_language(text))}
    assert kept in named and denied not in named


@pytest.mark.parametrize("text, side", [
    ("Vou viver para Faro com a aposentadoria do INSS. Quem tributa a aposentadoria? E continuo a descontar para a "
     "Segurança Social?", "E continuo a descontar para a Segurança Social?"),
    ("I retire to Porto with my Spanish pension. Who taxes the pension? Do I still owe Spanish social security "
     "contributions?", "Do I still owe Spanish social security contributions?"),
])
def test_a_side_phrase_holding_a_topic_word_is_still_the_side_question(text, side):
    first = asking(text)[0].text
    parts = read_parts(text, ScriptedTopics({first: (("pensions", 0.9), ("residence", 0.05)),
                                             side: (("pensions", 0.6), ("out_of_scope", 0.3))}))
    assert [p.topic for p in parts] == ["pensions", "out_of_scope"]


@pytest.mark.parametrize("text, follow_up", [
    ("Vendi um terreno em Sintra e moro em Belo Horizonte. Portugal pode tributar o ganho? E o Brasil?", "E o Brasil?"),
    ("Cobro dividendos de una sociedad de Vigo y vivo en Recife. ¿España puede retener? ¿Y en Brasil?",
     "¿Y en Brasil?"),
    ("My Brazilian pension is paid by INSS and I live in Osaka. Can Brazil tax it? What about Japan?",
     "What about Japan?"),
])
def test_a_follow_up_naming_only_a_country_asks_the_part_before_it_again(text, follow_up):
    first = asking(text)[0].text
    parts = read_parts(text, ScriptedTopics({first: (("capital_gains", 0.9), ("dividends", 0.05)),
                                             follow_up: (("employment", 0.4), ("capital_gains", 0.3))}))
    assert [p.topic for p in parts] in (["capital_gains"], ["capital_gains", "capital_gains"])


@pytest.mark.parametrize("text, follow_up, topic", [
    ("A nossa sociedade de Braga licencia uma patente a uma empresa de Natal. Quanto retém o Brasil? E por uma "
     "marca?", "E por uma marca?", "royalties"),
    ("Una empresa de Sevilla cobra cánones de patente de Brasil. ¿Cuál es la retención máxima? ¿Y por el "
     "know-how?", "¿Y por el know-how?", "royalties"),
    ("I sold shares in a Brazilian company and I live in Porto. Can Brazil tax the gain? What about a flat?",
     "What about a flat?", "capital_gains"),
])
def test_a_follow_up_naming_only_another_kind_asks_the_part_before_for_that_kind(text, follow_up, topic):
    first = asking(text)[0].text
    parts = read_parts(text, ScriptedTopics({first: ((topic, 0.9), ("residence", 0.05)),
                                             follow_up: (("out_of_scope", 0.6), ("interest", 0.3))}))
    assert [p.topic for p in parts] == [topic, topic]


@pytest.mark.parametrize("text, what_if, read", [
    ("Vou trabalhar 100 dias em Manaus para a minha empresa de Viseu, que me paga cá. O Brasil tributa o salário? "
     "E se o projeto se atrasar e eu ficar lá 8 meses, muda alguma coisa?",
     "E se o projeto se atrasar e eu ficar lá 8 meses, muda alguma coisa?", "employment"),
    ("Mi empresa de Bilbao me envía tres meses a Salvador y sigo cobrando en España. ¿Puede Brasil gravar mi "
     "sueldo? ¿Y si al final me quedo nueve meses?", "¿Y si al final me quedo nueve meses?", "employment"),
    ("My Porto employer is sending me to Nagoya for 90 days. Can Japan tax my salary? What if the project slips "
     "and I end up staying 7 months?", "What if the project slips and I end up staying 7 months?", "employment"),
    # a supposition on a side matter stays one
    ("My Porto employer is sending me to Nagoya for 90 days. Can Japan tax my salary? What if I stay longer, do I "
     "pay Japanese social security contributions?",
     "What if I stay longer, do I pay Japanese social security contributions?", "out_of_scope"),
])
def test_a_supposition_naming_no_topic_asks_the_part_before_it_again(text, what_if, read):
    first = asking(text)[0].text
    parts = read_parts(text, ScriptedTopics({first: (("employment", 0.9), ("residence", 0.05)),
                                             what_if: (("permanent_establishment", 0.45), ("out_of_scope", 0.4))}))
    assert [p.topic for p in parts] == ["employment", read]


def test_a_foreign_tax_credit_is_relief_not_a_tax_offices_form():
    from assistant.lexicon import topics
    from assistant.lexicon.text import tokenize
    from assistant.understand.topics import topic_matches

    tokens = tokenize("Can we claim a foreign tax credit in Spain for the tax Brazil withheld?")
    assert not topics().out_of_scope.find(tokens)
    assert "double_taxation_relief" in {m.value for m in topic_matches(tokens, "en")}


@pytest.mark.parametrize("text, asked, topics", [
    # one question on each of the incomes the ticket names: one part per income
    ("Vivo em Faro e recebo dividendos e juros de Campinas. Qual o teto no Brasil para cada um?",
     "Qual o teto no Brasil para cada um?", ["dividends", "interest"]),
    ("Our Lisbon company gets interest and royalties from Recife. What's the Brazilian cap on each?",
     "What's the Brazilian cap on each?", ["interest", "royalties"]),
    # without "each", the question's own income
    ("Vivo em Faro e recebo dividendos e juros de Campinas. Qual o teto no Brasil para os dividendos?",
     "Qual o teto no Brasil para os dividendos?", ["dividends"]),
])
def test_a_question_on_each_income_is_one_part_per_income(text, asked, topics):
    first = "interest" if topics[0] == "interest" else "dividends"
    parts = read_parts(text, ScriptedTopics({asked: ((first, 0.8), ("pensions", 0.1))}))
    assert [p.topic for p in parts] == topics


def test_a_supposition_the_model_reads_surely_keeps_its_own_topic():
    """"Si pago en España, ¿Brasil me deja descontar ese impuesto?" is a relief question the model reads surely."""
    text = ("Vendí un piso en Recife y vivo en Málaga. ¿Puede Brasil gravar la ganancia? Si pago en España, "
            "¿Brasil me deja descontar ese impuesto?")
    first, second = (s.text for s in asking(text))
    parts = read_parts(text, ScriptedTopics({first: (("capital_gains", 0.9), ("residence", 0.05)),
                                             second: (("double_taxation_relief", 0.8), ("capital_gains", 0.1))}))
    assert [p.topic for p in parts] == ["capital_gains", "double_taxation_relief"]


@pytest.mark.parametrize("question, ranked, topic", [
    ("E se as Finanças me cobrarem na mesma, posso pedir que a Receita resolva com o fisco português?",
     (("students", 0.6), ("mutual_agreement", 0.3)), "mutual_agreement"),
    ("¿Y si Hacienda se equivoca, podemos llevar el caso a un arbitraje?",
     (("artistes_sportsmen", 0.7), ("arbitration", 0.2)), "arbitration"),
    # the tax office asked to take it up with the other State, in the writer's words
    ("If Brazil keeps taxing it, could the Portuguese office take it up with Brazil?",
     (("students", 0.6), ("mutual_agreement", 0.3)), "mutual_agreement"),
    ("se o Brasil insistir, posso pedir pras Finanças resolverem com a Receita?",
     (("students", 0.6), ("mutual_agreement", 0.3)), "mutual_agreement"),
    # a reading as the other procedure, or as a domestic matter, stands
    ("If the MAP fails, when can the case go to arbitration?", (("arbitration", 0.8),), "arbitration"),
    ("Qual o prazo para apresentar reclamação graciosa?", (("out_of_scope", 0.8),), "out_of_scope"),
    # an income named beside the procedure: the model decides
    ("And if both countries tax the royalties, can we ask the competent authorities?",
     (("royalties", 0.9),), "royalties"),
])
def test_a_question_naming_only_a_treaty_procedure_asks_it(question, ranked, topic):
    """A story about a grant or a tour, and a question whose own words name only the mutual agreement
    procedure or arbitration: the question asks that procedure."""
    text = f"Sou brasileira e faço doutoramento no Porto com uma bolsa da CAPES. {question}"
    assert [p.topic for p in read_parts(text, ScriptedTopics({question: ranked}))] == [topic]


@pytest.mark.parametrize("text, asked", [
    # typed without capitals: a full stop after a word ends a sentence, so the question stands alone
    ("ola, tenho uma duvida urgente. mudei-me para aveiro em abril com a familia. desde abril sou residente de onde?",
     ["desde abril sou residente de onde?"]),
    # not after an abbreviation or a short word, nor inside a rate per year
    ("a Metalomecânica Lda. em Braga cobra juros de 7% a.a. sobre o saldo. qual a retenção no Brasil?",
     ["qual a retenção no Brasil?"]),
])
def test_a_ticket_typed_without_capitals_asks_in_its_own_sentence(text, asked):
    assert [s.text for s in asking(text)] == asked


def test_a_lower_case_full_stop_keeps_abbreviations_and_short_words_inside_the_sentence():
    text = "o Dpto. comercial da empresa vende 5% a.a. de juros etc. e pronto. fim"
    assert [s.text for s in sentences(text)] == ["o Dpto. comercial da empresa vende 5% a.a. de juros etc. e pronto.",
                                                 "fim"]
    text = "leciono na Univ. de Coimbra desde sept. de 2024 e recebo bolsa. quem tributa"
    assert [s.text for s in sentences(text)] == ["leciono na Univ. de Coimbra desde sept. de 2024 e recebo bolsa.",
                                                 "quem tributa"]


def test_an_item_of_a_list_needs_a_space_after_a_full_stop():
    # "8% a.a. sobre" is no list item "a." after a full stop; "…no exterior. b) qual…" is one
    assert [s.text for s in sentences("juros de 8% a.a. sobre as parcelas")] == ["juros de 8% a.a. sobre as parcelas"]
    assert [s.text for s in sentences("trabalho no exterior. b) qual a taxa")] == ["trabalho no exterior.",
                                                                                   "b) qual a taxa"]


@pytest.mark.parametrize("text, asked", [
    # a sentence that points at the questions below asks nothing of its own
    ("Could you look at the questions below for our finance director?\n1) What may Japan withhold on the royalty?\n"
     "2) How does Portugal give the credit?",
     ["1) What may Japan withhold on the royalty?", "2) How does Portugal give the credit?"]),
    ("¿Podéis revisar las preguntas de abajo? ¿Qué retiene Brasil sobre los intereses?",
     ["¿Qué retiene Brasil sobre los intereses?"]),
    # alone, it is still the question
    ("Can you answer the below?", ["Can you answer the below?"]),
])
def test_a_sentence_pointing_at_the_questions_below_asks_nothing(text, asked):
    assert [s.text for s in asking(text)] == asked


@pytest.mark.parametrize("text, ranked, topic", [
    # a question naming no topic, read unsure, asks about the sentence before it when the model ranks it
    ("A Receita quer rever os preços de transferência entre a nossa subsidiária de Manaus e a sociedade-mãe em Aveiro. "
     "A convenção permite isso?", (("mutual_agreement", 0.25), ("associated_enterprises", 0.2)),
     "associated_enterprises"),
    # read surely, it stands
    ("A Receita quer rever os preços de transferência entre a nossa subsidiária de Manaus e a sociedade-mãe em Aveiro. "
     "A convenção permite isso?", (("mutual_agreement", 0.6), ("associated_enterprises", 0.2)), "mutual_agreement"),
    # a topic the model does not rank among its first three stands
    ("A Receita quer rever os preços de transferência entre a nossa subsidiária de Manaus e a sociedade-mãe em Aveiro. "
     "A convenção permite isso?", (("mutual_agreement", 0.25), ("pensions", 0.2), ("royalties", 0.1),
                                   ("interest", 0.05), ("associated_enterprises", 0.04)), "mutual_agreement"),
])
def test_an_unsure_question_naming_no_topic_asks_about_the_sentence_before(text, ranked, topic):
    asked = asking(text)[-1].text
    assert [p.topic for p in read_parts(text, ScriptedTopics({asked: ranked}))] == [topic]


@pytest.mark.parametrize("text", [
    "I teach Portuguese at a university in Osaka as a Camões lecturer; my pay comes from Lisbon. Can Japan tax it?",
    "Trabajo como profesora en el Instituto Cervantes de São Paulo y cobro de Madrid. ¿Brasil grava mi sueldo?",
])
def test_pay_from_a_states_language_institute_is_government_service(text):
    asked = asking(text)[-1].text
    parts = read_parts(text, ScriptedTopics({asked: (("employment", 0.7), ("professors", 0.2))}))
    assert [p.topic for p in parts] == ["government_service"]


@pytest.mark.parametrize("text, topic", [
    # a tax no treaty covers, on an income the question names: out of scope
    ("A nossa empresa de Braga emprestou dinheiro a uma Ltda. de Natal. O IOF sobre a remessa dos juros também tem "
     "limite na convenção?", "out_of_scope"),
    ("Alquilo un piso en Oporto. ¿Esas rentas del alquiler llevan IVA?", "out_of_scope"),
    # … unless the question also asks who taxes the income, or about the exchange of information
    ("Alquilo un piso en Oporto. Entre el IBI y las rentas del alquiler, ¿quién grava las rentas?", "interest"),
])
def test_a_question_on_a_tax_no_treaty_covers_is_out_of_scope_whatever_income_it_names(text, topic):
    asked = asking(text)[-1].text
    parts = read_parts(text, ScriptedTopics({asked: (("interest", 0.7), ("immovable_property", 0.2))}))
    assert [p.topic for p in parts] == [topic]


def test_a_list_of_yes_no_questions_in_one_sentence_splits_before_each_modal():
    text = ("Tenho um depósito num banco de Kobe: quanto retém o Japão sobre os juros, posso deduzir essa retenção "
            "no IRS e ainda preciso de nomear lá um representante?")
    clauses = ["Tenho um depósito num banco de Kobe: quanto retém o Japão sobre os juros",
               "posso deduzir essa retenção no IRS", "ainda preciso de nomear lá um representante?"]
    topics = ("interest", "double_taxation_relief", "out_of_scope")
    model = ScriptedTopics({text: (("interest", 0.6), ("double_taxation_relief", 0.3)),
                            **{c: ((t, 0.9),) for c, t in zip(clauses, topics)}})
    assert [(p.topic, p.question.text) for p in read_parts(text, model)] == list(zip(topics, clauses))
    # a clause that only supposes ("what if …") is no question of its own before the modal
    supposed = "What if I stay longer, do I pay Japanese social security?"
    model = ScriptedTopics({supposed: (("out_of_scope", 0.9),)})
    assert [p.question.text for p in read_parts(supposed, model)] == [supposed]


@pytest.mark.parametrize("text, asked", [
    # Spanish opens a question with "¿": it asks with the closing mark left off, and a second "¿" starts another
    ("Una empresa de Osaka paga intereses a mi sociedad de Oporto. ¿Cuál es la retención máxima en Japón ¿Y por "
     "una licencia de software", ["¿Cuál es la retención máxima en Japón", "¿Y por una licencia de software"]),
    # a "¿" inside a sentence that asks keeps the sentence whole
    ("Préstamo a la filial de Recife. Y en España ¿la deducción se calcula al 20%?",
     ["Y en España ¿la deducción se calcula al 20%?"]),
])
def test_a_spanish_opening_question_mark_asks(text, asked):
    assert [s.text for s in asking(text)] == asked


@pytest.mark.parametrize("text, asked", [
    # no question mark anywhere: a sentence asks when it opens as a question or asks what a State may tax
    ("Moro em Faro e recebo a reforma do INSS. O Brasil pode tributar a reforma. E eu tenho de declarar cá. "
     "Obrigada", ["O Brasil pode tributar a reforma.", "E eu tenho de declarar cá."]),
    ("I live in Osaka and rent out a flat in Lisbon. Portugal can tax the rent I guess. What about Japan",
     ["Portugal can tax the rent I guess.", "What about Japan"]),
    # with a question mark, the statement around it asks nothing
    ("O Brasil pode tributar a reforma, diz o contador. Quem tem razão?", ["Quem tem razão?"]),
])
def test_a_ticket_typed_without_question_marks_asks_where_it_asks_about_taxing(text, asked):
    assert [s.text for s in asking(text)] == asked


@pytest.mark.parametrize("text, asked", [
    # a numbered list typed on one line: each item after the first starts a sentence of its own
    ("Temos um armazém em Leiria arrendado a uma empresa de Osaka. 1) o Japão pode tributar a renda 2) e Portugal "
     "também", ["1) o Japão pode tributar a renda", "2) e Portugal também"]),
    ("Context: we license a design to a client in Vigo. (a) what is Spain's cap on it (b) do we get a credit in "
     "Brazil", ["(a) what is Spain's cap on it", "(b) do we get a credit in Brazil"]),
    # no item before it in its series: no item ("a pensão 2) do INSS" is no list), nor "10(2)" of an article
    ("O art. 18(2) diz o quê? Recebo a pensão 2) do INSS", ["O art. 18(2) diz o quê?"]),
])
def test_a_list_typed_on_one_line_asks_in_each_item(text, asked):
    assert [s.text for s in asking(text)] == asked


@pytest.mark.parametrize("text, asked", [
    # a statement closed by a confirmation tag asks
    ("tenho casa em braga e trabalho 3 meses em fortaleza. o salario fica so em portugal, ne",
     ["o salario fica so em portugal, ne"]),
    ("Cobro una pensión de Ourense y vivo en Recife. Quién la grava? Y sigo siendo residente en Brasil, verdad",
     ["Quién la grava?", "Y sigo siendo residente en Brasil, verdad"]),
    # a tag word that does not close the statement asks nothing
    ("Moro em Aveiro e recebo royalties de Osaka. Quanto retém o Japão? Certo dia a AT pediu-me o certificado",
     ["Quanto retém o Japão?"]),
    # a word that is a tag only after its comma: closing a statement without one, it asks nothing
    ("My employer says Japan withholds; my accountant says Portugal taxes it all. They can't both be right. "
     "Who is right?", ["Who is right?"]),
    ("Recebo 2.000 reais do INSS e o valor está certo. Quem tributa a pensão?", ["Quem tributa a pensão?"]),
    ("So only Japan taxes my nenkin, right", ["So only Japan taxes my nenkin, right"]),
])
def test_a_statement_closed_by_a_confirmation_tag_asks(text, asked):
    assert [s.text for s in asking(text)] == asked


@pytest.mark.parametrize("text, asked", [
    # the questions after a label that counts them ("Duas questões:"), no question mark anywhere
    ("Sou contabilista de uma Lda de Braga com filial em Natal. Duas questões: os lucros da filial pagam imposto no "
     "Brasil mesmo a sede sendo cá", ["Duas questões: os lucros da filial pagam imposto no Brasil mesmo a sede sendo "
                                      "cá"]),
    # without a question mark, every item of a list when nothing else asks, and the items beside one that asks
    ("Vivo em Sevilha.\n- Recebo uma reforma do INSS de 900 reais\n- Onde pago o imposto dela",
     ["- Recebo uma reforma do INSS de 900 reais", "- Onde pago o imposto dela"]),
    ("Tengo un piso en Oporto alquilado.\n- el alquiler lo cobra mi hermana\n- la renta la grava Portugal o España",
     ["- el alquiler lo cobra mi hermana", "- la renta la grava Portugal o España"]),
    # an ellipsis before a space ends a sentence: the question after it stands alone
    ("la asesoria dice que pague el 19%... pero si ya no vivo en galicia puede hacienda cobrarme el alquiler?? gracias",
     ["pero si ya no vivo en galicia puede hacienda cobrarme el alquiler??"]),
])
def test_a_ticket_asks_after_a_counting_label_in_list_items_and_after_an_ellipsis(text, asked):
    assert [s.text for s in asking(text)] == asked


@pytest.mark.parametrize("second, confidence", [
    ("E se ele vier a ter também a nacionalidade japonesa, a resposta seria diferente?", 0.9),
    ("¿Y cambiaría algo si mi marido sacara la nacionalidad española?", 0.7),
    ("Would anything change once she gets Brazilian citizenship?", 0.8),
])
def test_a_question_whether_the_answer_changes_asks_the_part_before_again(second, confidence):
    """Read surely as another topic, the question whether the answer changes still asks the part before."""
    text = f"Um funcionário do consulado de Portugal em Osaka recebe salário de Lisboa. Quem tributa? {second}"
    parts = read_parts(text, ScriptedTopics({"Quem tributa?": (("government_service", 0.8), ("employment", 0.1)),
                                             second: (("residence", confidence), ("government_service", 0.05))}))
    assert [p.topic for p in parts] == ["government_service", "government_service"]


@pytest.mark.parametrize("first, second", [
    ("Rogamos nos indiquen si los cánones que cobramos de Recife pueden gravarse en Brasil",
     "si la oficina que abrimos allí es un establecimiento permanente."),
    ("Please advise whether Japan may withhold on the licence fees",
     "whether our Osaka desk is a permanent establishment."),
])
def test_two_indirect_questions_joined_by_and_whether_are_two_parts(first, second):
    text = f"Somos uma sociedade de Vigo. {first} {'y' if first.startswith('Rogamos') else 'and'} {second}"
    sentence = text.split(". ", 1)[1]
    parts = read_parts(text, ScriptedTopics({sentence: (("royalties", 0.6), ("permanent_establishment", 0.3)),
                                             first: (("royalties", 0.9), ("permanent_establishment", 0.05)),
                                             second: (("permanent_establishment", 0.8), ("royalties", 0.1))}))
    assert [p.topic for p in parts] == ["royalties", "permanent_establishment"]


@pytest.mark.parametrize("text, asked", [
    # a label that counts the questions, alone before their list: each item asks, question mark or not
    ("Moro em Vigo e cobro royalties de Campinas. Tres dudas: 1) el Brasil puede retener sobre ellos 2) y cuanto, "
     "como maximo?", ["1) el Brasil puede retener sobre ellos", "2) y cuanto, como maximo?"]),
    # a joining word alone between two items of a list that a request introduces
    ("We act for a Madrid company. We should be grateful for your advice on the following:\n(a) whether Brazil may "
     "withhold on the fees; or\n(b) whether a credit is available in Spain.",
     ["(a) whether Brazil may withhold on the fees;", "(b) whether a credit is available in Spain."]),
    # the last sentence, typed without its question mark, that follows up the question before it
    ("Recebo a reforma da CGA e vivo em Natal. Quem tributa a reforma? e o aluguer do meu T2 em Faro quem tributa",
     ["Quem tributa a reforma?", "e o aluguer do meu T2 em Faro quem tributa"]),
    ("Who taxes my Spanish pension? and the rent of my flat in Valencia where do I pay it",
     ["Who taxes my Spanish pension?", "and the rent of my flat in Valencia where do I pay it"]),
    # a closing that thanks is no follow-up, nor a last sentence that opens with no lead-in
    ("Quem tributa a reforma? e quanto ao resto, obrigado pela ajuda", ["Quem tributa a reforma?"]),
    ("Quem tributa a reforma? Já agora o meu contabilista é o Rui", ["Quem tributa a reforma?"]),
    # a forwarded message's covering line points at the questions below it
    ("Hi, I'm forwarding what my aunt wrote, can you have a look?\n> I get a Spanish pension and live in Recife. "
     "Who taxes it?", ["Who taxes it?"]),
])
def test_a_counted_list_joined_items_and_an_unclosed_follow_up_ask(text, asked):
    assert [s.text for s in asking(text)] == asked


@pytest.mark.parametrize("text, question, start", [
    # the question that closes a list item starts its item's words at the item's mark
    ("We move to Porto in May.\n1) My husband gets a kyosai pension from Kobe city. Who taxes it?\n2) Mine is a "
     "kokumin nenkin. Is it taxed in Portugal only?", "Who taxes it?", "1) My husband"),
    ("We move to Porto in May.\n1) My husband gets a kyosai pension from Kobe city. Who taxes it?\n2) Mine is a "
     "kokumin nenkin. Is it taxed in Portugal only?", "Is it taxed in Portugal only?", "2) Mine"),
    # no item: the question's own words; a question between the mark and it: its own words too
    ("Recebo a pensão da CGA. Quem a tributa?", "Quem a tributa?", "Quem"),
    ("- Tenho um T2 em Faro. Quem tributa a renda? E as mais-valias?", "E as mais-valias?", "E as"),
    # an item on a line before the question's is the story's, not the question's
    ("He gets (1) a pension from SPPREV; (2) a company pension from a fund.\nQuestions: Does the SPPREV one get "
     "taxed in Spain?", "Questions: Does the SPPREV one get taxed in Spain?", "Questions"),
])
def test_a_question_closing_a_list_item_has_the_item_as_its_words(text, question, start):
    span = next(s for s in asking(text) if s.text == question)
    assert text[item_start(text, span):].startswith(start)


@pytest.mark.parametrize("second", [
    "And would my brother's one follow the same rule when he moves back?",
    "¿Y el de mi hermano sigue la misma regla?",
    "E a do meu irmão segue a mesma regra?",
])
def test_a_question_whether_the_same_rule_holds_asks_the_part_before_again(second):
    """Read surely as another topic, a question whether the same rule holds for another person asks the part before
    it again."""
    text = f"O meu pai recebe uma reforma japonesa e vai viver para Aveiro. Quem a tributa? {second}"
    parts = read_parts(text, ScriptedTopics({"Quem a tributa?": (("pensions", 0.8), ("employment", 0.1)),
                                             second: (("out_of_scope", 0.8), ("pensions", 0.1))}))
    assert [p.topic for p in parts] == ["pensions", "pensions"]


@pytest.mark.parametrize("text, asked", [
    # a question whose mark was left off ends before the capital that opens the next
    ("Recebo a reforma do INSS e tenho um T2 em Faro. Quem tributa a reforma E o aluguer do T2 quem tributa",
     ["Quem tributa a reforma", "E o aluguer do T2 quem tributa"]),
    ("I live in Porto and get royalties from Recife. who may tax them What about the credit in Portugal",
     ["who may tax them", "What about the credit in Portugal"]),
    # no question mark anywhere: a question after a comma, or closing its sentence with "from when"
    ("O meu sogro tem 20% da Ltda de Campinas, qual é o limite de IRRF sobre os JCP dele. E essa regra aplica-se "
     "a partir de quando", ["O meu sogro tem 20% da Ltda de Campinas, qual é o limite de IRRF sobre os JCP dele.",
                            "E essa regra aplica-se a partir de quando"]),
    # ...but not a relative "como", "onde" or "quando" after a comma
    ("Trabalho em Vigo, como engenheira, onde vivo desde 2020. Preciso de saber quem tributa o salário",
     ["Preciso de saber quem tributa o salário"]),
])
def test_questions_typed_without_their_marks_still_ask(text, asked):
    assert [s.text for s in asking(text)] == asked


def test_a_relative_who_after_a_comma_asks_nothing():
    text = ("I write for Mr Kenji Morita, resident in Osaka, who holds 30% of a Lisbon company.\n"
            "1. Whether Portugal may tax the gain on his shares.\n2. How Japan relieves the Portuguese tax.")
    assert [s.text for s in asking(text)] == ["1. Whether Portugal may tax the gain on his shares.",
                                              "2. How Japan relieves the Portuguese tax."]


@pytest.mark.parametrize("second, parts", [
    # a supposition after the cut asks again on the same topic, under other facts: its own part
    ("y si solo tenemos un depósito en Santos para entregar las piezas, eso es un establecimiento permanente?", 2),
    # "and if so" goes on with the same question
    ("y si es así, desde qué día cuenta?", 1),
])
def test_a_supposition_joined_to_a_question_on_the_same_topic_is_its_own_part(second, parts):
    from assistant.understand.parts import _clauses
    sentence = f"Si abrimos una oficina en Recife con dos vendedores, ¿Brasil puede gravar sus beneficios, {second}"
    text = f"Somos una empresa de Vigo. {sentence}"
    span = asking(text)[0]
    clauses = [c.text for c in _clauses(span, "es")]
    assert len(clauses) == 2
    model = ScriptedTopics({span.text: (("permanent_establishment", 0.7), ("business_profits", 0.2)),
                            clauses[0]: (("permanent_establishment", 0.8), ("business_profits", 0.1)),
                            clauses[1]: (("permanent_establishment", 0.9), ("business_profits", 0.05))})
    assert [p.topic for p in read_parts(text, model)] == ["permanent_establishment"] * parts


@pytest.mark.parametrize("text, asked", [
    # an item of a list, on its own line, typed without the question mark the item before it has
    ("Moro em Coimbra e recebo uma reforma do INSS.\n1) O Brasil pode reter imposto sobre ela?\n2) e tenho de a "
     "declarar cá no IRS tambem\nobrigado", ["1) O Brasil pode reter imposto sobre ela?",
                                              "2) e tenho de a declarar cá no IRS tambem"]),
    ("We rent out a flat in Valencia and live in Fortaleza.\n- Can Spain tax the rent?\n- and the gain when we sell "
     "it next year\nThanks, Ana", ["- Can Spain tax the rent?", "- and the gain when we sell it next year"]),
    # items before the first question are the story's facts
    ("Dados:\n- pensão do INSS: 3.000 reais\n- renda de um T1 em Braga: 600 euros\n- Onde declaro cada uma?",
     ["- Onde declaro cada uma?"]),
    # an item followed by a question on its own is what that question asks about, a few sentences on
    ("Two points:\n(1) May Brazil tax the fees?\n(2) One of our engineers will spend six weeks in Recife. Our Lisbon "
     "office pays him. Is his salary taxable in Brazil?",
     ["(1) May Brazil tax the fees?", "Is his salary taxable in Brazil?"]),
])
def test_an_unmarked_item_after_a_question_in_its_list_asks(text, asked):
    assert [s.text for s in asking(text)] == asked


def test_the_alternative_that_only_one_state_taxes_is_no_second_question():
    text = "Somos de Vigo y cobramos cánones de Recife. ¿Brasil puede gravar los cánones, o solo España?"
    question = "¿Brasil puede gravar los cánones, o solo España?"
    parts = read_parts(text, ScriptedTopics({question: (("royalties", 0.9), ("double_taxation_relief", 0.05))}))
    assert [(p.topic, p.question.text) for p in parts] == [("royalties", question)]


def test_a_second_question_after_or_is_still_its_own_part():
    text = "Moro no Porto e recebo juros de Santos. O Brasil pode reter sobre os juros, ou posso pedir o crédito cá?"
    question = "O Brasil pode reter sobre os juros, ou posso pedir o crédito cá?"
    parts = read_parts(text, ScriptedTopics({
        question: (("interest", 0.7), ("double_taxation_relief", 0.2)),
        "O Brasil pode reter sobre os juros": (("interest", 0.9), ("double_taxation_relief", 0.05)),
        "posso pedir o crédito cá?": (("double_taxation_relief", 0.9), ("interest", 0.05))}))
    assert [p.topic for p in parts] == ["interest", "double_taxation_relief"]


@pytest.mark.parametrize("text, said", [
    # typed in lower case, a question opens after a short word's full stop
    ("i own a flat in porto and rent it out. spain taxes me on it. is that allowed?",
     ["i own a flat in porto and rent it out.", "spain taxes me on it.", "is that allowed?"]),
    ("recebo do inss e vivo em faro. pode o brasil reter?",
     ["recebo do inss e vivo em faro.", "pode o brasil reter?"]),
    # not after a known abbreviation
    ("A nossa Lda. pode deduzir o imposto retido no Brasil?",
     ["A nossa Lda. pode deduzir o imposto retido no Brasil?"]),
    ("the fee goes to our ltd. can Japan tax it?", ["the fee goes to our ltd. can Japan tax it?"]),
])
def test_a_lower_case_question_after_a_short_words_full_stop_is_a_sentence(text, said):
    assert [s.text for s in sentences(text)] == said


@pytest.mark.parametrize("text, asked", [
    # typed on a phone: a sentence ends after a short word or a percentage, and the next one asks
    ("customer is resident in porto and gets dividends from it. two questions: (1) cap in japan; (2) can japan tax "
     "a sale?", ["(1) cap in japan;", "(2) can japan tax a sale?"]),
    ("o brasil retinha 25%. mas pela convencao, quem tributa a aposentadoria do inss?",
     ["mas pela convencao, quem tributa a aposentadoria do inss?"]),
    # "pra" is "para": the request it opens asks ("aproveito pra perguntar…")
    ("recebo a pensao do inss em braga, quem tributa? aproveito pra perguntar qual a taxa de iva dos meus servicos.",
     ["recebo a pensao do inss em braga, quem tributa?", "aproveito pra perguntar qual a taxa de iva dos meus "
      "servicos."]),
])
def test_phone_typed_sentences_end_after_short_words_and_percentages(text, asked):
    assert [s.text for s in asking(text)] == asked


@pytest.mark.parametrize("text, said", [
    ("We hold shares in a listed bank in São Paulo that pays dividends and JCP — what is the cap on the JCP?",
     ["We hold shares in a listed bank in São Paulo that pays dividends and JCP —", "what is the cap on the JCP?"]),
    ("tenho um T2 alugado em Faro - quem tributa a renda?", ["tenho um T2 alugado em Faro -", "quem tributa a renda?"]),
    # a dash inside a name or between places is no end
    ("A Silva - Construções Lda pode deduzir o imposto?", ["A Silva - Construções Lda pode deduzir o imposto?"]),
])
def test_a_question_after_a_dash_is_a_sentence(text, said):
    assert [s.text for s in sentences(text)] == said


def test_a_health_insurance_levy_on_a_pension_is_a_side_question():
    text = ("My mother lives in Sapporo and gets a Portuguese CGA pension. Who taxes it? Does she also owe national "
            "health insurance contributions on it?")
    side = "Does she also owe national health insurance contributions on it?"
    parts = read_parts(text, ScriptedTopics({"Who taxes it?": (("pensions", 0.9), ("government_service", 0.05)),
                                             side: (("pensions", 0.8), ("out_of_scope", 0.1))}))
    assert [p.topic for p in parts] == ["pensions", "out_of_scope"]


@pytest.mark.parametrize("text", [
    "A friend said pensioners now pay a flat 10% in Portugal — is that right?",
    "And what about the rent from the flat in Kobe – can Japan keep taxing it?",
])
def test_a_question_that_asks_about_the_words_before_its_dash_is_one_sentence(text):
    assert [s.text for s in sentences(text)] == [text]


@pytest.mark.parametrize("text, last", [
    ("Estudo em Curitiba com uma bolsa da FCT. A bolsa paga imposto no Brasil? e se eu arranjar um part-time numa "
     "loja o Brasil tributa esse salario", "e se eu arranjar um part-time numa loja o Brasil tributa esse salario"),
    ("Estudio en Porto con beca del Santander. ¿Portugal grava la beca? y si me quedo otro año con un trabajo de "
     "camarero portugal me cobra", "y si me quedo otro año con un trabajo de camarero portugal me cobra"),
])
def test_a_last_sentence_that_supposes_another_case_asks_without_its_mark(text, last):
    assert [s.text for s in asking(text)][-1] == last


def test_a_last_sentence_that_supposes_nothing_asked_is_no_question():
    text = "Estudo em Curitiba com uma bolsa da FCT. A bolsa paga imposto no Brasil? Se puderem responder hoje agradeço"
    assert [s.text for s in asking(text)] == ["A bolsa paga imposto no Brasil?"]


@pytest.mark.parametrize("text, asked", [
    # typed with no question mark: a question that runs on with a capital "E", "Also", "Además" or "Second" after
    # another one is a question too, and so is the one before it
    ("Tenho um T2 em Faro arrendado e vivo em Recife. Quanto pode Portugal cobrar sobre a renda E preciso de "
     "nomear representante fiscal", ["Quanto pode Portugal cobrar sobre a renda", "E preciso de nomear representante "
                                    "fiscal"]),
    ("My mother gets a Spanish widow's pension and lives in Natal. Can Spain still tax it Also, does she have to "
     "send a life certificate every year\nThanks", ["Can Spain still tax it", "Also, does she have to send a life "
                                                   "certificate every year"]),
    ("Vivo en Oporto y cobro alquileres de Madrid. Pago el impuesto en España Además necesito saber el plazo del "
     "modelo 210", ["Pago el impuesto en España", "Además necesito saber el plazo del modelo 210"]),
    ("Two things: first, is the grant from my Brazilian university taxed in Spain Second, do I need a NIE for the "
     "bank\nBest,\nLucas Prado", ["Two things: first, is the grant from my Brazilian university taxed in Spain",
                                  "Second, do I need a NIE for the bank"]),
    # a capital in mid-sentence that is no opener (a name) cuts nothing
    ("I work for Banco Santander Brasil in Madrid. Who taxes my salary", ["Who taxes my salary"]),
])
def test_a_question_that_runs_on_without_its_mark_asks(text, asked):
    assert [s.text for s in asking(text)] == asked


@pytest.mark.parametrize("text, asked", [
    # no question mark anywhere: every item of a list asks once one of them does, at the item's last sentence when
    # the item tells a fact first
    ("Duas coisas que não percebi:\n- a reforma da CGA foi paga em janeiro. Desde quando se aplica a convenção\n"
     "- o Brasil cobra IOF sobre a transferência\nbjs Marta",
     ["Desde quando se aplica a convenção", "- o Brasil cobra IOF sobre a transferência"]),
    # items quoted in a forwarded e-mail, and items marked "1-", are items too
    ("> Temos 35% de uma Ltda de Manaus.\n> 1. Qual a retenção máxima sobre os dividendos\n> 2. E o crédito em "
     "Portugal como funciona", ["> 1. Qual a retenção máxima sobre os dividendos",
                                "> 2. E o crédito em Portugal como funciona"]),
    ("perguntas: 1- quem tributa a minha reforma do INSS, o Brasil ou Portugal? 2- preciso de entregar o anexo J? "
     "3- da pra pedir o imposto de volta", ["perguntas: 1- quem tributa a minha reforma do INSS, o Brasil ou Portugal?",
                                            "2- preciso de entregar o anexo J?", "3- da pra pedir o imposto de volta"]),
])
def test_list_items_ask_without_question_marks(text, asked):
    assert [s.text for s in asking(text)] == asked


@pytest.mark.parametrize("text, asked", [
    # no question at all: the last sentence above the closing and the signature lines under it
    ("Exmos. Senhores,\nA nossa sociedade vende moldes a clientes em Curitiba através de um agente com procuração. "
     "Pretendemos o vosso parecer sobre se isso constitui estabelecimento estável no Brasil\nCom os melhores "
     "cumprimentos,\nAna Sousa\nDiretora Financeira",
     ["Pretendemos o vosso parecer sobre se isso constitui estabelecimento estável no Brasil"]),
    ("hola, cobro una beca de la Xunta y estudio en Campinas, tributa en Brasil o no\nmil gracias\nLucía",
     ["hola, cobro una beca de la Xunta y estudio en Campinas, tributa en Brasil o no"]),
    # a short last line that is no signature is still the question
    ("Tenho uma pensão da Segurança Social e vivo em Fortaleza.\nQuem tributa a pensão", ["Quem tributa a pensão"]),
])
def test_the_signature_under_the_closing_is_no_question(text, asked):
    assert [s.text for s in asking(text)] == asked


@pytest.mark.parametrize("text, first, second", [
    # typed in lower case with no question mark: "e" and a few words, then the second question's interrogative
    ("recebo pensao do inss e aluguel de um apartamento em porto alegre, moro em lisboa. a pensao paga imposto no "
     "brasil e o aluguel quem tributa", "a pensao paga imposto no brasil", "o aluguel quem tributa"),
    # "and if" and "e aqui" open a second question
    ("I hold Repsol shares and live in Recife. How much can Spain withhold on the dividends and if I sell them at a "
     "gain can Spain tax that", "How much can Spain withhold on the dividends",
     "if I sell them at a gain can Spain tax that"),
    ("Recebo juros de um banco em Lisboa. Quanto Portugal retém e aqui no Brasil como abato esse imposto?",
     "Quanto Portugal retém", "aqui no Brasil como abato esse imposto?"),
])
def test_a_second_question_opened_after_and_is_a_part_of_its_own_in_lower_case(text, first, second):
    model = ScriptedTopics({asking(text)[-1].text: (("pensions", 0.5), ("dividends", 0.3)),
                            first: (("dividends", 0.9), ("pensions", 0.05)),
                            second: (("capital_gains", 0.9), ("dividends", 0.05))})
    assert [p.question.text for p in read_parts(text, model)] == [first, second]


def test_an_items_mark_is_no_clause_of_its_own():
    text = "Temos uma loja em Vigo.\n1) Quem tributa os lucros?\n2) E se abrirmos uma filial em Recife, muda?"
    item = "2) E se abrirmos uma filial em Recife, muda?"
    model = ScriptedTopics({"1) Quem tributa os lucros?": (("business_profits", 0.9), ("employment", 0.05)),
                            item: (("permanent_establishment", 0.9), ("business_profits", 0.05)),
                            "2)": (("employment", 0.9), ("business_profits", 0.05)),
                            "se abrirmos uma filial em Recife, muda?": (("permanent_establishment", 0.9),
                                                                        ("employment", 0.05))})
    assert [p.question.text for p in read_parts(text, model)] == ["1) Quem tributa os lucros?", item]


def test_a_titles_full_stop_before_a_name_ends_no_sentence():
    assert [s.text for s in sentences("¿Tributa en España el sueldo de la Dra. Ruiz? Mr. Sato also asks.")] == \
        ["¿Tributa en España el sueldo de la Dra. Ruiz?", "Mr. Sato also asks."]


@pytest.mark.parametrize("text, asked", [
    # typed on a phone: the question right after the last one, without its mark, before a remark that asks nothing
    ("brasil me puede cobrar impuesto por ese sueldo?? y en colombia tengo q declarar algo igual. aca todo "
     "carisimo jaja",
     ["brasil me puede cobrar impuesto por ese sueldo??", "y en colombia tengo q declarar algo igual."]),
    # a follow-up in shorthand ("qto": quanto) at the end
    ("moro em campinas. o iof vale pra remessa?? e a espanha retem qto nos dividendos",
     ["o iof vale pra remessa??", "e a espanha retem qto nos dividendos"]),
    # a ticket closed by its mark: the sentence after the question is a statement
    ("O Brasil pode tributar a minha pensão? E como disse, moro em Braga desde 2019.",
     ["O Brasil pode tributar a minha pensão?"]),
    # a remark right after the question that does not follow it up
    ("quem tributa a pensao do inss? ja tenho o nif. obrigado pela ajuda", ["quem tributa a pensao do inss?"]),
])
def test_a_follow_up_typed_without_its_mark_after_the_last_question_asks(text, asked):
    assert [s.text for s in asking(text)] == asked


@pytest.mark.parametrize("text, asked", [
    # the last words, after the question, ask what one may deduct or must pay, without a mark or a lead-in
    ("tenho acoes da vale, moro em aveiro. o brasil pode reter 15% nos dividendos? depois no irs posso deduzir o "
     "que reteram la",
     ["o brasil pode reter 15% nos dividendos?", "depois no irs posso deduzir o que reteram la"]),
    ("vivo en malaga con la pension del inss. brasil me la puede retener? luego en la renta de aca tengo que pagar "
     "otra vez",
     ["brasil me la puede retener?", "luego en la renta de aca tengo que pagar otra vez"]),
    # a remark after the question asks nothing, nor one that states what someone pays
    ("o brasil pode reter 15% nos dividendos? depois eu conto como correu",
     ["o brasil pode reter 15% nos dividendos?"]),
    ("a bolsa vem da capes. a espanha pode cobrar imposto? meu colega disse q eu viro residente e pago imposto la",
     ["a espanha pode cobrar imposto?"]),
])
def test_a_last_sentence_asking_what_one_pays_follows_up_without_its_mark(text, asked):
    assert [s.text for s in asking(text)] == asked


@pytest.mark.parametrize("text, asked", [
    # the last sentence opens as a question does, after a linking word, its mark left off
    ("my firm in porto sends me to recife for 90 days and keeps paying me here. brazil can tax that? so doesnt the "
     "183 day rule mean only portugal taxes it",
     ["brazil can tax that?", "so doesnt the 183 day rule mean only portugal taxes it"]),
    ("quien grava mi pension del inss? y cuando tengo que presentar la declaracion",
     ["quien grava mi pension del inss?", "y cuando tengo que presentar la declaracion"]),
    # a courtesy asking for the reply is no question
    ("quem tributa a pensao do inss? quando puder me responde", ["quem tributa a pensao do inss?"]),
])
def test_a_last_sentence_opening_as_a_question_asks_without_its_mark(text, asked):
    assert [s.text for s in asking(text)] == asked


@pytest.mark.parametrize("text, asked", [
    # a numbered item before the first question, its mark left off, that ends on its alternatives
    ("volvi a vigo en enero y sigo con mi casa en recife. 1) para el convenio soy residente de españa o de brasil "
     "2) quien grava mi sueldo?",
     ["1) para el convenio soy residente de españa o de brasil", "2) quien grava mi sueldo?"]),
    ("moving to Osaka in March. 1) is my Portuguese rent taxed in Japan or in Portugal 2) what about my salary?",
     ["1) is my Portuguese rent taxed in Japan or in Portugal", "2) what about my salary?"]),
    # numbered facts before the question ask nothing
    ("1) Moro em Faro desde 2020. 2) Recebo a pensão do INSS. 3) Quem tributa a pensão?",
     ["3) Quem tributa a pensão?"]),
])
def test_a_numbered_item_before_the_first_question_asks_on_its_alternatives(text, asked):
    assert [s.text for s in asking(text)] == asked


@pytest.mark.parametrize("text, topic", [
    # a consulate where the visa is seen to is no employer: the salary stays a salary
    ("Trabajo en remoto para una empresa de Valencia desde Florianópolis. Lo del visado de nómada digital lo estoy "
     "mirando con el consulado. ¿Quién grava mi sueldo?", "employment"),
    ("I work for a Lisbon firm from Tokyo; the consulate is handling my visa. Who taxes my salary?", "employment"),
    # one where the person works still is
    ("Soy chófer en el consulado de Brasil en Madrid. ¿Quién grava mi sueldo?", "government_service"),
])
def test_a_consulate_named_only_for_a_visa_does_not_make_a_salary_public(text, topic):
    asked = asking(text)[-1].text
    parts = read_parts(text, ScriptedTopics({asked: (("employment", 0.7), ("pensions", 0.1))}))
    assert [p.topic for p in parts] == [topic]


@pytest.mark.parametrize("text, asked", [
    # no question mark anywhere: a question run on after an acronym, a letter or a percentage, opened by "E"
    ("Moro em Faro e recebo rendas de Natal. Tenho de pôr isto no anexo F E o Brasil pode reter IR na fonte",
     ["Tenho de pôr isto no anexo F", "E o Brasil pode reter IR na fonte"]),
    ("O Brasil retém 15% nos juros. O teto da convenção é 15% ou 10% E no IRS posso abater esses 15%",
     ["O teto da convenção é 15% ou 10%", "E no IRS posso abater esses 15%"]),
    # or opened by its verb or an interrogative: the statement before it asked too
    ("Sou designer em Braga e um cliente de Campinas retém IR sobre as minhas faturas. A convenção permite isso "
     "Devo cobrar IVA a esse cliente",
     ["A convenção permite isso", "Devo cobrar IVA a esse cliente"]),
    ("Contratamos um engenheiro no Japão. Retemos IRS Como fica o IVA", ["Retemos IRS", "Como fica o IVA"]),
    # a list item's mark is no word a question runs on from
    ("1) Can Spain tax our fees\n2) And the Madrid office", ["1) Can Spain tax our fees", "2) And the Madrid office"]),
])
def test_a_question_typed_without_marks_runs_on_after_any_word(text, asked):
    assert [s.text for s in asking(text)] == asked


@pytest.mark.parametrize("text, asked", [
    # the words before the dash name what the question after it is about: one question
    ("Can Portugal tax the kokumin nenkin? And the prefectural government pension – which country has the right to "
     "tax it?", ["Can Portugal tax the kokumin nenkin?",
                 "And the prefectural government pension – which country has the right to tax it?"]),
    ("Recibo la pensión del INSS en Vigo. ¿Y el alquiler de Recife — quién lo grava?",
     ["¿Y el alquiler de Recife — quién lo grava?"]),
    # a statement before the dash is the case, not the question
    ("Our company pays dividends and JCP — what's the max withholding on each?",
     ["what's the max withholding on each?"]),
])
def test_a_question_after_a_dash_keeps_the_few_words_that_name_its_subject(text, asked):
    assert [s.text for s in asking(text)] == asked


@pytest.mark.parametrize("text, asked", [
    # a courtesy that names what it asks to confirm asks, beside another request; one that only thanks does not
    ("Our client in Madrid licenses a trademark to a company in Campinas. We would be grateful if you could confirm "
     "the maximum Brazilian withholding on the royalties. We would also like to know how Spain relieves it. Kind "
     "regards, Ana",
     ["We would be grateful if you could confirm the maximum Brazilian withholding on the royalties.",
      "We would also like to know how Spain relieves it."]),
    ("Temos uma Lda. em Aveiro que paga juros a um banco de Tóquio. Agradecíamos se nos pudessem informar a taxa "
     "máxima de retenção no Japão. Gostaríamos de saber também se há crédito em Portugal. Ficaríamos gratos por uma "
     "resposta breve.",
     ["Agradecíamos se nos pudessem informar a taxa máxima de retenção no Japão.",
      "Gostaríamos de saber também se há crédito em Portugal."]),
])
def test_a_courtesy_that_names_what_to_confirm_asks(text, asked):
    assert [s.text for s in asking(text)] == asked


@pytest.mark.parametrize("text, asked", [
    # with no question mark anywhere, what follows a colon asks when it opens as a question does
    ("We run a small pottery studio in Caldas da Rainha and sell to a shop in Kyoto. My partner wants to know two "
     "things: will Japan tax what we earn on those sales, and do we need to register there. Thanks, Rui",
     ["My partner wants to know two things: will Japan tax what we earn on those sales, and do we need to register "
      "there."]),
    ("Tenho um apartamento em Natal arrendado. O meu contabilista levantou uma dúvida: quem tributa as rendas, o "
     "Brasil ou Portugal. Obrigada",
     ["O meu contabilista levantou uma dúvida: quem tributa as rendas, o Brasil ou Portugal."]),
    # a colon before facts asks nothing
    ("Dados do caso: pensão do INSS de 2.000 reais, residência em Braga. Quem tributa a pensão.",
     ["Quem tributa a pensão."]),
])
def test_what_follows_a_colon_asks_when_it_opens_as_a_question(text, asked):
    assert [s.text for s in asking(text)] == asked


@pytest.mark.parametrize("text, asked", [
    # a last sentence closed by a question after its last comma ("…, como fica o dele") follows up unmarked
    ("recebo pensao do inss e moro em coimbra, pago imposto em portugal? a minha mulher tb recebe do inss, ela "
     "trabalhou 30 anos na prefeitura, como fica a dela",
     ["recebo pensao do inss e moro em coimbra, pago imposto em portugal?",
      "a minha mulher tb recebe do inss, ela trabalhou 30 anos na prefeitura, como fica a dela"]),
    ("my salary is paid in lisbon, is it taxed in brazil? my brother also works there for a local firm, how does "
     "it work for him",
     ["my salary is paid in lisbon, is it taxed in brazil?",
      "my brother also works there for a local firm, how does it work for him"]),
    # a remark after the comma is no question
    ("recebo pensao do inss e moro em coimbra, pago imposto em portugal? a minha mulher tb recebe, como eu",
     ["recebo pensao do inss e moro em coimbra, pago imposto em portugal?"]),
])
def test_a_last_sentence_closed_by_a_question_after_a_comma_asks_without_its_mark(text, asked):
    assert [s.text for s in asking(text)] == asked


@pytest.mark.parametrize("text, asked", [
    # a request about "the following situation" points at the questions under it and asks nothing itself
    ("Na qualidade de advogada da Tejo Invest, S.A., venho solicitar o vosso esclarecimento sobre a seguinte "
     "situação. A sociedade recebe royalties de uma empresa de Niterói.\n1. Qual a retenção máxima no Brasil?\n"
     "2. Como elimina Portugal a dupla tributação?",
     ["1. Qual a retenção máxima no Brasil?", "2. Como elimina Portugal a dupla tributação?"]),
    ("We write to request your views on the following case. Our client in Kobe pays interest to a Lisbon bank. "
     "What is the maximum Japanese withholding?",
     ["What is the maximum Japanese withholding?"]),
])
def test_a_request_about_the_case_below_points_at_the_questions(text, asked):
    assert [s.text for s in asking(text)] == asked


@pytest.mark.parametrize("text", [
    "Vendo desde Brasil mis participaciones de una SL de Valencia. ¿Tributa la ganancia en España? Me dicen que el "
    "comprador tendría que pagar ITP por la compra. ¿Es así?",
    "Moro em Braga e vendi um terreno em Goiânia. O Brasil tributa o ganho? O comprador diz que eu é que pago o "
    "ITBI. É isso?",
])
def test_a_question_on_a_statement_naming_only_an_uncovered_tax_is_out_of_scope(text):
    """"…tendría que pagar ITP… ¿Es así?": the unsure question asks about the tax the sentence before it names,
    which no treaty covers."""
    first, second = [s.text for s in asking(text)]
    model = ScriptedTopics({first: (("capital_gains", 0.9),), second: (("pensions", 0.3), ("capital_gains", 0.25))})
    parts = read_parts(text, model)
    assert [p.topic for p in parts] == ["capital_gains", "out_of_scope"]
    assert out_of_scope_code(text, parts[1]) == "wealth_property_tax"


@pytest.mark.parametrize("text, asked", [
    # a supposition linked to the question before it, typed without its mark, with a remark after it
    ("trabalho no porto desde 2020, antes fiz 10 anos de inss\nquem tributa a minha pensao do inss?? e se eu voltar "
     "pra bahia o portugal ainda cobra\nvaleu", ["quem tributa a minha pensao do inss??",
                                                "e se eu voltar pra bahia o portugal ainda cobra"]),
    ("cobro una pension de brasil y vivo en cadiz. quien la grava?? y si me mudo a sevilla cambia algo\nsaludos",
     ["quien la grava??", "y si me mudo a sevilla cambia algo"]),
    # not a sentence whose "se"/"si" opens no supposition linked to the question ("Se agradece respuesta")
    ("Cobro una pensión de Brasil y vivo en Cádiz. ¿Quién la grava? Se agradece respuesta rápida\nSaludos",
     ["¿Quién la grava?"]),
    ("Recebo uma pensão do INSS e vivo no Porto. Quem a tributa? Se for o caso de pagar cá, conto com vocês\nabraço",
     ["Quem a tributa?"]),
])
def test_a_supposition_linked_to_the_question_before_it_asks_without_its_mark(text, asked):
    assert [s.text for s in asking(text)] == asked


@pytest.mark.parametrize("question", [
    "Fracionamento de contratos no MLI: como se contam os períodos de uma obra dividida em três contratos?",
    "How does the MLI's contract splitting rule add up the periods of a split building job?",
    "¿El fraccionamiento de contratos del Convenio Multilateral suma los periodos de obra de nuestras filiales?",
])
def test_a_question_naming_an_articles_own_subject_asks_that_articles_topic(question):
    """MLI art. 14 (splitting-up of contracts) is a permanent-establishment rule, whatever the instrument's name
    leans to (anti-abuse, where its holding periods are)."""
    parts = read_parts(question, ScriptedTopics({question: (("anti_abuse", 0.4), ("permanent_establishment", 0.3))}))
    assert [p.topic for p in parts] == ["permanent_establishment"]


@pytest.mark.parametrize("text, asked", [
    # a label after a full stop opens the sentence that asks, though typed in lower case after a bracket or a figure
    ("meu pai mora em Braga (tem autorização de residência). duas perguntas: o Brasil tributa a aposentadoria do "
     "INSS dele? e a renda do apartamento de Recife?",
     ["duas perguntas: o Brasil tributa a aposentadoria do INSS dele?", "e a renda do apartamento de Recife?"]),
    ("sold the Porto flat for €410k, gain about €150k. my questions: can Portugal tax it while I live in Osaka?",
     ["my questions: can Portugal tax it while I live in Osaka?"]),
])
def test_a_question_label_after_a_full_stop_opens_a_sentence(text, asked):
    assert [s.text for s in asking(text)] == asked


@pytest.mark.parametrize("text, asked", [
    # a subject line whose question follows a dash restates the body's question
    ("Subject: Porto flat – who taxes the rent?\n\nI live in Osaka and let a flat in Porto. Can Portugal tax the "
     "rent?", ["Can Portugal tax the rent?"]),
    ("Assunto: Reforma do INSS — quem tributa?\nMoro em Coimbra e recebo do INSS. O Brasil pode tributar?",
     ["O Brasil pode tributar?"]),
    # alone, it is the question
    ("Asunto: Pensión de Brasil – ¿quién la grava?", ["Asunto: Pensión de Brasil – ¿quién la grava?"]),
])
def test_a_subject_lines_question_after_a_dash_restates_the_body(text, asked):
    assert [s.text for s in asking(text)] == asked


@pytest.mark.parametrize("text, asked", [
    # a request that sets out the facts after its colon points at the question after it
    ("Temos uma obra no Recife. Já agora pergunto outra coisa: vamos montar uma fábrica em Salvador durante sete "
     "meses. Nesse caso pagamos imposto no Brasil sobre o lucro?",
     ["Nesse caso pagamos imposto no Brasil sobre o lucro?"]),
    ("Quisiera saber otra cosa: mi hermano cobra una pensión del INSS y vive en Sevilla. En ese caso, ¿quién la "
     "grava?", ["En ese caso, ¿quién la grava?"]),
    # what follows the colon asks: it is a question of its own
    ("Queria perguntar: quem tributa a pensão do INSS. E a renda do apartamento de Recife?",
     ["Queria perguntar: quem tributa a pensão do INSS.", "E a renda do apartamento de Recife?"]),
])
def test_a_request_that_sets_out_the_facts_points_at_the_question_after_it(text, asked):
    assert [s.text for s in asking(text)] == asked


@pytest.mark.parametrize("text, asked", [
    ("FW from our Osaka office. Can you help? Our engineer works 100 days in Setúbal. Does Portugal tax his pay?",
     ["Does Portugal tax his pay?"]),
    ("Me pueden ayudar? Cobro una pensión del INSS y vivo en Vigo. ¿Quién la grava?", ["¿Quién la grava?"]),
    # a forum's call for others' experience
    ("Pessoal, alguém já passou por isso? Recebo a aposentadoria do INSS e moro em Braga. Quem tributa?",
     ["Quem tributa?"]),
    ("Has anyone been through this? I get a kosei nenkin and live in Porto. Who taxes it?", ["Who taxes it?"]),
    # a colleague asked to take a forwarded ticket
    ("Could you take a look? Customer below: she lives in Coimbra and rents out a flat in Osaka. Who taxes the "
     "rent?", ["Who taxes the rent?"]),
    ("Podes ver isto? O cliente mora em Vigo e recebe juros de um CDB. Qual a retenção máxima?",
     ["Qual a retenção máxima?"]),
])
def test_a_plea_for_help_before_the_question_asks_nothing(text, asked):
    assert [s.text for s in asking(text)] == asked
