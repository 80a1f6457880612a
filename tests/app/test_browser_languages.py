"""Issue 19's "done when", in Chromium for pt, es and en (the browser's language picks the UI's): a two-part
ticket is answered with the UI in that language, the answer fits in two screens with its sources collapsed
and no paragraph twice, [1] opens its source, the reply is plain text in the ticket's language, the PDF
export carries the ticket, a follow-up
updates the answer in place, a reload keeps the conversation and the answer's URL reproduces its card.
Screenshots go to tests/artifacts/ (git-ignored: a test run leaves the checkout clean); copy them to docs/ to
refresh the README's pictures."""
from __future__ import annotations

import io
import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import Page, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from pypdf import PdfReader

from assistant.understand.language import detect_language
from i18n import t
from tests.app.conftest import ARTIFACTS
from tests.app.live_app import CHROMIUM, CHROMIUM_ARGS, live_app

pytestmark = pytest.mark.slow  # a real app with real models, driven by Chromium

ANSWER_MS = 300_000
FOLLOW_UP_MS = ANSWER_MS   # a follow-up is answered in seconds, but on a loaded 2-core CI machine it
                           # timed out at 120 s twice (054ff2b, 66ba479); speed is measured by `make bench`
VIEWPORT = {"width": 1440, "height": 1100}
LOCALES = {"pt": "pt-PT", "es": "es-ES", "en": "en-GB"}
TICKETS = {
    "pt": "Sou residente em Portugal e recebo dividendos de uma empresa brasileira. Qual a taxa de retenção no "
          "Brasil e como evito a dupla tributação em Portugal?",
    "es": "Resido en Brasil y cobro cánones de una empresa española. ¿Cuál es la retención en España y cómo "
          "evito la doble imposición en Brasil?",
    "en": "I live in Portugal and receive dividends from a Brazilian company. What is the withholding tax in "
          "Brazil and how do I avoid double taxation in Portugal?",
}
MARKDOWN = re.compile(r"\*\*|#{2,}|[✔✘]|^\s*[-*] ", re.MULTILINE)


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    """(the app's URL, its log)."""
    tmp = tmp_path_factory.mktemp("browser-languages")
    env = {"TREATY_LLM_BACKEND": "none", "TREATY_FEEDBACK_DB": str(tmp / "app.sqlite3")}
    with live_app(env, tmp / "streamlit.log", serve=True) as url:      # as `make run` starts it
        yield url, tmp / "streamlit.log"


def _assistant_messages(page: Page):
    return page.get_by_test_id("stChatMessage").filter(has=page.locator("[class*='st-key-card-']"))


def _card(page: Page):
    return page.locator("[class*='st-key-card-']").last


def _idle(page: Page) -> None:
    """Waits until the app's script has finished its run (Streamlit's "running" indicator is gone)."""
    page.wait_for_timeout(500)
    page.wait_for_function("() => !document.querySelector('[data-test-script-state=\"running\"]')",
                           timeout=ANSWER_MS)


def _settled(page: Page) -> None:
    """Idle, and the last answer's height unchanged over a second (the rerun after an answer replaces its
    elements; measuring in between would catch both)."""
    last = None
    for _ in range(30):
        _idle(page)
        box = _assistant_messages(page).last.bounding_box()
        height = box["height"] if box else None
        if height is not None and height == last:
            return
        last = height
        page.wait_for_timeout(1_000)


def _state(page: Page, log: Path) -> str:
    """The page's state in a few lines: whether the app still runs, shows an exception or a warning (the form
    submitted without a chosen option), what the answer's end says, the app log's end."""
    running = page.locator("[data-test-script-state='running']").count()
    errors = [e.inner_text()[:300] for e in page.get_by_test_id("stException").all()]
    warnings = [w.inner_text()[:200] for w in page.get_by_test_id("stAlert").all()]
    main = page.get_by_test_id("stMain")
    text = main.inner_text() if main.count() else page.inner_text("body")
    return (f"running={running} messages={_assistant_messages(page).count()} exceptions={errors} "
            f"alerts={warnings}\n"
            f"main: {' '.join(text.split())[-800:]}\n"
            f"log: {log.read_text(errors='replace')[-1500:]}")


def _ask(page: Page, text: str) -> None:
    box = page.get_by_test_id("stChatInputTextArea")
    box.fill(text)
    box.press("Enter")
    _card(page).locator("a[href^='#src-']").first.wait_for(timeout=ANSWER_MS)
    _settled(page)


