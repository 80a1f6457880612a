"""`python -m ingest --ocr-report`: every change the OCR post-correction made, for a reviewer.

One line per change (document, unit, rule, raw -> clean, source offsets), then a count per rule and the
non-word rate of each language before and after (wordfreq zipf < 1 over the letter runs of the units)."""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from ingest.catalog import load_catalog
from ingest.corpus import parse_document
from ingest.ocr_reading import WORD_ZIPF, dictionary
from ingest.units import Unit

_LETTER_RUN = re.compile(r"[^\W\d_]+")


@dataclass(frozen=True)
class NonWordRate:
    language: str
    words: int
    non_words: int

    @property
    def rate(self) -> float:
        return self.non_words / self.words if self.words else 0.0


def non_word_rates(units: list[Unit], clean: bool) -> list[NonWordRate]:
    """Share of letter runs that are not words of the unit's language (zipf < WORD_ZIPF)."""
    words, bad = Counter(), Counter()
    for u in units:
        d = dictionary(u.language)
        for w in _LETTER_RUN.findall(u.clean_text if clean else u.text):
            words[u.language] += 1
            bad[u.language] += d.z(w) < WORD_ZIPF
    return [NonWordRate(lang, words[lang], bad[lang]) for lang in sorted(words)]


def report_lines(corpus_dir: Path) -> list[str]:
    lines: list[str] = []
    for info in load_catalog(corpus_dir):
        if not info.ocr:
            continue
        doc = parse_document(info)
        rules: Counter[str] = Counter()
        for u in doc.units:
            for c in u.reading.corrections if u.reading else ():
                rules[c.rule] += 1
                lines.append(f"{info.id}\t{u.uid}\t{c.rule}\t{c.raw!r} -> {c.clean!r}\t[{c.start}:{c.end}]")
        lines.append(f"# {info.id}: {sum(rules.values())} alterações — "
                     + ", ".join(f"{rule} {n}" for rule, n in rules.most_common()))
        # paragraph-level units (and articles without them) hold every word once
        leaves = [u for u in doc.units if not any(v.parent == u.uid for v in doc.units)]
        for before, after in zip(non_word_rates(leaves, clean=False), non_word_rates(leaves, clean=True)):
            lines.append(f"# {info.id} {before.language}: não-palavras {before.rate:.2%} -> {after.rate:.2%} "
                         f"({before.non_words}/{before.words} -> {after.non_words}/{after.words}; "
                         f"wordfreq zipf < {WORD_ZIPF:g})")
    return lines or ["# nenhum documento do catálogo está marcado ocr: true"]
