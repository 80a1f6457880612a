"""Corpus invariants at ingest: a text that is not the treaty its catalog entry describes is refused with
one line naming the file, and the index stays as it was (issue 21's corpus rows)."""
from __future__ import annotations

import codecs
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from config import load_settings
from ingest.__main__ import main
from ingest.catalog import CorpusError, load_catalog
from ingest.corpus import DEFAULT_CORPUS_DIR, parse_corpus, parse_document, read_source
from ingest.index import build_chunks, sync
from ingest.store import chroma_client, chunk_collection
from tests.fakes import HashEmbedder
from tests.ingest.conftest import snapshot

CATALOG = {info.id: info for info in load_catalog(DEFAULT_CORPUS_DIR)}


def _parse_as(doc_id: str, tmp_path: Path, data: bytes):
    """Parse `data` as if it were the file of catalog entry `doc_id`."""
    path = tmp_path / CATALOG[doc_id].file
    path.write_bytes(data)
    return parse_document(replace(CATALOG[doc_id], path=path))


def _text(doc_id: str) -> str:
    return CATALOG[doc_id].path.read_text(encoding="utf-8")


def test_the_real_corpus_meets_its_declarations():
    docs = parse_corpus(DEFAULT_CORPUS_DIR)
    assert set(docs) == set(CATALOG)


@pytest.mark.parametrize("doc_id, change, expected", [
    # the row: "Artigo 10" renamed "Artigo 11" -> dividends folded into another article
    ("pt-br-2000", lambda s: s.replace("Artigo 10.º", "Artigo 11.º", 1), "«Artigo 11.º» repetido ou fora de ordem"),
    # a heading printed twice in a row, no number skipped
    ("pt-br-2000", lambda s: s.replace("Artigo 12.º", "Artigo 11.º\nCópia\n\nTexto.\n\nArtigo 12.º", 1),
     "«Artigo 11.º» repetido"),
    # a number skipped
    ("pt-br-2000", lambda s: s.replace("Artigo 12.º", "", 1), "artigo 12 em falta"),
    # the MLI may start at 7 (declared), but not skip 15
    ("mli-pt-2019", lambda s: s.replace("Artigo 15.º", "Artigo 14.º", 1), "repetido ou fora de ordem"),
    # the Portaria's printed "XI" for IX is declared; a second misprint is not
    ("br-portaria-pt-br", lambda s: s.replace("\nX - ", "\nXI - ", 1), "item 10 em falta"),
    # the treaty pasted 36 times, under the 2 MB cap: the copies would fold into the protocol
    ("pt-br-2000", lambda s: s * 36, "fora do intervalo 40-80 kB"),
    # cut short: articles 20..29 gone
    ("pt-br-2000", lambda s: s[:s.index("Artigo 20.º")], "fora do intervalo"),
])
def test_bad_structure_is_refused_naming_the_file(tmp_path, doc_id, change, expected):
    with pytest.raises(CorpusError) as info:
        _parse_as(doc_id, tmp_path, change(_text(doc_id)).encode("utf-8"))
    message = str(info.value)
    assert expected in message and CATALOG[doc_id].file in message and "\n" not in message


def test_treaty_pasted_twice_is_refused_by_its_structure_too(tmp_path):
    wide = replace(CATALOG["pt-br-2000"], size_kb=(0, 2000))
    path = tmp_path / "x.txt"
    path.write_text(_text("pt-br-2000") * 36, encoding="utf-8")
    with pytest.raises(CorpusError, match="fora de ordem"):
        parse_document(replace(wide, path=path))


def test_article_count_outside_the_declared_range(tmp_path):
    path = tmp_path / "x.txt"
    path.write_text(_text("pt-br-2000"), encoding="utf-8")
    with pytest.raises(CorpusError, match="29 artigos/itens encontrados, o catálogo declara 30-31"):
        parse_document(replace(CATALOG["pt-br-2000"], path=path, articles=(30, 31)))


def test_declared_gap_is_needed(tmp_path):
    path = tmp_path / "x.txt"
    path.write_text(_text("mli-pt-2019"), encoding="utf-8")
    with pytest.raises(CorpusError, match="artigo 1 em falta"):
        parse_document(replace(CATALOG["mli-pt-2019"], path=path, missing_articles=frozenset()))


@pytest.mark.parametrize("codec, name", [("utf-16", "UTF-16 LE"), ("utf-16-be", "UTF-16 BE"),
                                         ("utf-16-le", "UTF-16 LE"), ("utf-32", "UTF-32 LE"),
                                         ("utf-32-be", "UTF-32 BE")])
def test_wide_encodings_are_named(tmp_path, codec, name):
    path = tmp_path / "x.txt"
    path.write_bytes(_text("br-portaria-pt-br").encode(codec))
    with pytest.raises(CorpusError) as info:
        read_source(path)
    assert f"texto em {name}, não em UTF-8" in str(info.value) and "binário" not in str(info.value)


def test_nul_bytes_that_are_not_text_are_still_binary(tmp_path):
    path = tmp_path / "x.bin"
    path.write_bytes(b"\x00\x01\x02PK\x03\x04" * 50)
    with pytest.raises(CorpusError, match="ficheiro binário"):
        read_source(path)


def test_bom_is_stripped_and_changes_nothing(small_corpus, tmp_path):
    settings = load_settings().replace(index_dir=tmp_path / "index", chroma_mode="embedded")
    store = chunk_collection(chroma_client(settings), "chunks")
    before = build_chunks(small_corpus)
    sync(store, before, HashEmbedder, "fake", progress=False)
    portaria = next(small_corpus.glob("004_*.txt"))
    portaria.write_bytes(codecs.BOM_UTF8 + portaria.read_bytes())
    after = build_chunks(small_corpus)
    assert after == before and "\ufeff" not in after[0].text
    report = sync(store, after, lambda: pytest.fail("a BOM re-embedded the document"), "fake", progress=False)
    assert report.embedded == 0 and report.unchanged == len(before)


def _break(small_corpus: Path, how: str) -> str:
    portaria = next(small_corpus.glob("004_*.txt"))
    text = portaria.read_text(encoding="utf-8")
    if how == "utf16":
        portaria.write_bytes(text.encode("utf-16"))
    elif how == "repeated_item":
        portaria.write_text(text.replace("\nX - ", "\nXI - ", 1), encoding="utf-8")
    elif how == "pasted_36x":
        portaria.write_text(text * 36, encoding="utf-8")
    elif how == "same_text_two_ids":
        catalog = small_corpus / "catalog.yaml"
        data = yaml.safe_load(catalog.read_text(encoding="utf-8"))
        twin = dict(next(d for d in data["documents"] if d["id"] == "br-portaria-pt-br"))
        twin.update(id="br-portaria-copia", file="copia.txt")
        (small_corpus / "copia.txt").write_text(text.replace("\n", "\r\n"), encoding="utf-8")  # same words
        data["documents"].append(twin)
        catalog.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
        return "copia.txt"
    return portaria.name


@pytest.mark.parametrize("how, expected", [
    ("utf16", "UTF-16"), ("repeated_item", "item 10 em falta"), ("pasted_36x", "fora do intervalo"),
    ("same_text_two_ids", "o mesmo texto que 004_"),
])
def test_ingest_refuses_and_leaves_the_index_unchanged(how, expected, indexed, small_corpus, capsys):
    before = snapshot(indexed)
    name = _break(small_corpus, how)
    assert main(["--quiet"]) == 2
    first, *rest = capsys.readouterr().err.strip().splitlines()
    assert name in first and expected in first and rest == ["O índice existente não foi alterado."]
    assert snapshot(indexed) == before
