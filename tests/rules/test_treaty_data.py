"""Loading rules/data: a new treaty is just a new file; malformed files fail with the file named."""
from __future__ import annotations

from pathlib import Path

import pytest

from rules.treaty_data import RulesDataError, load_all, resolve

MINIMAL = """
treaty: PT-FR
parties: [PT, FR]
withholding:
  incomes:
    dividends:
      rules:
        - id: pt-fr.dividends
          outcome: cap
          value: 15
          unit: percent
          when: []
          citations: [{doc: x, article: "10", paragraph: "2", quote: "15%"}]
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def test_new_file_is_a_new_treaty(tmp_path: Path) -> None:
    d = write(tmp_path, "pt-fr.yaml", MINIMAL)
    assert set(load_all(d)) == {"PT-FR"}
    assert resolve("fr-pt", d).treaty == "PT-FR"


@pytest.mark.parametrize("broken,message", [
    (MINIMAL.replace("outcome: cap", "outcome: maybe"), "outcome"),
    (MINIMAL.replace("when: []", "when: [{code: astrology}]"), "condição desconhecida"),
    (MINIMAL.replace("value: 15", "value: null"), "value"),
    (MINIMAL.replace("parties: [PT, FR]", "parties: [PT]"), "parties"),
    (MINIMAL.replace("dividends:", "vat:"), "tipo de rendimento"),
    (MINIMAL.replace('quote: "15%"', 'quote: ""'), "quote"),
    ("treaty: [unclosed", "ilegível"),
    # structure, checked by a pydantic model before the entries are read (each was a traceback before)
    ("- treaty: PT-FR\n", "tem de ser um mapeamento \\(encontrado: list\\)"),
    (MINIMAL.replace("treaty: PT-FR", "treaty: ''"), "treaty: não pode estar vazio"),
    ("treaty: PT-FR\nwithholding: 5\n", "withholding: tem de ser um mapeamento"),
    ("treaty: PT-FR\nwithholding:\n  incomes: [dividends]\n", "withholding.incomes: tem de ser um mapeamento"),
    ("treaty: PT-FR\nemployment: [183]\n", "employment: tem de ser um mapeamento"),
    ("treaty: PT-FR\nresidence:\n  individual: [x]\n", "residence.individual: tem de ser um mapeamento"),
    ("treaty: PT-FR\nfigures: [5]\n", "figures.1: tem de ser um mapeamento"),
    # a provision the text lacks, on a topic the rules do not know, would never be asked
    (MINIMAL + 'absent:\n  - {provision: "PT-FR:7(1)", article: "7(1)", topic: ppt}\n', "tópico desconhecido"),
])
def test_malformed_file_names_itself(tmp_path: Path, broken: str, message: str) -> None:
    d = write(tmp_path, "bad.yaml", broken)
    with pytest.raises(RulesDataError, match=message) as err:
        load_all(d)
    assert "bad.yaml" in str(err.value)


def test_duplicate_treaty_is_refused(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", MINIMAL)
    write(tmp_path, "b.yaml", MINIMAL)
    with pytest.raises(RulesDataError, match="repetida"):
        load_all(tmp_path)
