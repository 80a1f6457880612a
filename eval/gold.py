"""The evaluation set: reading eval/questions.jsonl into checked, typed gold items.

Article and paragraph addresses are normalised here once, so the scorer compares like with like
whatever spelling a citation uses ("Art. 10.º", "artigo 10", "Protocol para. 4").
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

DEFAULT_QUESTIONS = Path(__file__).resolve().parent / "questions.jsonl"

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


def _numbers(record: dict, key: str, where: str) -> tuple[float, ...]:
    values = record.get(key) or []
    if not isinstance(values, list) or not all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                                 for v in values):
        raise GoldError(f"{where}: «{key}» deve ser uma lista de números (percentagens)")
    return tuple(float(v) for v in values)


def _strings(record: dict, key: str, where: str) -> tuple[str, ...]:
    values = record.get(key) or []
    if not isinstance(values, list) or not all(isinstance(v, str) and v.strip() for v in values):
        raise GoldError(f"{where}: «{key}» deve ser uma lista de textos não vazios")
    return tuple(values)


_REQUIRED = ("id", "question", "language", "treaty", "articles", "rates", "key_facts",
             "forbidden_rates", "abstain", "category")


def item_from_record(record: object, where: str = "item") -> GoldItem:
    if not isinstance(record, dict):
        raise GoldError(f"{where}: cada linha deve ser um objeto JSON")
    missing = [k for k in _REQUIRED if k not in record]
    if missing:
        raise GoldError(f"{where}: campos em falta: {', '.join(missing)}")
    item_id = record["id"]
    if not isinstance(item_id, str) or not item_id:
        raise GoldError(f"{where}: «id» deve ser um texto não vazio")
    where = f"{where} ({item_id})"
    if not isinstance(record["question"], str):
        raise GoldError(f"{where}: «question» deve ser um texto")
    if record["language"] not in LANGUAGES:
        raise GoldError(f"{where}: língua {record['language']!r} desconhecida (use {', '.join(LANGUAGES)})")
    variant = record.get("variant")
    if variant is not None and variant not in VARIANTS:
        raise GoldError(f"{where}: variante {variant!r} desconhecida (use {', '.join(VARIANTS)})")
    treaty = record["treaty"]
    if treaty is not None and (not isinstance(treaty, str) or not treaty):
        raise GoldError(f"{where}: «treaty» deve ser um texto ou null")
    if not isinstance(record["abstain"], bool):
        raise GoldError(f"{where}: «abstain» deve ser true ou false")
    if not isinstance(record["category"], str) or not record["category"]:
        raise GoldError(f"{where}: «category» deve ser um texto não vazio")
    key_facts = _strings(record, "key_facts", where)
    for pattern in key_facts:
        try:
            re.compile(pattern)
        except re.error as exc:
            raise GoldError(f"{where}: expressão regular inválida {pattern!r}: {exc}") from exc
    articles = tuple(parse_article_ref(a, treaty) for a in _strings(record, "articles", where))
    articles_ok = tuple(parse_article_ref(a, treaty) for a in _strings(record, "articles_ok", where))
    try:
        paragraphs = tuple(parse_paragraph_ref(p, treaty) for p in _strings(record, "paragraphs", where))
    except GoldError as exc:
        raise GoldError(f"{where}: {exc}") from exc
    return GoldItem(
        id=item_id,
        question=record["question"],
        language=record["language"],
        treaty=treaty,
        docs=_strings(record, "docs", where),
        articles=articles,
        articles_ok=articles_ok,
        paragraphs=paragraphs,
        rates=_numbers(record, "rates", where),
        rates_allowed=_numbers(record, "rates_allowed", where),
        key_facts=key_facts,
        forbidden_rates=_numbers(record, "forbidden_rates", where),
        abstain=record["abstain"],
        category=record["category"],
        variant=variant,
        notes=str(record.get("notes") or ""),
    )


def load_questions(path: Path = DEFAULT_QUESTIONS) -> list[GoldItem]:
    if not path.is_file():
        raise GoldError(f"{path}: ficheiro de perguntas em falta")
    items: list[GoldItem] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise GoldError(f"{path.name} linha {number}: JSON inválido: {exc.msg}") from exc
        items.append(item_from_record(record, f"{path.name} linha {number}"))
    if not items:
        raise GoldError(f"{path}: nenhuma pergunta")
    return items
