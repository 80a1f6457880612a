"""The clean reading of OCR units: each rule on small texts, then the whole corpus (numbers kept,
raw text intact, non-OCR documents untouched) and a hand-checked sample of 20 paragraphs."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from ingest.corpus import DEFAULT_CORPUS_DIR, cached_corpus
from ingest.ocr_reading import NUMBER, clean_reading, correct_word, dictionary, join_words, raw_words

SAMPLE = Path(__file__).with_name("data") / "ocr_sample.jsonl"


def read(text: str, language: str = "es", other: str | None = "pt"):
    return clean_reading(text, ((0, len(text)),), language, other)


@pytest.fixture(scope="module")
def docs():
    catalog, parsed = cached_corpus(DEFAULT_CORPUS_DIR)
    return catalog, parsed


def ocr_units(docs):
    catalog, parsed = docs
    return [(parsed[i.id], u) for i in catalog if i.ocr for u in parsed[i.id].units]


# --- rules, on made-up lines ----------------------------------------------------------------

@pytest.mark.parametrize("raw,language,expected", [
    ("lmpuesto", "es", "impuesto"), ("aiio", "es", "año"), ("socledad", "es", "sociedad"),
    ("domicflio", "pt", "domicílio"), ("Es!ado", "es", "Estado"), ("u_n", "es", "un"),
    ("cãnones", "es", "cánones"), ("perlodo", "pt", "período"),
])
def test_confusions_resolve_to_a_word_of_the_language(raw, language, expected):
    found = correct_word(raw, dictionary(language))
    assert found is not None and found[0] == expected


def test_dehyphenation_and_rejoining():
    r = read("las asocia- ciones y una socledad res idente")
    assert r.text == "las asociaciones y una sociedad residente"
    assert {(c.raw, c.clean, c.rule) for c in r.corrections} == {
        ("asocia- ciones", "asociaciones", "dehyphenate"), ("socledad", "sociedad", "confusion"),
        ("res idente", "residente", "rejoin")}


def test_second_half_read_past_the_other_column_is_brought_back():
    r = read("em virtude da legis- Estado Contratante designa lação desse Estado", "pt", "es")
    assert r.text == "em virtude da legislação Estado Contratante designa desse Estado"
    [change] = r.corrections
    assert (change.raw, change.clean, change.rule) == ("legis- … lação", "legislação", "dehyphenate")


def test_hyphen_before_an_unrelated_word_is_not_joined():
    r = read("fazer de qualquer dessas sociedades estabeleci- de outra.", "pt", "es")
    assert "estabelecido" not in r.text
    assert r.text == "fazer de qualquer dessas sociedades de outra."


def test_valid_words_numbers_and_labels_are_never_changed():
    text = "2. a) el 15% del importe bruto, artículo 10, US$ 3.000 y 1974."
    r = read(text)
    assert r.text == text and not r.corrections


def test_word_of_the_other_column_leaves_the_clean_reading():
    r = read("Los dividendos procedam del otro Estado", "es", "pt")
    assert r.text == "Los dividendos del otro Estado"
    assert [(c.raw, c.rule) for c in r.corrections] == [("procedam", "other_column")]


def test_clean_words_map_back_to_their_raw_words():
    source = "xx Los dividendos agados por una socledad res idente de u_n Estado"
    r = clean_reading(source, ((3, len(source)),), "es", "pt")
    at = r.text.index("sociedad")
    rs, re_ = r.raw_range(at, at + len("sociedad"))
    assert source[rs:re_] == "socledad"
    at = r.text.index("residente")
    rs, re_ = r.raw_range(at, at + len("residente"))
    assert source[rs:re_] == "res idente"
    raw_at = source.index("u_n")
    [(cs, ce)] = r.clean_ranges(raw_at, raw_at + 3)
    assert r.text[cs:ce] == "un"


# --- the corpus -----------------------------------------------------------------------------

def test_some_document_is_marked_ocr_and_gets_readings(docs):
    units = ocr_units(docs)
    assert units, "nenhum documento do catálogo marcado ocr: true"
    assert all(u.reading is not None for _, u in units)
    assert sum(len(u.reading.corrections) for _, u in units) > 100


def test_raw_text_is_still_the_corpus_words(docs):
    """The raw reading is rebuilt from the source spans alone: it is the unit's text, byte for byte."""
    for doc, u in ocr_units(docs):
        assert join_words(raw_words(doc.source, u.spans)) == u.text, u.uid


def test_every_number_of_the_raw_unit_is_in_the_clean_one_and_vice_versa(docs):
    for _, u in ocr_units(docs):
        assert Counter(NUMBER.findall(u.text)) == Counter(NUMBER.findall(u.reading.text)), u.uid


def test_every_change_is_recorded_with_its_raw_words(docs):
    for doc, u in ocr_units(docs):
        for c in u.reading.corrections:
            assert c.rule in {"dehyphenate", "rejoin", "stray_marks", "confusion", "other_column", "fragment"}
            first, last = c.raw.split()[0], c.raw.split()[-1]     # a join may skip the other column's words
            assert doc.source.startswith(first, c.start) and doc.source[c.start:c.end].endswith(last)


def test_documents_not_marked_ocr_pass_through_unchanged(docs):
    catalog, parsed = docs
    plain = [i for i in catalog if not i.ocr]
    assert any(i.id == "pt-br-2000" for i in plain)
    for info in plain:
        for u in parsed[info.id].units:
            assert u.reading is None and u.clean_text == u.text


def test_hand_checked_sample(docs):
    """20 paragraphs (10 pt, 10 es) whose clean reading was checked by hand against the scan."""
    _, parsed = docs
    rows = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert Counter(r["language"] for r in rows) == {"pt": 10, "es": 10}
    for row in rows:
        [unit] = [u for u in parsed[row["doc"]].units if u.uid == row["uid"]]
        assert unit.text == row["raw"], row["uid"]
        assert unit.reading.text == row["clean"], row["uid"]
