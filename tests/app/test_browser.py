"""Real browser: Debian's chromium driven by Playwright against the app started on a free port.

Types a question, waits for the card and a numbered citation, gives feedback and finds the redacted row
in the database. The screenshot is saved in tests/artifacts/ for the CI run."""
import os
import re
import sqlite3
import time
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from tests.app.conftest import ARTIFACTS
from tests.app.live_app import CHROMIUM, CHROMIUM_ARGS, live_app

pytestmark = pytest.mark.slow  # a real app with real models, driven by Chromium

ANSWER_MS = 240_000


@pytest.fixture
def running_app(tmp_path):
    db = tmp_path / "feedback.sqlite3"
    env = {"TREATY_LLM_BACKEND": os.environ.get("TREATY_APP_TEST_LLM", "none"), "TREATY_FEEDBACK_DB": str(db)}
    with live_app(env, tmp_path / "streamlit.log") as url:
        yield url, db


def _feedback_rows(db: Path, wait_s: float = 30) -> list[tuple]:
    deadline = time.time() + wait_s
    while time.time() < deadline:
        if db.exists():
            with sqlite3.connect(db) as conn:
                rows = conn.execute("SELECT rating, question, comment FROM feedback").fetchall()
            if rows:
                return rows
        time.sleep(0.5)
    return []


def test_question_card_citation_and_feedback_in_a_real_browser(running_app):
    url, db = running_app
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1440, "height": 1100}, locale="pt-PT")
            errors: list[str] = []
            outside: list[str] = []
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("request", lambda r: outside.append(r.url) if not r.url.startswith((url, "data:", "blob:"))
                    else None)
            page.goto(url)
            box = page.get_by_test_id("stChatInputTextArea")
            box.wait_for(timeout=60_000)
            # The image in the question must be shown as text, never fetched.
            box.fill("Resido no Brasil (CPF 529.982.247-25) e recebo royalties de direitos de autor de uma "
                     "editora espanhola. Qual a retenção? ![x](http://tracker.invalid/p.png)")
            box.press("Enter")
            # BR-ES art. 12(2)(a): 10% for copyright royalties; the first source card names the article.
            page.locator(".src-head").filter(has_text="Convenção Brasil–Espanha, art. 12.º, n.º 2").first.wait_for(
                state="attached", timeout=ANSWER_MS)
            page.get_by_text("10%", exact=False).first.wait_for(timeout=10_000)
            page.get_by_text("Triagem").first.wait_for(timeout=10_000)
            page.screenshot(path=str(ARTIFACTS / "browser_answer.png"), full_page=True)
            # The question box stays pinned below the conversation.
            last_turn = page.get_by_test_id("stChatMessage").last.bounding_box()
            assert box.bounding_box()["y"] >= last_turn["y"]
            page.get_by_label("Comentário (opcional)").fill("Correto. Contacto: ana@example.es, +34 612 34 56 78")
            page.get_by_role("button", name=re.compile(r"^\W*(thumb_up)?\s*Útil$")).click()
            done = page.get_by_text("Feedback registado", exact=False).first
            done.wait_for(timeout=30_000)
            done.scroll_into_view_if_needed()
            page.screenshot(path=str(ARTIFACTS / "browser_feedback.png"), full_page=True)
            # Another page through the navigation menu; only that page runs.
            page.get_by_role("link", name=re.compile("Calculadora de taxas")).click()
            page.get_by_text("Calculadora de taxas de retenção").first.wait_for(timeout=30_000)
            assert page.get_by_test_id("stChatInputTextArea").count() == 0
        finally:
            browser.close()
    assert not errors and not outside, (errors, outside)
    rows = _feedback_rows(db)
    assert len(rows) == 1
    rating, question, comment = rows[0]
    assert rating == 1
    assert "529.982.247-25" not in question and "[CPF]" in question and "royalties" in question
    assert "ana@example.es" not in comment and "612 34 56 78" not in comment and comment.startswith("Correto.")
