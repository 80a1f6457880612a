"""Objects every page and session share, built once per process (settings, assistant, stores, corpus).

The assistant (index, embedding model, model client) and the parsed corpus load in background threads: from
the server's start when it is launched by `python -m app_support.serve` (`make run`), else from the first page
drawn, so the first question finds them ready instead of paying for the load."""
from __future__ import annotations

import importlib
from concurrent.futures import Future, ThreadPoolExecutor
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


# Imported by the caller before a warm-up thread starts: numpy imports itself circularly, and two threads
# importing it at once (the assistant's load and the corpus's, or a page's) can meet a half-built module.
SHARED_IMPORTS = ("numpy",)


def _shared_imports() -> None:
    for name in SHARED_IMPORTS:
        importlib.import_module(name)


def _build_assistant(config: Settings):
    from assistant.pipeline import Assistant
    return Assistant.from_settings(config)


def _load_assistant(config: Settings) -> Future:
    _shared_imports()
    return ThreadPoolExecutor(1, thread_name_prefix="warm-up").submit(_build_assistant, config)


def _load_corpus(config: Settings) -> Future:
    _shared_imports()
    return ThreadPoolExecutor(1, thread_name_prefix="warm-up-corpus").submit(cached_corpus, config.corpus_dir,
                                                                              config.cache_dir)


# Started by the launcher before the server exists (no Streamlit cache yet); taken once by the first session.
_PRELOADED: dict[str, Future] = {}


def preload() -> None:
    """Starts building the assistant and the parsed corpus now, in this process, before any session."""
    config = load_settings()
    _PRELOADED["assistant"] = _load_assistant(config)
    _PRELOADED["corpus"] = _load_corpus(config)


@st.cache_resource(show_spinner=False)
def _assistant_future() -> Future:
    """The assistant being built in a background thread (one per process)."""
    return _PRELOADED.pop("assistant", None) or _load_assistant(settings())


@st.cache_resource(show_spinner=False)
def _corpus_future() -> Future:
    """The parsed corpus (OCR readings take seconds) being built in a background thread, so the first
    answer's sources do not wait for it."""
    return _PRELOADED.pop("corpus", None) or _load_corpus(settings())


def start_warm_up() -> None:
    """Starts loading the assistant and the parsed corpus now, without waiting for them."""
    _assistant_future()
    _corpus_future()


def assistant():
    """The loaded assistant, waiting for the warm-up if it has not finished; a failed load is retried."""
    future = _assistant_future()
    if not future.done():
        from app_support.ui import ui_lang
        from i18n import t
        with st.spinner(t(ui_lang(), "app.ui.loading")):
            future.result()
    if future.exception() is not None:
        _assistant_future.clear()
        raise future.exception()
    return future.result()


def assistant_ready() -> bool:
    future = _assistant_future()
    return future.done() and future.exception() is None


@st.cache_resource(show_spinner=False)
def feedback_store() -> FeedbackStore:
    return FeedbackStore(settings().store_url)


@st.cache_resource(show_spinner=False)
def history_store() -> HistoryStore:
    return HistoryStore(settings().store_url)


@st.cache_resource(show_spinner=False)
def corpus() -> tuple[dict[str, Any], dict[str, ParsedDocument]]:
    future = _corpus_future()
    if future.exception() is not None:     # waits for it; a failed parse is retried next time
        _corpus_future.clear()
        raise future.exception()
    catalog, docs = future.result()
    return {d.id: d for d in catalog}, docs
