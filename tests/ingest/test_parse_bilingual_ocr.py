"""The bilingual OCR parser, on the corpus document in that layout and on a small made-up text."""
import re

import pytest

from ingest.catalog import load_catalog
from ingest.corpus import DEFAULT_CORPUS_DIR, read_source
from ingest.parsers.bilingual_ocr import ParseError, parse
from ingest.units import Unit

SPANISH_ONLY = {"intereses", "cuando", "del", "el", "los", "las", "impuesto", "párrafo"}


@pytest.fixture(scope="module")
def doc() -> tuple[str, list[Unit]]:
    infos = [i for i in load_catalog(DEFAULT_CORPUS_DIR) if i.layout == "bilingual_ocr"]
    assert infos, "o catálogo não tem nenhum documento bilingual_ocr"
    source = read_source(infos[0].path)
    return source, parse(infos[0].id, source)


def find(units: list[Unit], article: str, lang: str, paragraph: str | None = None,
         sub: str | None = None) -> Unit:
    hits = [u for u in units if u.article == article and u.language == lang
            and u.paragraph == paragraph and u.subparagraph == sub]
    assert len(hits) == 1, (article, lang, paragraph, sub, [u.uid for u in hits])
    return hits[0]


def words(text: str) -> set[str]:
    return {w.strip(".,;:()\"'").lower() for w in text.split()}


def test_all_thirty_articles_in_both_languages(doc):
    _, units = doc
    for lang in ("pt", "es"):
        numbers = {u.article for u in units if u.level == "article" and u.kind == "article" and u.language == lang}
        assert numbers == {str(n) for n in range(1, 31)}, lang


def test_portuguese_unit_comes_first_for_each_address(doc):
    _, units = doc
    seen: dict[str, str] = {}
    for u in units:
        address = u.uid.rsplit(".", 1)[0]
        if u.language == "es":
            assert seen.get(address) in (None, "pt")
        seen.setdefault(address, u.language)
    assert find(units, "10", "pt").uid == "art10.pt" and find(units, "10", "es", "2").uid == "art10.p2.es"


def test_protocol_items_with_what_they_refer_to(doc):
    _, units = doc
    items = [u for u in units if u.kind == "protocol_item" and u.level == "article"]
    for lang in ("pt", "es"):
        assert len([u for u in items if u.language == lang]) >= 7
    item3 = find(units, "Protocolo 3", "pt")
    assert item3.refers_to == "10(2)"
    assert "dividendos" in item3.text and "Artigo 10," in item3.text
    assert find(units, "Protocolo 6", "es").refers_to == "14"


def test_headings(doc):
    _, units = doc
    assert find(units, "10", "pt").heading == "Dividendos"
    assert find(units, "10", "es").heading == "Dividendos"
    assert find(units, "12", "es").heading == "Cánones"
    # the source does print the Portuguese heading of art. 17
    assert find(units, "17", "pt").heading == "Artistas e desportistas"
    assert find(units, "17", "es").heading == "Artistas y deportistas"
    # art. 30: the Portuguese header is garbled ("Àrtigo : 3Ci") but the article is found
    art30 = find(units, "30", "pt")
    assert art30.heading == "Denúncia" and "denunciar" in art30.text


def test_interest_paragraph_three_is_split_by_language(doc):
    _, units = doc
    pt = find(units, "11", "pt", "3")
    es = find(units, "11", "es", "3")
    assert "10%" in pt.text and "juros" in pt.text
    assert not words(pt.text) & SPANISH_ONLY, words(pt.text) & SPANISH_ONLY
    assert "intereses" in es.text and "juros" not in es.text


def test_rates_and_thresholds_reach_the_right_paragraph(doc):
    _, units = doc
    assert "3.000" in find(units, "18", "pt", "1").text
    royalties = find(units, "12", "pt", "2").text
    assert "10%" in royalties and "15%" in royalties
    assert "15%" in find(units, "10", "pt", "2").text


def test_alineas_where_the_source_letters_them(doc):
    _, units = doc
    a = find(units, "12", "pt", "2", "a")
    b = find(units, "12", "pt", "2", "b")
    assert a.text.startswith("a) 10%") and b.text.startswith("b) 15%")
    assert a.parent == "art12.p2.pt"


def test_text_words_come_from_the_spans(doc):
    source, units = doc
    for u in units:
        assert u.spans, u.uid
        previous_end = 0
        for start, end in u.spans:
            assert 0 <= previous_end <= start < end <= len(source), u.uid
            previous_end = end
        pieces = " ".join(source[s:e] for s, e in u.spans)
        for token in u.text.split():
            assert token.rstrip(".,:;") in pieces, (u.uid, token)


def test_no_debris_tokens_in_portuguese_text(doc):
    _, units = doc
    for u in units:
        if u.language == "pt":
            tokens = u.text.split()
            assert not {"~", "·", "•", ".,;!,", "t'", "(t"} & set(tokens), u.uid
            assert not re.search(r"\b44 45\b|\b4 5\b", u.text), u.uid


SYNTHETIC = """Convenção de teste

Artigo 1 Artículo 1

Âmbito pessoal Ámbito personal

1. Esta Convenção aplica-se às pessoas 1. Este Convenio se aplica a las personas
residentes de um ou de ambos os Estados. residentes en uno o en ambos Estados.

2. O imposto assim estabelecido não poderá exceder 2. El impuesto así exigido no podrá exceder del
15% do montante bruto dos juros. 15% del importe bruto de los intereses.

8 9

Artigo 2 Artículo 2

Impostos abrangidos Impuestos comprendidos

Os impostos atuais são o imposto sobre a renda Los impuestos actuales son el impuesto sobre la renta
e o imposto sobre os lucros das sociedades. y el impuesto sobre los beneficios de las sociedades.
"""


def test_synthetic_bilingual_text():
    units = parse("teste", SYNTHETIC)
    articles = [(u.article, u.language) for u in units if u.level == "article"]
    assert articles == [("1", "pt"), ("1", "es"), ("2", "pt"), ("2", "es")]
    p1 = find(units, "1", "pt", "1")
    assert p1.text == "1. Esta Convenção aplica-se às pessoas residentes de um ou de ambos os Estados."
    assert find(units, "1", "es", "1").text == \
        "1. Este Convenio se aplica a las personas residentes en uno o en ambos Estados."
    p2 = find(units, "1", "pt", "2")
    assert p2.text == "2. O imposto assim estabelecido não poderá exceder 15% do montante bruto dos juros."
    assert len(p2.spans) == 2     # the words sit on two lines, each shared with the Spanish column
    assert find(units, "2", "pt").heading == "Impostos abrangidos"
    assert find(units, "2", "es").heading == "Impuestos comprendidos"
    assert "8" not in find(units, "1", "es", "2").text.split()


def test_text_without_article_headers_is_refused():
    with pytest.raises(ParseError, match="nenhum cabeçalho"):
        parse("vazio", "Um texto qualquer sem artigos. Un texto cualquiera sin artículos.")
