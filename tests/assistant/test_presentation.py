"""The card as data and its views (markdown, reply, prompt facts, grounding, triage), on real rule results and
the real corpus: one formatter per language, statuses given to the views, nothing parsed back."""
from __future__ import annotations

import inspect
import json
import re
from pathlib import Path

import pytest

import assistant.pipeline as pipeline
from assistant.apply_rules import RuleRun
from assistant.presentation import build, grounding, markdown, prompt, reply, triage
from assistant.presentation.build import Part, build_card
from assistant.presentation.card import Card
from assistant.presentation.markdown import card_markdown
from assistant.presentation.reply import REPLY_CHARS, Reply
from assistant.presentation.values import Formatter
from rules import Facts, taxing_rights, withholding_cap

EVAL = Path(__file__).resolve().parents[2] / "eval"
# What must never reach a reply: markdown emphasis, headings, list bullets, status marks, [n] markers.
MARKDOWN = re.compile(r"\*\*|__|^#|^\s*[-*] |[✔✘≈]|\[\d+\]|(?<![\w(])_\w|\s\?\s", re.MULTILINE)

DIVIDENDS_PT = "Sou residente em Portugal e recebo dividendos de uma empresa brasileira. Qual a taxa?"
ROYALTIES_ES = "Vivo en España y cobro cánones de una empresa brasileña por una patente."
INTEREST_EN = "I live in Japan and receive interest from a Portuguese bank. What is the cap?"
PENSION_PT = "Vivo em Lisboa e recebo uma pensão do INSS brasileiro. Quem tributa?"


def _card(run: RuleRun, topic: str, language: str, treaty: str) -> Card:
    return build_card([Part(None, topic, run)], lambda c: None, language, [treaty], [], [])


# ---- one formatter per language --------------------------------------------------------------------------

def test_numbers_rates_and_states_follow_the_language():
    pt, es, en = Formatter("pt"), Formatter("es"), Formatter("en")
    assert (pt.rate(12.5), es.rate(12.5), en.rate(12.5)) == ("12,5%", "12,5%", "12.5%")
    assert pt.rate(15) == "15%" and en.quantity(183, "days") == "183 days" and pt.quantity(1, "years") == "1 ano"
    assert (pt.state("BR", "in"), es.state("BR", "in"), en.state("BR", "in")) == ("no Brasil", "en Brasil",
                                                                                  "in Brazil")
    assert (pt.state("BR", "the"), pt.state("PT", "the"), pt.state("ES", "of")) == ("o Brasil", "Portugal",
                                                                                    "de Espanha")
    assert pt.treaty("PT-BR") == "Portugal–Brasil" and en.treaty("BR-ES") == "Brazil–Spain"


def test_articles_are_named_in_full_in_each_language():
    assert Formatter("pt").article("PT-BR", "18", "2", None) == "artigo 18.º, n.º 2, da Convenção Portugal–Brasil"
    assert Formatter("es").article("BR-ES", "18", "2", None) == "artículo 18, apartado 2, del Convenio Brasil–España"
    assert Formatter("en").article("PT-BR", "18", "2", None) == "Article 18(2) of the Portugal–Brazil Convention"
    assert Formatter("pt").article("PT-BR", "10", "2", "a") == \
        "artigo 10.º, n.º 2, alínea a), da Convenção Portugal–Brasil"
    assert Formatter("pt").article("PT-BR", "23", None, None) == "artigo 23.º da Convenção Portugal–Brasil"
    assert Formatter("en").article("PT-BR", "Protocolo 5", None, None) == \
        "point 5 of the Protocol of the Portugal–Brazil Convention"


# ---- the card as data ------------------------------------------------------------------------------------

def test_lines_carry_typed_rates_states_statuses_and_refs():
    result = withholding_cap("PT-BR", "dividends", "BR", Facts(beneficiary_kind="company", holding_pct=30,
                                                                direct_holding=True, holding_months=9))
    card = build_card([Part(None, "dividends", RuleRun(withholding=[result]))],
                      lambda c: 7 if c.article == "10" else None, "pt", ["PT-BR"], [], [])
    assert [(r.value, r.source_state, r.residence_state) for r in card.rates()] == [(15.0, "BR", "PT")]
    assert card.rates()[0].ref is not None and card.rates()[0].ref.label() == "PT-BR art. 10(2)(b)"
    assert {"BR", "PT"} <= grounding.grounding(card).states
    statuses = {c.status for line in card.lines() for c in line.checks()}
    assert "not_met" in statuses                                  # the 2-year holding the facts fail
    assert any(7 in line.refs for line in card.lines())


