"""Sources as HTML: one block per cited paragraph, collapsed to its short label until opened (by its [n] link
in the card or by clicking the label); inside, the paragraph with the cited words marked, and one click
away the scan as read by the OCR, the other language and the whole article. Pure HTML: opening a source
never reruns the page."""
from __future__ import annotations

import html
from collections.abc import Collection
from dataclasses import dataclass

import streamlit as st

import rules
from app_support.corpus_view import article_view, find_article, find_unit, languages, protocol_items
from app_support.highlight import highlight_html, reading_html
from app_support.ocr_display import display_heading
from app_support.render import source_label
from app_support.resources import corpus
from assistant.answer import CitationRef
from i18n import t
from ingest.units import ParsedDocument, Unit, normalise_ws


@dataclass(frozen=True)
class Source:
    """One paragraph shown as a source, with every citation number that points at it."""
    numbers: tuple[int, ...]
    doc: str
    treaty: str
    article: str | None
    paragraph: str | None
    subparagraph: str | None
    language: str
    quote: str                   # the words to mark ("" for a passage found by search)
    passage: str = ""            # the passage text when the corpus has no unit for it


def paragraph_key(c: CitationRef) -> tuple:
    return (c.doc, c.article, c.paragraph, c.language)


def group_sources(citations: list[CitationRef], on_card: Collection[int] | None = None
                  ) -> tuple[list[Source], list[Source]]:
    """(cited, more): the paragraphs the card cites (rule citations, one per paragraph) and, apart, the other
    passages retrieval found (minus any paragraph already cited). `on_card`: the numbers the card's lines rely
    on (Card.cited); a rule's passage no line cites (the context of an assumption, a condition not shown) goes
    under "more", so every source shown as the card's says something the card says."""
    groups: dict[tuple, list[CitationRef]] = {}
    for c in citations:
        groups.setdefault(paragraph_key(c), []).append(c)
    cited, more = [], []
    for refs in groups.values():
        rule = [c for c in refs if c.source == "rule" and (on_card is None or c.n in on_card)]
        first = (rule or refs)[0]
        source = Source(tuple(c.n for c in refs), first.doc, first.treaty, first.article or None, first.paragraph,
                        first.subparagraph if len({c.subparagraph for c in refs}) == 1 else None, first.language,
                        first.quote if rule else "", first.passage)
        (cited if rule else more).append(source)
    return cited, more


def anchor(key: str, n: int) -> str:
    return f"src-{key}-{n}"


def _block(text: str, cls: str = "passage", italic: bool = False) -> str:
    body = f"<i>{text}</i>" if italic else text
    return f"<div class='{cls}'>{body}</div>"


def _details(summary: str, body: str) -> str:
    return f"<details><summary>{html.escape(summary)}</summary>{body}</details>"


def article_html(doc: ParsedDocument, unit: Unit, highlight: Unit | None, quote: str, raw: bool) -> str:
    out = []
    for indent, part in article_view(doc, unit).blocks():
        marked = quote if highlight is not None and part.uid == highlight.uid else ""
        style = " style='margin-left:1.5em'" if indent else ""
        out.append(f"<div class='passage'{style}>{reading_html(part, doc.source, marked, raw)}</div>")
    return "".join(out)


def heading_of(unit: Unit, doc_is_ocr: bool) -> str:
    return display_heading(unit.heading, unit.language) if doc_is_ocr and unit.heading else unit.heading


