"""Streamlit app for support agents: the chat with triage panel, the rule tools, the treaty browser and feedback.

Layout only: answers come from assistant/, rates and tests from rules/, texts from the parsed corpus.
Each page is a file in app_pages/ and only the open page runs on a rerun. Every text the app writes comes
from the catalogue in the UI language (sidebar; default the browser's). `make run` starts it;
`streamlit run app.py` also works (.streamlit/config.toml turns usage statistics off).
"""
from __future__ import annotations

from pathlib import Path

import streamlit as st

from app_support.code_view import preload_code_view
from app_support.resources import settings, start_warm_up
from app_support.sidebar import sidebar
from app_support.ui import language_picker, ui_lang
from i18n import t

# A local file: an emoji or Material page icon makes the browser fetch the favicon from an outside host.
FAVICON = Path(__file__).with_name("app_support") / "favicon.svg"
CSS = Path(__file__).with_name("app_support") / "app.css"
st.set_page_config(page_title=t(ui_lang(), "app.ui.title"), page_icon=str(FAVICON), layout="wide")
st.markdown(f"<style>{CSS.read_text(encoding='utf-8')}</style>", unsafe_allow_html=True)
preload_code_view()


def pages(lang: str) -> dict[str, list]:
    def page(path: str, key: str, icon: str, url: str, default: bool = False):
        return st.Page(path, title=t(lang, f"app.nav.{key}"), icon=icon, url_path=url, default=default)
    return {
        t(lang, "app.nav.group_questions"): [
            page("app_pages/chat.py", "chat", ":material/chat:", "chat", default=True)],
        t(lang, "app.nav.group_tools"): [
            page("app_pages/rates.py", "rates", ":material/percent:", "taxas"),
            page("app_pages/days.py", "days", ":material/calendar_month:", "183-dias"),
            page("app_pages/residence.py", "residence", ":material/home:", "residencia")],
        t(lang, "app.nav.group_treaties"): [
            page("app_pages/browser.py", "browser", ":material/menu_book:", "navegador"),
            page("app_pages/compare.py", "compare", ":material/compare:", "comparacao")],
    }


try:
    settings()
except ValueError as exc:
    st.error(t(ui_lang(), "app.ui.bad_config", error=exc))
    st.stop()
lang = language_picker()
page = st.navigation(pages(lang))
sidebar(lang)
page.run()
# After the page is drawn: loading the models holds the interpreter for long stretches, and the first screen
# must not wait for it. The first question then finds the assistant loaded (or loading).
start_warm_up()
