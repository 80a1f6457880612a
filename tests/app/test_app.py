"""Streamlit AppTest: the chat shows the rule's rate with a citation, asks for missing facts with quick
inputs, and stores redacted feedback; the tools call rules/ and show their result."""
import json
import sqlite3

import pytest
from streamlit.testing.v1 import AppTest

from tests.app.conftest import APP

TIMEOUT = 240


@pytest.fixture
def app(app_env):
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.run()
    assert not at.exception, at.exception
    return at


def _ask(at: AppTest, question: str) -> AppTest:
    at.chat_input[0].set_value(question).run()
    assert not at.exception, at.exception
    return at


def _texts(at: AppTest) -> list[str]:
    return [m.value for m in at.markdown]


def _by_label(elements, label: str):
    found = [e for e in elements if e.label == label]
    assert found, f"nenhum elemento com o rótulo {label!r}: {[e.label for e in elements]}"
    return found[0]


def test_question_shows_card_with_the_rate_and_a_numbered_citation(app):
    _ask(app, "Sou uma pessoa singular residente em Portugal e recebo juros de um banco em Espanha. Qual a taxa?")
    # Portugal–Spain is not in the corpus: the answer must abstain and say what is covered.
    assert any("O corpus cobre" in w.value for w in app.warning)
    _ask(app, "Resido no Brasil e recebo royalties de direitos de autor de uma editora espanhola. Qual a retenção?")
    texts = _texts(app)
    # BR-ES art. 12(2)(a): copyright royalties paid from Spain are capped at 10%; [1] links to its source block.
    card = next(t for t in texts if "10%" in t and "[\\[1\\]](#src-" in t)
    anchor = card.split("[\\[1\\]](#", 1)[1].split(")", 1)[0]
    sources = next(t for t in texts if f"id='{anchor}'" in t)
    assert "Convenção Brasil–Espanha, art. 12.º, n.º 2" in sources and "<mark>" in sources
    # the same paragraph is one source, however many numbers cite it; the Spanish text is one click away
    assert sources.count("class='src'") == len(set(sources.split("class='src-head'")[1:]))
    assert "<summary>Texto em espanhol</summary>" in sources and "importe bruto de los cánones" in sources
    reply = [c for c in app.code if c.language != "html"][-1].value     # the plain text; its HTML twin is apart
    assert "10%" in reply and "**" not in reply and not reply.startswith("<p>")


def test_missing_fact_question_offers_quick_inputs_that_rerun_the_question(app):
    _ask(app, "Sou residente em Portugal e recebo dividendos de uma empresa brasileira.")
    who = _by_label(app.radio, "Quem é o beneficiário: uma sociedade ou uma pessoa singular?")
    assert "company" in who.options or "Sociedade" in who.options
    who.set_value("individual")
    _by_label(app.button, "Atualizar a resposta").click().run()
    assert not app.exception
    shown = [m.value for m in app.markdown if "beneficiário: pessoa singular" in m.value]
    assert shown, "a pergunta repetida deve mostrar o facto acrescentado"
    # An individual receiving Brazilian dividends: PT-BR art. 10(2)(b), 15%; the answer is updated in place.
    assert any("15%" in t for t in _texts(app))
    assert len(app.chat_message) == 2
    assert any(e.label == "Versões anteriores desta resposta (1)" for e in app.expander)


def test_feedback_writes_a_redacted_row(app, app_env):
    _ask(app, "Sou residente em Portugal (NIF 123456789) e recebo juros do Brasil. Qual a taxa máxima?")
    _by_label(app.text_input, "Comentário (opcional)").set_value(
        "Cliente com CPF 529.982.247-25, contactar por joao@example.pt ou 21 123 4567 (NIF123456789)")
    _by_label(app.button, "Útil").click().run()
    assert not app.exception
    assert any("Feedback registado" in c.value for c in app.caption)
    with sqlite3.connect(app_env["TREATY_FEEDBACK_DB"]) as conn:
        question, comment, rating = conn.execute(
            "SELECT question, comment, rating FROM feedback ORDER BY id DESC LIMIT 1").fetchone()
    assert rating == 1
    assert "123456789" not in question and "[NIF]" in question and "juros do Brasil" in question
    assert "529.982.247-25" not in comment and "joao@example.pt" not in comment
    assert "[CPF]" in comment and "[EMAIL]" in comment
    assert "21 123 4567" not in comment and "123456789" not in comment and "[TELEFONE]" in comment
    # the question is in the team's conversation history too, redacted, under this browser session
    with sqlite3.connect(app_env["TREATY_FEEDBACK_DB"]) as conn:
        session, question, facts = conn.execute(
            "SELECT session, question, facts FROM conversation ORDER BY id DESC LIMIT 1").fetchone()
    assert session == app.session_state["sid"]
    assert "[NIF]" in question and "juros do Brasil" in question and "123456789" not in question
    assert json.loads(facts) == {}


def _open(at: AppTest, page: str) -> AppTest:
    at.switch_page(f"app_pages/{page}.py").run()
    assert not at.exception, at.exception
    return at


def test_rate_calculator_uses_the_rules(app):
    _open(app, "rates")
    app.selectbox(key="rc-treaty").set_value("PT-BR").run()
    app.selectbox(key="rc-income").set_value("dividends")
    app.radio(key="rc-source").set_value("BR").run()
    _by_label(app.radio, "Quem é o beneficiário: uma sociedade ou uma pessoa singular?").set_value("individual")
    _by_label(app.radio, "O investimento ou contrato está registado no Banco Central do Brasil?").set_value(False)
    app.run()
    assert not app.exception
    # PT-BR art. 10(2)(b): 15% in the cases other than the qualifying company holding.
    assert "### Taxa máxima de 15% no Estado da fonte" in _texts(app)


def test_tiebreaker_wizard_decides_on_permanent_home(app):
    _open(app, "residence")
    app.selectbox(key="tb-treaty").set_value("PT-BR").run()
    app.radio(key="tb-PT-BR-individual-home").set_value(("PT",)).run()
    assert not app.exception
    assert any("Residente apenas **de Portugal**" in s.value for s in app.success)


def test_183_day_calculator_counts_each_treaty_window(app):
    # 2023-09-01..2023-12-31 is 122 days, 2024-01-01..2024-03-31 is 91 (leap year): 213 in any 12 months,
    # at most 122 in one calendar year.
    _open(app, "days")
    app.session_state["emp-stays-pt"] = {"edited_rows": {0: {"Início": "2023-09-01", "Fim": "2023-12-31"}},
                                      "added_rows": [{"Início": "2024-01-01", "Fim": "2024-03-31"}],
                                      "deleted_rows": []}
    app.run()
    assert not app.exception
    table = app.dataframe[-1].value
    days = {row["Convenção"].split()[0]: row["Dias"] for _, row in table.iterrows()}
    assert days == {"BR-ES": 122, "PT-BR": 213, "PT-JP": 213}
    verdicts = {row["Convenção"].split()[0]: row["Estado do trabalho"] for _, row in table.iterrows()}
    assert verdicts["PT-JP"] == "pode tributar" and verdicts["BR-ES"] != "pode tributar"
    assert any(m.value.startswith("**Pior janela:**") and "213 dias" in m.value for m in app.markdown)
