import pytest

from ingest.catalog import CorpusError, load_catalog
from ingest.corpus import DEFAULT_CORPUS_DIR, read_source
from ingest.parsers.summary_table import parse
from ingest.units import normalise_ws


def _corpus_source(doc_id: str) -> str:
    info = next(d for d in load_catalog(DEFAULT_CORPUS_DIR) if d.id == doc_id)
    return read_source(info.path)


def _check_units(source, units):
    uids = [u.uid for u in units]
    assert len(uids) == len(set(uids))
    by_uid = {u.uid: u for u in units}
    for u in units:
        assert u.text and all(normalise_ws(source[s:e]) == u.text for s, e in u.spans), u.uid
        assert u.article, u.uid            # every unit has an address
        if u.parent:
            assert by_uid[u.parent].level == {"paragraph": "article", "alinea": "paragraph"}[u.level]
            assert by_uid[u.parent].start <= u.start and u.end <= by_uid[u.parent].end
    assert any(u.level == "article" for u in units)


@pytest.fixture(scope="module")
def ptjp():
    source = _corpus_source("pt-jp-2011-summary")
    units = parse("pt-jp-2011-summary", source)
    return source, units, {u.uid: u for u in units}


def _row(units, heading):
    return next(u for u in units if u.kind == "table_row" and u.heading == heading)


def test_ptjp_spans_and_addresses(ptjp):
    source, units, _ = ptjp
    _check_units(source, units)


def test_ptjp_sections(ptjp):
    _, units, by_uid = ptjp
    assert by_uid["preamble"].kind == "preamble" and "Assinada: 19/12/2011" in by_uid["preamble"].text
    sections = [u.heading for u in units if u.kind == "section" and u.level == "article"]
    assert sections == ["Se ambos os Estados o considerarem residente", "Rendimentos: quem tributa",
                        "Como se elimina a dupla tributação"]
    assert by_uid["closing"].text.startswith("Dados verificados")
    assert "Dados verificados" not in by_uid["s3"].text


def test_ptjp_table_rows(ptjp):
    _, units, _ = ptjp
    rows = [u for u in units if u.kind == "table_row"]
    assert len(rows) == 11 and "Rendimento" not in [r.heading for r in rows]
    div = _row(units, "Dividendos")
    assert (div.article, div.paragraph, div.subparagraph) == ("10", "2", "b")
    assert div.refers_to == "art. 10(2)(b)"
    assert div.text.startswith("Dividendos | Estado da fonte: no máximo 10 %")
    assert div.text.endswith("| art. 10(2)(b)")
    juros = _row(units, "Juros (depósitos, obrigações, empréstimos)")
    assert (juros.article, juros.paragraph) == ("11", "2")
    assert juros.refers_to == "art. 11(2), (4); Protocol para. 8"
    venda = _row(units, "Venda de bens ou de ações")
    assert venda.article == "13" and venda.paragraph is None
    assert venda.refers_to == "art. 13; MLI art. 9(4)"
    assert _row(units, "Salário (trabalho dependente)").article == "14"


def test_ptjp_bullets(ptjp):
    _, _, by_uid = ptjp
    b1 = by_uid["s1.b1"]
    assert (b1.article, b1.paragraph, b1.subparagraph) == ("4", "2", "a")
    assert b1.kind == "section" and b1.level == "paragraph" and b1.parent == "s1"
    assert b1.refers_to.startswith("Art. 4.º, n.º 2, alínea a)")
    both = by_uid["s1.b3"]              # "... (alínea c)); ... (alínea d)). Art. 4.º, n.º 2, alíneas c) e d)"
    assert (both.paragraph, both.subparagraph) == ("2", None)
    c, d = by_uid["s1.b3.c"], by_uid["s1.b3.d"]
    assert (c.level, c.subparagraph, d.subparagraph) == ("alinea", "c", "d")
    assert c.text.startswith("Se permanecer habitualmente") and c.text.endswith("nacional (alínea c))")
    assert d.text.startswith("se for nacional de ambos") and d.text.endswith("comum acordo (alínea d))")
    japan = by_uid["s3.b1"]
    assert japan.text.startswith("Japão:") and (japan.article, japan.paragraph) == ("22", "2")
    assert by_uid["s3.b2"].paragraph == "1"


def test_bullet_with_one_cited_alinea_is_not_split():
    text = ("Residência\n- Decidem de comum acordo (alínea d)); antes disso vale a nacionalidade (alínea c)). "
            "Art. 4.º, n.º 2, alíneas c) e d), da Convenção\n- Outra coisa. Art. 5.º, n.º 1\n")
    units = parse("x", "Título\n" + text)
    assert not [u for u in units if u.level == "alinea"]      # markers out of the cited order
    assert next(u for u in units if u.uid == "s1.b1").subparagraph == "c"


OTHER_PAIR = """Convenção Portugal – Canadá: pensões e juros
Convenção entre Portugal e o Canadá para evitar a dupla tributação, assinada em Otava em 14 de junho de 1999
- Em vigor desde: 24/10/2001
Quem tributa
| Rendimento | Artigo | Regra |
|:--|:--:|--:|
| Juros | art. 11(2)(a) | Estado da fonte: no máximo 10 %. |
| Pensões | art. 18 | Só o Estado de residência. |
Notas práticas
- Guarde o certificado de residência.
- O crédito de imposto segue o art. 22(1)
  mesmo quando o rendimento é isento.
Nota final: resumo geral.
"""


def test_other_country_pair_layout():
    units = parse("pt-ca", OTHER_PAIR)
    _check_units(OTHER_PAIR, units)
    by_uid = {u.uid: u for u in units}
    juros = _row(units, "Juros")
    assert (juros.article, juros.paragraph, juros.subparagraph) == ("11", "2", "a")
    assert juros.refers_to == "art. 11(2)(a)"     # the citation column found by its header
    assert _row(units, "Pensões").article == "18"
    headings = [u.heading for u in units if u.level == "article" and u.kind == "section"]
    assert headings == ["Quem tributa", "Notas práticas"]
    plain = by_uid["s2.b1"]
    assert plain.article == "Notas práticas" and plain.paragraph == "1" and plain.refers_to is None
    wrapped = by_uid["s2.b2"]
    assert wrapped.text.endswith("mesmo quando o rendimento é isento.")
    assert wrapped.refers_to.startswith("art. 22(1)") and wrapped.article == "22"
    assert by_uid["closing"].text == "Nota final: resumo geral."


def test_no_sections_is_a_clear_error():
    with pytest.raises(CorpusError, match="resumo sem secções"):
        parse("x", "Só um parágrafo de texto.\nE outro.\n")
