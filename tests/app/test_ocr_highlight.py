"""Source cards of OCR documents: the clean reading is shown, a raw quote is marked on the clean words
made from it, and the raw scan is one toggle away."""
from __future__ import annotations

from app_support.highlight import reading_html
from ingest.corpus import DEFAULT_CORPUS_DIR, cached_corpus
from ingest.ocr_reading import clean_reading
from ingest.units import Unit

SOURCE = "Los dividendos agados por una socledad res idente de u_n Estado Contratante"


def unit(reading: bool = True) -> Unit:
    spans = ((0, len(SOURCE)),)
    return Unit(doc_id="d", uid="art10.p1.es", level="paragraph", kind="article", article="10", paragraph="1",
                subparagraph=None, heading="", language="es", text=SOURCE, spans=spans,
                reading=clean_reading(SOURCE, spans, "es", "pt") if reading else None)


def test_raw_quote_is_marked_on_the_clean_reading():
    html = reading_html(unit(), SOURCE, quote="una socledad res idente")
    assert "<mark>una sociedad residente</mark>" in html
    assert "socledad" not in html


def test_raw_toggle_shows_the_scan_as_it_is():
    html = reading_html(unit(), SOURCE, quote="una socledad res idente", raw=True)
    assert "<mark>una socledad res idente</mark>" in html


def test_unit_without_reading_is_shown_as_text():
    assert reading_html(unit(reading=False), SOURCE) == SOURCE


def test_rule_quotes_of_the_ocr_treaty_are_marked_in_its_clean_reading():
    """Every BR-ES rule quote (checked against the raw text) still gets a mark in the clean card."""
    import rules.treaty_data as td
    _, docs = cached_corpus(DEFAULT_CORPUS_DIR)
    data = td.load_all()["BR-ES"]
    quotes = [c.citation for spec in data.incomes.values() for r in spec.rules for c in r.citations]
    assert quotes
    for c in quotes:
        doc = docs[c.doc]
        units = doc.find(c.article, c.paragraph, None, c.language) or doc.find(c.article, None, None, c.language)
        marked = [u for u in units if "<mark>" in reading_html(u, doc.source, c.quote)]
        assert marked, (c.article, c.paragraph, c.quote)