@pytest.mark.parametrize("lang", ["pt", "es", "en"])
def test_two_part_ticket_in_each_language(app, lang):
    app_url, log = app
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(viewport=VIEWPORT, locale=LOCALES[lang])
            page = context.new_page()
            page.goto(app_url)
            box = page.get_by_test_id("stChatInputTextArea")
            box.wait_for(timeout=180_000)
            # The UI speaks the browser's language.
            assert box.get_attribute("placeholder") == t(lang, "app.chat.placeholder")
            page.get_by_role("link", name=t(lang, "app.nav.rates")).wait_for(timeout=10_000)
            page.get_by_text(t(lang, "app.chat.covered_title")).first.wait_for(timeout=10_000)
            _ask(page, TICKETS[lang])
            page.get_by_text(t(lang, "app.triage.title"), exact=True).first.wait_for(timeout=120_000)

            # The answer fits in two screens; its sources are collapsed; no paragraph is shown twice.
            answer = _assistant_messages(page).last
            assert answer.bounding_box()["height"] <= 2 * VIEWPORT["height"]
            heads = [h.text_content() for h in page.locator(".src-head").all()]
            assert heads, "the answer lists its sources"
            labels = [re.sub(r"^(\[\d+\]\s*)+", "", h) for h in heads]
            assert len(labels) == len(set(labels)), labels
            assert not any(b.is_visible() for b in page.locator(".src-body").all())

            # [1] in the card opens its source.
            first = _card(page).get_by_role("link", name="[1]").first
            target = first.get_attribute("href")
            first.click()
            page.locator(f"{target} .src-body").wait_for(state="visible", timeout=10_000)
            assert page.locator(f"{target} .passage").first.inner_text().strip()

            # The reply: plain text in the ticket's language.
            reply = page.locator("[data-testid='stCode']:visible").first.inner_text()
            assert not MARKDOWN.search(reply), reply
            assert detect_language(reply) == lang, reply

            # The answer as a PDF, built when the button is clicked: the ticket's words, in its language.
            pdf_button = page.get_by_test_id("stDownloadButton").filter(has_text=t(lang, "app.answer.export_pdf"))
            with page.expect_download(timeout=30_000) as download:
                pdf_button.first.click()
            pdf = Path(download.value.path()).read_bytes()
            pdf_text = " ".join(PdfReader(io.BytesIO(pdf)).pages[0].extract_text().split())
            assert pdf.startswith(b"%PDF-") and " ".join(TICKETS[lang].split()[:5]) in pdf_text, pdf_text[:300]
            _idle(page)                          # the click's round trip done before the form is used

            # A follow-up fact updates the answer in place (the earlier version one click away).
            before = _card(page).inner_text()
            title = t(lang, "app.follow_up.title", n=0).split("(")[0].strip()
            expander = page.get_by_test_id("stExpander").filter(has_text=title).first
            form = expander.get_by_test_id("stForm")
            if not form.is_visible():
                expander.locator("summary").click()
            option = form.locator("[role='radiogroup'] label").first       # the first option of the first fact
            option.click()
            assert option.locator("input").is_checked()
            _idle(page)                          # nothing runs while the option is chosen, before the submit
            assert option.locator("input").is_checked()
            form.get_by_role("button", name=re.compile(re.escape(t(lang, "app.follow_up.submit")))).click()
            try:
                page.get_by_text(t(lang, "app.answer.previous", n=1)).first.wait_for(timeout=FOLLOW_UP_MS)
            except PlaywrightTimeout:   # what the page and the app said, short enough to reach CI's summary
                raise AssertionError(_state(page, log)) from None
            _card(page).locator("a[href^='#src-']").first.wait_for(timeout=ANSWER_MS)
            _idle(page)
            assert _assistant_messages(page).count() == 1
            after = _card(page).inner_text()
            assert after != before
            page.screenshot(path=str(ARTIFACTS / f"chat-{lang}.png"))

            # A reload keeps the conversation (both versions).
            page.reload()
            _card(page).locator("a[href^='#src-']").first.wait_for(timeout=ANSWER_MS)
            _idle(page)
            page.get_by_text(t(lang, "app.answer.previous", n=1)).first.wait_for(timeout=30_000)
            assert _assistant_messages(page).count() == 1
            assert _card(page).inner_text() == after

            # The answer's URL recomputes the same card in a fresh session.
            href = page.get_by_role("link", name=re.compile(t(lang, "app.answer.link"))).first.get_attribute("href")
            link = page.evaluate("h => new URL(h, location.href).href", href)
            fresh = browser.new_context(viewport=VIEWPORT, locale=LOCALES[lang]).new_page()
            fresh.goto(link)
            _card(fresh).locator("a[href^='#src-']").first.wait_for(timeout=ANSWER_MS)
            _idle(fresh)
            assert _card(fresh).inner_text() == after
        finally:
            browser.close()


def test_comparison_and_browser_pages(app):
    """Screenshots of the comparison table and of the browser at an article's URL (BR-ES art. 11 in Spanish:
    its heading shown corrected, "intereses", not the scan's "lntereses")."""
    app_url, _ = app
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            page = browser.new_context(viewport=VIEWPORT, locale="pt-PT").new_page()
            page.goto(f"{app_url}/comparacao")
            page.get_by_text(t("pt", "app.compare.title")).first.wait_for(timeout=60_000)
            grid = page.get_by_test_id("stDataFrame").first
            grid.wait_for(timeout=30_000)
            page.get_by_test_id("stDownloadButton").first.wait_for(timeout=10_000)
            _idle(page)
            page.screenshot(path=str(ARTIFACTS / "comparison.png"))     # the dialog: tests/app/test_compare_browser.py

            page.goto(f"{app_url}/navegador?doc=br-es-1974&lang=es&art=11")
            page.get_by_text(t("pt", "app.browser.article", article="11"), exact=False).first.wait_for(timeout=60_000)
            time.sleep(1)
            text = page.get_by_test_id("stMain").inner_text()
            assert "intereses" in text.lower() and "lntereses" not in text
            page.screenshot(path=str(ARTIFACTS / "browser.png"))
        finally:
            browser.close()
