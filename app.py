"""Streamlit app for support agents: the chat with triage panel, the rule tools, the treaty browser and feedback.

Layout only: answers come from assistant/, rates and tests from rules/, texts from the parsed corpus.
Each page is a file in app_pages/ and only the open page runs on a rerun.
`make run` starts it; `streamlit run app.py` also works.
"""
from __future__ import annotations

from pathlib import Path

import streamlit as st

from app_support.resources import settings
from app_support.sidebar import sidebar

# A local file: an emoji or Material page icon makes the browser fetch the favicon from an outside host.
FAVICON = Path(__file__).with_name("app_support") / "favicon.svg"
st.set_page_config(page_title="Assistente de convenções fiscais", page_icon=str(FAVICON), layout="wide")
st.markdown("<style>mark{background:#ffe08a;padding:0 .1em;border-radius:2px}"
            ".passage{font-size:.92rem;line-height:1.5}</style>", unsafe_allow_html=True)

PAGES = {
    "Perguntas": [
        st.Page("app_pages/chat.py", title="Assistente", icon=":material/chat:", url_path="chat", default=True),
    ],
    "Calculadoras": [
        st.Page("app_pages/rates.py", title="Calculadora de taxas", icon=":material/percent:", url_path="taxas"),
        st.Page("app_pages/days.py", title="183 dias", icon=":material/calendar_month:", url_path="183-dias"),
        st.Page("app_pages/residence.py", title="Desempate da residência", icon=":material/home:",
                url_path="residencia"),
    ],
    "Convenções": [
        st.Page("app_pages/browser.py", title="Navegador de convenções", icon=":material/menu_book:",
                url_path="navegador"),
        st.Page("app_pages/compare.py", title="Comparação de convenções", icon=":material/compare:",
                url_path="comparacao"),
    ],
}

try:
    settings()
except ValueError as exc:
    st.error(f"Configuração inválida: {exc}")
    st.stop()
st.session_state.setdefault("turns", [])
page = st.navigation(PAGES)
sidebar()
page.run()
