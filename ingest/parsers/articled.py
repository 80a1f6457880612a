"""Parser for treaties laid out in articles ("Artigo 10.º" + heading, "1 - ...", "a) ...").

Units produced, in source order:
- the text before the first article: kind="preamble", article="Preâmbulo", uid "preamble";
- when the text starts mid-treaty (first heading "Artigo 8.º" preceded by numbered paragraphs),
  that tail is article 7 (the number before the first heading) with heading "" and its
  paragraphs; words before the first printed paragraph number are the paragraph before it;
- each article: kind="article", uid "art10", its paragraphs "art10.p2", alíneas "art10.p2.a"
  (or "art9.a" when the article has no numbered paragraphs);
- signature blocks and trailing site boilerplate ("Em testemunho ...", "Feito em ...",
  "A consulta deste documento ..."): kind="closing", article="Encerramento", uid "closing"
  (inside a protocol "prot.closing"), so they never pollute the last article;
- after a line "Protocolo": its opening words (kind="preamble", article="Protocolo",
  uid "prot.intro") and numbered items as kind="protocol_item", article="Protocolo 4",
  uid "prot4", heading = the "Com referência ao ..." lines, refers_to = the article(s) named
  there in compact form ("2(1)(a)", "11(3),(5)", "13(4); 14(1)"); items' alíneas "prot8.a".
Chapter/part headings ("CAPÍTULO I", "PARTE IV — ...") belong to no unit.

Alíneas whose letters the source lost (the MLI text prints lists without "a)", "b)") are
NOT given invented letters: the text cannot tell an unlettered alínea from a closing
sentence of the paragraph (MLI art. 19(9) ends with "No entanto, ..." after its list) nor say
where a list begins when the file starts mid-list, so those lines stay in the paragraph text.
Headings written "Artigo 10.º", "ARTIGO 10", "Art. 10.º —", "Artigo 29.º Denúncia" and Spanish
"Artículo 10" are recognised; a document with Spanish headings gets language "es".
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ingest.catalog import CorpusError
from ingest.parsers._structure import (
    UnitBuilder,
    add_alineas,
    add_body,
    format_references,
    lines_in,
    paragraph_markers,
    prose_references,
)
from ingest.units import Unit, normalise_ws

_ARTICLE = re.compile(
    r"(?P<word>Artigo|ARTIGO|Art\.|ART\.|Artículo|ARTÍCULO|Articulo|ARTICULO)\s*(?P<num>\d+)(?P<suffix>-[A-Z])?"
    r"(?:\.?\s?[º°ª])?\.?(?:\s*[—–-]+\s*|\s+|$)(?P<rest>.*)")
_PROTOCOL = re.compile(r"(?:PROTOCOLO|Protocolo|PROTOCOL|Protocol)"
                       r"(?:\s+(?:ADICIONAL|Adicional|adicional|FINAL|Final|ANEXO|Anexo|anexo))?\.?")
_CHAPTER = re.compile(r"(?:CAP[ÍI]TULO|Cap[íi]tulo|PARTE|Parte|T[ÍI]TULO|T[íi]tulo|SEC[ÇC][ÃA]O|Sec[çc][ãa]o"
                      r"|SECCI[ÓO]N|Secci[óo]n)\s+(?:[IVXLC]+|\d+|[ÚU]NICO|[ÚU]nico)\b(?:\s*[—–.-].*|\s*)")
_CLOSING = re.compile(r"(?:Em testemunho|Em f[ée] do que|Feito em|Feita em|Hecho en|En fe de lo cual"
                      r"|En testimonio|Pelo Governo|Por el Gobierno|A consulta deste documento)\b")
_REFERENCE_LEAD = re.compile(r"(?:Com|Con)\s+(?:refer[êe]ncia|rela[çc][ãa]o|relaci[óo]n|respeito|respecto)"
                             r"|Relativamente|Em rela[çc][ãa]o|En relaci[óo]n|No que (?:se refere|respeita)"
                             r"|Ad\s|Artigos?\s|Art[íi]culos?\s", re.I)
_ENDS_SENTENCE = re.compile(r"[.;:]$")
_MARKER_START = re.compile(r"\(?[a-z]\)\s|\d+\s*[-–—.]\s")

_MAX_HEADING = 250


@dataclass(frozen=True)
class _Mark:
    kind: str          # article | protocol | chapter | closing
    start: int         # line start
    end: int           # line end
    number: int = 0
    label: str = ""
    inline_heading: str = ""


def _scan(source: str) -> tuple[list[_Mark], str]:
    marks: list[_Mark] = []
    language = "pt"
    last_number = 0
    seen_article = False
    in_closing = False
    for line in lines_in(source):
        m = _ARTICLE.fullmatch(line.text)
        rest = m.group("rest").strip() if m else ""
        if m and not rest[:1].islower() and len(rest) <= _MAX_HEADING and not rest.endswith((";", ":")):
            number, inserted = int(m.group("num")), bool(m.group("suffix"))  # "Artigo 10-A" follows 10
            if number < last_number or (number == last_number and not inserted):  # folding it would lose it
                raise CorpusError(f"cabeçalho «{line.text[:60]}» repetido ou fora de ordem (depois do artigo "
                                  f"{last_number}; posição {line.start})")
            last_number = number
            label = m.group("num") + (m.group("suffix") or "")
            marks.append(_Mark("article", line.start, line.end, last_number, label, rest))
            seen_article, in_closing = True, False
            if m.group("word").lower() in ("artículo", "articulo"):
                language = "es"
        elif seen_article and _PROTOCOL.fullmatch(line.text):
            marks.append(_Mark("protocol", line.start, line.end))
            last_number, in_closing = 0, False
        elif _CHAPTER.fullmatch(line.text) and len(line.text) <= _MAX_HEADING:
            marks.append(_Mark("chapter", line.start, line.end))
            in_closing = False
        elif seen_article and not in_closing and _CLOSING.match(line.text):
            marks.append(_Mark("closing", line.start, line.end))
            in_closing = True
    return marks, language


def _heading_after(source: str, start: int, end: int) -> tuple[str, int]:
    """The heading line under a bare "Artigo 10.º", and where the article body begins."""
    lines = lines_in(source, start, end)
    if len(lines) < 2:
        return "", start
    line = lines[0]
    if (len(line.text) <= 150 and not _ENDS_SENTENCE.search(line.text)
            and not _MARKER_START.match(line.text)):
        return line.text, line.end
    return "", start


def _item_heading(source: str, start: int, end: int) -> tuple[str, int]:
    """A protocol item's "Com referência ao artigo ..." lines, possibly wrapped over two lines."""
    lines = lines_in(source, start, end)
    taken = []
    for line in lines[:-1]:
        if _ENDS_SENTENCE.search(line.text) or (taken and _MARKER_START.match(line.text)) or len(taken) == 3:
            break
        taken.append(line)
    if not taken:
        return "", start
    text = normalise_ws(source[taken[0].start:taken[-1].end])
    if len(text) > _MAX_HEADING or not (_REFERENCE_LEAD.match(text) or re.search(r"\bart", text, re.I)):
        return "", start
    return text, taken[-1].end


