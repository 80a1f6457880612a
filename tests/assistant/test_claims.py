"""The claim check: who may tax, exemptions, numbers and articles, sentence by sentence, against the real
rule results; and end to end, a scripted model that writes contradictions in pt/es/en gets exactly those
sentences dropped."""
from __future__ import annotations

import pytest

import rules
from assistant.apply_rules import RuleRun
from assistant.claims import Grounds, StateClaim, articles_in, check_sentence, known_states, state_claims, tax_outcome
from rules import Facts
from tests.assistant.conftest import scripted

STATES = known_states()
PT_BR = {"source": "BR", "residence": "PT"}


@pytest.mark.parametrize("sentence,language,claims", [
    ("Portugal não pode tributar porque é uma pessoa residente em Portugal.", "pt", [("PT", "not")]),
    ("A pensão só pode ser tributada no Brasil [1].", "pt", [("BR", "alone")]),
    ("O Brasil pode tributar os dividendos, mas no máximo 15% [1].", "pt", [("BR", "taxes")]),
    ("Como reside em Portugal, o Brasil só pode tributar até 15% [1].", "pt", [("BR", "taxes")]),
    ("A pensão está isenta no Brasil.", "pt", [("BR", "not")]),
    ("O Estado da fonte pode tributar.", "pt", [("BR", "taxes")]),
    ("La pensión solo puede gravarse en Brasil, no en Portugal.", "es", [("BR", "alone"), ("PT", "not")]),
    ("España no puede gravar la pensión.", "es", [("ES", "not")]),
    ("Only Brazil may tax the pension [1].", "en", [("BR", "alone")]),
    ("The pension is not taxed in Portugal.", "en", [("PT", "not")]),
    ("Both States may tax the dividends.", "en", [("BR", "taxes"), ("PT", "taxes")]),
    ("You live in Portugal and receive a pension from Brazil.", "en", []),
    ("Portugal's tax authority needs your certificate.", "en", []),
])
def test_state_claims_in_three_languages(sentence, language, claims):
    found = state_claims(sentence, language, STATES, PT_BR)
    assert [(c.state, c.claim) for c in found] == claims


def test_articles_are_read_in_any_spelling():
    assert articles_in("Ver o artigo 18, o art. 10.º, el artículo 23 y Article 7") == ["18", "10", "23", "7"]


def _grounds(run: RuleRun, texts: tuple[str, ...], refs=frozenset({1}), language="pt") -> Grounds:
    return Grounds(outcome=tax_outcome(run), exemption=run.gives_exemption, texts=texts, refs=refs,
                   language=language)


def test_pension_outcome_only_the_source_state_taxes():
    run = RuleRun(rights=[rules.taxing_rights("PT-BR", "pensions", "PT", Facts(pension_kind="social_security"))])
    grounds = _grounds(run, ("Só o Brasil pode tributar.", "PT-BR art. 18(2)"))
    assert check_sentence("A pensão só pode ser tributada no Brasil [1].", grounds).ok
    assert check_sentence("Portugal não pode tributar esta pensão [1].", grounds).ok
    swapped = check_sentence("A pensão só pode ser tributada em Portugal [1].", grounds)
    assert not swapped.ok and swapped.contradictions == (StateClaim("PT", "alone"),)
    assert not check_sentence("O Brasil não pode tributar a pensão.", grounds).ok


def test_dividend_cap_neither_state_alone_and_no_exemption():
    run = RuleRun(rights=[rules.taxing_rights("PT-BR", "dividends", "PT", Facts())])
    grounds = _grounds(run, ("O Brasil retém no máximo 10% ou 15%.", "PT-BR art. 10(2)"))
    assert check_sentence("O Brasil pode tributar, no máximo 15% [1].", grounds).ok
    assert not check_sentence("Os dividendos só são tributados em Portugal.", grounds).ok
    assert "exemption" in check_sentence("Os dividendos estão isentos de retenção.", grounds).problems[0]
    assert "numbers 12" in check_sentence("O Brasil retém doze por cento [1].", grounds).problems[0]
    assert "articles 11" in check_sentence("É o que diz o artigo 11 [1].", grounds).problems
    assert check_sentence("É o que diz o artigo 10 [1].", grounds).ok


def test_no_outcome_on_who_taxes_means_no_such_claim():
    grounds = _grounds(RuleRun(), ("Uma obra de construção é estabelecimento estável após 9 meses.",))
    assert check_sentence("A obra é estabelecimento estável após 9 meses.", grounds).ok
    assert not check_sentence("Portugal pode tributar os lucros.", grounds).ok


# ---------------------------------------------------------------- end to end: a model that contradicts the card

PENSION_PT = "Sou residente em Portugal e recebo uma pensão do INSS brasileiro. Onde pago imposto?"
INTEREST_EN = "I live in Japan and receive interest from a Portuguese bank. What is the cap?"
ROYALTIES_ES = "Vivo en España y cobro cánones de una empresa brasileña por una patente."


