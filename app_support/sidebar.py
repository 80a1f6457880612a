"""The sidebar under the page menu: what the answers rest on, what the corpus covers, the feedback export."""
from __future__ import annotations

import streamlit as st

import rules
from app_support.feedback import FeedbackError
from app_support.render import state_pt
from app_support.resources import feedback_store, settings
from rules.labels import topic_label

COVERAGE_PT = {"full": "texto integral", "summary": "só um resumo", "partial": "texto parcial"}


def sidebar() -> None:
    with st.sidebar:
        st.markdown("### Assistente de convenções fiscais")
        st.caption("Taxas e testes vêm de regras determinísticas com citação do artigo; o modelo de linguagem "
                   "só explica. " + "Informação geral, não constitui aconselhamento jurídico.")
        with st.expander("O que o corpus cobre", icon=":material/library_books:"):
            for c in rules.coverage():
                parties = " – ".join(state_pt(p) for p in c.parties) or "instrumento multilateral"
                st.markdown(f"**{c.treaty}** ({parties}, {COVERAGE_PT.get(c.coverage, c.coverage)}): "
                            + ", ".join(topic_label(t, "pt") for t in c.topics))
        st.markdown("**Feedback**")
        # the CSV is built only when the button is clicked, never on a rerun
        st.download_button("Exportar feedback (CSV)", data=_feedback_csv, file_name="feedback.csv",
                           mime="text/csv", key="fb-export", icon=":material/download:")
        st.caption(f"Modelo configurado: {settings().llm_backend}")


def _feedback_csv() -> bytes:
    try:
        return feedback_store().export_csv().encode("utf-8")
    except FeedbackError as exc:  # the download carries the reason: this runs outside the page script
        return f"erro\n{exc}\n".encode("utf-8")
