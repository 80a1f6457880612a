"""Four browser sessions (four Playwright contexts in Debian's chromium) ask at the same moment against one
app and one OpenAI-compatible model server that streams slowly (tests/app/slow_openai.py): each card appears
before its explanation has finished, each explanation streams, and no session errors. The real local model
is tested on its own (tests/assistant/test_real_models.py, and two questions at once on one server in
tests/assistant/test_llm_server.py): with it here, four explanations on 2 cores made this test take 320 s of
the suite's 15 minutes to check what the app does, not what the model does."""
from __future__ import annotations

import json
import time

import pytest
from playwright.sync_api import sync_playwright

from i18n import t
from tests.app.conftest import ARTIFACTS
from tests.app.live_app import CHROMIUM, CHROMIUM_ARGS, live_app
from tests.app.slow_openai import slow_openai_server

QUESTIONS = ["Sou residente em Portugal e recebo dividendos de uma empresa brasileira. Qual a taxa máxima?",
             "Vivo em Lisboa e recebo uma pensão do INSS. Quem tributa?",
             "Moro em São Paulo e recebo royalties de uma editora portuguesa. Qual a retenção?",
             "Vivo no Porto e arrendo um apartamento em São Paulo. Quem tributa a renda?"]   # the fake writes pt
WORD_DELAY_S = 2.0            # the fake model's pause before each word: the explanation streams for ~12 s and
                              # its first sentence shows with the cursor for ~4 s, long enough for a busy browser
                              # to draw it while it streams (at 0.5 s per word, one did not)
ANSWERS_MS = 300_000
# Records, in the page itself and on every change of the page (timers are throttled in background pages),
# when the card (a rate) first appears, whether the streaming cursor showed, and when the explanation is
# final (the cursor and the "writing…" caption gone after the cursor showed).
PROBE = """() => {
  const WRITING = @WRITING@;
  window.__probe = {card: null, final: null, cursor: false};
  const look = () => {
    const msgs = document.querySelectorAll('[data-testid="stChatMessage"]');
    const last = msgs.length >= 2 ? msgs[msgs.length - 1].innerText : '';
    const p = window.__probe;
    if (p.card === null && last.includes('[1]')) p.card = Date.now();
    if (last.includes('\u258c')) p.cursor = true;
    if (p.final === null && p.cursor && !last.includes('\u258c') && !last.includes(WRITING)) p.final = Date.now();
  };
  new MutationObserver(look).observe(document.body, {childList: true, subtree: true, characterData: true});
}""".replace("@WRITING@", json.dumps(t("pt", "app.model.writing")))
BACKGROUND_ARGS = ["--disable-background-timer-throttling", "--disable-renderer-backgrounding",
                   "--disable-backgrounding-occluded-windows"]


@pytest.fixture
def app_with_model(tmp_path):
    with slow_openai_server(delay_s=WORD_DELAY_S) as base_url:
        env = {"TREATY_LLM_BACKEND": "openai", "TREATY_OPENAI_BASE_URL": base_url, "TREATY_OPENAI_MODEL": "slow-fake",
               "TREATY_OPENAI_API_KEY": "test", "TREATY_FEEDBACK_DB": str(tmp_path / "feedback.sqlite3")}
        log = tmp_path / "streamlit.log"
        with live_app(env, log) as url:
            yield url, log


@pytest.mark.slow
def test_four_sessions_at_once_get_cards_first_and_streamed_explanations(app_with_model):
    url, log = app_with_model
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS + BACKGROUND_ARGS)
        try:
            pages = [browser.new_context(viewport={"width": 1280, "height": 1000}, locale="pt-PT").new_page()
                     for _ in QUESTIONS]
            boxes = []
            for page in pages:
                page.goto(url)
                box = page.get_by_test_id("stChatInputTextArea")
                box.wait_for(timeout=60_000)
                page.evaluate(PROBE)
                boxes.append(box)
            for box, question in zip(boxes, QUESTIONS):
                box.fill(question)
            for box in boxes:
                box.press("Enter")
            deadline = time.monotonic() + ANSWERS_MS / 1000
            while time.monotonic() < deadline:
                probes = [page.evaluate("() => window.__probe") for page in pages]
                if all(p["final"] is not None for p in probes):
                    break
                pages[0].wait_for_timeout(1_000)
            assert all(p["final"] is not None for p in probes), \
                (probes, [page.inner_text("body")[-1500:] for page in pages], log.read_text(errors="replace")[-3000:])
            texts = [page.inner_text("body") for page in pages]
            for i, page in enumerate(pages):
                page.screenshot(path=str(ARTIFACTS / f"browser_session_{i + 1}.png"), full_page=True)
        finally:
            browser.close()
    # each session's card came before its own explanation ended (the card never waits for the model; that it
    # comes at once, whatever the model does, is tests/app/test_browser_never_block.py's check)
    assert all(p["card"] is not None and p["card"] < p["final"] for p in probes), probes
    assert all(p["cursor"] for p in probes), probes
    for text in texts:
        assert "Ocorreu um erro interno" not in text
        assert "não está disponível" not in text, log.read_text(errors="replace")[-2000:]
