"""Real browser: the comparison page is a table with filters and a CSV export; selecting a cell opens its
quoted paragraph in a dialog on the same page."""
from playwright.sync_api import sync_playwright

from i18n import t
from tests.app.live_app import CHROMIUM, CHROMIUM_ARGS
from tests.app.test_browser import running_app  # noqa: F401  (the fixture)


def test_comparison_page_cell_opens_its_quote_in_a_dialog(running_app):  # noqa: F811
    url, _ = running_app
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            page = browser.new_context(viewport={"width": 1440, "height": 1100}, locale="pt-PT").new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(f"{url}/comparacao")
            page.get_by_text(t("pt", "app.compare.title")).first.wait_for(timeout=120_000)
            page.get_by_test_id("stDownloadButton").first.wait_for(timeout=30_000)
            # one row (social-security pensions) and one treaty (PT-BR) left by the filters
            page.get_by_label(t("pt", "app.compare.filter")).fill("segurança social")
            page.get_by_label(t("pt", "app.compare.filter")).press("Enter")
            treaties = page.get_by_test_id("stMultiSelect").nth(1)
            treaties.click()
            page.get_by_role("option", name="PT-BR").click()
            page.keyboard.press("Escape")
            page.wait_for_timeout(2_000)
            grid = page.get_by_test_id("stDataFrame").first
            box = grid.bounding_box()
            # the grid is a canvas: it takes a click on a cell once the pointer has hovered it
            page.mouse.move(box["x"] + box["width"] * 0.75, box["y"] + 52)
            page.wait_for_timeout(500)
            page.mouse.click(box["x"] + box["width"] * 0.75, box["y"] + 52)
            dialog = page.get_by_role("dialog").first
            dialog.wait_for(timeout=30_000)
            # PT-BR art. 18(2): a Brazilian social-security pension is taxed only by the paying State.
            dialog.get_by_text(t("pt", "assistant.compare.rows.pensions_social_security"), exact=False).first.wait_for(
                timeout=30_000)
            dialog.locator("mark").filter(has_text="segurança ou seguridade social").first.wait_for(timeout=30_000)
        finally:
            browser.close()
    assert not errors, errors
