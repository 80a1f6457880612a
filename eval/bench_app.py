"""`python -m eval.bench_app`: the app's warm start, as an agent meets it (issue 19: the first answer's
sources and reply in < 3 s after start). A fresh app process per run, driven by Chromium: the page opens
(which starts loading the models in the background), the agent asks after `delay` seconds, and the times
from Enter to the card, to its sources and to the reply are taken from the page itself, then the reply to a
second question in the same session. Delay 0 is the worst case (the question races the model load); a few
seconds is an agent pasting a ticket."""
from __future__ import annotations

import argparse
import json
import tempfile
import time
from datetime import date
from pathlib import Path

from playwright.sync_api import sync_playwright

from tests.app.live_app import CHROMIUM, CHROMIUM_ARGS, live_app

RESULTS_DIR = Path(__file__).with_name("results")
QUESTION = "Sou residente em Portugal e recebo uma pensão do INSS brasileiro. Quem tributa e como evito a dupla " \
           "tributação?"
SECOND = "E se eu receber também uma pensão privada de um fundo brasileiro, quem tributa?"
TARGET_S = 3.0
WAIT_MS = 300_000


def measure(delay_s: float, serve: bool = True) -> dict[str, float]:
    """Seconds from the page being usable to the question, and from Enter to card, sources and reply; `serve`:
    the app started as `make run` starts it (models loading from the process start), else `streamlit run`."""
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        env = {"TREATY_LLM_BACKEND": "none", "TREATY_FEEDBACK_DB": str(Path(tmp) / "app.sqlite3")}
        started = time.perf_counter()
        with live_app(env, Path(tmp) / "streamlit.log", serve=serve) as url:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            try:
                page = browser.new_context(viewport={"width": 1440, "height": 1100}, locale="pt-PT").new_page()
                page.goto(url)
                box = page.get_by_test_id("stChatInputTextArea")
                box.wait_for(timeout=WAIT_MS)
                usable = time.perf_counter()
                page.wait_for_timeout(delay_s * 1000)
                box.fill(QUESTION)
                box.press("Enter")
                asked = time.perf_counter()
                page.locator("[class*='st-key-card-']").last.wait_for(timeout=WAIT_MS)
                card = time.perf_counter()
                page.locator(".src-head").first.wait_for(timeout=WAIT_MS)
                sources = time.perf_counter()
                page.locator("[data-testid='stCode']:visible").first.wait_for(timeout=WAIT_MS)
                reply = time.perf_counter()
                page.wait_for_function("() => !document.querySelector('[data-test-script-state=\"running\"]')",
                                       timeout=WAIT_MS)
                box.fill(SECOND)                  # the same session, everything loaded: what is left is drawing
                box.press("Enter")
                again = time.perf_counter()
                page.locator("[data-testid='stCode']:visible").nth(1).wait_for(timeout=WAIT_MS)
                second = time.perf_counter()
            finally:
                browser.close()
    return {"launcher": "serve" if serve else "streamlit run", "delay_s": delay_s,
            "start_to_page_s": round(usable - started, 2), "card_s": round(card - asked, 2),
            "sources_s": round(sources - asked, 2), "reply_s": round(reply - asked, 2),
            "second_reply_s": round(second - again, 2)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--delay", type=float, action="append", help="seconds before asking (repeatable)")
    parser.add_argument("--streamlit-run", action="store_true", help="also the bare `streamlit run app.py`")
    args = parser.parse_args(argv)
    launchers = (True, False) if args.streamlit_run else (True,)
    runs = [measure(d, serve) for serve in launchers for d in (args.delay or [0.0, 10.0])]
    print("| arranque | pergunta feita após | app até à página | cartão | fontes | resposta ao cliente "
          "| 2.ª pergunta: resposta |")
    print("|---|---|---|---|---|---|---|")
    for r in runs:
        ok = "sim" if r["reply_s"] < TARGET_S and r["sources_s"] < TARGET_S else "não"
        print(f"| {r['launcher']} | {r['delay_s']:.0f} s | {r['start_to_page_s']:.1f} s | {r['card_s']:.2f} s "
              f"| {r['sources_s']:.2f} s | {r['reply_s']:.2f} s (< {TARGET_S:.0f} s: {ok}) "
              f"| {r['second_reply_s']:.2f} s |")
    RESULTS_DIR.mkdir(exist_ok=True)
    out = RESULTS_DIR / f"{date.today().isoformat()}-warm-start.json"
    out.write_text(json.dumps(runs, indent=1) + "\n", encoding="utf-8")
    print(f"[bench_app] {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
