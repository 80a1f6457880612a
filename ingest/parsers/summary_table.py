"""Parser for one-page treaty summaries: title block, titled sections of bullets and a markdown table.

Units produced (every one has an address that a citation can show):
- the title block before the first section: kind="preamble", level="article",
  article="Preâmbulo", uid "preamble", heading = the first line (the summary's title);
- each section (a short unpunctuated line followed by bullets or a table):
  kind="section", level="article", uid "s1", "s2" ..., article = heading = the section title;
  the pipeline's "article" level here means "top-level block", so sections never collide
  with treaty article numbers, which only the rows and bullets below carry;
- each table row: kind="table_row", level="paragraph", parent the section, uid "s2.r7",
  heading = the row's first cell ("Dividendos"), text = the cells joined by " | ",
  refers_to = the citation cell as printed, article/paragraph/subparagraph = the first
  treaty article it cites ("art. 10(2)(b)" -> 10, 2, b; "art. 13; MLI art. 9(4)" -> 13);
- each bullet of a section: kind="section", level="paragraph", uid "s1.b2",
  heading = the section title; when it ends with a citation ("Art. 4.º, n.º 2, alínea a), ..."
  or "art. 22(2)") that is refers_to and gives article/paragraph/subparagraph, otherwise the
  bullet is addressed by the section title and its position ("2");
- a bullet citing several alíneas ("alíneas c) e d)") whose clauses each end with their own
  marker ("... nacional (alínea c)); se for ... (alínea d)).") is addressed to the paragraph, and
  each clause becomes kind="section", level="alinea", uid "s1.b3.c", so a citation of alínea d
  shows the words of alínea d;
- trailing text after the last section's list ("Dados verificados: ...") is kind="closing",
  article="Encerramento", uid "closing".
A citation naming another instrument first ("MLI art. 9(4)", "Protocol para. 8") only gives the
address when the cell cites nothing else.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ingest.catalog import CorpusError
from ingest.parsers._structure import Line, UnitBuilder, lines_in, prose_references
from ingest.units import Unit

_BULLET = re.compile(r"[-*•]\s+")
_SEPARATOR_ROW = re.compile(r"\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?")
_COMPACT_REF = re.compile(r"\b(?P<inst>(?:MLI|Protocol[oa]?|Prot\.)\s+)?art(?:igo|\.)?\s*(?P<num>\d+)\.?º?"
                          r"(?P<parts>(?:\s?\([0-9a-z]+\))*)", re.I)
_CITATION_START = re.compile(r"\b[Aa]rt(?:igo|\.)\s*\d+")
_INLINE_ALINEA = re.compile(r"\(al[íi]nea\s+([a-z])\)\)")
_REF_HEADER = re.compile(r"artigo|article|art[íi]culo|refer|base legal|fonte|norma", re.I)
_MAX_SECTION_TITLE = 100


@dataclass(frozen=True)
class _Address:
    article: str | None
    paragraph: str | None
    subparagraph: str | None


def _compact_address(cite: str) -> _Address | None:
    matches = list(_COMPACT_REF.finditer(cite))
    if not matches:
        return None
    m = next((x for x in matches if not x.group("inst")), matches[0])
    parts = re.findall(r"\(([0-9a-z]+)\)", m.group("parts"))
    article = m.group("num") if not m.group("inst") else f"{m.group('inst').strip()} {m.group('num')}"
    paragraph = parts[0] if parts and parts[0].isdigit() else None
    sub = next((p for p in parts[1:] if p.isalpha()), None) if paragraph else None
    return _Address(article, paragraph, sub)


def _citation_address(cite: str) -> _Address | None:
    """'Art. 4.º, n.º 2, alínea a)' or 'art. 22(2)'."""
    refs = prose_references(cite)
    if refs and (refs[0].paragraphs or refs[0].letters or "º" in cite):
        r = refs[0]
        return _Address(r.article, r.paragraphs[0] if r.paragraphs else None,
                        r.letters[0] if r.letters else None)
    return _compact_address(cite)


def _cells(line: Line) -> list[tuple[int, int]]:
    """[start, end) of each cell's words in a "| a | b |" row."""
    text, base = line.text, line.start
    bars = [i for i, ch in enumerate(text) if ch == "|"]
    if text.startswith("|"):
        bars = bars[1:]
        prev = 1
    else:
        prev = 0
    out = []
    for bar in bars + ([] if text.endswith("|") else [len(text)]):
        seg = text[prev:bar]
        left = len(seg) - len(seg.lstrip())
        right = len(seg.rstrip())
        out.append((base + prev + left, base + prev + max(right, left)))
        prev = bar + 1
    return out


def _indented(source: str, line: Line) -> bool:
    return line.start > 0 and source[line.start - 1] in " \t"


def _is_title(lines: list[Line], i: int) -> bool:
    text = lines[i].text
    if i == 0 or i + 1 >= len(lines) or len(text) > _MAX_SECTION_TITLE:
        return False
    if _BULLET.match(text) or text.startswith("|") or re.search(r"[.;:,]$", text):
        return False
    following = lines[i + 1].text
    return bool(_BULLET.match(following) or following.startswith("|"))


