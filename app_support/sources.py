"""Source cards: the cited paragraph with the cited words marked, its other languages, the whole article."""
from __future__ import annotations

import streamlit as st

import rules
from app_support.corpus_view import article_view, find_article, find_unit, languages, protocol_items
from app_support.highlight import highlight_html, reading_html
from app_support.render import cite_label
from app_support.resources import corpus
from assistant.answer import CitationRef
from i18n import t
from ingest.units import ParsedDocument, Unit, normalise_ws

LANGUAGE_PT = {"pt": "português", "es": "espanhol", "en": "inglês"}


def passage(text: str, indent: bool = False, italic: bool = False) -> None:
    """Corpus text as an escaped HTML block (highlight_html already marked and escaped it)."""
    pad = "margin-left:1.5em;" if indent else ""
    body = f"<i>{text}</i>" if italic else text
    st.markdown(f"<div class='passage' style='{pad}'>{body}</div>", unsafe_allow_html=True)


def show_article(doc: ParsedDocument, unit: Unit, highlight: Unit | None = None, quote: str = "",
                 raw: bool = False) -> None:
    for indent, part in article_view(doc, unit).blocks():
        marked = quote if highlight is not None and part.uid == highlight.uid else ""
        passage(reading_html(part, doc.source, marked, raw), indent=bool(indent))


def source_card(key: str, n: int | None, doc_id: str, article: str | None, paragraph: str | None,
                subparagraph: str | None, quote: str, language: str = "pt", label: str = "",
                found: str = "") -> None:
    """One numbered source: document, address, the paragraph with the cited words marked, the whole article.

    A passage found by retrieval (its quote is the passage itself) is shown unmarked."""
    catalog, docs = corpus()
    info, doc = catalog.get(doc_id), docs.get(doc_id)
    unit = find_unit(doc, article, paragraph, subparagraph, language) if doc else None
    with st.container(border=True):
        title = info.title if info else doc_id
        heading = f" — {unit.heading}" if unit is not None and unit.heading else ""
        st.markdown(f"**{f'[{n}] ' if n else ''}{label}**{heading}")
        st.caption(f"{doc_id} · {title}")
        text = found or (unit.text if unit is not None else quote)
        marked = quote if normalise_ws(quote) != normalise_ws(text) else ""
        raw = False
        if doc is not None and unit is not None and unit.reading is not None:   # an OCR scan: clean reading
            st.caption(f"{t('pt', 'app.ocr.reading')} · {t('pt', 'app.ocr.changes', n=len(unit.reading.corrections))}")
            raw = st.toggle(t("pt", "app.ocr.show_raw"), key=f"{key}-raw")
            passage(reading_html(unit, doc.source, marked, raw))
            if raw:
                st.caption(t("pt", "app.ocr.raw_note"))
        else:
            passage(highlight_html(text, marked))
        if not marked:
            st.caption("Passagem encontrada pela pesquisa no corpus.")
        if doc is None:
            return
        for other in (lang for lang in languages(doc) if lang != language):
            if st.toggle(f"Mostrar o texto em {LANGUAGE_PT.get(other, other)}", key=f"{key}-{other}"):
                counterpart = find_unit(doc, article, paragraph, subparagraph, other)
                if counterpart is not None and counterpart.language == other:
                    passage(reading_html(counterpart, doc.source, raw=raw), italic=True)
                else:
                    st.caption(f"Este trecho não tem versão em {LANGUAGE_PT.get(other, other)} no corpus.")
        whole = find_article(doc, article, language)
        if whole is not None:
            with st.expander("Abrir o artigo completo"):
                show_article(doc, whole, highlight=unit, quote=marked, raw=raw)
                for item in protocol_items(doc, whole.article, whole.language):
                    st.markdown(f"**{item.article}** — {item.heading}")
                    passage(reading_html(item, doc.source, raw=raw))


def citation_cards(key: str, cites: list[CitationRef]) -> None:
    for c in cites:
        source_card(f"{key}-c{c.n}", c.n, c.doc, c.article, c.paragraph, c.subparagraph, c.quote, c.language,
                    c.label(), c.passage)


def rule_citation_cards(key: str, cites: list[rules.Citation]) -> None:
    seen: set[tuple] = set()
    for i, c in enumerate(cites, 1):
        if (c.doc, c.article, c.paragraph, c.subparagraph, c.quote) in seen:
            continue
        seen.add((c.doc, c.article, c.paragraph, c.subparagraph, c.quote))
        source_card(f"{key}-{i}", None, c.doc, c.article, c.paragraph, c.subparagraph, c.quote, c.language,
                    cite_label(c))
