"""The treaty comparison: every bilateral treaty a column, every cell backed by a quote, in three languages."""
from __future__ import annotations

import json

from assistant.__main__ import main
from assistant.compare import compare, to_markdown
from rules import known_treaties


def test_every_cell_is_cited_or_says_the_corpus_is_silent() -> None:
    table = compare("pt")
    assert table.treaties == sorted(known_treaties())
    assert len(table.cells) == len(table.rows) * len(table.treaties)
    for cell in table.cells:
        assert cell.text
        assert bool(cell.citations) == cell.covered, (cell.row, cell.treaty)
    pensions = table.cell("pensions_social_security", "PT-BR")
    assert "só fonte" in pensions.text and pensions.citations[0].article == "18"
    assert "só residência" in table.cell("pensions_social_security", "BR-ES").text
    assert "10%" in table.cell("dividends", "PT-JP").text and "15%" in table.cell("dividends", "PT-BR").text
    assert not table.cell("directors_fees", "PT-JP").covered


def test_languages_and_markdown() -> None:
    en = compare("en")
    assert en.row_labels["pensions_private"] == "Private pensions"
    assert "only residence" in en.cell("other_income", "PT-JP").text
    md = to_markdown(compare("es"))
    assert md.startswith("| Renta | BR-ES | PT-BR | PT-JP |") and "Pensiones privadas" in md


def test_cli_compare_json(capsys) -> None:
    assert main(["compare", "--json", "--lang", "en"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["language"] == "en" and data["cells"] and data["cells"][0]["citations"][0]["quote"]
