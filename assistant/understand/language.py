"""Which language the question is in (pt, es or en): the answer is written in it."""
from __future__ import annotations

import re

from assistant.lexicon.text import Token, tokenize

LANGUAGES = ("pt", "es", "en")

_LANG_WORDS = {
    "pt": {"nao", "sou", "eu", "tenho", "uma", "um", "em", "no", "na", "nos", "nas", "do", "da", "dos", "das",
           "com", "qual", "quanto", "quanta", "moro", "recebo", "meu", "minha", "voce", "ha", "isso", "pago",
           "sao", "trabalho", "empresa", "taxa", "juros", "ao", "pela", "pelo", "quando", "onde", "também",
           "tambem", "agora", "preciso", "estou", "ter", "durante", "ano", "anos", "mes", "meses", "seu"},
    "es": {"el", "los", "las", "del", "en", "y", "es", "soy", "tengo", "mi", "mis", "cual", "cuanto", "vivo",
           "pero", "hay", "que", "como", "esta", "recibo", "muy", "con", "por", "una", "un", "empresa", "tasa",
           "intereses", "al", "donde", "cuando", "ahora", "estoy", "ano", "anos", "sociedad", "pago", "trabajo"},
    "en": {"the", "i", "is", "am", "are", "my", "of", "and", "in", "what", "how", "do", "does", "to", "from",
           "for", "with", "live", "have", "which", "rate", "tax", "company", "receive", "resident", "pay",
           "paid", "much", "interest", "dividends", "work", "years", "months", "can", "should", "will", "get",
           "it", "its", "our", "we", "us", "you", "your", "that", "this", "be", "was", "by", "an", "if", "would",
           "could", "give", "need", "they", "their", "she", "his", "her", "any", "about"},
}

_LANG_OF = {w: tuple(lang for lang in LANGUAGES if w in _LANG_WORDS[lang]) for ws in _LANG_WORDS.values() for w in ws}


def detect_language(text: str, tokens: list[Token] | None = None) -> str:
    """pt, es or en from function words and spelling; Portuguese when unclear."""
    tokens = tokenize(text) if tokens is None else tokens
    score = {lang: 0.0 for lang in LANGUAGES}
    for t in tokens:
        for lang in _LANG_OF.get(t.norm, ()):
            score[lang] += 1
    low = text.lower()
    score["pt"] += 2 * len(re.findall(r"ção|ções|ã|õ|ç|lh|nh|ê", low))
    # "ll" counts only opening a word ("llevo", "llegué"): inside one it is as often English ("will", "controlling",
    # "wholly") as Spanish ("allí")
    score["es"] += 2 * len(re.findall(r"ñ|¿|¡|ción|\bll|ía\b", low))
    best = max(LANGUAGES, key=lambda lang: (score[lang], lang == "pt"))
    return best if score[best] > score["pt"] else "pt"
