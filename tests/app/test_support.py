"""App-side helpers: highlighting, quick inputs, corpus display, reply draft, triage rows."""
from datetime import date

from app_support.corpus_view import article_view, find_article, find_unit, protocol_items, referred_articles
from app_support.highlight import highlight_html
from app_support.quick_inputs import QUICK_INPUTS, quick_inputs_for, to_facts
from app_support.render import outcome_text, reply_text, source_label, technical_rows, triage_rows
from assistant.answer import Answer, CitationRef
from assistant.apply_rules import RuleRun
from assistant.presentation.build import Part, build_card
from assistant.understand import Query
from ingest.units import ParsedDocument, Unit
from rules import taxing_rights, withholding_cap
from rules.facts import Facts


def test_highlight_marks_the_quote_across_whitespace_and_escapes_html():
    html = highlight_html("a <b> 10%  do montante\nbruto, fim", "10% do montante bruto")
    assert html == "a &lt;b&gt; <mark>10%  do montante\nbruto</mark>, fim"


def test_highlight_without_a_match_marks_nothing():
    assert "<mark>" not in highlight_html("texto do artigo", "outra coisa")


def test_quick_inputs_name_facts_fields_and_keep_order():
    assert set(QUICK_INPUTS) <= set(Facts.__dataclass_fields__)
    asks = quick_inputs_for(["stays", "holding_pct", "beneficiary_kind"])
    assert [q.fact for q in asks] == ["holding_pct", "beneficiary_kind"]


def test_quick_input_values_become_facts():
    assert to_facts(QUICK_INPUTS["beneficiary_kind"], "company") == {"beneficiary_kind": "company"}
    assert to_facts(QUICK_INPUTS["holding_pct"], 30) == {"holding_pct": 30.0}
    assert to_facts(QUICK_INPUTS["registered_central_bank"], False) == {"registered_central_bank": False}
    assert to_facts(QUICK_INPUTS["holding_months"], date(2021, 5, 1), date(2024, 6, 1)) == \
        {"holding_since": date(2021, 5, 1), "payment_date": date(2024, 6, 1)}
    assert to_facts(QUICK_INPUTS["holding_pct"], None) == {}


def _unit(uid, level, article, paragraph=None, sub=None, text="", parent=None, start=0, language="pt",
          kind="article", refers_to=None):
    return Unit(doc_id="d", uid=uid, level=level, kind=kind, article=article, paragraph=paragraph,
                subparagraph=sub, heading="H", language=language, text=text, spans=((start, start + 1),),
                parent=parent, refers_to=refers_to)


DOC = ParsedDocument(doc_id="d", source="", units=(
    _unit("art5", "article", "5", text="5 todo", start=0),
    _unit("art5.p1", "paragraph", "5", "1", text="1 - um", parent="art5", start=1),
    _unit("art5.p2", "paragraph", "5", "2", text="2 - dois", parent="art5", start=3),
    _unit("art5.p2.a", "alinea", "5", "2", "a", text="a) alinea", parent="art5.p2", start=4),
    _unit("art5.es", "article", "5", text="5 todo es", start=10, language="es"),
    _unit("art5.es.p1", "paragraph", "5", "1", text="1 - uno", parent="art5.es", start=11, language="es"),
    _unit("prot2", "article", "Protocolo 2", text="ponto 2", start=20, kind="protocol_item", refers_to="15(1); 5(2)"),
    _unit("prot3", "article", "Protocolo 3", text="ponto 3", start=21, kind="protocol_item", refers_to="15(2)"),
))


def test_article_view_lists_paragraphs_and_indents_alineas():
    view = article_view(DOC, find_article(DOC, "5", "pt"))
    assert [(i, u.uid) for i, u in view.blocks()] == [(0, "art5.p1"), (0, "art5.p2"), (1, "art5.p2.a")]


