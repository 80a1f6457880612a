"""An answer exported as PDF: a real answer of the real assistant, read back with pypdf, carries the
question, the reply in the ticket's language with the article named, the cited quote and the disclaimer;
an abstention exports its message; without the font there is no PDF, and the app offers none."""
import io

import pytest
from pypdf import PdfReader

import app_support.answer_export as export
from app_support.answer_export import answer_markdown, answer_pdf
from assistant.answer import Answer
from i18n import t

# the exports read the parsed corpus through the app's shared resources, whose settings are the app tests'
pytestmark = pytest.mark.usefixtures("app_env")


def _text(data: bytes) -> str:
    assert data.startswith(b"%PDF-")
    return " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(data)).pages)


@pytest.mark.parametrize("question, lang, article", [
    ("Sou residente em Portugal e recebo uma pensão do INSS brasileiro. Quem tributa?", "pt", "artigo 18"),
    ("Resido en Brasil y cobro cánones por derechos de autor de una editorial española. ¿Cuál es la retención?",
     "es", "artículo 12"),
])
def test_a_real_answer_as_pdf_has_the_question_reply_quote_and_disclaimer(real_assistant, question, lang, article):
    answer = real_assistant.ask(question)
    assert answer.language == lang and answer.card_data is not None and answer.citations
    text = _text(answer_pdf(answer))
    assert " ".join(question.split()) in text
    assert article in text
    quote = " ".join(answer.citations[0].quote.split()[:6])
    assert quote in text
    assert " ".join(t(lang, "presentation.reply.disclaimer").split()[:6]) in text
    assert answer.question.strip() in answer_markdown(answer)


def test_an_abstention_exports_its_message_and_the_disclaimer():
    answer = Answer(question="Qual é o IVA em Espanha?", language="pt", answer="A convenção não trata do IVA.",
                    abstained=True, treaty=None, card="", explanation="", follow_up="", citations=[])
    text = _text(answer_pdf(answer))
    assert "A convenção não trata do IVA." in text and "Qual é o IVA em Espanha?" in text
    assert " ".join(t("pt", "app.disclaimer").split()[:5]) in text


def test_without_the_font_there_is_no_pdf(monkeypatch, tmp_path):
    monkeypatch.setattr(export, "FONT_DIRS", (tmp_path,))
    assert export.font_dir() is None
    answer = Answer(question="q", language="en", answer="a", abstained=True, treaty=None, card="",
                    explanation="", follow_up="", citations=[])
    with pytest.raises(FileNotFoundError):
        answer_pdf(answer)
