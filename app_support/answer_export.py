"""An answer as a document to download: Markdown (the card as shown), or a PDF an agent can attach or file
(the question, the whole reply in the ticket's language with the articles named in full, the model's checked
text, the cited passages with their quotes). The PDF is written with fpdf2 in DejaVu Sans (Debian's
fonts-dejavu-core, installed by `make`), which has every letter of pt, es and en and the treaty texts' quotes
and dashes."""
from __future__ import annotations

from pathlib import Path

from app_support.render import source_label
from app_support.resources import corpus
from app_support.sources import group_sources
from assistant.answer import Answer
from assistant.presentation.reply import reply
from i18n import t

FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/TTF"), Path("/usr/share/fonts/dejavu"))
FONT = "DejaVuSans"
WHOLE = 10**6                    # the reply without its length limit: the document keeps every line


def font_dir() -> Path | None:
    """The first folder that holds both DejaVu Sans faces, or None (then there is no PDF export)."""
    for folder in FONT_DIRS:
        if (folder / f"{FONT}.ttf").is_file() and (folder / f"{FONT}-Bold.ttf").is_file():
            return folder
    return None


def cited_sources(answer: Answer) -> list[str]:
    """The passages the card cites, one per paragraph, as the exports list them: "[1] [3] label: “quote”"."""
    catalog, _ = corpus()
    cited, _more = group_sources(answer.citations, answer.card_cites())
    out = []
    for s in cited:
        info = catalog.get(s.doc)
        label = source_label(s.treaty, tuple(info.kind) if info else (), s.article, s.paragraph, s.subparagraph,
                             answer.language)
        out.append(f"{' '.join(f'[{n}]' for n in s.numbers)} {label}: “{s.quote}”")
    return out


def answer_markdown(answer: Answer) -> str:
    """The answer as a Markdown document: question, card, model text, sources with quotes, disclaimer."""
    lang = answer.language
    lines = [f"# {answer.question.strip()}", "", (answer.card or answer.answer).strip(), ""]
    if answer.explanation:
        lines += [answer.explanation.strip(), ""]
    sources = cited_sources(answer)
    if sources:
        lines += [f"## {t(lang, 'app.sources')}", "", *(f"- {s}" for s in sources), ""]
    lines.append(f"_{t(lang, 'app.disclaimer')}_")
    return "\n".join(lines) + "\n"


def _paragraphs(answer: Answer) -> list[str]:
    if answer.card_data is not None:
        return list(reply(answer.card_data, limit=WHOLE).paragraphs)
    return [answer.answer.strip(), t(answer.language, "app.disclaimer")]


def answer_pdf(answer: Answer) -> bytes:
    """The PDF document of this answer (raises FileNotFoundError when no DejaVu Sans is installed)."""
    folder = font_dir()
    if folder is None:
        raise FileNotFoundError(f"{FONT}.ttf not found in {', '.join(map(str, FONT_DIRS))}")
    lang = answer.language
    from fpdf import FPDF  # here, not at the top: the chat page's import stays light (fpdf pulls numpy)
    pdf = FPDF(format="A4")
    pdf.set_title(answer.question.strip()[:120])
    pdf.add_font(FONT, "", folder / f"{FONT}.ttf")
    pdf.add_font(FONT, "B", folder / f"{FONT}-Bold.ttf")
    pdf.set_margins(18, 18, 18)
    pdf.add_page()

    def heading(text: str) -> None:
        pdf.set_font(FONT, "B", 12)
        pdf.multi_cell(0, 7, text, align="L", new_x="LMARGIN", new_y="NEXT")
        pdf.ln(1)

    def paragraph(text: str, size: float = 10.5) -> None:
        pdf.set_font(FONT, "", size)
        pdf.multi_cell(0, size * 0.5, text, align="L", new_x="LMARGIN", new_y="NEXT")
        pdf.ln(2.5)

    heading(t(lang, "app.answer.question"))
    paragraph(answer.question.strip())
    for text in _paragraphs(answer):
        paragraph(text)
    if answer.explanation:
        heading(t(lang, "app.model.caption"))
        paragraph(answer.explanation.strip())
    sources = cited_sources(answer)
    if sources:
        heading(t(lang, "app.sources"))
        for source in sources:
            paragraph(source, 9)
    return bytes(pdf.output())
