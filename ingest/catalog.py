"""The corpus catalog: which documents exist, what they are, and how to parse them.

catalog.yaml is validated by pydantic models before anything is read: its structure, ids, dates,
layouts, and every file path, which must stay inside the corpus folder and point at a regular file
no larger than MAX_DOCUMENT_BYTES. Every problem is reported in Portuguese, naming the entry.
"""
from __future__ import annotations

import errno
import re
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path, PurePosixPath
from typing import Annotated, Any

import yaml
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictBool, ValidationError, field_validator

from ingest.parsers import LAYOUTS

# The largest treaty text in the corpus is ~0.1 MB; 2 MB of plain text is several treaties' worth,
# and past that parsing and embedding would take hours: such a file is almost surely not one treaty.
MAX_DOCUMENT_BYTES = 2_000_000


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
    articles: tuple[int, int] = (1, 10_000)   # how many numbered articles/items/sections (min, max)
    size_kb: tuple[int, int] = (0, MAX_DOCUMENT_BYTES // 1000)  # the file's size range, in kB
    missing_articles: frozenset[int] = frozenset()   # numbers the source lacks (a file cut mid-treaty)
    misnumbered: tuple[tuple[str, str], ...] = ()    # (number, label printed for it): ("IX", "XI")
    path: Path = field(default=Path("."), compare=False)


def _listed(value: Any) -> Any:
    return [value] if isinstance(value, str) else value


_RANGE = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$")


def _range(value: Any) -> Any:
    """`29` or `"28-30"` -> (29, 29) / (28, 30); anything else is left for pydantic to reject."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return (value, value)
    if isinstance(value, str) and (m := _RANGE.match(value)):
        low, high = int(m.group(1)), int(m.group(2) or m.group(1))
        if low > high:
            raise ValueError(f"intervalo invertido {value!r} (use mínimo-máximo)")
        return (low, high)
    if isinstance(value, str):
        raise ValueError(f"intervalo inválido {value!r} (use um número, ou mínimo-máximo como 28-30)")
    return value


def _number_set(value: Any) -> Any:
    """`"1-6"`, `[3, 5]` or `7` -> the set of numbers."""
    if value is None:
        return []
    items = value if isinstance(value, list) else [value]
    out: list[int] = []
    for item in items:
        low, high = _range(item)
        out.extend(range(low, high + 1))
    return out


Text = Annotated[str, Field(min_length=1)]
Code = Annotated[str, Field(pattern=r"^[A-Z]{2,3}$")]
Language = Annotated[str, Field(pattern=r"^[a-z]{2}$")]
Range = Annotated[tuple[Annotated[int, Field(ge=0)], Annotated[int, Field(ge=0)]], BeforeValidator(_range)]


class CatalogEntry(BaseModel):
    """One document as catalog.yaml describes it (unknown keys are typos, hence errors)."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    id: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9._-]*$", max_length=80)]
    file: Text
    title: Text
    kind: Annotated[list[Text], BeforeValidator(_listed), Field(min_length=1)]
    treaty: Annotated[str, Field(pattern=r"^[A-Z]{2,3}(-[A-Z]{2,3})*$")]
    parties: list[Code] = []
    languages: Annotated[list[Language], BeforeValidator(_listed), Field(min_length=1)]
    layout: str
    signed: date | None = None
    in_force: date | None = None
    applies_to: str | None = None
    source_reference: str | None = None
    notes: str | None = ""
    ocr: StrictBool = False
    articles: Range                       # numbered articles (items, sections) the document has
    size_kb: Range                        # the file's size, in kB (1 kB = 1000 bytes)
    missing_articles: Annotated[list[Annotated[int, Field(ge=1)]], BeforeValidator(_number_set)] = []
    misnumbered: dict[str, str] = {}      # {"IX": "XI"}: the source prints XI where IX belongs

    @field_validator("layout")
    @classmethod
    def _known_layout(cls, value: str) -> str:
        if value not in LAYOUTS:
            raise ValueError(f"layout desconhecido {value!r} (conhecidos: {', '.join(sorted(LAYOUTS))})")
        return value

    @field_validator("file")
    @classmethod
    def _relative_path(cls, value: str) -> str:
        path = PurePosixPath(value.replace("\\", "/"))
        if path.is_absolute() or ".." in path.parts:
            raise ValueError(f"o caminho {value!r} tem de ser relativo à pasta do corpus, sem '..'")
        return value


class Catalog(BaseModel):
    model_config = ConfigDict(extra="forbid")

    documents: Annotated[list[CatalogEntry], Field(min_length=1)]


