
import pytest

from ingest.catalog import CorpusError, load_catalog
from ingest.corpus import DEFAULT_CORPUS_DIR, read_source
from ingest.parsers.articled import parse
from ingest.units import normalise_ws


def _corpus_source(doc_id: str) -> str:
    info = next(d for d in load_catalog(DEFAULT_CORPUS_DIR) if d.id == doc_id)
    return read_source(info.path)


@pytest.fixture(scope="module")
def ptbr():
    source = _corpus_source("pt-br-2000")
    return source, {u.uid: u for u in parse("pt-br-2000", source)}


@pytest.fixture(scope="module")
def mli():
    source = _corpus_source("mli-pt-2019")
    return source, {u.uid: u for u in parse("mli-pt-2019", source)}


def _assert_spans_exact(source, units):
    for u in units:
        assert u.spans, u.uid
        for s, e in u.spans:
            assert normalise_ws(source[s:e]) == u.text, u.uid
        assert u.text == u.text.strip() and u.text


def _assert_tree(units):
    by_uid = {u.uid: u for u in units}
    assert len(by_uid) == len(units), "uids repetidos"
    for u in units:
        if u.level == "article":
            assert u.parent is None
        else:
            parent = by_uid[u.parent]
            assert parent.article == u.article and parent.heading == u.heading
            assert parent.start <= u.start and u.end <= parent.end, u.uid
            if u.level == "paragraph":
                assert parent.level == "article"


# --- Portugal–Brasil convention + Protocol ------------------------------------------------

def test_ptbr_spans_and_tree(ptbr):
    source, units = ptbr
    _assert_spans_exact(source, units.values())
    _assert_tree(list(units.values()))
    assert all(u.language == "pt" for u in units.values())


def test_ptbr_counts(ptbr):
    _, units = ptbr
    articles = [u.article for u in units.values() if u.kind == "article" and u.level == "article"]
    assert articles == [str(n) for n in range(1, 30)]
    items = [u.article for u in units.values() if u.kind == "protocol_item" and u.level == "article"]
    assert items == [f"Protocolo {n}" for n in range(1, 10)]


def test_ptbr_preamble(ptbr):
    _, units = ptbr
    pre = units["preamble"]
    assert pre.kind == "preamble" and pre.article == "Preâmbulo" and pre.level == "article"
    assert "Resolução da Assembleia da República n.º 33/2001" in pre.text
    assert "Artigo 1.º" not in pre.text and "CAPÍTULO I" not in pre.text


def test_ptbr_article_10_dividends(ptbr):
    _, units = ptbr
    assert units["art10"].heading == "Dividendos"
    a = units["art10.p2.a"]
    assert a.paragraph == "2" and a.subparagraph == "a" and a.parent == "art10.p2"
    assert "10%" in a.text and "25%" in a.text and "15%" not in a.text
    b = units["art10.p2.b"]
    assert "15%" in b.text
    # the sentence after the list belongs to the paragraph, not to alínea b)
    assert "As autoridades competentes" not in b.text
    assert "As autoridades competentes" in units["art10.p2"].text


def test_ptbr_run_on_paragraph_split(ptbr):
    _, units = ptbr
    p4, p5 = units["art10.p4"], units["art10.p5"]
    assert p4.text.endswith("disposições do artigo 7.º")
    assert p5.text.startswith("5 - Quando uma sociedade residente")
    assert units["art11.p7"].text.startswith("7 - Os juros consideram-se")
    assert units["art12.p5"].text.startswith("5 - As royalties consideram-se")
    assert units["art22.p3"].text.startswith("3 - Não obstante")


def test_ptbr_references_do_not_split(ptbr):
    _, units = ptbr
    # "o n.º 6 - actue" inside art. 5(5) is a reference, not paragraph 6
    assert "a que é aplicável o n.º 6 - actue" in units["art5.p5"].text
    assert units["art5.p6"].text.startswith("6 - Não se considera")


def test_ptbr_run_on_alineas_and_list_closing(ptbr):
    _, units = ptbr
    assert units["art9.a"].parent == "art9" and units["art9.a"].paragraph is None
    assert units["art9.b"].text.startswith("b) As mesmas pessoas")
    assert "em ambos os casos" not in units["art9.b"].text
    assert units["art15.p2.c"].text.startswith("c) As remunerações não forem suportadas")
    assert "não será tributada" not in units["art21.p1.c"].text


