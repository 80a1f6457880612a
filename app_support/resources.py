"""Objects every page and session share, built once per process (settings, assistant, stores, corpus)."""
from __future__ import annotations

from typing import Any

import streamlit as st

from app_support.feedback import FeedbackStore
from app_support.history import HistoryStore
from config import Settings, load_settings
from ingest.corpus import cached_corpus
from ingest.units import ParsedDocument


@st.cache_resource(show_spinner=False)
def settings() -> Settings:
    return load_settings()


@st.cache_resource(show_spinner="A carregar o índice e os modelos (só na primeira vez)…")
def assistant():
    from assistant.pipeline import Assistant
    return Assistant.from_settings(settings())


@st.cache_resource(show_spinner=False)
def feedback_store() -> FeedbackStore:
    return FeedbackStore(settings().store_url)


@st.cache_resource(show_spinner=False)
def history_store() -> HistoryStore:
    return HistoryStore(settings().store_url)


@st.cache_resource(show_spinner=False)
def corpus() -> tuple[dict[str, Any], dict[str, ParsedDocument]]:
    catalog, docs = cached_corpus(settings().corpus_dir)
    return {d.id: d for d in catalog}, docs
