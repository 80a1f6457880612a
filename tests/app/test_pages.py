"""App structure: one page per tool (only the open one runs), the question box pinned below the conversation,
Material icons instead of emoji, no markdown images from user or model text, no file watcher in `make run`."""
import re

import pytest
from streamlit.testing.v1 import AppTest

from app_support.conversation import Turn, Version
from app_support.render import condition_line
from assistant.answer import Answer
from tests.app.conftest import APP, REPO

TIMEOUT = 240
EMOJI = re.compile("[\U0001F000-\U0001FAFF\u2600-\u27BF\u2B00-\u2BFF\uFE0F]")
APP_SOURCES = [APP, *sorted((REPO / "app_pages").glob("*.py")), *sorted((REPO / "app_support").glob("*.py"))]


@pytest.fixture
def app(app_env):
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.run()
    assert not at.exception, at.exception
    return at


def _root_blocks(at: AppTest) -> list:
    return list(at._tree.children.values())


def _contains(node, element_type: str) -> bool:
    if type(node).__name__ == element_type:
        return True
    return any(_contains(child, element_type) for child in getattr(node, "children", {}).values())


def test_only_the_open_page_runs(app):
    assert app.chat_input, "a página inicial é o assistente"
    assert not [s for s in app.selectbox if s.key in ("rc-treaty", "tb-treaty", "br-doc")]
    app.switch_page("app_pages/rates.py").run()
    assert not app.exception
    assert [s.key for s in app.selectbox if s.key == "rc-treaty"]
    assert not app.chat_input
    assert not [s for s in app.selectbox if s.key in ("tb-treaty", "br-doc")]


def test_browser_page_shows_an_article(app):
    app.switch_page("app_pages/browser.py").run()
    assert not app.exception
    assert app.selectbox(key="br-doc").value
    assert any("class='passage'" in m.value for m in app.markdown)


def test_question_box_is_pinned_below_the_conversation(app):
    app.chat_input[0].set_value("Sou residente em Portugal e recebo juros do Brasil. Qual a taxa?").run()
    assert not app.exception
    main, *_rest, bottom = _root_blocks(app)
    assert _contains(main, "ChatMessage") and not _contains(main, "ChatInput")
    assert _contains(bottom, "ChatInput") and not _contains(bottom, "ChatMessage")


@pytest.mark.parametrize("path", APP_SOURCES, ids=lambda p: p.name)
def test_app_sources_use_material_icons_not_emoji(path):
    found = EMOJI.findall(path.read_text(encoding="utf-8"))
    assert not found, f"{path.name}: {found}"


def test_condition_marks_are_material_icons():
    class Cond:
        status = "met"

        def text_in(self, lang):
            return "participação de 25%"
    assert ":material/" in condition_line(Cond(), "pt") and not EMOJI.search(condition_line(Cond(), "pt"))


def test_card_condition_marks_are_shown_as_icons(app):
    app.chat_input[0].set_value("A minha sociedade portuguesa detém diretamente 30% de uma empresa brasileira há "
                                "3 anos. Quanto retém o Brasil sobre os dividendos?").run()
    assert not app.exception
    cards = [m.value for m in app.markdown if "10%" in m.value and "2 anos" in m.value]
    assert cards and any(":material/check:" in c for c in cards), cards
    shown = [m.value for m in app.markdown] + [c.value for c in app.caption]
    assert not [t for t in shown if EMOJI.search(t) or "✔" in t or "✘" in t]


def test_images_in_the_question_are_not_rendered(app):
    app.chat_input[0].set_value("![x](https://tracker.example/q.png) <img src=https://tracker.example/i.png> "
                                "Sou residente em Portugal e recebo juros do Brasil.").run()
    assert not app.exception
    shown = [m.value for m in app.markdown if "tracker.example" in m.value]
    assert shown, "a pergunta deve continuar visível como texto"
    assert not any("![" in v or "<img" in v for v in shown), shown


def test_images_in_the_model_explanation_are_not_rendered(app):
    answer = Answer(question="q", language="pt", answer="", abstained=False, treaty="PT-BR", card="### Cartão",
                    explanation="Ver ![grafico](https://tracker.example/e.png) e <img src=https://tracker.example/f>.",
                    notices=["![n](https://tracker.example/n.png)"])
    app.session_state["turns"] = [Turn("t1", [Version("q", {}, "q", answer)])]
    app.run()
    assert not app.exception
    texts = [m.value for m in app.markdown] + [i.value for i in app.info]
    assert any("tracker.example/e.png" in t for t in texts)
    assert not any("![" in t or "<img" in t for t in texts if "tracker.example" in t)


def test_make_run_starts_streamlit_without_the_file_watcher():
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    run = makefile.split("\nrun:", 1)[1].split("\n\n", 1)[0]
    # app_support.serve is `streamlit run app.py` with the models loading from the start
    assert "-m app_support.serve" in run and "--server.fileWatcherType none" in run
