"""Real browser: the comparison page shows the table; following one cell's link opens its quoted paragraph."""
import re

from playwright.sync_api import sync_playwright

from tests.app.live_app import CHROMIUM, CHROMIUM_ARGS
from tests.app.test_browser import running_app  # noqa: F401  (the fixture)


def test_comparison_page_cell_leads_to_its_quote(running_app):  # noqa: F811
    url, _ = running_app
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1440, "height": 1100})
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(f"{url}/comparacao")
            page.get_by_text("Comparação de convenções: quem pode tributar").first.wait_for(timeout=60_000)
            # PT-BR art. 18(2): a Brazilian social-security pension is taxed only by the paying State.
            link = page.get_by_role("link", name=re.compile(r"^só fonte \(art\. 18")).first
            link.wait_for(timeout=30_000)
            href = link.get_attribute("href")
            assert href and "row=pensions_social_security" in href and "treaty=PT-BR" in href
            page.goto(f"{url}/comparacao{href[href.index('?'):]}")
            page.get_by_text("Pensões da segurança social · PT-BR").first.wait_for(timeout=30_000)
            marked = page.locator("mark").filter(has_text="segurança ou seguridade social")
            marked.first.wait_for(timeout=30_000)
        finally:
            browser.close()
    assert not errors, errors