def source_html(source: Source, key: str, ui: str, answer_lang: str) -> str:
    """One source block; `key` makes its anchor unique on the page."""
    catalog, docs = corpus()
    info, doc = catalog.get(source.doc), docs.get(source.doc)
    kinds = tuple(info.kind) if info else ()
    unit = find_unit(doc, source.article, source.paragraph, source.subparagraph, source.language) if doc else None
    ocr = bool(info and info.ocr)
    label = source_label(source.treaty, kinds, source.article, source.paragraph, source.subparagraph, answer_lang)
    heading = heading_of(unit, ocr) if unit is not None else ""
    numbers = " ".join(f"[{n}]" for n in source.numbers)
    head = html.escape(f"{numbers} {label}").strip()      # short, so several fit on a line
    first = source.numbers[0]
    body: list[str] = [_block(f"<b>{html.escape(heading)}</b>", "src-meta")] if heading else []
    text = unit.text if unit is not None else (source.passage or source.quote)
    marked = source.quote if source.quote and normalise_ws(source.quote) != normalise_ws(text) else ""
    if doc is not None and unit is not None:
        body.append(_block(reading_html(unit, doc.source, marked)))
        if unit.reading is not None:
            body.append(_block(html.escape(f"{t(ui, 'app.ocr.reading')} · "
                                           f"{t(ui, 'app.ocr.changes', n=len(unit.reading.corrections))}"), "src-meta"))
            body.append(_details(t(ui, "app.ocr.show_raw"), _block(reading_html(unit, doc.source, marked, raw=True))
                                 + _block(html.escape(t(ui, "app.ocr.raw_note")), "src-meta")))
        for other in (lang for lang in languages(doc) if lang != source.language):
            counterpart = find_unit(doc, source.article, source.paragraph, source.subparagraph, other)
            if counterpart is not None and counterpart.language == other:
                body.append(_details(t(ui, "app.source.other_language", language=t(ui, f"app.ui.language_of_{other}")),
                                     _block(reading_html(counterpart, doc.source), italic=True)))
        whole = find_article(doc, source.article, source.language)
        if whole is not None:
            article = article_html(doc, whole, unit, marked, False) + "".join(
                f"<div class='src-meta'><b>{html.escape(item.article or '')}</b> — "
                f"{html.escape(heading_of(item, ocr))}</div>{_block(reading_html(item, doc.source))}"
                for item in protocol_items(doc, whole.article, whole.language))
            body.append(_details(t(ui, "app.source.whole_article"), article))
    else:
        body.append(_block(highlight_html(text, marked)))
    if not marked:
        body.append(_block(html.escape(t(ui, "app.source.found_by_search")), "src-meta"))
    ident = anchor(key, first)
    block = (f"<div class='src' id='{ident}'><a class='src-head' href='#{ident}'>{head}</a>"
             f"<div class='src-body'>{''.join(body)}</div></div>")
    return " ".join(block.split("\n"))


def show_sources(key: str, citations: list[CitationRef], ui: str, answer_lang: str,
                 on_card: Collection[int] | None = None) -> None:
    """The cited paragraphs (collapsed), then the other passages found under "more passages"."""
    cited, more = group_sources(citations, on_card)
    if cited:
        st.markdown(f"**{t(ui, 'app.source.heading', n=len(cited))}**")
        st.markdown("".join(source_html(s, key, ui, answer_lang) for s in cited), unsafe_allow_html=True)
    if more:
        inner = "".join(source_html(s, key, ui, answer_lang) for s in more)
        st.markdown(f"<details class='src-more'><summary>{html.escape(t(ui, 'app.source.more', n=len(more)))}"
                    f"</summary>{inner}</details>", unsafe_allow_html=True)


def rule_sources(key: str, cites: list[rules.Citation], ui: str, opened: bool = False) -> None:
    """The sources of a calculator's result (rule citations), one block per paragraph; `opened` shows
    every paragraph at once (the comparison's dialog)."""
    refs = [CitationRef(n=i, doc=c.doc, treaty=c.treaty, article=c.article or "", paragraph=c.paragraph,
                        subparagraph=c.subparagraph, quote=normalise_ws(c.quote), chunk_id=None, language=c.language,
                        source="rule") for i, c in enumerate(cites, 1)]
    cited, _ = group_sources(refs)
    if cited:
        st.markdown(f"**{t(ui, 'app.source.heading', n=len(cited))}**")
        blocks = "".join(source_html(s, key, ui, ui) for s in cited)
        st.markdown(f"<div class='src-open'>{blocks}</div>" if opened else blocks, unsafe_allow_html=True)
