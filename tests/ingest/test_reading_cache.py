"""The OCR readings kept on disk: the same readings as computing them, recomputed when the file is damaged or
the source changes, and a second parse never recomputes."""
from __future__ import annotations

from ingest.catalog import load_catalog
from ingest.corpus import DEFAULT_CORPUS_DIR, read_source, with_readings
from ingest.parsers import parser_for
from ingest.reading_cache import cached_readings

OCR = next(i for i in load_catalog(DEFAULT_CORPUS_DIR) if i.ocr)
SOURCE = read_source(OCR.path)
UNITS = parser_for(OCR.layout)(OCR.id, SOURCE)[:40]


def _counting(calls: list[str]):
    from ingest.ocr_reading import clean_reading

    def compute(u):
        calls.append(u.uid)
        other = next((x for x in OCR.languages if x != u.language), None)
        return clean_reading(SOURCE, u.spans, u.language, other)
    return compute


def test_cached_readings_equal_the_computed_ones_and_are_not_recomputed(tmp_path):
    fresh = [u.reading for u in with_readings(SOURCE, UNITS, OCR.languages)]
    calls: list[str] = []
    first = cached_readings(SOURCE, UNITS, OCR.languages, tmp_path, _counting(calls))
    again = cached_readings(SOURCE, UNITS, OCR.languages, tmp_path, _counting(calls))
    assert first == fresh == again
    assert len(calls) == len(UNITS)                    # the second call read the file
    assert any(r.corrections for r in again)           # the file holds real corrections, not empty readings


def test_a_damaged_file_or_a_changed_source_is_recomputed(tmp_path):
    calls: list[str] = []
    cached_readings(SOURCE, UNITS, OCR.languages, tmp_path, _counting(calls))
    (stored,) = (tmp_path / "ocr_readings").glob("*.json")
    stored.write_text("{not json", encoding="utf-8")
    again = cached_readings(SOURCE, UNITS, OCR.languages, tmp_path, _counting(calls))
    assert len(calls) == 2 * len(UNITS) and again == [u.reading for u in with_readings(SOURCE, UNITS, OCR.languages)]
    changed = SOURCE.replace("Estado", "Estadx", 1)
    cached_readings(changed, UNITS, OCR.languages, tmp_path, _counting(calls))
    assert len(calls) == 3 * len(UNITS)
    assert len(list((tmp_path / "ocr_readings").glob("*.json"))) == 2
