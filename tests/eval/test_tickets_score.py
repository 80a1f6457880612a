"""The ticket-bank scorer on small hand-made tickets and readings, and the rule-results -> outcome mapping
on real rule runs."""
from __future__ import annotations

import dataclasses

import pytest

import rules
from assistant.apply_rules import run_rules
from assistant.understand import understand
from assistant.understand.stated import stated_facts
from eval.tickets import Expected, Ticket
from eval.tickets_run import outcome_of, read_topics
from eval.tickets_score import (
    PartReading,
    PredictedOutcome,
    TicketReading,
    align,
    answer_correct,
    markdown,
    numbers_in,
    report,
    score_ticket,
    summarise,
    topic_accuracy,
)

TWO_PARTS = Ticket.model_validate({
    "id": "tk-hand-0001", "language": "pt", "variant": "pt-PT", "style": "email",
    "source_url": "https://example.org/destacado-braga", "treaty": "PT-BR", "residence_state": "BR",
    "source_state": "PT",
    "text": ("Bom dia, sou engenheiro brasileiro destacado em Braga por 5 meses, a empresa continua a pagar no "
             "Brasil. Pago imposto em Portugal? E o formulário da Segurança Social, preciso de o pedir?"),
    "facts": [{"name": "stay_months", "value": 5, "span": "5 meses"},
              {"name": "employer_resident_in_work_state", "value": False,
               "span": "a empresa continua a pagar no Brasil"}],
    "parts": [
        {"question": "Pago imposto em Portugal?", "topic": "employment",
         "expected": {"outcome": "residence_only", "state": "BR", "articles": ["15(2)"]}},
        {"question": "E o formulário da Segurança Social, preciso de o pedir?", "topic": "out_of_scope",
         "out_of_scope": "social_security_contributions", "expected": {"outcome": "abstain"}}]})

DIVIDENDS = Ticket.model_validate({
    "id": "tk-hand-0002", "language": "en", "style": "one_liner", "source_url": "https://example.org/divs",
    "treaty": "PT-JP", "residence_state": "PT", "source_state": "JP",
    "text": "I live in Lisbon and get dividends from a Japanese company, how much can Japan withhold?",
    "parts": [{"question": "how much can Japan withhold?", "topic": "dividends",
               "expected": {"outcome": "capped", "rate": 10, "articles": ["10"]}}]})


def reading(*parts: PartReading, residence="BR", source="PT", facts=None, retrieved=()) -> TicketReading:
    return TicketReading("PT-BR", residence, source, facts or {}, parts, retrieved=retrieved, latency_ms=40.0)


def test_a_two_question_ticket_read_as_one_scores_the_other_part_as_missed():
    one = PartReading("employment", PredictedOutcome("residence_only", state="BR"), cited=(("PT-BR", "15"),))
    score = score_ticket(TWO_PARTS, reading(one, retrieved=(("PT-BR", "18"), ("PT-BR", "15"))))
    employment, social = score.parts
    assert employment.topic_correct and employment.answer_correct and employment.article_cited
    assert employment.recall_at_5 == 1.0                      # the ticket's retrieval stands in for the part's
    assert social.read_topic is None and not social.topic_correct and not social.answer_correct
    summary = summarise([score])
    assert summary["topic_accuracy"] == 0.5 and summary["answer_accuracy"] == 0.5
    assert summary["all_parts_answered"] == 0.0 and summary["abstention_recall"] == 0.0


def test_parts_align_by_topic_before_order_and_an_extra_abstention_costs_precision():
    assert align(["employment", "out_of_scope"], ["out_of_scope", "employment"]) == [1, 0]
    assert align(["employment", "pensions"], ["dividends"]) == [0, None]
    # of two parts on the gold's topic, the one nearest in the ticket's order: the CGA pension labelled
    # government service and the bank fund's pension, both read as pensions, pair in order
    assert align(["government_service", "pensions"], ["pensions", "pensions"]) == [0, 1]
    wrong_side = PartReading("out_of_scope", PredictedOutcome("abstain"))
    main = PartReading("employment", PredictedOutcome("both"))
    score = score_ticket(DIVIDENDS, TicketReading("PT-JP", "PT", "JP", {}, (main, wrong_side)))
    assert score.parts[0].read_topic == "employment" and score.extra_parts == 1
    summary = summarise([score])
    assert summary["abstention_precision"] == 0.0 and summary["topic_accuracy"] == 0.0


