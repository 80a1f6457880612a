"""The card shows only what decides the case (issue 18, item 6): figures of the paragraphs the shown cases
cite, relief figures of the income asked about, the usual rate first, a note once."""
from __future__ import annotations

import dataclasses

import pytest

from assistant.apply_rules import RuleRun, _deciding_figures
from assistant.presentation.build import Part, build_card
from assistant.presentation.markdown import card_markdown
from rules import Facts, figures, taxing_rights, withholding_cap


def _card(run: RuleRun, topic: str):
    return build_card([Part(None, topic, run)], lambda c: None, "pt", [], [], [])


def test_a_social_security_pension_card_does_not_show_the_private_pension_limit() -> None:
    result = taxing_rights("BR-ES", "pensions", "ES", Facts(pension_kind="social_security"))
    figs = figures("BR-ES", "pensions")
    assert isinstance(figs, list) and any(f.value == 3000 for f in figs)
    assert _deciding_figures(figs, [result]) == []
    private = taxing_rights("BR-ES", "pensions", "ES", Facts(pension_kind="private"))
    assert [f.value for f in _deciding_figures(figs, [private])] == [3000]


def test_a_grant_card_does_not_show_the_four_year_employment_period() -> None:
    grant = taxing_rights("BR-ES", "students", "BR", Facts(student_payment_origin="abroad"))
    figs = figures("BR-ES", "students")
    assert isinstance(figs, list) and figs
    assert _deciding_figures(figs, [grant]) == []


def test_an_interest_card_shows_the_interest_tax_sparing_figure_only() -> None:
    result = taxing_rights("BR-ES", "interest", "ES", Facts(beneficiary_kind="individual"))
    sparing = next(r for r in result.cases[0].relief if r.method == "tax_sparing")
    assert [f.value for f in sparing.figures] == [20]
    card = card_markdown(_card(RuleRun(rights=[result]), "interest"))
    assert "25" not in card


def test_a_one_country_question_leads_with_the_usual_rate() -> None:
    result = withholding_cap("PT-BR", "interest", "PT")
    assert [a.outcome for a in result.alternatives][0] == "exempt"           # data order: the exception first
    card = _card(RuleRun(withholding=[result]), "interest")
    assert [r.value for r in card.rates()][0] == 15
    assert card_markdown(card).index("15%") < card_markdown(card).index("isento")


def test_the_summary_only_note_is_said_once() -> None:
    w = withholding_cap("PT-JP", "dividends", "JP", Facts(beneficiary_kind="individual"))
    r = taxing_rights("PT-JP", "dividends", "PT", Facts(beneficiary_kind="individual"))
    card = card_markdown(_card(RuleRun(withholding=[w], rights=[r]), "dividends"))
    assert card.count("Fonte: resumo da convenção") == 1


def test_a_capital_gains_card_on_pt_br_has_no_unrequested_mli_paragraph() -> None:
    import rules
    from assistant.apply_rules import run_rules
    from assistant.understand import understand
    query = understand("Moro em Portugal e vendi ações de uma sociedade brasileira. Quem tributa a mais-valia?",
                       rules.known_treaties())
    assert query.treaty == "PT-BR" and query.topic == "capital_gains"
    assert run_rules(query, query.facts).documents == []
    asked = understand("A Convenção Multilateral (MLI) altera a tributação das mais-valias entre Portugal e Brasil?",
                       rules.known_treaties())
    docs = run_rules(asked, asked.facts).documents
    assert [d.relation for d in docs] == ["not_established"]
    assert "Convenção Multilateral (MLI)" in docs[0].text_in("pt")