def _tail_start(source: str, start: int, end: int) -> int | None:
    """Start of an article tail before the first heading, if numbered paragraphs show one."""
    markers = paragraph_markers(source, start, end, any_first=True)
    if not markers:
        return None
    lines = lines_in(source, start, markers[0].start)
    i = len(lines)
    while i > 0 and re.search(r"(?:[.;:]|[;,]\s*(?:ou|e))$", lines[i - 1].text):
        i -= 1
    return lines[i].start if i < len(lines) else markers[0].start


def _add_article(b: UnitBuilder, mark: _Mark, end: int, prefix: str, kind: str) -> None:
    if mark.inline_heading:
        heading, body = mark.inline_heading, mark.end
    else:
        heading, body = _heading_after(b.source, mark.end, end)
        body = max(body, mark.end)
    article = f"Protocolo {mark.label}" if prefix == "prot" else mark.label
    unit = b.add(uid=f"{prefix}{mark.label}", level="article", kind=kind, start=mark.start, end=end,
                 article=article, heading=heading)
    if unit is not None:
        add_body(b, body, end, unit)


def _add_protocol(b: UnitBuilder, marks: list[_Mark], start: int, end: int) -> None:
    """A protocol: articled like a treaty, or (usually) numbered items "1 - Com referência ..."."""
    articles = [m for m in marks if m.kind == "article"]
    first = articles[0].start if articles else None
    items = [] if articles else paragraph_markers(b.source, start, end)
    intro_end = first if first is not None else (items[0].start if items else end)
    b.add(uid="prot.intro", level="article", kind="preamble", start=start, end=intro_end,
          article="Protocolo")
    for i, mark in enumerate(articles):
        stop = articles[i + 1].start if i + 1 < len(articles) else end
        _add_article(b, mark, stop, "prot", "protocol_item")
    for i, mk in enumerate(items):
        stop = items[i + 1].start if i + 1 < len(items) else end
        heading, body = _item_heading(b.source, mk.body, stop)
        refs = format_references(prose_references(heading)) if heading else None
        unit = b.add(uid=f"prot{mk.label}", level="article", kind="protocol_item", start=mk.start,
                     end=stop, article=f"Protocolo {mk.label}", heading=heading, refers_to=refs)
        if unit is not None:
            add_alineas(b, max(body, mk.body), stop, unit)


def parse(doc_id: str, source: str) -> list[Unit]:
    marks, language = _scan(source)
    if not any(m.kind == "article" for m in marks):
        raise CorpusError(f"{doc_id}: nenhum cabeçalho de artigo («Artigo 1.º») encontrado")
    b = UnitBuilder(doc_id, source, language)
    bounds = [m.start for m in marks] + [len(source)]
    first = marks[0]
    preamble_end = first.start
    tail = None
    first_article = next(m for m in marks if m.kind == "article")
    if first_article.number > 1:
        tail = _tail_start(source, 0, first.start)
        if tail is not None:
            preamble_end = tail
    b.add(uid="preamble", level="article", kind="preamble", start=0, end=preamble_end, article="Preâmbulo")
    if tail is not None:
        label = str(first_article.number - 1)
        unit = b.add(uid=f"art{label}", level="article", kind="article", start=tail, end=first.start,
                     article=label, heading="")
        if unit is not None:
            add_body(b, tail, first.start, unit, any_first=True)

    in_protocol = False
    for i, mark in enumerate(marks):
        end = bounds[i + 1]
        if mark.kind == "protocol":
            stop = next((m.start for m in marks[i + 1:] if m.kind in ("protocol", "closing")), len(source))
            _add_protocol(b, [m for m in marks[i + 1:] if m.start < stop], mark.end, stop)
            in_protocol = True
        elif mark.kind == "article" and not in_protocol:
            _add_article(b, mark, end, "art", "article")
        elif mark.kind == "closing":
            b.add(uid="prot.closing" if in_protocol else "closing", level="article", kind="closing",
                  start=mark.start, end=end, article="Encerramento")
    return b.units
