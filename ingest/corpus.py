"""Reading and parsing the corpus: catalog -> validated source text -> structured units.

Everything is validated before anything is written anywhere, so a bad file can never leave a
half-updated index behind.
"""
from __future__ import annotations

import codecs
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from config import load_settings
from ingest.catalog import CorpusError, DocumentInfo, load_catalog
from ingest.invariants import check_distinct, check_document
from ingest.ocr_reading import Reading, clean_reading
from ingest.parsers import parser_for
from ingest.reading_cache import cached_readings
from ingest.units import ParsedDocument, Unit

DEFAULT_CORPUS_DIR = Path(__file__).resolve().parent.parent / "corpus"


_WIDE_BOMS = ((codecs.BOM_UTF32_LE, "UTF-32 LE"), (codecs.BOM_UTF32_BE, "UTF-32 BE"),
              (codecs.BOM_UTF16_LE, "UTF-16 LE"), (codecs.BOM_UTF16_BE, "UTF-16 BE"))  # 32 first: it starts like 16


def wide_encoding(raw: bytes) -> str | None:
    """'UTF-16 LE' etc. when the bytes are text in a wide encoding (by its BOM, or NULs at every 2nd/4th byte)."""
    for bom, name in _WIDE_BOMS:
        if raw.startswith(bom):
            return name
    sample = raw[:4096]
    if len(sample) < 8:
        return None
    for width, name in ((4, "UTF-32"), (2, "UTF-16")):
        for offset, order in ((0, "LE"), (width - 1, "BE")):  # the byte that carries an ASCII letter
            lanes = [sample[i] for i in range(offset, len(sample) - width + 1, width)]
            zeros = [sample[i + j] for i in range(0, len(sample) - width + 1, width)
                     for j in range(width) if j != offset]
            if zeros and not any(zeros) and sum(map(bool, lanes)) > 0.9 * len(lanes):
                return f"{name} {order}"
    return None


def read_source(path: Path) -> str:
    """The file's text: UTF-8, a leading BOM dropped (so adding or removing one changes nothing)."""
    raw = path.read_bytes().removeprefix(codecs.BOM_UTF8)
    if not raw.strip():
        raise CorpusError(f"{path}: ficheiro vazio")
    if wide := wide_encoding(raw):
        raise CorpusError(f"{path}: texto em {wide}, não em UTF-8: converta-o (ex.: iconv -f {wide.split()[0]} "
                          "-t UTF-8)")
    if b"\x00" in raw:
        raise CorpusError(f"{path}: ficheiro binário (contém bytes NUL)")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CorpusError(f"{path}: não está em UTF-8 (byte inválido na posição {exc.start})") from exc


def parse_document(info: DocumentInfo, cache_dir: Path | None = None) -> ParsedDocument:
    """One document's units (with clean readings when it is an OCR scan; kept under cache_dir if given)."""
    source = read_source(info.path)
    try:
        units = parser_for(info.layout)(info.id, source)
    except CorpusError as exc:
        raise CorpusError(f"{info.path}: {exc}") from exc
    if not any(u.level == "article" for u in units):
        raise CorpusError(f"{info.path}: nenhum artigo encontrado (layout {info.layout!r})")
    uids = [u.uid for u in units]
    if len(uids) != len(set(uids)):
        dup = sorted({x for x in uids if uids.count(x) > 1})
        raise CorpusError(f"{info.path}: ids de unidade repetidos: {', '.join(dup[:5])}")
    if info.ocr:
        units = with_readings(source, units, info.languages, cache_dir)
    doc = ParsedDocument(doc_id=info.id, source=source, units=tuple(units))
    check_document(info, doc, info.path.stat().st_size)
    return doc


def with_readings(source: str, units: list[Unit], languages: tuple[str, ...],
                  cache_dir: Path | None = None) -> list[Unit]:
    """Each unit of an OCR document with its corrected reading; the raw text stays as it was."""
    def compute(u: Unit) -> Reading:
        return clean_reading(source, u.spans, u.language, next((x for x in languages if x != u.language), None))
    readings = cached_readings(source, units, languages, cache_dir, compute)
    return [replace(u, reading=r) for u, r in zip(units, readings, strict=True)]


def parse_catalogued(corpus_dir: Path, cache_dir: Path | None = None) -> list[tuple[DocumentInfo, ParsedDocument]]:
    """Every catalog entry parsed and checked, alone (ingest.invariants) and against the others; the OCR
    readings are kept under cache_dir (the settings' one unless given)."""
    cache = cache_dir or load_settings().cache_dir
    documents = [(info, parse_document(info, cache)) for info in load_catalog(corpus_dir)]
    check_distinct(documents)
    return documents


def parse_corpus(corpus_dir: Path = DEFAULT_CORPUS_DIR, cache_dir: Path | None = None) -> dict[str, ParsedDocument]:
    return {info.id: doc for info, doc in parse_catalogued(corpus_dir, cache_dir)}


@lru_cache(maxsize=4)
def cached_corpus(corpus_dir: Path = DEFAULT_CORPUS_DIR, cache_dir: Path | None = None
                  ) -> tuple[list[DocumentInfo], dict[str, ParsedDocument]]:
    """Catalog and parsed documents, parsed once per process (rules and retrieval share it); the OCR readings
    are kept under cache_dir (the settings' one unless given)."""
    return load_catalog(corpus_dir), parse_corpus(corpus_dir, cache_dir)