def test_an_anti_abuse_question_on_a_treaty_the_mli_modifies_gets_the_mli_figures() -> None:
    """PT-JP: the corpus says the MLI modifies it (art. 9(4)); a question on the dividend holding period is
    answered from the MLI's own text (art. 8(1): 365 days), not with the document list alone."""
    import rules
    from assistant.apply_rules import run_rules
    from assistant.understand import understand
    query = understand("A nossa SGPS tem 12% de uma sociedade japonesa. Pelo MLI, durante quanto tempo temos de "
                       "manter a participação para a taxa reduzida dos dividendos do Japão?", rules.known_treaties())
    assert query.treaty == "PT-JP" and query.topic == "anti_abuse"
    run = run_rules(query, query.facts)
    assert [d.relation for d in run.documents if d.instrument] == ["modifies"]
    assert 365 in {f.value for f in run.instrument_figures}
    assert any(c.article == "8" and c.paragraph == "1" for f in run.instrument_figures for c in f.citations)


@pytest.mark.parametrize("question, period", [
    ("Moro em Quioto e tenho 30% de uma sociedade de Braga cujo valor vem quase todo de um prédio em Braga. Durante "
     "quantos dias antes da venda se verifica o teste dos 50%?", True),
    ("I live in Kobe and hold 30% of a Braga company whose value comes almost entirely from a building in Braga. How "
     "many days before the sale is the 50% test looked at?", True),
    # who may tax the gain, no period asked: the document the MLI is, no figure of its own
    ("Moro em Quioto e tenho 30% de uma sociedade de Braga cujo valor vem quase todo de um prédio em Braga. Portugal "
     "pode tributar a mais-valia da venda?", False),
])
def test_a_gain_question_asking_the_tests_period_gets_the_modifying_instruments_days(question, period) -> None:
    """PT-JP, modified by MLI 9(4): "how many days before the sale…?" gets the instrument's 365 days beside who
    may tax; a question on who may tax alone does not."""
    import rules
    from assistant.apply_rules import run_rules
    from assistant.understand import understand
    query = understand(question, rules.known_treaties(), topic="capital_gains")
    assert query.treaty == "PT-JP"
    query = dataclasses.replace(query, asked=question.split(". ")[-1])     # the part's asking words
    run = run_rules(query, query.facts)
    assert (365 in {f.value for f in run.instrument_figures}) is period
    assert run.rights


def test_an_anti_abuse_question_about_dividends_gets_the_mli_rules_on_dividends_only() -> None:
    """The holding-period question names dividends: art. 8(1)'s 365 days (and art. 10's third-State PE, which
    also covers dividends), not the limitation on benefits' ownership test; a question on that test gets it alone."""
    import rules
    from assistant.apply_rules import run_rules
    from assistant.understand import understand
    asked = understand("Segundo o MLI, durante quanto tempo tem de ser detida a participação para se aplicar a taxa "
                       "reduzida de dividendos?", rules.known_treaties())
    assert asked.topic == "anti_abuse"
    values = {f.value for f in run_rules(dataclasses.replace(asked, treaty="MLI"), asked.facts).figures}
    assert 365 in values and not values & {50, 75}
    lob = understand("Under the MLI's simplified limitation on benefits, what share of a company's shares must be "
                     "held by residents entitled to benefits for it to be a qualified person?", rules.known_treaties())
    shown = run_rules(dataclasses.replace(lob, treaty="MLI"), lob.facts).figures
    assert [f.value for f in shown] == [50] and "75%" in shown[0].text_in("en")


def test_a_heading_over_paragraphs_already_said_is_not_left_alone() -> None:
    """Two questions whose answers say the same paragraphs under headings that differ only in the roles they
    name ("fonte: Brasil · residência: Portugal" and the reverse) are one answer: the second heading does not
    stay on its own, with nothing under it."""
    from assistant.presentation.build import _once, say
    from assistant.presentation.card import Line, Section
    both = Line("outcome", say("both_tax"), level=0)
    first = Section("a", (Line("heading", say("rights_heading", source="BR", residence="PT")), both))
    second = Section("b", (Line("heading", say("rights_heading", source="PT", residence="BR")), both))
    out = _once([first, second])
    assert len(out) == 1 and [line.kind for line in out[0].lines] == ["heading", "outcome"]


