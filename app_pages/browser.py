"""Treaty browser page: any article of any document, found by picking or by keyword; each article has its
own URL (?doc=…&art=…&lang=…). An OCR scan is shown in its corrected reading, the scan one click away."""
from __future__ import annotations

import html

import streamlit as st

import rules
from app_support.article_search import search_articles
from app_support.corpus_view import articles, languages, protocol_items
from app_support.highlight import reading_html
from app_support.ocr_display import display_heading
from app_support.resources import corpus
from app_support.sources import article_html
from app_support.ui import ui_lang
from i18n import t
from ingest.units import Unit


def article_label(u: Unit, ocr: bool, ui: str) -> str:
    heading = display_heading(u.heading, u.language) if ocr and u.heading else u.heading
    head = t(ui, "app.browser.article", article=u.article) if u.article and u.article[0].isdigit() \
        else (u.article or u.uid)
    return f"{head} — {heading}" if heading and heading != u.article else head


def _from_url(catalog: dict) -> None:
    """Selects the document, language and article named in the URL (once per session)."""
    if st.session_state.get("br-url-read"):
        return
    st.session_state["br-url-read"] = True
    doc_id, lang, art = (st.query_params.get(k) for k in ("doc", "lang", "art"))
    if doc_id in catalog:
        st.session_state["br-doc"] = doc_id
        st.session_state["br-want"] = (doc_id, lang, art)


def _go(doc_id: str, unit: Unit) -> None:
    st.session_state["br-doc"] = doc_id
    st.session_state["br-want"] = (doc_id, unit.language, unit.article)


def treaty_browser(ui: str) -> None:
    st.subheader(t(ui, "app.browser.title"))
    catalog, docs = corpus()
    _from_url(catalog)
    query = st.text_input(t(ui, "app.browser.search"), key="br-search", placeholder=t(ui, "app.browser.search_hint"))
    if query.strip():
        hits = search_articles(docs, query)
        if not hits:
            st.caption(t(ui, "app.browser.no_hits"))
        for i, hit in enumerate(hits[:8]):
            ocr = catalog[hit.doc].ocr
            label = f"{hit.doc} · {article_label(hit.article, ocr, ui)} ({hit.article.language})"
            st.button(label, key=f"br-hit-{i}", on_click=_go, args=(hit.doc, hit.article), icon=":material/search:")
    cols = st.columns([2, 1])
    doc_id = cols[0].selectbox(t(ui, "app.browser.document"), list(catalog), key="br-doc",
                               format_func=lambda d: f"{d} — {catalog[d].title[:90]}")
    doc, info = docs[doc_id], catalog[doc_id]
    want = st.session_state.pop("br-want", None)
    langs = languages(doc)
    if want and want[0] == doc_id and want[1] in langs:
        st.session_state[f"br-lang-{doc_id}"] = want[1]
    language = cols[1].radio(t(ui, "app.browser.language"), langs, key=f"br-lang-{doc_id}", horizontal=True,
                             format_func=lambda x: t(ui, f"app.ui.language_of_{x}")) \
        if len(langs) > 1 else (langs[0] if langs else None)
    if info.notes:
        st.caption(info.notes)
    units = articles(doc, language)
    art_key = f"br-art-{doc_id}-{language}"
    by_article = {u.article: i for i, u in enumerate(units)}
    if want and want[0] == doc_id and want[2] in by_article:
        st.session_state[art_key] = units[by_article[want[2]]]
    first = next((i for i, u in enumerate(units) if u.kind not in ("preamble", "closing")), 0)
    unit = st.selectbox(t(ui, "app.browser.article_pick"), units, index=first, key=art_key,
                        format_func=lambda u: article_label(u, info.ocr, ui))
    if unit is None:
        return
    st.query_params.update({"doc": doc_id, "lang": unit.language, "art": unit.article or ""})
    raw = st.toggle(t(ui, "app.ocr.show_raw"), key=f"br-raw-{doc_id}") if info.ocr else False
    if info.ocr:
        st.caption(t(ui, "app.ocr.raw_note") if raw else t(ui, "app.ocr.reading"))
    with st.container(border=True):
        st.markdown(f"**{html.escape(article_label(unit, info.ocr and not raw, ui))}**")
        st.markdown(article_html(doc, unit, None, "", raw), unsafe_allow_html=True)
    items = [i for i in protocol_items(doc, unit.article, unit.language) if i.uid != unit.uid]
    if items:
        st.markdown(f"**{t(ui, 'app.browser.protocol')}**")
        for item in items:
            with st.expander(article_label(item, info.ocr and not raw, ui)):
                st.markdown(f"<div class='passage'>{reading_html(item, doc.source, raw=raw)}</div>",
                            unsafe_allow_html=True)
    st.caption(t(ui, "app.browser.link") + f" `?doc={doc_id}&lang={unit.language}&art={unit.article or ''}`")
    relations = rules.applicable_documents(info.applies_to or info.treaty)
    if not isinstance(relations, rules.NotCovered):
        for rel in relations:
            if rel.relation == "modifies":
                st.info(f"**MLI** ({rel.doc}): {rel.text_in(ui)}")
            elif rel.relation == "not_established":
                st.caption(f"MLI ({rel.doc}): {rel.text_in(ui)}")
            elif rel.doc != doc_id:
                st.caption(t(ui, "app.browser.other_document", doc=rel.doc, title=rel.title))


treaty_browser(ui_lang())