def test_ptbr_subalineas_stay_inside_alinea(ptbr):
    _, units = ptbr
    c = units["art3.p1.c"]
    assert "i) Uma pessoa singular" in c.text and "iii) Uma entidade" in c.text
    i = units["art3.p1.i"]   # letter i) after h), with its own roman i) and ii)
    assert i.text.startswith("i) A expressão «autoridade competente»") and "ii) Em Portugal" in i.text
    assert "art3.p1.j" not in units


def test_ptbr_article_29_inline_heading_and_closing(ptbr):
    _, units = ptbr
    art29 = units["art29"]
    assert art29.heading == "Denúncia"
    assert "Feito em Brasília" not in art29.text and "Em testemunho" not in art29.text
    assert "Feito em Brasília" not in units["art29.b"].text
    closing = units["closing"]
    assert closing.kind == "closing" and "Feito em Brasília" in closing.text
    assert "Protocolo" not in closing.text.split()


def test_ptbr_protocol_items(ptbr):
    _, units = ptbr
    p1 = units["prot1"]
    assert p1.heading == "Com referência ao artigo 2.º, n.º 1, alínea a)"
    assert p1.refers_to == "2(1)(a)"
    assert "11" in units["prot4"].refers_to and units["prot4"].refers_to == "11(3),(5)"
    assert units["prot6"].refers_to == "13(4); 14(1)"
    assert units["prot8"].refers_to == "24"
    nine = units["prot9"]
    assert nine.heading == ("Com referência às Zonas Francas da ilha da Madeira, da ilha de Santa "
                            "Maria e de Manaus, à SUDAM e à SUDENE")
    assert "Em testemunho" not in nine.text
    assert units["prot.intro"].kind == "preamble" and "No momento da assinatura" in units["prot.intro"].text
    assert "Feito em Brasília" in units["prot.closing"].text


def test_ptbr_protocol_item_8_alineas(ptbr):
    _, units = ptbr
    letters = [u.subparagraph for u in units.values() if u.parent == "prot8"]
    assert letters == ["a", "b", "c", "d", "e"]
    a, b = units["prot8.a"], units["prot8.b"]
    assert a.text.endswith("n.º 2 do artigo 24.º") and b.text.startswith("b) Fica entendido")
    assert a.article == "Protocolo 8" and a.level == "alinea" and a.paragraph is None


# --- MLI (starts inside article 7) --------------------------------------------------------

def test_mli_spans_and_tree(mli):
    source, units = mli
    _assert_spans_exact(source, units.values())
    _assert_tree(list(units.values()))


def test_mli_articles_and_tail(mli):
    _, units = mli
    articles = [u.article for u in units.values() if u.kind == "article" and u.level == "article"]
    assert articles == [str(n) for n in range(7, 21)]
    tail = units["art7"]
    assert tail.heading == ""
    assert tail.text.startswith("Essa Jurisdição Contratante")
    assert "Legalize" not in tail.text and "Legalize" in units["preamble"].text
    paras = [u.paragraph for u in units.values() if u.parent == "art7" and u.level == "paragraph"]
    assert paras == [str(n) for n in range(9, 18)]
    assert units["art7.p9"].text.startswith("Essa Jurisdição")


def test_mli_headings_and_content(mli):
    _, units = mli
    assert "Mais-valias" in units["art9"].heading
    assert units["art8"].heading == "Transações relativas à transferência de dividendos"
    assert "três anos" in units["art16.p1"].text
    assert "PARTE IV" not in units["art11"].text and "PARTE IV" not in units["art11.p4"].text
    assert "Opção B" not in units["art13.p2"].text


def test_mli_no_invented_letters(mli):
    _, units = mli
    # art. 8(3) prints its two alíneas without letters: they stay in the paragraph text
    assert not [u for u in units.values() if u.parent == "art8.p3"]
    assert "Um período mínimo de detenção inferior a 365 dias" in units["art8.p3"].text
    # a printed "a)" ends where its own list ends; the unlettered b) after it is not swallowed
    a = units["art7.p10.a"]
    assert a.text.endswith("no âmbito normal das suas atividades.")
    assert "Se um residente" not in a.text
    # subalínea numbering restarting at i) marks the end of alínea a) of art. 16(4)
    assert "O primeiro período do n.º 2" not in units["art16.p4.a"].text


def test_mli_footer_is_closing(mli):
    _, units = mli
    assert "A consulta deste documento" not in units["art20"].text
    assert units["closing"].kind == "closing"


# --- synthetic documents: the parser is not fitted to the corpus ---------------------------