def test_the_answer_must_say_what_the_expected_outcome_says():
    expected = TWO_PARTS.parts[0].expected
    assert not answer_correct(expected, PartReading("employment", PredictedOutcome("residence_only", state="PT")))
    assert not answer_correct(expected, PartReading("employment", PredictedOutcome("both")))
    # "exempt" names the State that may not tax: exempt in Portugal is "only Brazil taxes"
    assert answer_correct(expected, PartReading("employment", PredictedOutcome("exempt", state="PT")))
    assert not answer_correct(expected, PartReading("employment", PredictedOutcome("exempt", state="BR")))
    grant = Expected(outcome="exempt", state="PT", articles=["21"])
    assert answer_correct(grant, PartReading("students", PredictedOutcome("residence_only", state="BR")))
    assert not answer_correct(grant, PartReading("students", PredictedOutcome("residence_only", state="PT")))
    # the residence State exempting is "only the source State taxes", whichever role the label gives it
    relief = Expected(outcome="source_only", state="BR", articles=["23(4)"])
    assert answer_correct(relief, PartReading("double_taxation_relief", PredictedOutcome("exempt", state="PT")))
    assert not answer_correct(relief, PartReading("double_taxation_relief", PredictedOutcome("exempt", state="BR")))
    capped = DIVIDENDS.parts[0].expected
    assert answer_correct(capped, PartReading("dividends", PredictedOutcome("capped", rates=(10.0,))))
    assert not answer_correct(capped, PartReading("dividends", PredictedOutcome("capped", rates=(10.0, 15.0))))
    assert not answer_correct(capped, PartReading("dividends", PredictedOutcome("abstain")))
    assert answer_correct(TWO_PARTS.parts[1].expected, PartReading("out_of_scope", PredictedOutcome("abstain")))
    both = Expected(outcome="both", articles=["23(1)"])      # a relief question: both tax, the residence credits
    assert answer_correct(both, PartReading("double_taxation_relief", PredictedOutcome("capped", rates=(15.0,))))
    assert not answer_correct(both, PartReading("double_taxation_relief", PredictedOutcome("residence_only", "PT")))
    assert not answer_correct(capped, PartReading("dividends", PredictedOutcome("both")))   # the cap was asked
    # only one State taxes: the same State is the same answer, whichever role the reading gave it
    posted = Expected(outcome="source_only", state="PT", articles=["19(2)"])
    assert answer_correct(posted, PartReading("government_service", PredictedOutcome("residence_only", state="PT")))
    assert not answer_correct(posted, PartReading("government_service", PredictedOutcome("residence_only", state="BR")))
    assert not answer_correct(posted, PartReading("government_service", PredictedOutcome("residence_only")))


def test_a_figure_answer_is_checked_in_the_parts_own_text():
    ticket = Ticket.model_validate({
        "id": "tk-hand-0003", "language": "es", "style": "chat", "source_url": "https://example.org/obra",
        "treaty": "BR-ES", "text": "¿Cuántos meses tiene que durar una obra en Brasil para ser establecimiento?",
        "parts": [{"question": "¿Cuántos meses tiene que durar una obra", "topic": "permanent_establishment",
                   "expected": {"outcome": "figure", "figures": ["6 meses"], "articles": ["5(3)"]}}]})
    expected = ticket.parts[0].expected
    assert answer_correct(expected, PartReading("permanent_establishment", PredictedOutcome("figure"),
                                                text="Una obra que dure más de 6 meses (art. 5(3))"))
    assert not answer_correct(expected, PartReading("permanent_establishment", PredictedOutcome("figure"),
                                                    text="Una obra que dure más de 9 meses (art. 5(3))"))


def test_numbers_are_read_with_any_separator_and_dates_do_not_glue_to_the_next_number():
    assert numbers_in("US$ 10.000 e 10 000 e 10,000") == {10000.0}
    assert numbers_in("em 2019 183 dias, 0,5%") == {2019.0, 183.0, 0.5}


