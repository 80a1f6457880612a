"""The sidebar under the page menu: what the answers rest on, what the corpus covers, the feedback export."""
from __future__ import annotations

import streamlit as st

import rules
from app_support.feedback import FeedbackError
from app_support.render import state_label
from app_support.resources import feedback_store, settings
from i18n import t
from rules.labels import topic_label


def sidebar(lang: str) -> None:
    with st.sidebar:
        st.markdown(f"### {t(lang, 'app.ui.title')}")
        st.caption(t(lang, "app.sidebar.about") + " " + t(lang, "app.disclaimer"))
        with st.expander(t(lang, "app.sidebar.coverage"), icon=":material/library_books:"):
            for c in rules.coverage():
                parties = " – ".join(state_label(p, lang) for p in c.parties) or t(lang, "app.sidebar.multilateral")
                st.markdown(f"**{c.treaty}** ({parties}, {t(lang, f'app.sidebar.coverage_kind.{c.coverage}')}): "
                            + ", ".join(topic_label(x, lang) for x in c.topics))
        st.markdown(f"**{t(lang, 'app.sidebar.feedback')}**")
        # the CSV is built only when the button is clicked, never on a rerun
        st.download_button(t(lang, "app.sidebar.export"), data=_feedback_csv, file_name="feedback.csv",
                           mime="text/csv", key="fb-export", icon=":material/download:")
        st.caption(t(lang, "app.sidebar.model", backend=settings().llm_backend))


def _feedback_csv() -> bytes:
    try:
        return feedback_store().export_csv().encode("utf-8")
    except FeedbackError as exc:  # the download carries the reason: this runs outside the page script
        return f"error\n{exc}\n".encode("utf-8")
