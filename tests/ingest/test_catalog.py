"""catalog.yaml validation: every malformed catalog is a CorpusError naming the entry and the fault,
never a traceback, and no path may leave the corpus folder."""
from __future__ import annotations

import os

import pytest
import yaml

from ingest.catalog import MAX_DOCUMENT_BYTES, CorpusError, load_catalog


def _write(folder, data) -> None:
    (folder / "catalog.yaml").write_text(yaml.safe_dump(data, allow_unicode=True) if not isinstance(data, str)
                                         else data, encoding="utf-8")


def _entries(folder) -> list[dict]:
    return yaml.safe_load((folder / "catalog.yaml").read_text(encoding="utf-8"))["documents"]


def test_the_real_catalog_loads(small_corpus):
    docs = load_catalog(small_corpus)
    assert [d.id for d in docs] == ["pt-jp-2011-summary", "br-portaria-pt-br"]
    assert all(d.path.is_file() and d.kind and d.languages for d in docs)


@pytest.mark.parametrize("data, expected", [
    ("- just\n- a list\n", "tem de ser um mapeamento com a chave 'documents' (encontrado: list)"),
    ({"documents": 5}, "documents: tem de ser uma lista"),
    ({"documents": []}, "não pode estar vazio"),
    ({"docs": []}, "campo em falta"),
    ("", "encontrado: NoneType"),
])
def test_malformed_structure(small_corpus, data, expected):
    _write(small_corpus, data)
    with pytest.raises(CorpusError, match="catálogo") as info:
        load_catalog(small_corpus)
    assert expected in str(info.value)


@pytest.mark.parametrize("change, expected", [
    (lambda e: e.pop("title"), "entrada 1: title: campo em falta"),
    (lambda e: e.update(titel="x"), "entrada 1: titel: campo desconhecido"),
    (lambda e: e.update(signed="2011-13-45"), "entrada 1: signed: data inválida '2011-13-45' (use AAAA-MM-DD)"),
    (lambda e: e.update(layout="pdf"), "entrada 1: layout: layout desconhecido 'pdf'"),
    (lambda e: e.update(id="PT JP!"), "entrada 1: id: formato inválido ('PT JP!')"),
    (lambda e: e.update(languages=[]), "entrada 1: languages: não pode estar vazio"),
    (lambda e: e.update(ocr="sim"), "entrada 1: ocr: tem de ser true ou false"),
    (lambda e: e.update(file="/etc/passwd"), "tem de ser relativo à pasta do corpus"),
    (lambda e: e.update(file="../outside.txt"), "tem de ser relativo à pasta do corpus"),
    (lambda e: e.update(kind={"a": 1}), "entrada 1: kind: tem de ser uma lista"),
])
def test_bad_entry_names_entry_and_field(small_corpus, change, expected):
    entries = _entries(small_corpus)
    change(entries[0])
    _write(small_corpus, {"documents": entries})
    with pytest.raises(CorpusError) as info:
        load_catalog(small_corpus)
    assert expected in str(info.value) and "Traceback" not in str(info.value)


def test_entry_that_is_not_a_mapping(small_corpus):
    _write(small_corpus, {"documents": ["pt-br-2000"]})
    with pytest.raises(CorpusError, match="entrada 1: tem de ser um mapeamento"):
        load_catalog(small_corpus)


def test_duplicate_id(small_corpus):
    entries = _entries(small_corpus)
    entries[1]["id"] = entries[0]["id"]
    _write(small_corpus, {"documents": entries})
    with pytest.raises(CorpusError, match="entrada 2: id repetido 'pt-jp-2011-summary' \\(já usado na entrada 1\\)"):
        load_catalog(small_corpus)


def test_symlink_out_of_the_corpus_is_refused(small_corpus, tmp_path):
    outside = tmp_path / "secret.txt"
    outside.write_text("I - texto fora do corpus\n", encoding="utf-8")
    (small_corpus / "link.txt").symlink_to(outside)
    entries = _entries(small_corpus)
    entries[0]["file"] = "link.txt"
    _write(small_corpus, {"documents": entries})
    with pytest.raises(CorpusError, match="aponta para fora da pasta do corpus"):
        load_catalog(small_corpus)


def test_symlink_loop_is_reported_as_a_loop(small_corpus):
    os.symlink("loop_b.txt", small_corpus / "loop_a.txt")
    os.symlink("loop_a.txt", small_corpus / "loop_b.txt")
    entries = _entries(small_corpus)
    entries[0]["file"] = "loop_a.txt"
    _write(small_corpus, {"documents": entries})
    with pytest.raises(CorpusError, match="ciclo de ligações simbólicas"):
        load_catalog(small_corpus)


def test_missing_file_and_folder(small_corpus):
    entries = _entries(small_corpus)
    entries[0]["file"] = "nao_existe.txt"
    _write(small_corpus, {"documents": entries})
    with pytest.raises(CorpusError, match="nao_existe.txt: o catálogo refere um ficheiro que não existe"):
        load_catalog(small_corpus)
    (small_corpus / "pasta").mkdir()
    entries[0]["file"] = "pasta"
    _write(small_corpus, {"documents": entries})
    with pytest.raises(CorpusError, match="não é um ficheiro"):
        load_catalog(small_corpus)


def test_oversized_file_gets_a_clear_message(small_corpus):
    entries = _entries(small_corpus)
    big = small_corpus / entries[0]["file"]
    with big.open("a", encoding="utf-8") as fh:
        fh.write("x" * (MAX_DOCUMENT_BYTES + 1))
    with pytest.raises(CorpusError, match=r"ficheiro demasiado grande \(2\.0 MB; o máximo é 2 MB\)"):
        load_catalog(small_corpus)
