"""The one message catalogue: every sentence the product writes itself, in pt, es and en.

Texts live in i18n/<namespace>.yaml; a file's name is the first part of its keys ("assistant.rate_cap" is
`rate_cap` in assistant.yaml). Each leaf maps pt/es/en to a str.format() template. Code passes codes and
params; only t() turns them into words. An unknown language falls back to Portuguese (the reference).
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

LANGUAGES = ("pt", "es", "en")
CATALOGUE_DIR = Path(__file__).resolve().parent


class CatalogueError(Exception):
    """A catalogue file is malformed or a key is missing; the message names the key."""


def normalise_language(language: object) -> str:
    """"es", "ES", "es-ES", "en_GB" → "es"/"en"; anything unknown → "pt" (the reference language)."""
    if not isinstance(language, str):
        return "pt"
    head = language.strip().lower().replace("_", "-").split("-")[0]
    return head if head in LANGUAGES else "pt"


def _is_leaf(node: object) -> bool:
    return isinstance(node, dict) and bool(node) and all(k in LANGUAGES for k in node)


def _flatten(node: object, prefix: str, out: dict[str, dict[str, str]], where: str) -> None:
    if _is_leaf(node):
        out[prefix] = {lang: " ".join(str(text).split()) for lang, text in node.items()}  # type: ignore[union-attr]
        return
    if not isinstance(node, dict):
        raise CatalogueError(f"{where}: {prefix!r} não é um texto pt/es/en nem um grupo de chaves")
    for key, child in node.items():
        _flatten(child, f"{prefix}.{key}", out, where)


@lru_cache(maxsize=1)
def catalogue(directory: Path = CATALOGUE_DIR) -> dict[str, dict[str, str]]:
    """Every key ("namespace.a.b") → {lang: template}, read once per process."""
    out: dict[str, dict[str, str]] = {}
    for path in sorted(directory.glob("*.yaml")):
        raw = yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader) or {}
        _flatten(raw, path.stem, out, path.name)
    return out


def has(key: str) -> bool:
    return key in catalogue()


def t(lang: str, key: str, **params: Any) -> str:
    """The text of `key` in `lang` (unknown language → pt), filled with params."""
    texts = catalogue().get(key)
    if texts is None:
        raise CatalogueError(f"chave desconhecida no catálogo de mensagens: {key!r}")
    template = texts.get(normalise_language(lang)) or texts["pt"]
    try:
        return template.format(**params)
    except (KeyError, IndexError) as exc:
        raise CatalogueError(f"a mensagem {key!r} precisa do parâmetro {exc}") from exc


def t_all(key: str, **params: Any) -> dict[str, str]:
    """The text of `key` in every language (for results that must carry all three)."""
    return {lang: t(lang, key, **params) for lang in LANGUAGES}
