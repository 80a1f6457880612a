"""Showing a cited paragraph with the cited words marked, safely escaped for st.markdown(unsafe_allow_html)."""
from __future__ import annotations

import html
import re

from app_support.safe_markdown import without_images
from ingest.ocr_reading import raw_words
from ingest.units import Unit


def quote_spans(passage: str, quote: str) -> list[tuple[int, int]]:
    """Where the quote's words sit in the passage, ignoring case and whitespace differences."""
    words = quote.split()
    if not words or not passage:
        return []
    pattern = re.compile(r"\s+".join(re.escape(w) for w in words), re.IGNORECASE)
    return [m.span() for m in pattern.finditer(passage)]


def _merge(spans: list[tuple[int, int]], limit: int) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for start, end in sorted((max(0, s), min(limit, e)) for s, e in spans):
        if start >= end:
            continue
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def highlight_html(passage: str, quote: str = "") -> str:
    """The passage as HTML with every occurrence of the quote wrapped in <mark>."""
    return without_images(_marked(passage, quote_spans(passage, quote) if quote else []))


def _raw_quote_range(unit: Unit, source: str, quote: str) -> tuple[int, int] | None:
    """Source range of the quote's words among the unit's raw words (rule quotes cite the raw scan)."""
    words = raw_words(source, unit.spans)
    wanted = [w.lower() for w in quote.split()]
    texts = [w.text.lower() for w in words]
    for i in range(len(texts) - len(wanted) + 1):
        if texts[i:i + len(wanted)] == wanted:
            return words[i].start, words[i + len(wanted) - 1].end
    return None


def reading_html(unit: Unit, source: str, quote: str = "", raw: bool = False) -> str:
    """A unit as HTML, the quote marked: an OCR unit in its clean reading (the raw quote's words are
    found in the scan and marked on the clean words made from them) or, with raw, as scanned."""
    if unit.reading is None or raw:
        return highlight_html(unit.text, quote)
    clean = unit.reading.text
    if not quote:
        return highlight_html(clean)
    found = _raw_quote_range(unit, source, quote)
    if found is None:
        return highlight_html(clean, quote)
    words = unit.reading.clean_ranges(*found)
    return _marked(clean, [(words[0][0], words[-1][1])] if words else [])


def _marked(text: str, marks: list[tuple[int, int]]) -> str:
    out, pos = [], 0
    for start, end in _merge(marks, len(text)):
        out.append(html.escape(text[pos:start]))
        out.append(f"<mark>{html.escape(text[start:end])}</mark>")
        pos = end
    out.append(html.escape(text[pos:]))
    return "".join(out)
