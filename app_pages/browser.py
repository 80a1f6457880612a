"""Treaty browser page: any article of any document in the corpus, its protocol notes and related documents."""
from __future__ import annotations

import streamlit as st

import rules
from app_support.corpus_view import articles, languages, protocol_items
from app_support.highlight import highlight_html
from app_support.resources import corpus
from app_support.sources import LANGUAGE_PT, passage, show_article
from ingest.units import Unit


def article_label(u: Unit) -> str:
    head = f"Artigo {u.article}" if u.article and u.article[0].isdigit() else (u.article or u.uid)
    return f"{head} — {u.heading}" if u.heading and u.heading != u.article else head


def treaty_browser() -> None:
    st.subheader("Navegador de convenções")
    catalog, docs = corpus()
    cols = st.columns([2, 1])
    doc_id = cols[0].selectbox("Documento", list(catalog), format_func=lambda d: f"{d} — {catalog[d].title[:90]}",
                               key="br-doc")
    doc, info = docs[doc_id], catalog[doc_id]
    langs = languages(doc)
    language = cols[1].radio("Língua", langs, format_func=lambda x: LANGUAGE_PT.get(x, x), horizontal=True,
                             key=f"br-lang-{doc_id}") if len(langs) > 1 else (langs[0] if langs else None)
    if info.notes:
        st.caption(info.notes)
    units = articles(doc, language)
    first = next((i for i, u in enumerate(units) if u.kind not in ("preamble", "closing")), 0)
    unit = st.selectbox("Artigo", units, index=first, format_func=article_label, key=f"br-art-{doc_id}-{language}")
    if unit is None:
        return
    with st.container(border=True):
        show_article(doc, unit)
    items = [i for i in protocol_items(doc, unit.article, unit.language) if i.uid != unit.uid]
    if items:
        st.markdown("**Protocolo e notas que se referem a este artigo**")
        for item in items:
            with st.expander(f"{item.article} — {item.heading}"):
                passage(highlight_html(item.clean_text))
    relations = rules.applicable_documents(info.applies_to or info.treaty)
    if not isinstance(relations, rules.NotCovered):
        for rel in relations:
            if rel.relation == "modifies":
                st.info(f"**MLI** ({rel.doc}): {rel.text}")
            elif rel.relation == "not_established":
                st.caption(f"MLI ({rel.doc}): {rel.text}")
            elif rel.doc != doc_id:
                st.caption(f"Outro documento desta convenção: {rel.doc} — {rel.title}")


treaty_browser()
