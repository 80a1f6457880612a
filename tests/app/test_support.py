"""App-side helpers: highlighting, quick inputs, corpus display."""
from datetime import date

from app_support.corpus_view import article_view, find_article, find_unit, protocol_items, referred_articles
from app_support.highlight import highlight_html
from app_support.quick_inputs import QUICK_INPUTS, quick_inputs_for, to_facts
from ingest.units import ParsedDocument, Unit
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
