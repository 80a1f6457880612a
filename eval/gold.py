"""The evaluation set: every eval/questions*.jsonl file read into checked, typed gold items.

Each file is its own split ("questions.jsonl" is "core", "questions_<name>.jsonl" is "<name>"), so a
report can show how the assistant does on each kind of question. A record is validated by one pydantic
model; a bad record gets a Portuguese message naming the file, line, item and field. Article and
paragraph addresses are normalised here once, so the scorer compares like with like whatever spelling
a citation uses ("Art. 10.º", "artigo 10", "Protocol para. 4").
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Union

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    ValidationError,
    field_validator,
)

EVAL_DIR = Path(__file__).resolve().parent
DEFAULT_QUESTIONS = EVAL_DIR / "questions.jsonl"
CORE_SPLIT = "core"
_SPLIT_FILE = re.compile(r"^questions(?:_(?P<split>[a-z0-9]+))?\.jsonl$")

LANGUAGES = ("pt", "es", "en")
VARIANTS = ("pt-PT", "pt-BR")


class GoldError(ValueError):
    """A malformed evaluation item; the message names the line and the field."""


@dataclass(frozen=True)
class GoldArticle:
    treaty: str | None
    article: str            # normalised: "10", "protocolo 4", "xi", "preâmbulo"


@dataclass(frozen=True)
class GoldParagraph:
    treaty: str | None
    article: str
    paragraph: str
    subparagraph: str | None


@dataclass(frozen=True)
class GoldItem:
    id: str
    question: str
    language: str
    treaty: str | None
    docs: tuple[str, ...]
    articles: tuple[GoldArticle, ...]        # required citations
    articles_ok: tuple[GoldArticle, ...]     # also correct to cite, not required
    paragraphs: tuple[GoldParagraph, ...]
    rates: tuple[float, ...]                 # every one must be given
    rates_allowed: tuple[float, ...]         # may also be given (conditional alternatives)
    key_facts: tuple[str, ...]               # regexes, case-insensitive
    forbidden_rates: tuple[float, ...]
    abstain: bool
    category: str
    variant: str | None = None
    notes: str = ""
    split: str = CORE_SPLIT
    source_url: str | None = None            # the public page a real-world item was built from


_ARTICLE_WORDS = re.compile(r"\b(?:artigo|art[íi]culo|article|art)\b\.?", re.I)
_PROTOCOL = re.compile(r"\bprotoc(?:olo|ol)\b", re.I)
_FILLER = re.compile(r"\b(?:ponto|item|para|par[áa]grafo|paragraph|n\.?(?:os)?|no|number)\b\.?", re.I)


def normalise_article(raw: object) -> str:
    """'Art. 10.º' -> '10'; 'Protocol para. 4' -> 'protocolo 4'; 'XI' -> 'xi'."""
    text = str(raw or "").strip()
    text = text.replace("º", " ").replace("°", " ").replace("ª", " ")
    text = _ARTICLE_WORDS.sub(" ", text)
    text = _PROTOCOL.sub(" protocolo ", text)
    text = _FILLER.sub(" ", text)
    text = re.sub(r"[.,;:()]", " ", text)
    return " ".join(text.lower().split())


def normalise_part(raw: object) -> str | None:
    """A paragraph or alínea label: 'n.º 2' -> '2', 'a)' -> 'a', 'alínea b)' -> 'b'."""
    if raw is None:
        return None
    text = str(raw).replace("º", " ")
    text = re.sub(r"\b(?:n\.?|al[íi]nea|alinea|letra|sub|para|par[áa]grafo|paragraph)\b\.?", " ", text,
                  flags=re.I)
    text = re.sub(r"[()\s]", "", text).strip(".").lower()
    return text or None


def _split_treaty(raw: str, default: str | None) -> tuple[str | None, str]:
    if ":" in raw:
        treaty, rest = raw.split(":", 1)
        return treaty.strip().upper(), rest.strip()
    return default, raw.strip()


def parse_article_ref(raw: str, default_treaty: str | None) -> GoldArticle:
    """'10', 'Protocolo 4', 'MLI:16' (a prefix names another treaty than the item's)."""
    treaty, rest = _split_treaty(raw, default_treaty)
    return GoldArticle(treaty, normalise_article(rest))


_PARAGRAPH_REF = re.compile(r"^(?P<article>[^()]+?)\s*\((?P<par>[^()]+)\)(?:\s*\((?P<sub>[^()]+)\))?$")


def parse_paragraph_ref(raw: str, default_treaty: str | None) -> GoldParagraph:
    """'10(2)(a)' -> article 10, paragraph 2, alínea a; 'MLI:16(1)' for another treaty."""
    treaty, rest = _split_treaty(raw, default_treaty)
    m = _PARAGRAPH_REF.match(rest)
    if not m:
        raise GoldError(f"referência de número inválida {raw!r} (use por exemplo \"10(2)(a)\")")
    return GoldParagraph(treaty, normalise_article(m.group("article")),
                         normalise_part(m.group("par")) or "", normalise_part(m.group("sub")))


Number = Annotated[Union[StrictInt, StrictFloat], Field(ge=0, le=100)]
Text = Annotated[StrictStr, Field(min_length=1)]


class ItemRecord(BaseModel):
    """One line of a questions*.jsonl file, as written by hand (field meanings in eval/README.md)."""
    model_config = ConfigDict(extra="forbid")

    id: Annotated[StrictStr, Field(pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)+$")]
    question: StrictStr
    language: StrictStr
    variant: StrictStr | None = None
    treaty: Text | None
    docs: list[Text] = []
    articles: list[Text]
    articles_ok: list[Text] = []
    paragraphs: list[Text] = []
    rates: list[Number]
    rates_allowed: list[Number] = []
    key_facts: list[Text]
    forbidden_rates: list[Number]
    abstain: StrictBool
    category: Text
    notes: StrictStr = ""
    source_url: Annotated[StrictStr, Field(pattern=r"^https?://\S+$")] | None = None

    @field_validator("language")
    @classmethod
    def _known_language(cls, value: str) -> str:
        if value not in LANGUAGES:
            raise ValueError(f"língua {value!r} desconhecida (use {', '.join(LANGUAGES)})")
        return value

    @field_validator("variant")
    @classmethod
    def _known_variant(cls, value: str | None) -> str | None:
        if value is not None and value not in VARIANTS:
            raise ValueError(f"variante {value!r} desconhecida (use {', '.join(VARIANTS)})")
        return value

    @field_validator("key_facts")
    @classmethod
    def _compiles(cls, patterns: list[str]) -> list[str]:
        for pattern in patterns:
            try:
                re.compile(pattern)
            except re.error as exc:
                raise ValueError(f"expressão regular inválida {pattern!r}: {exc}") from exc
        return patterns

    @field_validator("paragraphs")
    @classmethod
    def _paragraph_refs(cls, refs: list[str]) -> list[str]:
        for ref in refs:
            parse_paragraph_ref(ref, None)
        return refs


_PT_ERRORS = {
    "missing": "campo obrigatório em falta",
    "extra_forbidden": "campo desconhecido (ver os campos em eval/README.md)",
    "string_type": "deve ser um texto",
    "string_too_short": "não pode ser vazio",
    "string_pattern_mismatch": "formato inválido",
    "bool_type": "deve ser true ou false",
    "list_type": "deve ser uma lista",
    "int_type": "deve ser um número (percentagem)",
    "float_type": "deve ser um número (percentagem)",
    "greater_than_equal": "deve estar entre 0 e 100",
    "less_than_equal": "deve estar entre 0 e 100",
}


def _explain(error: ValidationError) -> str:
    """Pydantic's errors as one Portuguese line: «field»: what is wrong (the value given)."""
    parts = []
    for e in error.errors():
        loc = e["loc"]
        field = str(loc[0]) if loc else "registo"
        position = "".join(f"[{p}]" for p in loc[1:] if isinstance(p, int))
        if e["type"] == "value_error":
            what = str(e["ctx"]["error"]) if "error" in e.get("ctx", {}) else e["msg"]
        elif e["type"] in ("string_pattern_mismatch",) and field == "id":
            what = "formato inválido (use <doc>-<tema>-NNN, minúsculas, números e hífens)"
        elif e["type"] in ("string_pattern_mismatch",) and field == "source_url":
            what = "deve ser um endereço http(s)"
        else:
            what = _PT_ERRORS.get(e["type"], e["msg"])
        given = "" if e["type"] == "missing" else f" (recebido: {e['input']!r:.60})"
        parts.append(f"«{field}{position}»: {what}{given}")
    return "; ".join(dict.fromkeys(parts))


def item_from_record(record: object, where: str = "item", split: str = CORE_SPLIT) -> GoldItem:
    if not isinstance(record, dict):
        raise GoldError(f"{where}: cada linha deve ser um objeto JSON")
    if isinstance(record.get("id"), str) and record["id"]:
        where = f"{where} ({record['id']})"
    try:
        r = ItemRecord.model_validate(record)
    except ValidationError as exc:
        raise GoldError(f"{where}: {_explain(exc)}") from None
    return GoldItem(
        id=r.id, question=r.question, language=r.language, treaty=r.treaty, docs=tuple(r.docs),
        articles=tuple(parse_article_ref(a, r.treaty) for a in r.articles),
        articles_ok=tuple(parse_article_ref(a, r.treaty) for a in r.articles_ok),
        paragraphs=tuple(parse_paragraph_ref(p, r.treaty) for p in r.paragraphs),
        rates=tuple(float(v) for v in r.rates), rates_allowed=tuple(float(v) for v in r.rates_allowed),
        key_facts=tuple(r.key_facts), forbidden_rates=tuple(float(v) for v in r.forbidden_rates),
        abstain=r.abstain, category=r.category, variant=r.variant, notes=r.notes, split=split,
        source_url=r.source_url,
    )


def split_of(path: Path) -> str:
    """'questions.jsonl' -> 'core'; 'questions_realworld.jsonl' -> 'realworld'."""
    m = _SPLIT_FILE.match(path.name)
    if not m:
        raise GoldError(f"{path.name}: nome de ficheiro de perguntas inválido (use questions_<divisão>.jsonl, "
                        "com a divisão em minúsculas e números)")
    return m.group("split") or CORE_SPLIT


def load_questions(path: Path = DEFAULT_QUESTIONS) -> list[GoldItem]:
    """One file, its items tagged with the file's split."""
    if not path.is_file():
        raise GoldError(f"{path}: ficheiro de perguntas em falta")
    split = split_of(path)
    items: list[GoldItem] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise GoldError(f"{path.name} linha {number}: JSON inválido: {exc.msg}") from exc
        items.append(item_from_record(record, f"{path.name} linha {number}", split))
    if not items:
        raise GoldError(f"{path}: nenhuma pergunta")
    return items


def question_files(directory: Path = EVAL_DIR) -> list[Path]:
    """Every questions*.jsonl in the folder, the core file first."""
    files = sorted(directory.glob("questions*.jsonl"), key=lambda p: (p.name != DEFAULT_QUESTIONS.name, p.name))
    if not files:
        raise GoldError(f"{directory}: nenhum ficheiro questions*.jsonl")
    return files


def load_eval_set(directory: Path = EVAL_DIR) -> list[GoldItem]:
    """All splits together; an id may appear only once across all files."""
    items: list[GoldItem] = []
    seen: dict[str, str] = {}
    for path in question_files(directory):
        for item in load_questions(path):
            if item.id in seen:
                raise GoldError(f"{path.name}: id repetido {item.id!r} (já existe em {seen[item.id]})")
            seen[item.id] = path.name
            items.append(item)
    return items


def splits(items: list[GoldItem]) -> list[str]:
    """The splits present, core first, then in file order."""
    return list(dict.fromkeys(i.split for i in items))
