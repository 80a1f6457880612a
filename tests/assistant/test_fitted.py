"""A fitted reader's cache file: fitted once, then loaded; a damaged file is refitted."""
from __future__ import annotations

from assistant.understand.fitted import load_or_fit, reading_code_digest


class Pair:
    def __init__(self, a: int, b: str):
        self.a, self.b = a, b


def test_fitted_once_then_loaded_and_a_damaged_file_refitted(tmp_path):
    path = tmp_path / "reader" / "key.joblib"
    fits = []

    def fit() -> Pair:
        fits.append(1)
        return Pair(len(fits), "x")

    def parts(p: Pair) -> tuple:
        return (p.a, p.b)

    first = load_or_fit(path, fit, parts, Pair)
    again = load_or_fit(path, fit, parts, Pair)
    assert (first.a, again.a, len(fits)) == (1, 1, 1)
    path.write_bytes(b"not a joblib file")
    refitted = load_or_fit(path, fit, parts, Pair)
    assert (refitted.a, len(fits)) == (2, 2)
    assert load_or_fit(path, fit, parts, Pair).a == 2



def test_the_digest_changes_when_a_word_list_or_the_towns_table_changes(tmp_path):
    understand, lexicon = tmp_path / "understand", tmp_path / "lexicon"
    understand.mkdir()
    lexicon.mkdir()
    (understand / "facts.py").write_text("X = 1\n")
    (lexicon / "cues.yaml").write_text("a: [b]\n")
    (lexicon / "towns.tsv").write_text("bormujos\tES\n")
    first = reading_code_digest(understand)
    assert reading_code_digest(understand) == first
    (lexicon / "cues.yaml").write_text("a: [b, c]\n")
    second = reading_code_digest(understand)
    (lexicon / "towns.tsv").write_text("bormujos\tES\nvarginha\tBR\n")
    assert len({first, second, reading_code_digest(understand)}) == 3
