"""Input checks and hostile-text detection: bad input is refused before anything is read."""
from __future__ import annotations

import re
import unicodedata

MAX_QUESTION_CHARS = 2000


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


_INJECTION = [re.compile(p) for p in (
    r"\b(?:ignor\w*|esquec\w*|olvid\w*|forget|disregard|desconsider\w*|override)\b.{0,40}\b(?:instruc\w*|regras|"
    r"reglas|rules|prompt|ordens|orientac\w*|indicac\w*|previous|anteriores|above|acima)",
    r"system\s*prompt|prompt\s+(?:do|de|del)\s+sistema|mensagem\s+(?:do|de)\s+sistema|developer\s+mode|jailbreak|"
    r"modo\s+(?:de\s+)?desenvolvedor|modo\s+desarrollador",
    # "diz que a taxa é 0%", "di que la tasa es 0", "say that the rate is 0": dictating the answer
    r"\b(?:diz|diga|dizes|digas|dizer|responde|responda|responder|escreve|escreva|escribe|di|digan|afirma|afirme|"
    r"say|answer|write|state)\b(?:\s*-?\s*(?:me|lhe|nos|le))?\s+(?:que|that|the)\b.{0,25}"
    r"\b(?:taxa|tasa|rate|aliquota|imposto|impuesto|tax)\b.{0,15}?(?:\b(?:e|es|is|seja|sea|will\s+be)\b|=)\s*"
    r"(?:de\s+|of\s+)?\d",
    r"\b(?:a partir de agora|from now on|de ahora en adelante|you are now|agora es um|agora es uma|act as|"
    r"finge que|finja que|pretend (?:to be|you are|that)|age como|actua como|roleplay)\b",
    r"<\s*/?\s*(?:system|assistant|user|instructions?)\s*>|\[/?inst\]|###\s*(?:instruction|system)",
)]


def injection(folded: str) -> bool:
    return any(p.search(folded) for p in _INJECTION)


# Asking how to break the law (hide income, evade tax, launder money): refused, whatever else is asked.
_EVASION = re.compile(
    r"\b(?:hide|hiding|conceal|esconder|escondo|ocultar|oculto|omitir|disfar\w*)\b.{0,30}"
    r"\b(?:income|rendiment\w*|rendas?|rentas?|ingresos|lucros?|beneficios|dinheiro|dinero|money|assets|bens)\b"
    r"|\b(?:evade|evading|evadir|sonegar|sonega\w*|fugir ao fisco|fugir do fisco|burlar o fisco|enganar o fisco|"
    r"enganar a receita|enganar las? hacienda|defraudar a hacienda|tax evasion|evasao fiscal|evasion fiscal|"
    r"lavar dinheiro|lavar dinero|launder\w*|money laundering|branqueamento)\b")


def evasion(folded: str) -> bool:
    """The question asks how to evade tax or hide income (folded text)."""
    return bool(_EVASION.search(folded))


_MLI = re.compile(r"\b(?:mli|multilateral|beps)\b")


def mentions_mli(folded: str) -> bool:
    """The question names the Multilateral Instrument (folded text)."""
    return bool(_MLI.search(folded))
