"""Parser for acts numbered in roman items ("I - ...", "XII - ..."), like Brazilian portarias.

Units produced:
- the opening words up to the first item ("O Ministro ... resolve:"): kind="preamble",
  article="Preâmbulo", uid "preamble";
- each item: kind="item", level="article", article = the numeral as printed ("XI"), uid the
  numeral; a numeral printed twice keeps its article label for both (the source is what a
  citation must quote) and the second gets uid "XI~2";
- sub-items "a) ..." are paragraphs (paragraph="a", uid "I.a") and "a.1) ..." are alíneas
  (subparagraph="a.1", uid "I.a.1") under the paragraph with the same letter;
- trailing signature lines (all-capital names, "Brasília, ...") are kind="closing",
  article="Encerramento", uid "closing", never part of the last item.
Numerals are not required to be in sequence, because sources misnumber items.
"""
from __future__ import annotations

import re

from ingest.catalog import CorpusError
from ingest.parsers._structure import UnitBuilder, lines_in
from ingest.units import Unit

_ITEM = re.compile(r"([IVXLC]+)\s*[-–—]\s+")
_SUB = re.compile(r"\(?([a-z])(?:\.(\d+))?\)\s+")
_VALID_ROMAN = re.compile(r"C{0,3}(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})")
_SIGNATURE = re.compile(r"[A-ZÀ-ÖØ-Ý][A-ZÀ-ÖØ-Ý .'-]{2,80}|(?:Bras[íi]lia|Lisboa|Madrid)\b.{0,80}")


def parse(doc_id: str, source: str) -> list[Unit]:
    lines = lines_in(source)
    items = [(ln, m) for ln in lines
             if (m := _ITEM.match(ln.text)) and _VALID_ROMAN.fullmatch(m.group(1))]
    if not items:
        raise CorpusError(f"{doc_id}: nenhum item em numeração romana («I - ...») encontrado")
    b = UnitBuilder(doc_id, source, "pt")
    b.add(uid="preamble", level="article", kind="preamble", start=0, end=items[0][0].start,
          article="Preâmbulo")

    tail = [ln for ln in lines if ln.start > items[-1][0].start]
    cut = len(tail)
    while cut > 0 and _SIGNATURE.fullmatch(tail[cut - 1].text):
        cut -= 1
    closing_start = tail[cut].start if cut < len(tail) else len(source)

    for i, (line, m) in enumerate(items):
        end = items[i + 1][0].start if i + 1 < len(items) else closing_start
        item = b.add(uid=m.group(1), level="article", kind="item", start=line.start, end=end,
                     article=m.group(1))
        if item is not None:
            _add_subitems(b, item, line.start + m.end(), end)
    b.add(uid="closing", level="article", kind="closing", start=closing_start, end=len(source),
          article="Encerramento")
    return b.units


def _add_subitems(b: UnitBuilder, item: Unit, start: int, end: int) -> None:
    subs = [(ln, m) for ln in lines_in(b.source, start, end) if (m := _SUB.match(ln.text))]
    paragraphs: dict[str, str] = {}
    for i, (line, m) in enumerate(subs):
        letter, number = m.group(1), m.group(2)
        if number is None:
            stop = next((ln.start for ln, mm in subs[i + 1:] if mm.group(2) is None), end)
            unit = b.add(uid=f"{item.uid}.{letter}", level="paragraph", kind="item", start=line.start,
                         end=stop, article=item.article, paragraph=letter, heading=item.heading,
                         parent=item.uid)
            if unit is not None:
                paragraphs[letter] = unit.uid
        else:
            label = f"{letter}.{number}"
            stop = subs[i + 1][0].start if i + 1 < len(subs) else end
            parent = paragraphs.get(letter, item.uid)
            b.add(uid=f"{parent}.{number}" if letter in paragraphs else f"{item.uid}.{label}",
                  level="alinea", kind="item", start=line.start, end=stop, article=item.article,
                  paragraph=letter if letter in paragraphs else None, subparagraph=label,
                  heading=item.heading, parent=parent)
