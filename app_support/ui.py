"""The UI language: chosen in the sidebar, by default the browser's language, then Portuguese.

Answers keep the ticket's language; only what the app itself writes follows this choice."""
from __future__ import annotations

import streamlit as st

from i18n import LANGUAGES, normalise_language, t

KEY = "ui_lang"


def browser_language(locale: object) -> str:
    """The browser's language if the app speaks it, else Portuguese ("es-ES" -> "es", "fr" -> "pt")."""
    return normalise_language(locale)


def ui_lang() -> str:
    """The language the app speaks in this session (the sidebar choice, else the browser's)."""
    chosen = st.session_state.get(KEY)
    if chosen in LANGUAGES:
        return chosen
    return browser_language(getattr(st.context, "locale", None))


def language_picker() -> str:
    """The language selector at the top of the sidebar; returns the language in force."""
    current = ui_lang()
    st.session_state.setdefault(KEY, current)
    with st.sidebar:
        st.segmented_control(t(current, "app.ui.language"), LANGUAGES, key=KEY,
                             format_func=lambda code: t(code, "app.ui.language_name"))
    chosen = st.session_state.get(KEY)
    return chosen if chosen in LANGUAGES else current
