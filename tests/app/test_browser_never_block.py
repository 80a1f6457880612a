"""Issue 20, "never block", in Chromium: with a model that takes seconds per word (a slow fake
OpenAI-compatible server), the sources, the reply and the feedback are on screen with the card, before the
model's first word, and the model's words arrive afterwards in their own box."""
from __future__ import annotations

import time

import pytest
from playwright.sync_api import sync_playwright

from i18n import t
from tests.app.live_app import CHROMIUM, CHROMIUM_ARGS, live_app
from tests.app.slow_openai import WORDS, slow_openai_server

pytestmark = pytest.mark.slow  # a real app with real models, driven by Chromium

ANSWER_MS = 300_000
DELAY_S = 4.0   # the fake model's pause before each word: the first word comes at least this long after the card
QUESTION = "Resido no Brasil e recebo royalties de direitos de autor de uma editora espanhola. Qual a retenção?"


def test_sources_reply_and_feedback_do_not_wait_for_the_model(tmp_path):
    with slow_openai_server(delay_s=DELAY_S) as base_url:
        env = {"TREATY_LLM_BACKEND": "openai", "TREATY_OPENAI_BASE_URL": base_url, "TREATY_OPENAI_MODEL": "slow-fake",
               "TREATY_OPENAI_API_KEY": "test", "TREATY_FEEDBACK_DB": str(tmp_path / "app.sqlite3")}
        with live_app(env, tmp_path / "streamlit.log") as url, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            try:
                page = browser.new_context(viewport={"width": 1440, "height": 1100}, locale="pt-PT").new_page()
                page.goto(url)
                box = page.get_by_test_id("stChatInputTextArea")
                box.wait_for(timeout=180_000)
                # the page's code view loaded (the hidden block app_support.code_view puts on every page); waiting for
                # "networkidle" instead timed out at 120 s in a clean-clone run at 1e34078 with the other worker busy
                page.locator(".st-key-code-view-preload [data-testid='stCode']").wait_for(state="attached",
                                                                                         timeout=120_000)
                box.fill(QUESTION)
                box.press("Enter")
                page.locator("[class*='st-key-card-'] a[href^='#src-']").first.wait_for(timeout=ANSWER_MS)
                card_at = time.monotonic()
                page.locator(".src-head").first.wait_for(state="visible", timeout=5_000)
                page.locator("[data-testid='stCode']:visible").first.wait_for(state="visible", timeout=5_000)
                page.get_by_role("button", name=t("pt", "app.feedback.up")).first.wait_for(state="visible",
                                                                                       timeout=5_000)
                waited = time.monotonic() - card_at
                model_text = WORDS[1].strip()
                assert page.get_by_text(model_text).count() == 0, "the model's words came before the rest"
                # before the model's first word (DELAY_S after the card at the earliest). Not issue 20's "< 1 s": that
                # holds on a machine with cores to spare (0.35 s measured with a bank read beside it) but a clean-clone
                # run at 9c7f5cc measured 1.94 s with the other test worker busy; `make bench` measures the gap
                assert waited < DELAY_S, f"sources, reply and feedback came {waited:.2f} s after the card"
                # the model's words arrive later, in their own box
                page.get_by_text(model_text, exact=False).first.wait_for(timeout=120_000)
            finally:
                browser.close()
