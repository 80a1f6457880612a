"""Structure-following chunks: one per paragraph (or per article without paragraphs), with the
article heading prepended as context; long paragraphs split on sentence boundaries."""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import asdict, dataclass

from ingest.catalog import DocumentInfo
from ingest.units import ParsedDocument, Unit

MAX_CHARS = 1200
_SENTENCE_END = re.compile(r"(?<=[.;:!?])\s+(?=[A-ZÀ-Ýa-z(«\"\d])")


@dataclass(frozen=True)
class Chunk:
    id: str
    doc: str
    treaty: str
    article: str
    paragraph: str
    subparagraph: str
    language: str
    heading: str
    unit_uid: str
    part: int
    kind: str
    text: str                 # the passage itself (for an OCR unit, its corrected reading)
    context: str              # "Artigo 10 — Dividendos" (what is prepended for embedding)
    start: int
    end: int
    spans: str                # JSON list of [start, end] pairs into the source

    @property
    def embed_text(self) -> str:
        return f"{self.context}\n{self.text}" if self.context else self.text

    def content_hash(self, model_ref: str) -> str:
        """What the vector was computed from (the model and the text): it decides what to re-embed."""
        return hashlib.sha256(f"{model_ref}\n{self.embed_text}\n{self.spans}".encode()).hexdigest()[:32]

    @property
    def text_hash(self) -> str:
        """The passage's words and place, whatever the model: a reader compares it with chunks.jsonl."""
        return hashlib.sha256(f"{self.embed_text}\n{self.spans}".encode()).hexdigest()[:32]

    def metadata(self) -> dict[str, str | int]:
        meta = asdict(self)
        meta.pop("id")
        return meta


def article_label(article: str | None, language: str) -> str:
    if article is None:
        return ""
    if not article[0].isdigit():
        return article  # "Protocolo 4", "XI"
    return f"{'Artículo' if language == 'es' else 'Article' if language == 'en' else 'Artigo'} {article}"


def split_sentences(text: str, limit: int = MAX_CHARS) -> list[str]:
    """Pieces of at most `limit` characters, cut only between sentences (a single sentence longer
    than the limit stays whole rather than being cut mid-sentence)."""
    if len(text) <= limit:
        return [text]
    pieces: list[str] = []
    current = ""
    for sentence in _SENTENCE_END.split(text):
        if current and len(current) + 1 + len(sentence) > limit:
            pieces.append(current)
            current = sentence
        else:
            current = f"{current} {sentence}" if current else sentence
    if current:
        pieces.append(current)
    return pieces


LEAD_MIN_CHARS = 60


def _lead_in(article: Unit, first: Unit) -> str:
    """The article's words before its first paragraph (a Portaria item's opening sentence, say)."""
    at = article.clean_text.find(first.clean_text[:40])
    lead = article.clean_text[:at].strip() if at > 0 else ""
    return lead if len(lead) - len(article.heading) >= LEAD_MIN_CHARS else ""


def _chunk_units(doc: ParsedDocument) -> list[tuple[Unit, str, str]]:
    """(unit, text, id suffix): paragraphs; articles without paragraphs; and the lead-in of
    articles that have paragraphs, so no words of an article are left out of the index."""
    first_paragraph: dict[str, Unit] = {}
    for u in doc.units:
        if u.level == "paragraph" and u.parent:
            first_paragraph.setdefault(u.parent, u)
    chosen = []
    for unit in doc.units:
        if unit.level == "paragraph":
            chosen.append((unit, unit.clean_text, ""))
        elif unit.level == "article" and unit.uid not in first_paragraph:
            chosen.append((unit, unit.clean_text, ""))
        elif unit.level == "article":
            lead = _lead_in(unit, first_paragraph[unit.uid])
            if lead:
                chosen.append((unit, lead, "intro"))
    return chosen


def chunk_document(info: DocumentInfo, doc: ParsedDocument) -> list[Chunk]:
    chunks: list[Chunk] = []
    for unit, text, suffix in _chunk_units(doc):
        if not text.strip():
            continue
        label = article_label(unit.article, unit.language)
        context = " — ".join(x for x in (label, unit.heading) if x)
        for part, piece in enumerate(split_sentences(text)):
            chunks.append(Chunk(
                id=f"{info.id}:{unit.uid}:{suffix}{part}",
                doc=info.id, treaty=info.treaty,
                article=unit.article or "", paragraph=unit.paragraph or "",
                subparagraph=unit.subparagraph or "", language=unit.language,
                heading=unit.heading, unit_uid=unit.uid, part=part, kind=unit.kind,
                text=piece, context=context, start=unit.start, end=unit.end,
                spans=json.dumps([list(s) for s in unit.spans]),
            ))
    return chunks
