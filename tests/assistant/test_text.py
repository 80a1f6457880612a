"""assistant/lexicon/text.py, the one text module: folding keeps offsets; strip_accents keeps case (dictionary
words for language identification and the OCR reading)."""
from __future__ import annotations

from assistant.lexicon.text import fold, strip_accents, tokenize


def test_fold_keeps_offsets_and_lowers():
    text = "Açores, 1º de Março — Ñandú"
    assert len(fold(text)) == len(text)
    assert fold(text) == "acores, 1o de marco — nandu"
    assert [t.orig for t in tokenize("São Paulo")] == ["São", "Paulo"]


def test_strip_accents_keeps_case_and_other_characters():
    assert strip_accents("Imposição ÑANDÚ") == "Imposicao NANDU"
    assert strip_accents("1ª") == "1ª"
    assert strip_accents("plain") == "plain"
