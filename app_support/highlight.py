"""Showing a cited paragraph with the cited words marked, safely escaped for st.markdown(unsafe_allow_html)."""
from __future__ import annotations

import html
import re

from app_support.safe_markdown import without_images


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
    marks = quote_spans(passage, quote) if quote else []
    out, pos = [], 0
    for start, end in _merge(marks, len(passage)):
        out.append(html.escape(passage[pos:start]))
        out.append(f"<mark>{html.escape(passage[start:end])}</mark>")
        pos = end
    out.append(html.escape(passage[pos:]))
    return without_images("".join(out))