def test_the_app_gives_the_markdown_view_its_own_status_marks():
    result = withholding_cap("PT-BR", "dividends", "BR", Facts(beneficiary_kind="company", holding_pct=30,
                                                                direct_holding=True, holding_months=9))
    card = _card(RuleRun(withholding=[result]), "dividends", "pt", "PT-BR")
    assert "✘" in card_markdown(card)
    icons = card_markdown(card, {"met": ":check:", "not_met": ":close:", "unknown": "?", "assumed_not_met": "≈"})
    assert ":close:" in icons and "✘" not in icons


def test_the_same_card_reads_in_another_language():
    """The triage panel may speak the agent's language while the card speaks the customer's."""
    card = _card(RuleRun(rights=[taxing_rights("PT-BR", "pensions", "PT", Facts(pension_kind="social_security"))]),
                 "pensions", "pt", "PT-BR")
    en = triage.triage(card, "en")
    assert en.treaty == "Portugal–Brazil" and en.who_taxes == ("only Brazil may tax; Portugal may not tax",)
    assert triage.triage(card, "pt").who_taxes == ("só o Brasil pode tributar; Portugal não pode tributar",)
    withheld = _card(RuleRun(withholding=[withholding_cap("BR-ES", "dividends", "ES", Facts(holding_pct=30))]),
                     "dividends", "es", "BR-ES")
    assert triage.triage(withheld, "pt").who_taxes == ("Espanha (fonte) pode reter; Brasil (residência) tributa",)
    assert triage.triage(withheld, "en").caps == ((15.0,),)


def test_the_card_is_built_once_and_every_view_takes_the_card(make_assistant, monkeypatch):
    calls = []

    def counted(*args, **kwargs):
        calls.append(1)
        return build.build_card(*args, **kwargs)
    monkeypatch.setattr(pipeline, "build_card", counted)
    answer = make_assistant().ask(DIVIDENDS_PT)
    assert len(calls) == 1 and isinstance(answer.card_data, Card)
    views = [markdown.card_markdown, reply.reply, prompt.prompt_facts, grounding.grounding, triage.triage]
    for view in views:
        first = next(iter(inspect.signature(view).parameters.values()))
        assert first.annotation in ("Card", Card), view.__name__
        assert "RuleRun" not in str(inspect.signature(view)), view.__name__


# ---- views that must not carry markdown ------------------------------------------------------------------

@pytest.mark.parametrize("question", [DIVIDENDS_PT, ROYALTIES_ES, INTEREST_EN, PENSION_PT])
def test_no_markdown_where_none_belongs(make_assistant, question):
    answer = make_assistant().ask(question)
    card = answer.card_data
    assert "**" in answer.card                                     # the markdown view does stress
    plain = [answer.reply, reply.reply(card).html, *grounding.grounding(card).statements,
             *triage.triage(card, "pt").who_taxes]
    for text in plain:
        assert not MARKDOWN.search(text), text
    assert "**" not in prompt.prompt_facts(card, {1, 2}, 800) and "#" not in prompt.prompt_facts(card, {1}, 800)


def test_grounding_leaves_out_the_rate_the_user_asserted(make_assistant):
    answer = make_assistant().ask("Sou residente em Portugal e recebo juros do Brasil; o Brasil retém 25%, certo?")
    assert answer.premise and "25%" in answer.card
    ground = grounding.grounding(answer.card_data)
    assert 25.0 not in ground.rates and 15.0 in ground.rates and {"BR", "PT"} <= ground.states
    assert not any("25%" in s for s in ground.statements)


# ---- the sendable reply ------------------------------------------------------------------------------------

def test_reply_in_portuguese(make_assistant):
    text = make_assistant().ask(DIVIDENDS_PT).reply
    assert text.startswith("Olá,") and "Segundo a Convenção Portugal–Brasil:" in text
    assert "no máximo 10%" in text and "no máximo 15%" in text
    assert "artigo 10.º, n.º 2, alínea a)" in text and "da Convenção Portugal–Brasil" in text
    assert re.search(r"pode indicar-nos [^\n]*quem é o beneficiário[^\n]*\?", text)    # missing facts, asked
    assert text.endswith("não substitui aconselhamento fiscal sobre a sua situação concreta.")
    assert "Com os melhores cumprimentos," in text


