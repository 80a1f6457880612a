"""Headings of an OCR scan as people should read them: each misread word replaced by the dictionary word it
most likely stands for (the same word corrector as the ingest's clean reading), words split by the scan
joined back. Display only: the raw heading stays the provenance."""
from __future__ import annotations

import re

from ingest.ocr_reading import (
    Dictionary,
    _accents_like,
    _correct,
    _restore_case,
    dictionary,
    protected,
    split_core,
    strip_accents,
)

KNOWN_ZIPF = 3.0        # a heading word at least this frequent is kept as it is
EDITS = 3               # headings are short and formulaic: a wider search than in running text
_PIECES = re.compile(r"(\s+|/)")


def _fixed(core: str, d: Dictionary) -> str | None:
    found = _correct(strip_accents(core.lower()), d, EDITS)
    return _restore_case(core, _accents_like(core.lower(), found[0], d)) if found else None


def display_heading(heading: str, language: str) -> str:
    """The heading with misread words corrected and split words joined ("lntereses" -> "intereses")."""
    d = dictionary(language)
    pieces = _PIECES.split(heading)
    out: list[str] = []
    i = 0
    while i < len(pieces):
        lead, core, trail = split_core(pieces[i])
        if i + 2 < len(pieces) and pieces[i + 1].isspace():               # "a ntes" -> "antes"
            _, after, after_trail = split_core(pieces[i + 2])
            unknown = min(d.z(core), d.z(after)) < KNOWN_ZIPF
            if core and after and unknown and d.z(core + after) >= KNOWN_ZIPF:
                out.append(lead + core + after + after_trail)
                i += 3
                continue
        if core and not protected(core) and d.z(core) < KNOWN_ZIPF:
            core = _fixed(core.replace(".", ""), d) or core
        out.append(lead + core + trail)
        i += 1
    return "".join(out)
