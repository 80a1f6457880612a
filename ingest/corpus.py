"""Reading and parsing the corpus: catalog -> validated source text -> structured units.

Everything is validated before anything is written anywhere, so a bad file can never leave a
half-updated index behind.
"""
from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from ingest.catalog import CorpusError, DocumentInfo, load_catalog
from ingest.ocr_reading import clean_reading
from ingest.parsers import parser_for
from ingest.units import ParsedDocument, Unit

DEFAULT_CORPUS_DIR = Path(__file__).resolve().parent.parent / "corpus"


def read_source(path: Path) -> str:
    raw = path.read_bytes()
    if not raw.strip():
        raise CorpusError(f"{path}: ficheiro vazio")
    if b"\x00" in raw:
        raise CorpusError(f"{path}: ficheiro binário (contém bytes NUL)")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CorpusError(f"{path}: não está em UTF-8 (byte inválido na posição {exc.start})") from exc


def parse_document(info: DocumentInfo) -> ParsedDocument:
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
        units = with_readings(source, units, info.languages)
    return ParsedDocument(doc_id=info.id, source=source, units=tuple(units))


def with_readings(source: str, units: list[Unit], languages: tuple[str, ...]) -> list[Unit]:
    """Each unit of an OCR document with its corrected reading; the raw text stays as it was."""
    out = []
    for u in units:
        other = next((lang for lang in languages if lang != u.language), None)
        out.append(replace(u, reading=clean_reading(source, u.spans, u.language, other)))
    return out


def parse_corpus(corpus_dir: Path = DEFAULT_CORPUS_DIR) -> dict[str, ParsedDocument]:
    return {info.id: parse_document(info) for info in load_catalog(corpus_dir)}


@lru_cache(maxsize=4)
def cached_corpus(corpus_dir: Path = DEFAULT_CORPUS_DIR) -> tuple[list[DocumentInfo], dict[str, ParsedDocument]]:
    """Catalog and parsed documents, parsed once per process (rules and retrieval share it)."""
    return load_catalog(corpus_dir), parse_corpus(corpus_dir)