def test_reply_in_spanish(make_assistant):
    text = make_assistant().ask(ROYALTIES_ES).reply
    assert text.startswith("Hola:") and "Según el Convenio Brasil–España:" in text and "como máximo 15%" in text
    assert "artículo 12, apartado 2, letra" in text and "del Convenio Brasil–España" in text
    assert "Un cordial saludo," in text and text.endswith("sobre su situación concreta.")
    assert "Olá" not in text and "Convenção" not in text


def test_reply_in_english(make_assistant):
    text = make_assistant().ask(INTEREST_EN).reply
    assert text.startswith("Hello,") and "at most 10%" in text
    assert "Legal basis: Article 11(2);" in text and "of the summary of the Portugal–Japan Convention." in text
    assert text.count("Source: a summary of the treaty") <= 1
    assert "Kind regards," in text and text.endswith("tax advice on your specific situation.")


def test_a_refusal_is_sendable_too(make_assistant):
    answer = make_assistant().ask("Sou residente em França e recebo dividendos de Portugal. Qual a taxa?")
    assert answer.abstained and answer.reply.startswith("Olá,") and "Convenções cobertas" in answer.reply
    assert answer.reply.endswith("situação concreta.")


def test_quotes_only_on_request(make_assistant):
    card = make_assistant().ask(PENSION_PT).card_data
    quoted = reply.reply(card, quotes=True).text
    assert "“" not in reply.reply(card).text and "“" in quoted and "Texto citado:" in quoted


def test_reply_html_is_escaped_paragraphs():
    html = Reply("pt", ("Olá,", "a <b> & c")).html
    assert html == "<p>Olá,</p><p>a &lt;b&gt; &amp; c</p>"


def _questions() -> list[str]:
    return [json.loads(line)["question"] for path in sorted(EVAL.glob("questions*.jsonl"))
            for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_a_one_part_reply_fits_in_1200_characters(make_assistant):
    """Over every question of the eval set (pt, es, en): a card with one section gives a reply ≤ 1,200
    characters, with no markdown, in the question's language."""
    assistant = make_assistant()
    greetings = {"pt": "Olá,", "es": "Hola:", "en": "Hello,"}
    checked = 0
    for question in _questions():
        answer = assistant.ask(question)
        if answer.card_data is None or len(answer.card_data.sections) != 1:
            continue
        checked += 1
        assert len(answer.reply) <= REPLY_CHARS, (question, len(answer.reply))
        assert answer.reply.startswith(greetings[answer.language]), question
        assert not MARKDOWN.search(answer.reply), (question, answer.reply)
    assert checked > 250


# ---- a ticket that asks the rate and how the double taxation is removed --------------------------------------

RATE_AND_RELIEF = {
    "pt": ("Sou residente em Portugal e recebo dividendos de uma empresa brasileira. Qual a taxa de retenção no "
           "Brasil e como evito a dupla tributação em Portugal?", "Como Portugal elimina a dupla tributação"),
    "es": ("Resido en Brasil y cobro cánones de una empresa española. ¿Cuál es la retención en España y cómo "
           "evito la doble imposición en Brasil?", "Cómo elimina Brasil la doble imposición"),
}


@pytest.mark.parametrize("lang", sorted(RATE_AND_RELIEF))
def test_rate_and_relief_are_two_parts_each_paragraph_said_once_and_the_reply_says_how(make_assistant, lang):
    question, relief = RATE_AND_RELIEF[lang]
    answer = make_assistant().ask(question)
    assert [p.topic for p in answer.parts][-1] == "double_taxation_relief"
    assert len(answer.parts) == 2 and answer.parts[0].topic in ("dividends", "royalties")
    card = answer.card_data
    said = [line.text for section in card.sections for line in section.lines if line.level == 0]
    repeated = [x for k, x in enumerate(said) if x in said[:k]]
    assert not repeated, repeated
    assert answer.rates and card.sections[0].lines[0].kind == "heading"             # the rate, in the first part
    assert relief in answer.card and relief in answer.reply                          # asked, so it is in the reply
    assert answer.card.count(relief) == 1
