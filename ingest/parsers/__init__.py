"""Layout parsers: one module per source layout, each exposing parse(doc_id, source) -> list[Unit].

The catalog names a document's layout; a new document in a known layout needs no code.
"""
from __future__ import annotations

from importlib import import_module
from typing import Callable

from ingest.units import Unit

LAYOUTS = {
    "articled": "ingest.parsers.articled",
    "bilingual_ocr": "ingest.parsers.bilingual_ocr",
    "summary_table": "ingest.parsers.summary_table",
    "roman_items": "ingest.parsers.roman_items",
}


def parser_for(layout: str) -> Callable[[str, str], list[Unit]]:
    if layout not in LAYOUTS:
        raise ValueError(f"layout desconhecido: {layout!r} (conhecidos: {', '.join(sorted(LAYOUTS))})")
    return import_module(LAYOUTS[layout]).parse
