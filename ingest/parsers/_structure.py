"""Splitting legal text into numbered paragraphs and lettered alíneas, on offsets into the source.

Shared by every layout parser (and meant for any later one) so that all documents are cut by
the same rules. Everything works on [start, end) offsets into the untouched source text, never
on copies, so each unit can cite and highlight the exact words it came from.

Rules, chosen to be honest about what the text itself shows:
- paragraphs are "1 - ", "2 – ", "3 — " or "4. " at the start of a line, or run on inside a
  line right after a sentence end ("... do artigo 7.º 5 - Quando ..."); numbering must increase
  by one, so "o n.º 6 - actue" or "n.º 5 do artigo" never split a paragraph;
- alíneas are "a) ", "b) " ... in strict letter order, at a line start or run on after
  "; ", "; ou ", ". ", "º "; a lone "i)" is an alínea only where "i" is the next letter, otherwise
  it is a subalínea and stays inside its alínea's text;
- the last words of a list that close the sentence ("e, em ambos os casos, ...") belong to the
  paragraph, not to the last alínea (see alinea_end);
- lines with no letter are never given an invented letter: they stay in the paragraph text.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ingest.units import Unit, normalise_ws

UPPER = "A-ZÀ-ÖØ-Ý"


@dataclass(frozen=True)
class Line:
    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Marker:
    label: str     # "5", "b"
    start: int     # where the label itself begins
    body: int      # where the words after the label begin


def trim(source: str, start: int, end: int) -> tuple[int, int]:
    while start < end and source[start].isspace():
        start += 1
    while end > start and source[end - 1].isspace():
        end -= 1
    return start, end


def lines_in(source: str, start: int = 0, end: int | None = None) -> list[Line]:
    """Non-blank lines of source[start:end], trimmed; the first one may begin mid-line."""
    end = len(source) if end is None else end
    out: list[Line] = []
    pos = start
    while pos < end:
        nl = source.find("\n", pos, end)
        stop = end if nl == -1 else nl
        s, e = trim(source, pos, stop)
        if s < e:
            out.append(Line(s, e, source[s:e]))
        pos = stop + 1
    return out


# --- paragraphs -----------------------------------------------------------------------------

_PARA_AT_LINE = re.compile(rf"(\d+)(?:\.?\s?º)?\s*[-–—]\s+|(\d+)\.\s+(?=[{UPPER}«\"(])")
_PARA_INLINE = re.compile(rf"(?<=[.º°;:)])\s+(\d+)\s*[-–—]\s+(?=[{UPPER}«\"(])")
_NOT_BEFORE_PARA = re.compile(r"(?:\bn\.?\s?[º°]s?|\bn\.os|\bartigos?|\bn[úu]meros?|\bparágrafos?)\s*$", re.I)


def paragraph_markers(source: str, start: int, end: int, any_first: bool = False) -> list[Marker]:
    """Numbered paragraphs in order; any_first lets numbering start above 1 (a text cut mid-article)."""
    candidates: list[tuple[int, int, int, bool]] = []   # (number, label start, body start, at line start)
    for line in lines_in(source, start, end):
        m = _PARA_AT_LINE.match(source, line.start, line.end)
        if m:
            candidates.append((int(m.group(1) or m.group(2)), m.start(), m.end(), True))
        for m in _PARA_INLINE.finditer(source, line.start, line.end):
            if _NOT_BEFORE_PARA.search(source, line.start, m.start()):
                continue
            candidates.append((int(m.group(1)), m.start(1), m.end(), False))
    markers: list[Marker] = []
    expected = None if any_first else 1
    for number, label, body, at_line in candidates:
        if expected is None:
            ok = at_line
        elif at_line:
            ok = expected <= number <= expected + 1    # tolerate one missing number at a line start
        else:
            ok = number == expected
        if ok:
            markers.append(Marker(str(number), label, body))
            expected = number + 1
    return markers


# --- alíneas --------------------------------------------------------------------------------

_ALINEA_AT_LINE = re.compile(r"\(?([a-z])\)\s+")
_ALINEA_INLINE = re.compile(rf"(?<=[.;:º°])\s+(?:(?:ou|e|o|y)\s+)?\(?([a-z])\)\s+(?=[{UPPER}0-9«\"(])")
_ROMAN_LABEL = re.compile(r"\(?([ivxl]+)\)\s")
_ENDS_ITEM = re.compile(r"(?:[.;]|[;,]\s*(?:ou|e|o|y))$")
_ROMAN_VALUES = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}


def roman_value(numeral: str) -> int:
    total = 0
    values = [_ROMAN_VALUES[c] for c in numeral.lower()]
    for i, v in enumerate(values):
        total += -v if i + 1 < len(values) and values[i + 1] > v else v
    return total


def alinea_markers(source: str, start: int, end: int) -> list[Marker]:
    """Lettered alíneas in strict a, b, c ... order; start counts as a line start."""
    candidates: list[tuple[str, int, int]] = []
    for line in lines_in(source, start, end):
        m = _ALINEA_AT_LINE.match(source, line.start, line.end)
        if m:
            candidates.append((m.group(1), m.start(), m.end()))
        for m in _ALINEA_INLINE.finditer(source, line.start, line.end):
            candidates.append((m.group(1), m.start(1) - (source[m.start(1) - 1] == "("), m.end()))
    markers: list[Marker] = []
    expected = "a"
    for letter, label, body in candidates:
        if letter == expected:
            markers.append(Marker(letter, label, body))
            expected = chr(ord(letter) + 1)
    return markers


def alinea_end(source: str, marker: Marker, limit: int) -> int:
    """Where an alínea's own words stop (never after limit, the next alínea or the paragraph end).

    An alínea that opens a list (ends with ":" or starts with "i)") runs until a line ends with
    "." or its subalínea numbering restarts (an unlettered next alínea). Any other alínea stops
    at the end of the line that closes it with ";" or "." — what follows is the paragraph's
    closing words or an alínea whose letter the source lost.
    """
    lines = lines_in(source, marker.body, limit)
    if not lines:
        return marker.body
    first = lines[0].text
    nested = first.endswith(":") or bool(_ROMAN_LABEL.match(first))
    first_roman = _ROMAN_LABEL.match(first)
    last_roman = roman_value(first_roman.group(1)) if first_roman else 0
    end, previous = lines[0].end, first
    for line in lines[1:]:
        if nested:
            if previous.endswith("."):
                break
            roman = _ROMAN_LABEL.match(line.text)
            if roman:
                value = roman_value(roman.group(1))
                if value <= last_roman:
                    break
                last_roman = value
        elif _ENDS_ITEM.search(previous):
            break
        end, previous = line.end, line.text
    return end


# --- citations written in prose -------------------------------------------------------------

_NUMS = r"\d+(?:\.?\s?º)?(?:\s*(?:,|e|a|y)\s*\d+(?:\.?\s?º)?)*"
_REF_TOKEN = re.compile(
    rf"(?P<para>\bn\.?\s?(?:º|°|os|ºs)\s*(?P<pnums>{_NUMS})"
    rf"|\b(?:par[áa]grafos?|p[áa]rrafos?|n[úu]meros?|§)\s*(?P<pnums2>{_NUMS}))"
    r"|(?P<sub>\b(?:al[íi]neas?|letras?|incisos?)\s+(?P<letters>[a-z]\)(?:\s*(?:,|e|a|y)\s*[a-z]\))*))"
    r"|(?P<art>\b(?P<anum>\d+)\s?\.?\s?[º°])"
    r"|(?P<artw>\b(?:artigos?|art\.|artículos?|articulos?)\s*(?P<awnum>\d+)\b)",
    re.I)


@dataclass
class ProseRef:
    article: str
    paragraphs: list[str]
    letters: list[str]

    def compact(self) -> str:
        out = self.article
        if self.paragraphs:
            out += ",".join(f"({p})" for p in self.paragraphs)
        if self.letters:
            out += ",".join(f"({x})" for x in self.letters)
        return out


def prose_references(text: str) -> list[ProseRef]:
    """'artigo 11.º, n.os 3 e 5' -> [11 (3),(5)]; 'n.º 3 do artigo 7.º' works too."""
    refs: list[ProseRef] = []
    pending_paras: list[str] = []
    pending_letters: list[str] = []
    for m in _REF_TOKEN.finditer(text):
        if m.group("para"):
            nums = re.findall(r"\d+", m.group("pnums") or m.group("pnums2"))
            if refs and not pending_letters:
                refs[-1].paragraphs.extend(nums)
            else:
                pending_paras = nums
        elif m.group("sub"):
            letters = re.findall(r"([a-z])\)", m.group("letters"))
            if refs and not pending_paras:
                refs[-1].letters.extend(letters)
            else:
                pending_letters = letters
        else:
            number = m.group("anum") or m.group("awnum")
            refs.append(ProseRef(number, pending_paras, pending_letters))
            pending_paras, pending_letters = [], []
    return refs


def format_references(refs: list[ProseRef]) -> str | None:
    return "; ".join(r.compact() for r in refs) or None


# --- building units -------------------------------------------------------------------------

class UnitBuilder:
    """Collects units of one document, keeping uids unique ("XI", "XI~2") and texts exact."""

    def __init__(self, doc_id: str, source: str, language: str) -> None:
        self.doc_id, self.source, self.language = doc_id, source, language
        self.units: list[Unit] = []
        self._seen: set[str] = set()

    def add(self, *, uid: str, level: str, kind: str, start: int, end: int, article: str | None,
            heading: str = "", paragraph: str | None = None, subparagraph: str | None = None,
            parent: str | None = None, refers_to: str | None = None) -> Unit | None:
        s, e = trim(self.source, start, end)
        if s >= e:
            return None
        unique, n = uid, 1
        while unique in self._seen:
            n += 1
            unique = f"{uid}~{n}"
        self._seen.add(unique)
        unit = Unit(doc_id=self.doc_id, uid=unique, level=level, kind=kind, article=article,
                    paragraph=paragraph, subparagraph=subparagraph, heading=heading,
                    language=self.language, text=normalise_ws(self.source[s:e]), spans=((s, e),),
                    parent=parent, refers_to=refers_to)
        self.units.append(unit)
        return unit


def add_alineas(b: UnitBuilder, start: int, end: int, parent: Unit) -> None:
    markers = alinea_markers(b.source, start, end)
    for i, mk in enumerate(markers):
        limit = markers[i + 1].start if i + 1 < len(markers) else end
        b.add(uid=f"{parent.uid}.{mk.label}", level="alinea", kind=parent.kind, start=mk.start,
              end=alinea_end(b.source, mk, limit), article=parent.article, heading=parent.heading,
              paragraph=parent.paragraph, subparagraph=mk.label, parent=parent.uid,
              refers_to=parent.refers_to)


_CAPTION = re.compile(rf"[{UPPER}][^.;:,]{{0,38}}")


def _before_caption(source: str, start: int, end: int) -> int:
    """A short unpunctuated last line ("Opção A") captions what follows, not this paragraph."""
    lines = lines_in(source, start, end)
    if len(lines) > 1 and _CAPTION.fullmatch(lines[-1].text):
        return lines[-2].end
    return end


def add_body(b: UnitBuilder, start: int, end: int, article: Unit, any_first: bool = False) -> None:
    """Paragraphs and alíneas of one article body; alíneas go straight under an unnumbered article.

    With any_first (a text that begins mid-article) words before the first printed number are
    the previous paragraph, whose number is therefore known.
    """
    markers = paragraph_markers(b.source, start, end, any_first=any_first)
    if not markers:
        add_alineas(b, start, end, article)
        return
    first = int(markers[0].label)
    if any_first and first > 1 and lines_in(b.source, start, markers[0].start):
        markers.insert(0, Marker(str(first - 1), start, start))
    for i, mk in enumerate(markers):
        limit = _before_caption(b.source, mk.start, markers[i + 1].start if i + 1 < len(markers) else end)
        para = b.add(uid=f"{article.uid}.p{mk.label}", level="paragraph", kind=article.kind,
                     start=mk.start, end=limit, article=article.article, heading=article.heading,
                     paragraph=mk.label, parent=article.uid, refers_to=article.refers_to)
        if para is not None:
            add_alineas(b, mk.body, limit, para)
