"""`make run`'s launcher starts loading the assistant and the corpus before any browser connects, and the
first session takes those very loads instead of starting its own (the real launcher runs in the pt/es/en
browser test: tests/app/test_browser_languages.py)."""
import threading

import app_support.resources as resources


def test_the_first_session_takes_the_loads_started_at_launch(monkeypatch):
    started = threading.Event()
    built: list[str] = []

    def fake_assistant(config):
        started.set()
        built.append("assistant")
        return "assistant"

    monkeypatch.setattr(resources, "_build_assistant", fake_assistant)
    monkeypatch.setattr(resources, "cached_corpus", lambda corpus_dir, cache_dir: ([], {}))
    resources._assistant_future.clear()
    resources._corpus_future.clear()
    try:
        resources.preload()
        assert started.wait(10), "the load starts at launch, before any session asks for it"
        assert resources._assistant_future().result(timeout=10) == "assistant"
        assert resources._corpus_future().result(timeout=10) == ([], {})
        assert resources._PRELOADED == {}                 # handed over once
        assert resources._assistant_future().result() == "assistant" and built == ["assistant"]
    finally:
        resources._PRELOADED.clear()
        resources._assistant_future.clear()
        resources._corpus_future.clear()
