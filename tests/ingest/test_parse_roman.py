import pytest

from ingest.catalog import CorpusError, load_catalog
from ingest.corpus import DEFAULT_CORPUS_DIR, read_source
from ingest.parsers.roman_items import parse
from ingest.units import normalise_ws


def _corpus_source(doc_id: str) -> str:
    info = next(d for d in load_catalog(DEFAULT_CORPUS_DIR) if d.id == doc_id)
    return read_source(info.path)


def _check_units(source, units):
    by_uid = {u.uid: u for u in units}
    assert len(by_uid) == len(units)
    for u in units:
        assert u.text and all(normalise_ws(source[s:e]) == u.text for s, e in u.spans), u.uid
        if u.parent:
            parent = by_uid[u.parent]
            assert parent.article == u.article
            assert parent.start <= u.start and u.end <= parent.end


@pytest.fixture(scope="module")
def portaria():
    source = _corpus_source("br-portaria-pt-br")
    units = parse("br-portaria-pt-br", source)
    return source, units, {u.uid: u for u in units}


def test_portaria_spans(portaria):
    source, units, _ = portaria
    _check_units(source, units)


def test_portaria_items_as_printed(portaria):
    _, units, by_uid = portaria
    items = [u for u in units if u.kind == "item" and u.level == "article"]
    assert len(items) == 12
    assert [u.article for u in items] == ["I", "II", "III", "IV", "V", "VI", "VII", "VIII",
                                          "XI", "X", "XI", "XII"]
    assert by_uid["XI"].text.startswith("XI - Os benefícios")
    assert by_uid["XI~2"].article == "XI" and by_uid["XI~2"].text.startswith("XI - No caso de ter sido")
    assert "Governo português" in by_uid["II"].text


def test_portaria_subitems(portaria):
    _, _, by_uid = portaria
    a1 = by_uid["I.a.1"]
    assert "10%" in a1.text and "25%" in a1.text
    assert (a1.paragraph, a1.subparagraph, a1.parent, a1.level) == ("a", "a.1", "I.a", "alinea")
    a = by_uid["I.a"]
    assert a.level == "paragraph" and a.paragraph == "a" and "a.2) 15%" in a.text
    b = by_uid["I.b"]
    assert b.text.startswith("b) no caso de juros") and "a.2)" not in b.text


def test_portaria_preamble_and_signature(portaria):
    _, units, by_uid = portaria
    pre = by_uid["preamble"]
    assert pre.kind == "preamble" and pre.text.startswith("O Ministro de Estado da Fazenda")
    assert pre.text.endswith("resolve:")
    assert "MALAN" not in by_uid["XII"].text
    assert by_uid["closing"].kind == "closing" and by_uid["closing"].text == "PEDRO SAMPAIO MALAN"
    assert not [u for u in units if u.kind == "item" and "MALAN" in u.text]


SYNTHETIC = """A Ministra das Finanças determina:

I – As taxas máximas são as seguintes:

a) dividendos:

a.1) 5% para sociedades;

b) juros: 10%.

II – Os juros pagos ao Estado são isentos.

II – Esta portaria entra em vigor no dia seguinte.

Lisboa, 2 de maio de 2031

MARIA DA SILVA
"""


def test_synthetic_portaria():
    units = parse("p", SYNTHETIC)
    _check_units(SYNTHETIC, units)
    by_uid = {u.uid: u for u in units}
    assert [u.uid for u in units if u.kind == "item" and u.level == "article"] == ["I", "II", "II~2"]
    assert by_uid["I.a.1"].text == "a.1) 5% para sociedades;"
    assert by_uid["I.b"].text == "b) juros: 10%."
    assert by_uid["II~2"].text == "II – Esta portaria entra em vigor no dia seguinte."
    assert by_uid["closing"].text == "Lisboa, 2 de maio de 2031 MARIA DA SILVA"


def test_no_items_is_a_clear_error():
    with pytest.raises(CorpusError, match="numeração romana"):
        parse("x", "Um texto sem itens.\n")
