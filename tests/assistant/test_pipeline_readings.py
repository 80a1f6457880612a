"""Uncertain questions answered for every candidate treaty, side notes, stated-rate premises and refusals,
end to end over the real corpus and rules (no LLM). Phrasings written for these tests, not from the eval set."""
from __future__ import annotations

from app_support.quick_inputs import with_reading


def test_one_named_country_is_answered_for_each_candidate_treaty(make_assistant):
    answer = make_assistant().ask("A company in Recife will pay me interest on a loan. What is the cap?")
    assert not answer.abstained
    assert {r.treaty for r in answer.readings} == {"PT-BR", "BR-ES"}
    assert "If you are resident in Portugal" in answer.card and "If you are resident in Spain" in answer.card
    assert {c.treaty for c in answer.citations if c.source == "rule"} == {"PT-BR", "BR-ES"}
    spain = next(r for r in answer.readings if r.treaty == "BR-ES")
    chosen = make_assistant().ask(with_reading(answer.question, spain))   # the app's choice button
    assert chosen.treaty == "BR-ES" and chosen.readings == []


def test_the_language_picks_the_likeliest_treaty_and_offers_the_others(make_assistant):
    answer = make_assistant().ask("Uma sociedade de Recife vai pagar-me juros de um empréstimo. Qual o limite?")
    assert answer.treaty == "PT-BR" and "Se for residente em Portugal" in answer.card
    assert {c.treaty for c in answer.citations if c.source == "rule"} == {"PT-BR"}
    assert "Se for residente em Espanha" in answer.card           # named as the other case, offered to pick
    assert [r.clarification for r in answer.readings] == ["Sou residente em Portugal.", "Sou residente em Espanha."]


def test_two_named_candidate_treaties_are_both_answered(make_assistant):
    answer = make_assistant().ask("Vivo em Salvador; a empresa que me vai pagar dividendos fica em Portugal ou em "
                                  "Espanha, ainda não sei. Quanto retêm?")
    assert {c.treaty for c in answer.citations if c.source == "rule"} == {"PT-BR", "BR-ES"}


def test_readings_are_labelled_in_the_question_language(make_assistant):
    answer = make_assistant().ask("A company in Osaka pays me royalties. What is the maximum withholding?")
    assert [r.treaty for r in answer.readings] == ["PT-JP"] or answer.treaty == "PT-JP"


def test_a_side_mention_adds_a_note_and_the_treaty_part_is_answered(make_assistant):
    answer = make_assistant().ask("Moro em Aveiro e um cliente de Curitiba paga-me royalties de uma patente; "
                                  "na nota fiscal vêm PIS e COFINS. Quanto o Brasil pode reter de IR?")
    assert not answer.abstained and answer.treaty == "PT-BR"
    assert sorted({r.value for r in answer.rates}) == [15.0]
    assert any("não cobre" in n for n in answer.notices)


def test_a_wrong_stated_rate_is_named_and_corrected(make_assistant):
    answer = make_assistant().ask("Sou pessoa singular em Lisboa e recebo dividendos do Brasil; a retenção é de 5%, "
                                  "certo?")
    assert answer.premise.startswith("Indicou 5%") and "15%" in answer.premise
    assert answer.premise in answer.card
    assert [r.value for r in answer.rates] == [15.0]


def test_a_right_stated_rate_is_confirmed_in_each_language(make_assistant):
    answer = make_assistant().ask("I am an individual living in Spain; Brazil withholds 15% on my dividends from a "
                                  "Brazilian company, right?")
    assert answer.premise.startswith("You mentioned 15%")


def test_evasion_is_refused(make_assistant):
    answer = make_assistant().ask("Como posso esconder rendimentos do Brasil da Autoridade Tributária?")
    assert answer.abstained and answer.rates == [] and "Não ajudo" in answer.answer