_PT = {
    "missing": "campo em falta",
    "extra_forbidden": "campo desconhecido",
    "list_type": "tem de ser uma lista",
    "string_type": "tem de ser texto",
    "string_too_short": "não pode estar vazio",
    "string_too_long": "é demasiado longo",
    "too_short": "não pode estar vazio",
    "string_pattern_mismatch": "formato inválido",
    "bool_type": "tem de ser true ou false",
    "model_type": "tem de ser um mapeamento (chave: valor)",
    "model_attributes_type": "tem de ser um mapeamento (chave: valor)",
    "dict_type": "tem de ser um mapeamento (chave: valor)",
}


def describe_error(error: dict[str, Any]) -> str:
    """One pydantic error in Portuguese: 'entrada 2: layout: layout desconhecido …' (also used for rule data)."""
    loc = list(error["loc"])
    where = ""
    if len(loc) >= 2 and loc[0] == "documents" and isinstance(loc[1], int):
        where, loc = f"entrada {loc[1] + 1}: ", loc[2:]
    field_name = ".".join(str(x + 1) if isinstance(x, int) else str(x) for x in loc)
    kind = error["type"]
    if kind == "value_error":
        text = str(error["ctx"]["error"])
    elif kind.startswith("date"):
        text = f"data inválida {error.get('input')!r} (use AAAA-MM-DD)"
    else:
        text = _PT.get(kind, error["msg"])
    if kind == "string_pattern_mismatch":
        text += f" ({error.get('input')!r})"
    return f"{where}{field_name + ': ' if field_name else ''}{text}"


def _document_path(corpus_dir: Path, entry: CatalogEntry, where: str) -> Path:
    """The entry's file, resolved inside the corpus folder, checked to be a small regular file."""
    path = corpus_dir / entry.file
    try:
        resolved = path.resolve(strict=True)
    except RuntimeError as exc:  # Python reports a symlink loop this way
        raise CorpusError(f"{path}: ciclo de ligações simbólicas ({where})") from exc
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise CorpusError(f"{path}: ciclo de ligações simbólicas ({where})") from exc
        raise CorpusError(f"{path}: o catálogo refere um ficheiro que não existe ({where})") from exc
    if not resolved.is_relative_to(corpus_dir.resolve()):
        raise CorpusError(f"{path}: aponta para fora da pasta do corpus ({resolved}) ({where})")
    if not resolved.is_file():
        raise CorpusError(f"{path}: não é um ficheiro ({where})")
    size = resolved.stat().st_size
    if size > MAX_DOCUMENT_BYTES:
        raise CorpusError(f"{path}: ficheiro demasiado grande ({size / 1e6:.1f} MB; o máximo é "
                          f"{MAX_DOCUMENT_BYTES / 1e6:.0f} MB): divida-o ou confirme que é o documento certo ({where})")
    return path


def load_catalog(corpus_dir: Path) -> list[DocumentInfo]:
    path = corpus_dir / "catalog.yaml"
    if not path.is_file():
        raise CorpusError(f"{path}: catálogo em falta")
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise CorpusError(f"{path}: catálogo ilegível: {exc}") from exc
    if not isinstance(data, dict):
        raise CorpusError(f"{path}: o catálogo tem de ser um mapeamento com a chave 'documents' "
                          f"(encontrado: {type(data).__name__})")
    try:
        catalog = Catalog.model_validate(data)
    except ValidationError as exc:
        problems = [describe_error(e) for e in exc.errors(include_url=False)]
        raise CorpusError(f"{path}: catálogo inválido: " + "; ".join(problems[:5])
                          + (f" (e mais {len(problems) - 5})" if len(problems) > 5 else "")) from exc
    docs: list[DocumentInfo] = []
    seen: dict[str, int] = {}
    for i, entry in enumerate(catalog.documents, start=1):
        where = f"{path.name} entrada {i}"
        if entry.id in seen:
            raise CorpusError(f"{where}: id repetido {entry.id!r} (já usado na entrada {seen[entry.id]})")
        seen[entry.id] = i
        docs.append(DocumentInfo(
            id=entry.id, file=entry.file, title=entry.title, kind=tuple(entry.kind), treaty=entry.treaty,
            parties=tuple(entry.parties), languages=tuple(entry.languages), layout=entry.layout,
            signed=entry.signed, in_force=entry.in_force, applies_to=entry.applies_to,
            source_reference=entry.source_reference, notes=(entry.notes or "").strip(), ocr=entry.ocr,
            articles=entry.articles, size_kb=entry.size_kb, missing_articles=frozenset(entry.missing_articles),
            misnumbered=tuple(sorted(entry.misnumbered.items())),
            path=_document_path(corpus_dir, entry, where)))
    return docs