def test_find_unit_falls_back_and_finds_the_other_language():
    assert find_unit(DOC, "5", "2", "b").uid == "art5.p2"
    assert find_unit(DOC, "5", "1", None, "es").uid == "art5.es.p1"
    assert find_article(DOC, "5", "es").uid == "art5.es"
    assert find_unit(DOC, "9", None, None) is None


def test_protocol_items_follow_refers_to():
    assert referred_articles("13(4); 14(1)") == {"13", "14"}
    assert [u.uid for u in protocol_items(DOC, "5")] == ["prot2"]
    assert protocol_items(DOC, "5", "es") == []


def _answer(**kw) -> Answer:
    base = dict(question="q", language="es", answer="card\n\nexpl", abstained=False, treaty="BR-ES",
                card="**15%** [1]", explanation="Explicación.", follow_up="",
                citations=[CitationRef(n=1, doc="br-es-1974", treaty="BR-ES", article="10", paragraph="2",
                                       subparagraph=None, quote="não poderá exceder 15%", chunk_id="c1",
                                       source="rule")])
    base.update(kw)
    return Answer(**base)


def test_the_reply_shown_is_the_answers_plain_reply_or_its_message():
    assert reply_text(_answer(reply="Hola:\n\nComo máximo 15%.")) == "Hola:\n\nComo máximo 15%."
    assert reply_text(_answer(answer="Porcentaje no válido.", card="", abstained=True)) == "Porcentaje no válido."


def test_triage_speaks_to_the_agent_in_the_ui_language_and_keeps_codes_for_the_details():
    facts = Facts(holding_pct=30.0)
    query = Query(text="q", language="es", treaty="BR-ES", source_state="ES", residence_state="BR",
                  topic="dividends", facts=facts)
    run = RuleRun(withholding=[withholding_cap("BR-ES", "dividends", "ES", facts)],
                  rights=[taxing_rights("PT-BR", "pensions", "PT", Facts(pension_kind="social_security"))])
    card = build_card([Part(None, "dividends", run)], lambda c: None, "es", ["BR-ES"], [], ["beneficiary_kind"])
    answer = _answer(query=query, missing_facts=["beneficiary_kind"], llm={"backend": "none", "model": ""},
                     timings_ms={"understand": 3.2, "total": 120.0}, rule_results=run, card_data=card)
    rows = dict(triage_rows(answer, "en"))
    assert rows["Treaty"] == "Brazil–Spain"
    assert "Spain (source) may withhold; Brazil (residence) taxes" in rows["Who may tax"]
    assert "only Brazil may tax; Portugal may not tax" in rows["Who may tax"]
    assert rows["Cap in the source State"] == "Maximum rate of 15% in the source State"
    assert rows["Missing facts"] == "Who is the beneficiary: a company or an individual?"
    assert not any("beneficiary_kind" in v or "ms" in v.split() for v in rows.values())
    tech = dict(technical_rows(answer, "pt"))
    assert tech["Factos lidos"] == "holding_pct = 30.0" and tech["Factos em falta (códigos)"] == "beneficiary_kind"
    assert tech["Tempo"].startswith("120 ms") and "BR-ES · dividends · ES: cap" in tech["Resultado das regras"]


def test_rates_follow_the_language_and_labels_are_short():
    assert outcome_text("cap", 12.5, "pt") == "Taxa máxima de 12,5% no Estado da fonte"
    assert outcome_text("cap", 30.0, "en") == "Maximum rate of 30% in the source State"
    assert source_label("PT-BR", ("convention",), "18", "2", None, "pt") == \
        "Convenção Portugal–Brasil, art. 18.º, n.º 2"
    assert source_label("BR-ES", ("convention",), "12", "2", "a", "es") == \
        "Convenio Brasil–España, art. 12, apartado 2, letra a)"
    assert source_label("PT-JP", ("summary",), "10", "2", "a", "en") == "Portugal–Japan Treaty summary, Art. 10(2)(a)"
    assert source_label("PT-BR", ("ministerial_order",), "I", "2", None, "pt") == \
        "Portaria brasileira da Convenção Portugal–Brasil, ponto I, n.º 2"
