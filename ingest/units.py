"""The structured units every parser produces and every later stage consumes.

A unit is one addressable piece of a document (article, paragraph, alínea, protocol item,
table row, section, ministerial item). Offsets point into the decoded source text so that a
citation can show and highlight the original words; OCR units whose words are scattered over
the source carry several spans.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ingest.ocr_reading import Reading

LEVELS = ("article", "paragraph", "alinea")


@dataclass(frozen=True)
class Unit:
    doc_id: str
    uid: str                 # unique within the document, deterministic, e.g. "art10.p2.a"
    level: str               # "article" | "paragraph" | "alinea"
    kind: str                # article | protocol_item | table_row | section | item | preamble
    article: str | None      # "10", "Protocolo 4", "XI", "7"; None for preamble text
    paragraph: str | None    # "2"
    subparagraph: str | None  # "a", "b", "i"
    heading: str             # the article's heading ("Dividendos"), "" when the source has none
    language: str            # "pt" | "es" | "en"
    text: str                # the unit's words as the source has them (whitespace-normalised, debris removed)
    spans: tuple[tuple[int, int], ...]  # [start, end) offsets into the source text
    parent: str | None = None  # uid of the enclosing unit
    refers_to: str | None = None  # protocol items / table rows: the article they concern, e.g. "10(2)(b)"
    reading: Reading | None = None  # OCR documents: the corrected reading, mapped back to the spans

    @property
    def clean_text(self) -> str:
        """What people, search and the model read: the corrected reading of an OCR unit, else the text."""
        return self.reading.text if self.reading is not None else self.text

    @property
    def start(self) -> int:
        return self.spans[0][0]

    @property
    def end(self) -> int:
        return self.spans[-1][1]


@dataclass(frozen=True)
class ParsedDocument:
    doc_id: str
    source: str              # the decoded source text, unchanged
    units: tuple[Unit, ...] = field(default_factory=tuple)

    def articles(self) -> list[Unit]:
        return [u for u in self.units if u.level == "article"]

    def find(self, article: str, paragraph: str | None = None, subparagraph: str | None = None,
             language: str | None = None) -> list[Unit]:
        """Units at exactly that address (paragraph/subparagraph None = the article unit itself)."""
        return [u for u in self.units
                if u.article == article and u.paragraph == paragraph
                and u.subparagraph == subparagraph
                and (language is None or u.language == language)]


_WS = re.compile(r"\s+")


def normalise_ws(text: str) -> str:
    return _WS.sub(" ", text).strip()
