"""The corpus catalog: which documents exist, what they are, and how to parse them."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

import yaml

from ingest.parsers import LAYOUTS


class CorpusError(Exception):
    """A corpus or catalog problem, always naming the file at fault."""


@dataclass(frozen=True)
class DocumentInfo:
    id: str
    file: str
    title: str
    kind: tuple[str, ...]
    treaty: str
    parties: tuple[str, ...]
    languages: tuple[str, ...]
    layout: str
    signed: date | None = None
    in_force: date | None = None
    applies_to: str | None = None
    source_reference: str | None = None
    notes: str = ""
    ocr: bool = False        # an OCR scan: units get a corrected reading (ingest.ocr_reading)
    path: Path = field(default=Path("."), compare=False)


_REQUIRED = ("id", "file", "title", "kind", "treaty", "languages", "layout")


def _as_date(value: object, where: str) -> date | None:
    if value is None or isinstance(value, date):
        return value
    try:
        return date.fromisoformat(str(value))
    except ValueError as exc:
        raise CorpusError(f"{where}: data inválida {value!r} (use AAAA-MM-DD)") from exc


def load_catalog(corpus_dir: Path) -> list[DocumentInfo]:
    path = corpus_dir / "catalog.yaml"
    if not path.is_file():
        raise CorpusError(f"{path}: catálogo em falta")
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise CorpusError(f"{path}: catálogo ilegível: {exc}") from exc
    docs: list[DocumentInfo] = []
    seen: set[str] = set()
    for i, entry in enumerate(data.get("documents") or []):
        where = f"{path.name} entrada {i + 1}"
        if not isinstance(entry, dict):
            raise CorpusError(f"{where}: não é um mapeamento")
        missing = [k for k in _REQUIRED if not entry.get(k)]
        if missing:
            raise CorpusError(f"{where}: campos em falta: {', '.join(missing)}")
        doc_id = str(entry["id"])
        if doc_id in seen:
            raise CorpusError(f"{where}: id repetido {doc_id!r}")
        seen.add(doc_id)
        if entry["layout"] not in LAYOUTS:
            raise CorpusError(f"{where} ({entry['file']}): layout desconhecido {entry['layout']!r}")
        file_path = corpus_dir / str(entry["file"])
        if not file_path.is_file():
            raise CorpusError(f"{file_path}: o catálogo refere um ficheiro que não existe")
        if not isinstance(entry.get("ocr", False), bool):
            raise CorpusError(f"{where}: 'ocr' tem de ser true ou false")
        docs.append(DocumentInfo(
            id=doc_id,
            file=str(entry["file"]),
            title=str(entry["title"]),
            kind=tuple(entry["kind"]) if isinstance(entry["kind"], list) else (str(entry["kind"]),),
            treaty=str(entry["treaty"]),
            parties=tuple(entry.get("parties") or ()),
            languages=tuple(entry["languages"]),
            layout=str(entry["layout"]),
            signed=_as_date(entry.get("signed"), where),
            in_force=_as_date(entry.get("in_force"), where),
            applies_to=entry.get("applies_to"),
            source_reference=entry.get("source_reference"),
            notes=str(entry.get("notes") or "").strip(),
            ocr=bool(entry.get("ocr", False)),
            path=file_path,
        ))
    if not docs:
        raise CorpusError(f"{path}: o catálogo não descreve nenhum documento")
    return docs
