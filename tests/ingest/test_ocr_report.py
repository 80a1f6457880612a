"""`python -m ingest --ocr-report` lists every OCR correction, and the clean readings meet the non-word targets."""
from __future__ import annotations

from ingest.__main__ import main
from ingest.corpus import DEFAULT_CORPUS_DIR, cached_corpus
from ingest.ocr_report import non_word_rates

TARGET = {"pt": 0.005, "es": 0.01}   # issue 13: non-words (wordfreq zipf < 1) after correction


def test_report_lists_each_change_with_its_rule(capsys):
    assert main(["--ocr-report"]) == 0
    out = capsys.readouterr().out.splitlines()
    changes = [line.split("\t") for line in out if not line.startswith("#")]
    catalog, docs = cached_corpus(DEFAULT_CORPUS_DIR)
    expected = sum(len(u.reading.corrections) for i in catalog if i.ocr for u in docs[i.id].units)
    assert len(changes) == expected > 0
    assert {c[2] for c in changes} >= {"confusion", "dehyphenate", "fragment"}
    assert any("'lmpuesto' -> 'impuesto'" in c[3] for c in changes)
    assert any(line.startswith("# br-es-1974 es: não-palavras") for line in out)


def test_clean_readings_meet_the_non_word_targets():
    catalog, docs = cached_corpus(DEFAULT_CORPUS_DIR)
    for info in (i for i in catalog if i.ocr):
        doc = docs[info.id]
        leaves = [u for u in doc.units if not any(v.parent == u.uid for v in doc.units)]
        before = {r.language: r.rate for r in non_word_rates(leaves, clean=False)}
        after = {r.language: r.rate for r in non_word_rates(leaves, clean=True)}
        for lang, rate in after.items():
            assert rate <= TARGET[lang] < before[lang], (info.id, lang, before[lang], rate)
