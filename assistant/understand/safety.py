"""Input checks and hostile-text detection: bad input is refused before anything is read."""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from pathlib import Path

import yaml

from assistant.lexicon.text import fold

MAX_QUESTION_CHARS = 2000
_PATTERNS_FILE = Path(__file__).with_name("injection.yaml")


def validate_question(text: object, max_chars: int = MAX_QUESTION_CHARS) -> str | None:
    """A Portuguese message saying why the question cannot be processed, or None if it can."""
    if not isinstance(text, str):
        return "A pergunta tem de ser texto."
    if not text.strip():
        return "A pergunta está vazia. Escreva a sua questão sobre a convenção."
    if len(text) > max_chars:
        return f"A pergunta é demasiado longa ({len(text)} caracteres; o máximo é {max_chars}). Resuma-a, por favor."
    if any(c == "\ufffd" or (unicodedata.category(c) in ("Cc", "Cs", "Co") and c not in "\n\r\t") for c in text):
        return "A pergunta contém caracteres de controlo ou binários. Escreva-a em texto simples."
    return None


# Letters from other scripts that look Latin (a Cyrillic "о" in "ignоre"): read as the Latin letter.
_LOOKALIKES = str.maketrans("аеорсхуіјѕԁһӏԛԝαοντ", "aeopcxyijsdhlqwaovt")


@lru_cache(maxsize=1024)
def normalise(folded: str) -> str:
    """What every check reads: NFKC (full-width and styled letters become plain), zero-width and other format
    characters removed, look-alike letters made Latin, folded again (lower case, no accents)."""
    text = unicodedata.normalize("NFKC", folded)
    text = "".join(c for c in text if unicodedata.category(c) != "Cf")
    return fold(text.lower().translate(_LOOKALIKES))


@lru_cache(maxsize=1)
def _injection_patterns() -> dict[str, re.Pattern[str]]:
    data = yaml.load(_PATTERNS_FILE.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    return {name: re.compile(pattern, re.VERBOSE) for name, pattern in data["patterns"].items()}


def injection_kinds(folded: str) -> list[str]:
    """The names of the injection patterns (injection.yaml) the question matches."""
    text = normalise(folded)
    return [name for name, pattern in _injection_patterns().items() if pattern.search(text)]


def injection(folded: str) -> bool:
    return bool(injection_kinds(folded))


# Asking how to break the law (hide income, evade tax, launder money): refused, whatever else is asked.
_EVASION = re.compile(
    r"\b(?:hide|hiding|conceal|esconder|escondo|ocultar|oculto|omitir|disfar\w*)\b.{0,30}"
    r"\b(?:income|rendiment\w*|rendas?|rentas?|ingresos|lucros?|beneficios|dinheiro|dinero|money|assets|bens)\b"
    r"|\b(?:evade|evading|evadir|sonegar|sonega\w*|fugir ao fisco|fugir do fisco|burlar o fisco|enganar o fisco|"
    r"enganar a receita|enganar las? hacienda|defraudar a hacienda|tax evasion|evasao fiscal|evasion fiscal|"
    r"lavar dinheiro|lavar dinero|launder\w*|money laundering|branqueamento)\b")


def evasion(folded: str) -> bool:
    """The question asks how to evade tax or hide income (folded text)."""
    return bool(_EVASION.search(normalise(folded)))


_MLI = re.compile(r"\b(?:mli|multilateral|beps)\b")


def mentions_mli(folded: str) -> bool:
    """The question names the Multilateral Instrument (folded text)."""
    return bool(_MLI.search(normalise(folded)))