SYNTHETIC = """Resolução n.º 1/2030

Aprova a Convenção entre a República de Alfa e o Reino de Beta.

CAPÍTULO I

Âmbito

ARTIGO 1

Pessoas visadas

Esta Convenção aplica-se às pessoas residentes.

Art. 2.º — Juros

1 - Os juros podem ser tributados no outro Estado.

2 - O imposto não excederá:

a) 5% se o beneficiário for um banco; ou b) 12% nos restantes casos.

As autoridades competentes estabelecerão a forma de aplicar estes limites.

3 - O disposto no n.º 2 não se aplica. Neste caso, são aplicáveis as disposições do artigo 7.º 4 - Quando o devedor for residente, aplica-se nos termos do n.º 5 - Salvo acordo em contrário.

Artigo 3.º Denúncia

A presente Convenção vigora por tempo indeterminado.

Feito em Lisboa, aos 3 dias de Março de 2030.

Protocolo

No momento da assinatura, acordaram:

1 - Com referência ao artigo 2.º, n.os 2 e 3

Fica entendido que os juros incluem os prémios.

2 - Com referência aos artigos 1.º e 3.º

a) Fica entendido que as pessoas incluem sociedades. b) Fica entendido que a denúncia é escrita.
"""


@pytest.fixture(scope="module")
def synthetic():
    return {u.uid: u for u in parse("x", SYNTHETIC)}


def test_synthetic_structure(synthetic):
    units = synthetic
    _assert_spans_exact(SYNTHETIC, units.values())
    _assert_tree(list(units.values()))
    assert [u.article for u in units.values() if u.kind == "article" and u.level == "article"] == ["1", "2", "3"]
    assert units["art1"].heading == "Pessoas visadas"
    assert units["art2"].heading == "Juros"
    assert units["art3"].heading == "Denúncia"
    assert "CAPÍTULO" not in units["preamble"].text and "Resolução n.º 1/2030" in units["preamble"].text


def test_synthetic_paragraphs_and_alineas(synthetic):
    units = synthetic
    a, b = units["art2.p2.a"], units["art2.p2.b"]
    assert "5%" in a.text and "12%" not in a.text
    assert "12%" in b.text and "As autoridades" not in b.text
    assert units["art2.p3"].text.endswith("artigo 7.º")
    p4 = units["art2.p4"]
    assert p4.text.startswith("4 - Quando") and "n.º 5 - Salvo" in p4.text
    assert "art2.p5" not in units


def test_synthetic_closing_and_protocol(synthetic):
    units = synthetic
    assert "Feito em Lisboa" not in units["art3"].text
    assert units["closing"].text.startswith("Feito em Lisboa")
    assert units["prot1"].refers_to == "2(2),(3)"
    assert units["prot2"].refers_to == "1; 3"
    assert units["prot2.b"].text == "b) Fica entendido que a denúncia é escrita."
    assert units["prot2.a"].article == "Protocolo 2"


TAIL = """Título do diploma publicado

Uma pessoa singular;

Uma sociedade cotada.

5 - Uma Parte pode reservar-se o direito de não aplicar o presente artigo.

Artigo 4.º — Dividendos

1 - Os dividendos podem ser tributados.
"""


def test_text_starting_mid_article():
    units = {u.uid: u for u in parse("t", TAIL)}
    _assert_spans_exact(TAIL, units.values())
    assert units["preamble"].text == "Título do diploma publicado"
    assert units["art3"].heading == "" and units["art3"].article == "3"
    assert units["art3.p4"].text == "Uma pessoa singular; Uma sociedade cotada."
    assert units["art3.p5"].text.startswith("5 - Uma Parte")
    assert not [u for u in units.values() if u.level == "alinea"]
    assert units["art4.p1"].heading == "Dividendos"


SPANISH = """Artículo 1

Ámbito

1. Este Convenio se aplica a las personas residentes.

2. Se aplica también a los impuestos futuros.

Artículo 2

Dividendos

Los dividendos pueden someterse a imposición.
"""


def test_spanish_headings():
    units = {u.uid: u for u in parse("es", SPANISH)}
    assert all(u.language == "es" for u in units.values())
    assert units["art1"].heading == "Ámbito" and units["art2"].heading == "Dividendos"
    assert units["art1.p2"].text == "2. Se aplica también a los impuestos futuros."
    assert "preamble" not in units


def test_bad_input_has_clear_error():
    with pytest.raises(CorpusError, match="nenhum cabeçalho de artigo"):
        parse("vazio", "Texto sem artigos nenhuns.\n")