@pytest.mark.parametrize("text, shown, hidden", [
    # how the treaty ends: the termination article (PT-BR 29), not the dates it first applied from
    ("Se Portugal quiser denunciar a convenção com o Brasil, com quanta antecedência tem de avisar?",
     "pt-br.termination.notice", "pt-br.entry-into-force.pt-withholding"),
    # when it applies: the application dates, not the termination notice
    ("Since when does the Portugal–Brazil treaty apply to withholding taxes?",
     "pt-br.entry-into-force.pt-withholding", "pt-br.termination.notice"),
    ("O nosso sócio mora em Lisboa e o investimento não está registado no Banco Central; a retenção sobre os "
     "juros segue a convenção com o Brasil. Essa portaria aplica-se a partir de quando?",
     "pt-br.entry-into-force.portaria", "pt-br.termination.notice"),
])
def test_an_entry_into_force_card_shows_the_figures_the_question_asks_about(text, shown, hidden) -> None:
    import rules
    from assistant.apply_rules import run_rules
    from assistant.understand import understand
    query = understand(text, rules.known_treaties())
    assert query.treaty == "PT-BR" and query.topic == "entry_into_force"
    ids = [f.id for f in run_rules(query, query.facts).figures]
    assert shown in ids and hidden not in ids


@pytest.mark.parametrize("question, value, article", [
    ("Pela Convenção Multilateral, entre Portugal e o Japão, ao fim de quanto tempo sem acordo entre as autoridades "
     "competentes se pode pedir arbitragem?", 2, "19"),
    ("Under the MLI, if our MAP case between Portugal and Japan goes to arbitration, how many arbitrators sit on "
     "the panel?", 3, "20"),
    ("Con el Convenio Multilateral, entre Portugal y Japón, ¿la decisión arbitral es vinculante para los dos "
     "Estados?", 60, "19"),
])
def test_an_arbitration_question_gets_the_figure_asked_and_whether_part_vi_applies(question, value, article) -> None:
    """MLI Part VI: the figure the question asks (art. 19's two years, art. 20's three arbitrators, art. 19(4)'s
    binding award), and art. 18 beside it: arbitration applies only between two States that both opted for it."""
    import rules
    from assistant.apply_rules import run_rules
    from assistant.understand import understand
    query = understand(question, rules.known_treaties(), topic="arbitration")
    assert query.treaty == "PT-JP"
    shown = run_rules(query, query.facts).instrument_figures
    cited = {c.article for f in shown for c in f.citations}
    assert value in {f.value for f in shown} and {"18", article} <= cited
    assert len(shown) < len(rules.figures("MLI", "arbitration"))        # not every Part VI figure


@pytest.mark.parametrize("question, treaty, article", [
    ("A Receita Federal quer aumentar o lucro da nossa filial de Joinville por causa dos preços que lhe cobramos "
     "de Braga. A convenção Portugal–Brasil permite essa correção?", "PT-BR", "9"),
    ("¿Puede Brasil, según el convenio con España, corregir los beneficios de nuestra filial de Natal por precios de "
     "transferencia?", "BR-ES", "9"),
    ("Japan's tax office raised our Osaka subsidiary's profits in a transfer-pricing audit. Under the MLI, must "
     "Portugal make a corresponding adjustment for our Lisbon parent?", "PT-JP", "17"),
])
def test_a_transfer_pricing_question_gets_what_article_9_or_the_mli_lets_a_state_do(question, treaty, article) -> None:
    """Art. 9 allocates no taxing right, but it answers whether a State may adjust an associated enterprise's
    profits; the MLI's art. 17(1) answers whether the other State must make the corresponding adjustment."""
    import rules
    from assistant.apply_rules import run_rules
    from assistant.understand import understand
    query = understand(question, rules.known_treaties(), topic="associated_enterprises")
    assert query.treaty == treaty
    run = run_rules(query, query.facts)
    shown = run.figures + run.instrument_figures
    assert article in {c.article for f in shown for c in f.citations}