def _add_table(b: UnitBuilder, section: Unit, rows: list[Line]) -> None:
    header = _cells(rows[0])
    names = [b.source[s:e] for s, e in header]
    ref_col = next((i for i, n in enumerate(names) if i > 0 and _REF_HEADER.search(n)), len(names) - 1)
    count = 0
    for row in rows[1:]:
        if _SEPARATOR_ROW.fullmatch(row.text):
            continue
        cells = _cells(row)
        if not cells or cells[0][0] >= cells[-1][1]:
            continue
        count += 1
        label = b.source[cells[0][0]:cells[0][1]]
        cite = b.source[cells[ref_col][0]:cells[ref_col][1]] if ref_col < len(cells) else ""
        addr = _compact_address(cite) or _citation_address(cite)
        b.add(uid=f"{section.uid}.r{count}", level="paragraph", kind="table_row", start=cells[0][0],
              end=cells[-1][1], article=addr.article if addr else section.article, heading=label,
              paragraph=addr.paragraph if addr else None,
              subparagraph=addr.subparagraph if addr else None, parent=section.uid,
              refers_to=cite or None)


def _clauses(text: str, cite: str | None) -> list[tuple[str, int, int]]:
    """(letter, start, end) of each clause closed by its own "(alínea x))", when together they
    are exactly the alíneas the bullet's citation names; otherwise none."""
    refs = prose_references(cite) if cite else []
    cited = refs[0].letters if refs else []
    marks = list(_INLINE_ALINEA.finditer(text))
    if len(cited) < 2 or [m.group(1) for m in marks] != cited:
        return []
    out, prev = [], 0
    for m in marks:
        start = prev + len(text[prev:]) - len(text[prev:].lstrip(" ;,."))
        out.append((m.group(1), start, m.end()))
        prev = m.end()
    return out


def _add_bullets(b: UnitBuilder, section: Unit, bullets: list[tuple[int, int]]) -> None:
    for n, (start, end) in enumerate(bullets, 1):
        text = b.source[start:end]
        cite_at = [m.start() for m in _CITATION_START.finditer(text)]
        cite = text[cite_at[-1]:].strip() if cite_at else None
        addr = _citation_address(cite) if cite else None
        clauses = _clauses(text, cite) if addr else []
        bullet = b.add(uid=f"{section.uid}.b{n}", level="paragraph", kind="section", start=start, end=end,
                       article=addr.article if addr else section.article,
                       paragraph=addr.paragraph if addr else str(n),
                       subparagraph=addr.subparagraph if addr and not clauses else None,
                       heading=section.heading, parent=section.uid, refers_to=cite)
        if bullet is None:
            continue
        for letter, s, e in clauses:
            b.add(uid=f"{bullet.uid}.{letter}", level="alinea", kind="section", start=start + s,
                  end=start + e, article=bullet.article, paragraph=bullet.paragraph,
                  subparagraph=letter, heading=section.heading, parent=bullet.uid, refers_to=cite)


def _add_section(b: UnitBuilder, number: int, lines: list[Line]) -> None:
    title = lines[0].text
    section = b.add(uid=f"s{number}", level="article", kind="section", start=lines[0].start,
                    end=lines[-1].end, article=title, heading=title)
    if section is None:
        return
    rows = [ln for ln in lines[1:] if ln.text.startswith("|")]
    if rows:
        _add_table(b, section, rows)
    bullets: list[tuple[int, int]] = []
    for ln in lines[1:]:
        m = _BULLET.match(ln.text)
        if m:
            bullets.append((ln.start + m.end(), ln.end))
        elif bullets and _indented(b.source, ln):
            bullets[-1] = (bullets[-1][0], ln.end)     # a bullet wrapped onto an indented line
    _add_bullets(b, section, bullets)


def parse(doc_id: str, source: str) -> list[Unit]:
    lines = lines_in(source)
    titles = [i for i in range(len(lines)) if _is_title(lines, i)]
    if not titles:
        raise CorpusError(f"{doc_id}: resumo sem secções (título curto seguido de lista ou tabela)")
    b = UnitBuilder(doc_id, source, "pt")
    b.add(uid="preamble", level="article", kind="preamble", start=0, end=lines[titles[0] - 1].end,
          article="Preâmbulo", heading=lines[0].text)
    for n, i in enumerate(titles, 1):
        stop = titles[n] if n < len(titles) else len(lines)
        block = lines[i:stop]
        closing = None
        if n == len(titles):
            last_list = max(k for k, ln in enumerate(block) if k == 0 or _BULLET.match(ln.text)
                            or ln.text.startswith("|") or _indented(source, ln))
            if last_list + 1 < len(block):
                closing = block[last_list + 1:]
                block = block[:last_list + 1]
        _add_section(b, n, block)
        if closing:
            b.add(uid="closing", level="article", kind="closing", start=closing[0].start,
                  end=closing[-1].end, article="Encerramento")
    return b.units