def test_a_date_in_words_holds_its_month_number():
    assert numbers_in("28/07/2013") <= numbers_in("em vigor desde 28 de julho de 2013")
    assert numbers_in("in force since 28 July 2013") >= {28.0, 7.0, 2013.0}
    assert 7.0 not in numbers_in("a pensão de julho")          # a month alone is no date


def test_fact_precision_and_recall_with_tolerance_and_wrong_values():
    read = {"stay_months": 5.0, "employer_resident_in_work_state": True, "holding_months": 480}
    score = score_ticket(TWO_PARTS, reading(PartReading("employment", PredictedOutcome("both")), facts=read))
    assert score.facts.correct == 1 and score.facts.wrong_value == ("employer_resident_in_work_state",)
    assert score.facts.extra == ("holding_months",)
    summary = summarise([score])
    assert summary["fact_precision"] == pytest.approx(1 / 3) and summary["fact_recall"] == 0.5
    assert summary["fact_value_accuracy"] == 0.5


def test_a_fact_the_labels_cannot_hold_is_not_counted_as_extra():
    read = {"stay_months": 5.0, "fee_borne_by_company_or_pe": True}
    score = score_ticket(TWO_PARTS, reading(PartReading("employment", PredictedOutcome("both")), facts=read))
    assert score.facts.read == 1 and score.facts.extra == ()


def test_direction_is_both_states_and_a_swapped_reading_is_wrong():
    part = PartReading("employment", PredictedOutcome("both"))
    assert score_ticket(TWO_PARTS, reading(part)).direction_correct is True
    swapped = score_ticket(TWO_PARTS, reading(part, residence="PT", source="BR"))
    assert swapped.direction_correct is False and swapped.treaty_correct is True


def test_topic_method_accuracy_and_the_tables():
    assert topic_accuracy([TWO_PARTS, DIVIDENDS], [["employment"], ["dividends"]]) == pytest.approx(2 / 3)
    assert topic_accuracy([TWO_PARTS], [["out_of_scope", "employment"]]) == 1.0
    interest = PartReading("interest", PredictedOutcome("capped", rates=(10.0,)))
    scores = [score_ticket(TWO_PARTS, reading(PartReading("employment", PredictedOutcome("residence_only")))),
              score_ticket(DIVIDENDS, TicketReading("PT-JP", "PT", "JP", {}, (interest,)))]
    rep = report("train", scores, {"lexicon": 0.5})
    assert set(rep.languages) == {"pt", "en"} and rep.languages["en"]["topic_accuracy"] == 0.0
    assert rep.topics["dividends"]["read_as"] == {"interest": 1}
    text = markdown(rep)
    assert "| lexicon | 50% |" in text and "| dividends | 1 | 0% |" in text


# ---------------------------------------------------------------- real rule runs -> outcome vocabulary

def _outcome(text: str, **facts) -> PredictedOutcome:
    query = understand(text, rules.known_treaties())
    return outcome_of(run_rules(query, dataclasses.replace(query.facts, **facts)))


def test_a_stated_holding_gives_one_cap_and_a_missing_one_every_alternative():
    one = _outcome("Sou residente em Portugal e recebo dividendos de uma empresa brasileira onde detenho 30% do "
                   "capital há 3 anos. Qual a retenção no Brasil?", beneficiary_kind="company",
                   registered_central_bank=False)
    assert one == PredictedOutcome("capped", rates=(10.0,))
    many = _outcome("Sou residente em Portugal e recebo dividendos de uma empresa brasileira. Qual a retenção?")
    assert many.outcome == "capped" and len(many.rates) > 1 and "holding_pct" in many.missing


def test_who_may_tax_a_private_pension_and_the_tiebreaker_state():
    pension = _outcome("Moro em Portugal e recebo uma pensão privada de um fundo de pensões do Brasil. "
                       "Quem tributa a pensão?")
    assert pension == PredictedOutcome("residence_only", state="PT")
    assert outcome_of(None, abstained=True).outcome == "abstain"
    crew = understand("Moro no Rio e sou piloto de uma companhia aérea portuguesa em tráfego internacional. "
                      "Quem tributa o salário?", rules.known_treaties(), topic="employment")
    crew_run = run_rules(crew, dataclasses.replace(crew.facts, employment_kind="ship_aircraft"))
    assert outcome_of(crew_run).outcome == "both"   # the State of effective management may tax, and the residence


