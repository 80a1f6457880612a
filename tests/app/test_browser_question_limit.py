"""The 2,000-character limit in a real browser: shown before anything is typed, counted down while typing, and
an over-long paste answered with a message (and kept to copy), never dropped in silence (issue 21)."""
import pytest
from playwright.sync_api import expect, sync_playwright

from tests.app.conftest import ARTIFACTS
from tests.app.live_app import CHROMIUM, CHROMIUM_ARGS, live_app

pytestmark = pytest.mark.slow  # a real app driven by Chromium


@pytest.fixture
def limit_app(tmp_path):
    env = {"TREATY_LLM_BACKEND": "none", "TREATY_FEEDBACK_DB": str(tmp_path / "feedback.sqlite3"),
           "TREATY_MAX_QUESTION_CHARS": "2000"}
    with live_app(env, tmp_path / "streamlit.log") as url:
        yield url


def test_limit_is_shown_counted_and_an_over_long_paste_is_answered(limit_app):
    url = limit_app
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 1000}, locale="pt-PT")
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(url)
            box = page.get_by_test_id("stChatInputTextArea")
            box.wait_for(timeout=120_000)
            counter = page.frame_locator("iframe").locator("#counter")
            expect(counter).to_have_text("Até 2000 caracteres por pergunta.", timeout=30_000)
            box.fill("Dividendos do Brasil")
            expect(counter).to_have_text("Restam 1980 de 2000 caracteres", timeout=10_000)
            pasted = ("Sou residente em Portugal e recebo dividendos do Brasil. " * 44)[:2500]
            box.fill(pasted)  # what a paste does: the whole text at once
            expect(counter).to_contain_text("500 caracteres a mais", timeout=10_000)
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "question_limit_counter.png"))
            box.press("Enter")
            expect(page.get_by_text("A pergunta tem 2500 caracteres e o máximo é 2000")).to_be_visible(timeout=60_000)
            page.get_by_text("Texto colado", exact=True).click()
            expect(page.get_by_test_id("stCode").last).to_contain_text(pasted[:200], timeout=10_000)
            page.screenshot(path=str(ARTIFACTS / "question_limit.png"), full_page=True)
            assert not errors, errors
        finally:
            browser.close()