@pytest.mark.parametrize("question,reply,kept,dropped", [
    (PENSION_PT, "Como a pensão é do INSS, só o Brasil pode tributá-la [1]. A pensão só pode ser tributada em "
                 "Portugal [1]. Por isso está isento no Brasil.",
     "Como a pensão é do INSS, só o Brasil pode tributá-la [1].", 2),
    (INTEREST_EN, "Portugal may tax the interest at most 10% [1]. Only Japan may tax the interest. "
                  "The interest is exempt in Portugal. This follows from Article 12 [1].",
     "Portugal may tax the interest at most 10% [1].", 3),
    (ROYALTIES_ES, "Brasil puede gravar los cánones como máximo al 15% [1]. España no puede gravar los cánones. "
                   "Brasil retiene el doce y medio por ciento [1].",
     "Brasil puede gravar los cánones como máximo al 15% [1].", 2),
])
def test_scripted_contradictions_are_dropped(make_assistant, question, reply, kept, dropped):
    answer = make_assistant(scripted(reply)).ask(question)
    assert answer.explanation == kept, answer.guardrail.dropped
    assert answer.guardrail.sentences_dropped == dropped and answer.guardrail.action == "trimmed"
    assert all(d.split(" — ")[0][:40] not in answer.answer for d in answer.guardrail.dropped)


# ---------------------------------------------------------------- "a State cannot tax" (issue 21), subsumed here

ISSUE_SENTENCE = ("los dividendos de Brasil no pueden ser gravados en España, ya que España puede gravar hasta un "
                  "máximo de 15% [1]")


def _br_es_dividends() -> RuleRun:
    facts = Facts(beneficiary_kind="individual")
    return RuleRun(withholding=[rules.withholding_cap("BR-ES", "dividends", "BR", facts)])


def test_a_state_said_not_to_tax_that_may_tax_is_refused():
    run = _br_es_dividends()
    verdict = check_sentence(ISSUE_SENTENCE, _grounds(run, ("hasta un máximo de 15%",), language="es"))
    assert not verdict.ok and StateClaim("ES", "not") in verdict.contradictions


@pytest.mark.parametrize("text, language, state", [
    (ISSUE_SENTENCE, "es", "ES"),
    ("Espanha não pode tributar estes dividendos [1].", "pt", "ES"),
    ("Os dividendos não podem ser tributados no Brasil [1].", "pt", "BR"),
    ("Spain cannot tax the dividends [1].", "en", "ES"),
    ("The dividends are not taxable in Brazil [1].", "en", "BR"),
    ("Brasil no puede gravar los dividendos [1].", "es", "BR"),
])
def test_denials_in_three_languages(text, language, state):
    assert StateClaim(state, "not") in state_claims(text, language, STATES)
    verdict = check_sentence(text, _grounds(_br_es_dividends(), ("15%",), language=language))
    assert StateClaim(state, "not") in verdict.contradictions


@pytest.mark.parametrize("text, language", [
    ("Os dividendos não podem ser tributados no Brasil acima de 15% [1].", "pt"),      # a cap, not a denial
    ("Spain may tax the dividends; Brazil may tax them too, at most 15% [1].", "en"),
    ("Brasil puede gravar hasta un máximo de 15% [1].", "es"),
])
def test_caps_and_grants_are_not_denials(text, language):
    assert check_sentence(text, _grounds(_br_es_dividends(), ("15%",), language=language)).ok


def test_the_issue_sentence_never_reaches_the_user(make_assistant):
    model = scripted(ISSUE_SENTENCE + ".")
    question = "Vivo en España y cobro dividendos de una empresa de Brasil. ¿Qué impuesto pagan?"
    answer = make_assistant(model).ask(question)
    assert answer.treaty == "BR-ES" and 15 in [r.value for r in answer.rates]
    assert answer.guardrail.action == "fallback" and not answer.explanation
    assert "ES:not" in answer.guardrail.dropped[0]


def test_the_prompts_scaffolding_written_back_is_dropped():
    run = RuleRun(rights=[rules.taxing_rights("PT-JP", "pensions", "JP", Facts(pension_kind="social_security"))])
    grounds = _grounds(run, ("Só o Japão pode tributar.", "PT-JP art. 17"), refs=frozenset({1, 2, 3}))
    echo = "Passagens (cite apenas [1] [2] [3]): [1] PT-JP art. 17: Pensão | Só o Estado de residência."
    assert "prompt echo" in check_sentence(echo, grounds).problems
    assert "prompt echo" in check_sentence("RESULT: só o Japão tributa [1].", grounds).problems
    assert check_sentence("Só o Japão pode tributar esta pensão (art. 17) [1].", grounds).ok
    assert check_sentence("Segundo o art. 17 [1]: só o Japão tributa a pensão.", grounds).ok