def test_a_pay_exempt_in_both_states_is_exempt_not_taxed_by_one():
    """PT-BR 20: a visiting researcher's pay "é isenta de impostos em ambos os Estados Contratantes"; it is not
    "only the host may tax", which the scorer would then take for the opposite of "exempt in the host"."""
    query = understand("A Universidade de Coimbra convidou-me, investigadora residente em Recife, para fazer "
                       "pesquisa lá durante um ano. Portugal pode tributar a minha bolsa?", rules.known_treaties(),
                       topic="professors")
    visit = outcome_of(run_rules(query, query.facts))
    assert visit.outcome == "exempt" and visit.state is None


def test_the_reader_parts_are_the_main_question_and_each_out_of_scope_side_note():
    query = understand("Vivo em Portugal, já tratei do IVA da minha atividade. Recebo dividendos do Brasil: qual a "
                       "retenção no Brasil?", rules.known_treaties())
    assert query.side_notes
    assert read_topics(query) == ["dividends", *["out_of_scope"] * len(query.side_notes)]
    assert stated_facts(understand("Tenho 30% do capital da empresa", rules.known_treaties())).get("holding_pct") == 30


# ---------------------------------------------------------------- the run, with the real assistant (BM25 only)

@pytest.fixture(scope="module")
def bm25_assistant():
    from assistant.pipeline import Assistant
    from assistant.retrieve import HybridSearch
    from config import load_settings
    from ingest.catalog import load_catalog
    from ingest.index import read_chunks_file

    settings = load_settings()
    search = HybridSearch(read_chunks_file(settings.index_dir), None)
    return Assistant(settings, load_catalog(settings.corpus_dir), search)


def test_the_run_reads_and_scores_every_ticket_and_the_topic_methods(bm25_assistant):
    from eval.tickets_run import run

    readers = (bm25_assistant.reader, bm25_assistant.direction_reader)
    methods_asked = ["lexicon", "nearest", "trained", "combined"]
    scores, methods, records = run([TWO_PARTS, DIVIDENDS], bm25_assistant, methods_asked, lambda ticket: readers,
                                   progress=False)
    assert [s.ticket_id for s in scores] == ["tk-hand-0001", "tk-hand-0002"]
    assert set(methods) == {"lexicon", "trained", "combined"}    # no dense index: no nearest example
    dividends = scores[1].parts[0]
    assert dividends.topic_correct and dividends.answer_correct and dividends.recall_at_5 == 1.0
    assert scores[1].direction_correct
    assert [p["gold_topic"] for p in records[0]["parts"]] == ["employment", "out_of_scope"]
    assert [p["topic"] for p in records[0]["read_parts"]][1:] == ["out_of_scope"]   # two questions, two parts
    assert records[0]["read_parts"] and records[0]["facts"]["gold"] == 2
    assert all(s.latency_ms is not None for s in scores)


def test_a_relief_question_answered_by_an_exemption_reads_exempt_in_the_exempting_state():
    query = understand("Vivo em São Paulo e recebo dividendos de uma sociedade espanhola. Como o Brasil elimina a "
                       "dupla tributação desses dividendos?", rules.known_treaties(), topic="double_taxation_relief")
    run = run_rules(query, query.facts)
    assert outcome_of(run, topic="double_taxation_relief") == PredictedOutcome("exempt", state="BR")
    assert outcome_of(run).outcome == "capped"           # the same run read as a dividends question
    credit = understand("Vivo em Lisboa e recebo juros de um banco brasileiro. Como Portugal elimina a dupla "
                        "tributação?", rules.known_treaties(), topic="double_taxation_relief")
    assert outcome_of(run_rules(credit, credit.facts), topic="double_taxation_relief").outcome != "exempt"


def test_a_ticket_refused_as_a_whole_reads_an_abstention_for_each_question(bm25_assistant):
    from eval.tickets_run import reading_of

    answer = bm25_assistant.ask("Herdei um apartamento em Lisboa da minha tia. Pago imposto do selo sobre a "
                                "herança? E a fatura das obras que fiz lá leva IVA a 6% ou a 23%?")
    reading = reading_of(answer)
    assert [(p.topic, p.outcome.outcome) for p in reading.parts] == [("out_of_scope", "abstain")] * 2
