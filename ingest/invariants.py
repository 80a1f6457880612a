"""What a parsed document must look like before it may enter the index.

A parser follows the text it is given; these checks catch the text that is not the treaty the catalog
describes: a heading repeated or renumbered (an article folds silently into its neighbour), a number
skipped, a treaty pasted twice, a file cut short, the same text under two ids. Each failure is one line
naming the file; the catalog declares what a source really lacks (missing_articles, misnumbered).
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from ingest.catalog import CorpusError, DocumentInfo
from ingest.parsers._structure import roman_value
from ingest.units import ParsedDocument, Unit, normalise_ws

MAIN_KINDS = ("article", "item", "section")      # what `articles:` counts
NUMBERED_KINDS = ("article", "item", "protocol_item")
_ARABIC = re.compile(r"^(?:Protocolo\s+)?(\d+)(-[A-Z])?$")
_ROMAN = re.compile(r"^[IVXLC]+$")


@dataclass(frozen=True)
class _Numbered:
    label: str     # as printed: "10", "10-A", "XI", "Protocolo 4"
    value: int
    inserted: bool  # "10-A": an article inserted after 10, outside the sequence


def _numbered(unit: Unit) -> _Numbered | None:
    label = unit.article or ""
    if m := _ARABIC.match(label):
        return _Numbered(m.group(1) + (m.group(2) or ""), int(m.group(1)), m.group(2) is not None)
    if _ROMAN.match(label):
        return _Numbered(label, roman_value(label), False)
    return None


def _word(kind: str) -> str:
    return {"item": "item", "protocol_item": "ponto do protocolo"}.get(kind, "artigo")


def _check_series(info: DocumentInfo, kind: str, units: list[Unit], language: str) -> None:
    """Numbers strictly increasing from 1, each once, no gap unless the catalog declares it."""
    missing = info.missing_articles if kind != "protocol_item" else frozenset()
    misprinted = {roman_value(k) if _ROMAN.match(k) else int(k): v for k, v in info.misnumbered} \
        if kind != "protocol_item" else {}
    where = f"{info.path}: {_word(kind)}"
    lang = f" ({language})" if len(info.languages) > 1 else ""
    previous = 0
    for unit in units:
        number = _numbered(unit)
        if number is None:
            raise CorpusError(f"{where} sem número reconhecível «{unit.article}»{lang}")
        if number.inserted:
            if number.value != previous:
                raise CorpusError(f"{where} {number.label} fora do lugar (depois do {previous}){lang}")
            continue
        expected = previous + 1
        while expected in missing:
            expected += 1
        value = expected if misprinted.get(expected) == number.label else number.value
        if value == previous:
            raise CorpusError(f"{where} {number.label} repetido: dois cabeçalhos com o mesmo número{lang}")
        if value < previous:
            raise CorpusError(f"{where} {number.label} fora de ordem (depois do {previous}){lang}")
        skipped = [n for n in range(previous + 1, value) if n not in missing]
        if skipped:
            raise CorpusError(f"{where} {skipped[0]} em falta (salta do {previous} para o {number.label}){lang}; "
                              "se a fonte não o tem, declare-o em missing_articles no catálogo")
        previous = value


def check_document(info: DocumentInfo, doc: ParsedDocument, size_bytes: int) -> None:
    """Raise CorpusError unless the parsed document matches what the catalog declares."""
    low, high = info.size_kb
    if not low * 1000 <= size_bytes <= high * 1000 + 999:
        raise CorpusError(f"{info.path}: {size_bytes / 1000:.1f} kB, fora do intervalo {low}-{high} kB que o "
                          "catálogo declara (texto repetido ou cortado?)")
    articles = doc.articles()
    for language in sorted({u.language for u in articles}):
        mine = [u for u in articles if u.language == language]
        for kind in NUMBERED_KINDS:
            series = [u for u in mine if u.kind == kind]
            if series:
                _check_series(info, kind, series, language)
        count = sum(1 for u in mine if u.kind in MAIN_KINDS)
        low, high = info.articles
        if not low <= count <= high:
            declared = str(low) if low == high else f"{low}-{high}"
            lang = f" ({language})" if len(info.languages) > 1 else ""
            raise CorpusError(f"{info.path}: {count} artigos/itens encontrados{lang}, o catálogo declara {declared}")


def text_fingerprint(source: str) -> str:
    """The text with whitespace normalised, hashed: two files with the same words get the same value."""
    return hashlib.sha256(normalise_ws(source).encode("utf-8")).hexdigest()


def check_distinct(documents: list[tuple[DocumentInfo, ParsedDocument]]) -> None:
    """No two catalog entries may hold the same text (one treaty under two ids answers twice)."""
    seen: dict[str, DocumentInfo] = {}
    for info, doc in documents:
        key = text_fingerprint(doc.source)
        if key in seen:
            raise CorpusError(f"{info.path}: o mesmo texto que {seen[key].path.name} (entradas {seen[key].id!r} e "
                              f"{info.id!r} do catálogo)")
        seen[key] = info
