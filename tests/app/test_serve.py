"""`make run`'s launcher starts loading the assistant and the corpus before any browser connects, and the
first session takes those very loads instead of starting its own (the real launcher runs in the pt/es/en
browser test: tests/app/test_browser_languages.py)."""
import subprocess
import sys
import threading
from pathlib import Path

import app_support.resources as resources

REPO = Path(__file__).resolve().parents[2]


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


def test_the_loads_start_after_the_shared_imports(monkeypatch):
    """numpy imports itself circularly: a warm-up thread importing it while a page's script does met a
    half-built module once ("cannot import name 'NDArray'") and the first question failed. The launcher's
    thread imports it before any load starts."""
    seen: list[bool] = []
    monkeypatch.setattr(resources, "SHARED_IMPORTS", ("json", "tests.app.slow_openai"))
    monkeypatch.setattr(resources, "_build_assistant", lambda config: seen.append(
        "tests.app.slow_openai" in sys.modules))
    monkeypatch.delitem(sys.modules, "tests.app.slow_openai", raising=False)
    resources._load_assistant(resources.load_settings()).result(timeout=10)
    assert seen == [True]


def test_the_chat_page_does_not_import_numpy_or_fpdf():
    """The page's imports stay light and leave numpy to the warm-up (the PDF library loads on the click)."""
    code = "import sys, app_support.answer_view; print('numpy' in sys.modules, 'fpdf' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO)
    assert out.stdout.split() == ["False", "False"]
