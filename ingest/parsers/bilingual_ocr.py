"""Parser for OCR scans of a bilingual (Portuguese/Spanish) two-column treaty edition.

The OCR reads the two columns into one stream, switching language mid-line and mid-sentence,
with page numbers and stray marks in between. So the text is first cut into words, each word
is given a language (ingest.langid: word evidence smoothed into runs) or marked as debris, and
only then is structure found — separately in the Portuguese stream and in the Spanish one,
because both carry their own "Artigo 10"/"Artículo 10", "2." and "a)" markers.

Each unit keeps the words of one language in reading order, never rewritten (OCR misspellings
stay), and the list of source [start, end) pieces those words come from.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ingest.catalog import CorpusError
from ingest.langid import ES, PT, WEAK, label_tokens, load_lexicon, word_score
from ingest.units import Unit

LANGS = (PT, ES)

_TOKEN = re.compile(r"\S+")
_EDGE_JUNK = "~·•_¬|\\^*{}<>`´'"
_LEAD_JUNK = _EDGE_JUNK + ".,;:!-"
_ATTACH_PUNCT = re.compile(r"^[.,:;]{1,2}$")
_SENT_END = re.compile(r"[.:;]['\"”)]*$")
_DIGITS = re.compile(r"^\d{1,3}$")
_SINGLE_LETTER_WORDS = set("aeouyàáéóAEOUYÀÁÉÓ")
_CORE_STRIP = "()[]\"'.,;:!?-–—<>~·•_*`´|"

# "Artigo", "Artjgo", "Àrtigo" / "Artículo", "Articulo", "Artfculo", "Artrculo", "Arti.culo", "Articufo"
_HEADER_PT = re.compile(r"^[AÀÁ]rt\S{0,2}g[oó0]$")
_HEADER_ES = re.compile(r"^[AÀÁ]rt\S{0,3}[cçg]u[lf][oó0]$")
_NUMBER = re.compile(r"^(\d{1,2})$")
_GARBLED_NUMBER = re.compile(r"^\d\S{0,2}$")
_REF_BEFORE = {"do", "da", "dos", "das", "no", "nos", "ao", "pelo", "o", "del", "dei", "de", "el",
               "los", "en", "al", "ai", "conforme", "segundo", "y", "e"}
_TESTIMONIUM = re.compile(r"\b(?:Em|En)\s+f[eé]\s+d[eo]\b")
_PROTOCOL = re.compile(r"\bPROTOCOLO\b")
_PROTOCOL_ITEM = re.compile(
    r"(?P<num>\d{1,2})\s*\.\s*A\s?d\s*/\s*(?P<artword>Art\S*)\s*(?P<art>\d{1,2})"
    r"(?:\s*,\s*p\S*rr?afo\s*(?P<par>\d{1,2})(?:\s*,?\s*(?P<sub>[a-z])\)(?:\s*\(?(?P<item>[0-9ivx]{1,4})\))?)?)?")
_PARA_MARKER = re.compile(r"^(\d{1,2})\s*[.,:]?[.,:\-]*$")
_ALINEA_MARKER = re.compile(r"^\(?([a-z])\)$")
_GARBLED_MARKER = re.compile(r"^[^\s\d]{1}[.:]$")
_LIST_JOINERS = {"ou", "e", "o", "y"}
_CITES_ALINEA = re.compile(r"^(?:al[íi]neas?|letras?|incisos?|[a-z]\))$", re.I)
MAX_HEADING = 8
IMBALANCE_COST = 0.5   # nats per word of difference between two translated headings
MAX_CONTINUATION = 30
BODY_WORD_ZIPF = 5.75


class ParseError(CorpusError):
    """The text is not a bilingual article-structured document this parser can read."""


@dataclass
class Token:
    start: int          # the piece kept, after trimming stray marks at its edges
    end: int
    text: str
    raw_start: int
    debris: bool = False
    attach: bool = False   # a lone "." or ":" that belongs to the word before it
    lang: str = ""


# --- words ----------------------------------------------------------------------------------

def tokenize(source: str) -> list[Token]:
    lexicon = load_lexicon()
    tokens: list[Token] = []
    for m in _TOKEN.finditer(source):
        s, e = m.start(), m.end()
        while s < e and source[s] in _LEAD_JUNK and not _ATTACH_PUNCT.match(source[s:e]):
            s += 1
        while e > s and source[e - 1] in _EDGE_JUNK:
            e -= 1
        text = source[s:e]
        tok = Token(s, e, text, m.start())
        if not text:
            tok.start, tok.end, tok.text, tok.debris = m.start(), m.end(), m.group(), True
        elif _ATTACH_PUNCT.match(text):
            tok.attach = True
        else:
            tok.debris = _is_debris(text, lexicon)
        tokens.append(tok)
    _mark_single_letters(tokens, source)
    _mark_page_numbers(tokens, source)
    return tokens


def _is_debris(text: str, lexicon) -> bool:
    if _ALINEA_MARKER.match(text) or re.match(r"^\(?[ivxIVX]{1,4}\)$", text):
        return False
    core = text.strip(_CORE_STRIP)
    if not core or not any(c.isalnum() for c in core):
        return True
    if core.isdigit() or re.match(r"^\d", core):
        return False
    letters = re.sub(r"[^\w]", "", core)
    if len(letters) == 1:
        return letters not in _SINGLE_LETTER_WORDS
    if len(letters) <= 3 and letters.isalpha() and not (letters.isupper() and len(letters) >= 2):
        freqs = lexicon.exact.get(letters.lower())
        return freqs is None or max(freqs) < 3.0
    return False


def _mark_single_letters(tokens: list[Token], source: str) -> None:
    """A lone "e"/"o" between a sentence end and a stray mark is OCR noise, not a conjunction;
    a lone "I" before "-" is a roman item number ("I - no que concerne")."""
    for i, tok in enumerate(tokens):
        if tok.debris and tok.text == "I" and i + 1 < len(tokens) and tokens[i + 1].debris \
                and tokens[i + 1].text[:1] in "-_—":
            tok.debris = False
            continue
        if tok.debris or len(tok.text) != 1:
            continue
        prev = next((t for t in reversed(tokens[:i]) if not t.debris), None)
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        after_end = prev is None or bool(_SENT_END.search(prev.text)) or prev.attach
        before_noise = nxt is None or nxt.debris or nxt.attach or "\n" in source[tok.end:nxt.raw_start]
        if after_end and before_noise:
            tok.debris = True


def _mark_page_numbers(tokens: list[Token], source: str) -> None:
    """Page numbers of facing pages ("44 45"), or one alone closing a line after a sentence."""
    for i in range(len(tokens) - 1):
        a, b = tokens[i], tokens[i + 1]
        if _DIGITS.match(a.text) and _DIGITS.match(b.text) and a.text == source[a.raw_start:a.end] \
                and 0 < int(b.text) - int(a.text) <= 9 and int(a.text) >= 2:
            a.debris = b.debris = True
    for i, tok in enumerate(tokens):
        if tok.debris or not _DIGITS.match(tok.text) or int(tok.text) < 2:
            continue
        line_end = source.find("\n", tok.end)
        if source[tok.end:line_end if line_end >= 0 else len(source)].strip():
            continue
        prev = next((t for t in reversed(tokens[:i]) if not t.debris), None)
        if prev is None or _SENT_END.search(prev.text):
            tok.debris = True


def assign_languages(tokens: list[Token], source: str) -> None:
    words = [i for i, t in enumerate(tokens) if not t.debris and not t.attach]
    breaks = frozenset(k for k in range(1, len(words))     # a new line may be the other column
                       if "\n" in source[tokens[words[k - 1]].end:tokens[words[k]].start])
    labels = label_tokens([tokens[i].text for i in words], breaks=breaks)
    for i, lang in zip(words, labels):
        tokens[i].lang = lang
    for i, tok in enumerate(tokens):
        if _HEADER_PT.match(tok.text):
            tok.lang = PT
        elif _HEADER_ES.match(tok.text):
            tok.lang = ES
        else:
            continue
        for j in range(i + 1, min(i + 4, len(tokens))):   # its number (":" "3Ci" "30")
            if tokens[j].debris:
                continue
            if tokens[j].attach or _NUMBER.match(tokens[j].text) or _GARBLED_NUMBER.match(tokens[j].text):
                tokens[j].lang = tok.lang
                if not tokens[j].attach:
                    break
            else:
                break
    for i, tok in enumerate(tokens):
        if tok.attach:
            prev = tokens[i - 1] if i > 0 else None
            if prev is not None and prev.lang and not prev.debris:
                tok.lang = prev.lang
            else:
                tok.debris = True


# --- articles -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Header:
    index: int          # token index of "Artigo"/"Artículo"
    lang: str
    number: int | None  # None when the OCR garbled it ("3Ci")
    is_reference: bool  # looks like "do Artigo 7" inside a sentence
    body: int           # first token index after the header words


def find_headers(tokens: list[Token], lo: int, hi: int) -> list[Header]:
    out: list[Header] = []
    for i in range(lo, hi):
        tok = tokens[i]
        lang = PT if _HEADER_PT.match(tok.text) else ES if _HEADER_ES.match(tok.text) else None
        if lang is None:
            continue
        j = i + 1
        while j < hi and (tokens[j].debris or tokens[j].attach) and j - i < 4:
            j += 1
        if j >= hi:
            continue
        raw = tokens[j].text
        number_match = _NUMBER.match(raw)
        if number_match:
            number = int(number_match.group(1))
        elif _GARBLED_NUMBER.match(raw):
            number = None
        else:
            continue
        prev = next((tokens[k] for k in range(i - 1, max(lo, i - 4) - 1, -1) if not tokens[k].debris), None)
        follows_word = prev is not None and prev.text.lower().strip(_CORE_STRIP) in _REF_BEFORE
        punct_after = j + 1 < hi and tokens[j + 1].attach and tokens[j + 1].start == tokens[j].end
        out.append(Header(i, lang, number, follows_word or punct_after or raw[-1:] in ",.", j + 1))
    return out


def sequence_articles(headers: list[Header]) -> list[dict[str, Header]]:
    """Article n+1 follows article n in each language; cross-references and garbled numbers
    are taken only where no clean header exists."""
    articles: list[dict[str, Header]] = []
    last = {PT: -1, ES: -1}
    n = 1
    while True:
        found: dict[str, Header] = {}
        for lang in LANGS:
            after = [h for h in headers if h.lang == lang and h.index > last[lang]]
            nxt_clean = next((h.index for h in after if h.number == n + 1 and not h.is_reference), None)
            limit = nxt_clean if nxt_clean is not None else 10 ** 9
            pick = next((h for h in after if h.number == n and not h.is_reference), None) \
                or next((h for h in after if h.number == n and h.index < limit), None)
            if pick is not None:
                found[lang] = pick
        if not found:
            break
        for lang in LANGS:   # a header whose number the OCR garbled, next to the other language's
            if lang not in found:
                other = next(iter(found.values()))
                near = [h for h in headers if h.lang == lang and h.number is None
                        and h.index > last[lang] and abs(h.index - other.index) < 40]
                if near:
                    found[lang] = near[0]
        for lang, h in found.items():
            last[lang] = h.index
        articles.append(found)
        n += 1
    return articles


def language_streams(tokens: list[Token], starts: list[int], end: int, lang: str) -> list[list[int]]:
    """Tokens of `lang` between consecutive starts (the last one up to end)."""
    bounds = starts + [end]
    return [[k for k in range(bounds[i], bounds[i + 1]) if not tokens[k].debris and tokens[k].lang == lang]
            for i in range(len(starts))]


def move_continuations(tokens: list[Token], source: str, streams: list[list[int]], header_len: list[int]) -> None:
    """Words that continue the previous article's last sentence but were read after the next
    header (a header set in the middle of the column) go back where they belong."""
    for n in range(1, len(streams)):
        stream, skip = streams[n], header_len[n]
        body = stream[skip:]
        prev = streams[n - 1]
        last_word = next((tokens[k].text for k in reversed(prev) if not tokens[k].attach), "")
        ends = bool(prev) and (_SENT_END.search(tokens[prev[-1]].text) or tokens[prev[-1]].attach)
        if not body or not prev or (ends and not last_word.endswith("-")):
            continue
        first = tokens[body[0]].text
        if not first[:1].islower() or _ALINEA_MARKER.match(first):
            continue
        stop = None
        for k, t in enumerate(body[:MAX_CONTINUATION]):
            if _PARA_MARKER.match(tokens[t].text):
                break
            nxt = body[k + 1] if k + 1 < len(body) else None
            if nxt is not None and tokens[nxt].attach:
                continue
            if nxt is None or "\n\n" in source[tokens[t].end:tokens[nxt].start] or (
                    _SENT_END.search(tokens[t].text) and not tokens[nxt].text[:1].islower()):
                stop = k
                break
        if stop is None:
            continue
        moved = body[:stop + 1]
        prev.extend(moved)
        prev.sort()
        del stream[skip:skip + len(moved)]


# --- structure inside one language's stream -------------------------------------------------

def _marker_number(tokens: list[Token], stream: list[int], k: int) -> int | None:
    tok = tokens[stream[k]]
    m = _PARA_MARKER.match(tok.text)
    if not m:
        return None
    has_punct = tok.text != m.group(1) or (k + 1 < len(stream) and tokens[stream[k + 1]].attach)
    return int(m.group(1)) if has_punct else None


def _sentence_start(tokens: list[Token], stream: list[int], k: int, body_start: int) -> bool:
    if k <= body_start:
        return True
    prev = tokens[stream[k - 1]].text
    return bool(_SENT_END.search(prev)) or prev.endswith(")")


def _opens_body(tokens: list[Token], index: int, lexicon) -> bool:
    """A capitalised very common word ("As", "Quando", "Las", "Nada") starts the article's text;
    capitalised words inside a heading are rarer nouns ("Imobiliários", "Consejeros")."""
    text = tokens[index].text
    if not text[:1].isupper():
        return False
    freqs = lexicon.exact.get(text.lower().strip(_CORE_STRIP))
    return freqs is not None and max(freqs) >= BODY_WORD_ZIPF


def heading_end(tokens: list[Token], source: str, seq: list[int], start: int, pair: bool = False) -> int:
    """Index in seq where the text after a heading begins: at "1." if it comes soon, else at a
    sentence-opening word (for a pair of headings, only once words of both languages were seen)
    or, for one heading, at a blank line. A heading that runs on without any of these is none."""
    lexicon = load_lexicon()
    while start < len(seq) and not any(c.isalpha() for c in tokens[seq[start]].text):
        if _marker_number(tokens, seq, start) == 1:
            return start
        start += 1
    span = 2 * MAX_HEADING if pair else MAX_HEADING
    for k in range(start, min(start + span + 1, len(seq))):
        if _marker_number(tokens, seq, k) == 1:
            return k
    seen: set[str] = set()
    for k in range(start + 1, min(start + span + 1, len(seq))):
        seen.add(_evidence(tokens[seq[k - 1]].text))
        if pair:
            if _opens_body(tokens, seq[k], lexicon) and {PT, ES} <= seen:
                return k
        elif "\n\n" in source[tokens[seq[k - 1]].end:tokens[seq[k]].start] or _opens_body(tokens, seq[k], lexicon):
            return k
    return start


def _evidence(text: str) -> str:
    score = word_score(text)
    return PT if score >= WEAK else ES if score <= -WEAK else ""


def split_heading_zone(tokens: list[Token], zone: list[int], first_lang: str) -> dict[str, list[int]]:
    """Two headings side by side ("Dividendos Dividendos", "Cánones Royalties"): cut where the
    word evidence agrees best; with no evidence, the header order decides."""
    scores = [word_score(tokens[i].text) for i in zone]
    best: tuple[float, int, str] | None = None
    for k in range(1, len(zone)):
        for lead in (first_lang, ES if first_lang == PT else PT):
            sign = 1 if lead == PT else -1
            value = sign * (sum(scores[:k]) - sum(scores[k:])) - IMBALANCE_COST * abs(len(zone) - 2 * k)
            rank = (value, lead == first_lang)
            if best is None or rank > best[0]:
                best = (rank, k, lead)
    if best is None:
        return {first_lang: zone}
    _, k, lead = best
    other = ES if lead == PT else PT
    return {lead: zone[:k], other: zone[k:]}


def _capital_follows(tokens: list[Token], stream: list[int], k: int) -> bool:
    nxt = next((tokens[i] for i in stream[k + 1:k + 3] if not tokens[i].attach), None)
    return nxt is not None and nxt.text.lstrip("\"'«(")[:1].isupper()


def paragraph_starts(tokens: list[Token], stream: list[int], body: int) -> list[tuple[int, int]]:
    """(number, index in stream) of numbered paragraphs, in order, one missing number tolerated."""
    out: list[tuple[int, int]] = []
    expected = 1
    for k in range(body, len(stream)):
        num = _marker_number(tokens, stream, k)
        if num is None or not (expected <= num <= expected + 1):
            continue
        if not _sentence_start(tokens, stream, k, body) and not _capital_follows(tokens, stream, k):
            continue
        if num == expected + 1 and not out and num != 1:
            continue
        out.append((num, k))
        expected = num + 1
    return out


def recover_garbled(tokens: list[Token], stream: list[int], paras: list[tuple[int, int]],
                    wanted: set[int], body: int) -> list[tuple[int, int]]:
    """A paragraph number the OCR misread ("?.", "a:") where the other language has it."""
    have = {n for n, _ in paras}
    out = list(paras)
    for n in sorted(wanted - have):
        before = [k for m, k in out if m == n - 1]
        after = [k for m, k in out if m == n + 1]
        if not before or not (after or n == max(wanted)):
            continue
        lo = before[-1] + 1
        hi = after[0] if after else len(stream)
        for k in range(lo, hi):
            first = tokens[stream[k]]
            if not first.text[:1].isupper() or not _sentence_start(tokens, stream, k, body):
                continue
            if _preceded_by_garbled_marker(tokens, stream[k]):
                out.append((n, k))
                break
        out.sort(key=lambda p: p[1])
    return out


def _preceded_by_garbled_marker(tokens: list[Token], index: int) -> bool:
    k = index - 1
    while k >= 0 and tokens[k].debris and not _GARBLED_MARKER.match(tokens[k].text):
        k -= 1
    return k >= 0 and bool(_GARBLED_MARKER.match(tokens[k].text))


def alinea_starts(tokens: list[Token], stream: list[int], lo: int, hi: int) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    expected = "a"
    for k in range(lo, hi):
        m = _ALINEA_MARKER.match(tokens[stream[k]].text)
        if not m or m.group(1) != expected:
            continue
        prev = tokens[stream[k - 1]].text if k > lo else ""
        prev2 = tokens[stream[k - 2]].text if k - 1 > lo else ""
        cited = any(_CITES_ALINEA.match(t) for t in (prev, prev2))    # "das alíneas b) e c)"
        ok = k == lo or _SENT_END.search(prev) or _PARA_MARKER.match(prev) or tokens[stream[k - 1]].attach \
            or (prev.lower() in _LIST_JOINERS and prev2[-1:] in ";,") or (expected != "a" and not cited)
        if ok:
            out.append((expected, k))
            expected = chr(ord(expected) + 1)
    return out if len(out) >= 2 else []


# --- units ----------------------------------------------------------------------------------

def spans_of(tokens: list[Token], source: str, indices: list[int]) -> tuple[tuple[int, int], ...]:
    spans: list[list[int]] = []
    for i in indices:
        tok = tokens[i]
        if spans and not source[spans[-1][1]:tok.start].strip():
            spans[-1][1] = tok.end
        else:
            spans.append([tok.start, tok.end])
    return tuple((s, e) for s, e in spans)


def text_of(tokens: list[Token], indices: list[int]) -> str:
    out: list[str] = []
    for i in indices:
        if tokens[i].attach and out:
            out[-1] += tokens[i].text
        else:
            out.append(tokens[i].text)
    return " ".join(out)


@dataclass
class Block:
    """One article or protocol item in one language."""
    stream: list[int]
    header_len: int
    heading: list[int]
    body: int


def _header_len(stream: list[int], header: Header | None) -> int:
    if header is None or not stream or stream[0] != header.index:
        return 0
    return sum(1 for k in stream if k < header.body)


def build_units(doc_id: str, source: str, tokens: list[Token], blocks: dict[str, Block], *,
                uid_base: str, article: str, kind: str, refers_to: str | None,
                fixed_heading: dict[str, str] | None = None) -> list[Unit]:
    """Units for one article/item in both languages: per address, Portuguese first."""
    per_lang: dict[str, dict[tuple, list[int]]] = {}
    headings: dict[str, str] = {}
    for lang, block in blocks.items():
        stream = block.stream
        headings[lang] = fixed_heading[lang] if fixed_heading else text_of(tokens, block.heading)
        addresses: dict[tuple, list[int]] = {(): stream}
        paras = block_paragraphs(tokens, block, blocks)
        cuts = [k for _, k in paras] + [len(stream)]
        for (num, k), nxt in zip(paras, cuts[1:]):
            addresses[(str(num),)] = stream[k:nxt]
            for (letter, a), a_next in _with_next(alinea_starts(tokens, stream, k, nxt), nxt):
                addresses[(str(num), letter)] = stream[a:a_next]
        if not paras:
            for (letter, a), a_next in _with_next(alinea_starts(tokens, stream, block.body, len(stream)), len(stream)):
                addresses[(None, letter)] = stream[a:a_next]
        per_lang[lang] = addresses
    order = sorted({addr for addrs in per_lang.values() for addr in addrs}, key=_address_key)
    units: list[Unit] = []
    for addr in order:
        for lang in LANGS:
            indices = per_lang.get(lang, {}).get(addr)
            if not indices:
                continue
            text = text_of(tokens, indices)
            para = addr[0] if addr else None
            sub = addr[1] if len(addr) > 1 else None
            uid, parent = _uid(uid_base, para, sub, lang)
            units.append(Unit(doc_id=doc_id, uid=uid, level=_level(para, sub), kind=kind,
                              article=article, paragraph=para, subparagraph=sub,
                              heading=headings.get(lang, ""), language=lang, text=text,
                              spans=spans_of(tokens, source, indices), parent=parent,
                              refers_to=refers_to))
    return units


def block_paragraphs(tokens: list[Token], block: Block, blocks: dict[str, Block]) -> list[tuple[int, int]]:
    paras = paragraph_starts(tokens, block.stream, block.body)
    others = [paragraph_starts(tokens, b.stream, b.body) for b in blocks.values() if b is not block]
    wanted = {n for other in others for n, _ in other}
    if paras and wanted:
        paras = recover_garbled(tokens, block.stream, paras, wanted, block.body)
    return paras


def _with_next(starts: list[tuple[str, int]], end: int):
    nexts = [k for _, k in starts[1:]] + [end]
    return zip(starts, nexts)


def _address_key(addr: tuple) -> tuple:
    if not addr:
        return (0, 0, "")
    para = int(addr[0]) if addr[0] else 0
    return (1, para, addr[1] if len(addr) > 1 else "")


def _level(para: str | None, sub: str | None) -> str:
    return "alinea" if sub else "paragraph" if para else "article"


def _uid(base: str, para: str | None, sub: str | None, lang: str) -> tuple[str, str | None]:
    parts = [base]
    parent = None
    if para:
        parent = f"{base}.{lang}"
        parts.append(f"p{para}")
    if sub:
        parent = f"{'.'.join(parts)}.{lang}"
        parts.append(sub)
    return ".".join(parts) + f".{lang}", parent


# --- the document ---------------------------------------------------------------------------

def _token_at(tokens: list[Token], offset: int) -> int:
    return next((i for i, t in enumerate(tokens) if t.raw_start >= offset), len(tokens))


def heading_zones(tokens: list[Token], source: str,
                  articles: list[dict[str, Header]]) -> dict[int, dict[str, list[int]]]:
    """Headings of articles whose two headers stand side by side; relabels those words."""
    zones: dict[int, dict[str, list[int]]] = {}
    for n, art in enumerate(articles, 1):
        if len(art) != 2:
            continue
        first, second = sorted(art.values(), key=lambda h: h.index)
        between = [t for t in tokens[first.body:second.index]
                   if not t.debris and sum(c.isalpha() for c in t.text) >= 2]
        if between:
            continue
        seq = [k for k in range(second.body, min(second.body + 4 * MAX_HEADING, len(tokens)))
               if not tokens[k].debris]
        end = heading_end(tokens, source, seq, 0, pair=True)
        zone = [k for k in seq[:end] if any(c.isalpha() for c in tokens[k].text)]
        if not zone:
            continue
        split = split_heading_zone(tokens, zone, first.lang)
        for lang, words in split.items():
            for k in words:
                tokens[k].lang = lang
                if k + 1 < len(tokens) and tokens[k + 1].attach:
                    tokens[k + 1].lang = lang
        zones[n] = split
    return zones


def _share_heading(tokens: list[Token], blocks: dict[str, Block], headers: dict[str, Header]) -> None:
    """Both headings read into one language's stream ("Denúncia Denuncia"): split them."""
    empty = [lang for lang, b in blocks.items() if not b.heading]
    full = [lang for lang, b in blocks.items() if len(b.heading) >= 2]
    if len(empty) != 1 or len(full) != 1:
        return
    first_lang = min(headers, key=lambda lang: headers[lang].index)
    split = split_heading_zone(tokens, blocks[full[0]].heading, first_lang)
    mine = split.get(empty[0], [])
    if not mine:
        return
    donor, taker = blocks[full[0]], blocks[empty[0]]
    donor.heading = split[full[0]]
    donor.stream[:] = [k for k in donor.stream if k not in mine]
    donor.body -= len(mine)
    taker.stream[:] = sorted(taker.stream[:taker.header_len] + mine + taker.stream[taker.header_len:])
    taker.heading = mine
    taker.body = taker.header_len + len(mine)


def parse(doc_id: str, source: str) -> list[Unit]:
    tokens = tokenize(source)
    if not tokens:
        raise ParseError(f"{doc_id}: documento sem texto")
    assign_languages(tokens, source)
    protocol = _PROTOCOL.search(source)
    articles_end_offset = protocol.start() if protocol else len(source)
    headers = find_headers(tokens, 0, _token_at(tokens, articles_end_offset))
    articles = sequence_articles(headers)
    if not articles:
        raise ParseError(f"{doc_id}: nenhum cabeçalho de artigo (Artigo/Artículo N) encontrado no texto bilingue")
    first_header = min(h.index for h in articles[-1].values())
    closing = _TESTIMONIUM.search(source, tokens[first_header].start)
    end_offset = min(closing.start() if closing else len(source), articles_end_offset)
    articles_end = _token_at(tokens, end_offset)

    zones = heading_zones(tokens, source, articles)
    streams: dict[str, list[list[int]]] = {}
    present: dict[str, list[int]] = {}
    for lang in LANGS:
        numbered = [(n, art[lang]) for n, art in enumerate(articles, 1) if lang in art]
        present[lang] = [n for n, _ in numbered]
        starts = [h.index for _, h in numbered]
        streams[lang] = language_streams(tokens, starts, articles_end, lang)
        header_lens = [_header_len(s, h) for s, (_, h) in zip(streams[lang], numbered)]
        move_continuations(tokens, source, streams[lang], header_lens)

    units: list[Unit] = []
    for n, art in enumerate(articles, 1):
        blocks: dict[str, Block] = {}
        for lang in LANGS:
            if n not in present[lang]:
                continue
            stream = streams[lang][present[lang].index(n)]
            hl = _header_len(stream, art[lang])
            if n in zones:
                heading = [k for k in zones[n].get(lang, []) if k in stream]
                last = max(heading, default=art[lang].body - 1)
                body = next((j for j, k in enumerate(stream) if k > last and not tokens[k].attach), len(stream))
            else:
                body = heading_end(tokens, source, stream, hl)
                heading = [k for k in stream[hl:body] if any(c.isalnum() for c in tokens[k].text)]
            blocks[lang] = Block(stream, hl, heading, body)
        _share_heading(tokens, blocks, art)
        units += build_units(doc_id, source, tokens, blocks, uid_base=f"art{n}", article=str(n),
                             kind="article", refers_to=None)
    if protocol:
        units += parse_protocol(doc_id, source, tokens, protocol.start())
    return units


# --- protocol -------------------------------------------------------------------------------

@dataclass(frozen=True)
class ItemHeader:
    number: int
    lang: str
    start_token: int
    body_token: int
    text: str
    refers_to: str


def _item_language(match: re.Match) -> str | None:
    """"Artículo"/"párrafo" is Spanish, "Artigo"/"parágrafo" Portuguese; "Art. 14" says nothing."""
    word, text = match.group("artword").rstrip("."), match.group(0)
    if _HEADER_ES.match(word) or re.search(r"p[áa]rrafo", text):
        return ES
    if _HEADER_PT.match(word) or re.search(r"par[áa]grafo", text):
        return PT
    return None


def parse_protocol(doc_id: str, source: str, tokens: list[Token], start: int) -> list[Unit]:
    closing = _TESTIMONIUM.search(source, start)
    end = closing.start() if closing else len(source)
    items: list[ItemHeader] = []
    in_header: set[int] = set()
    for m in _PROTOCOL_ITEM.finditer(source, start, end):
        lo, hi = _token_at(tokens, m.start()), _token_at(tokens, m.end())
        in_header.update(range(lo, hi))
        ref = m.group("art") + "".join(f"({m.group(g)})" for g in ("par", "sub", "item") if m.group(g))
        items.append(ItemHeader(int(m.group("num")), _item_language(m) or "", lo, hi, m.group(0), ref))
    by_number: dict[int, dict[str, ItemHeader]] = {}
    for number in dict.fromkeys(item.number for item in items):
        pair = [item for item in items if item.number == number][:2]
        slot = by_number.setdefault(number, {})
        for item in sorted(pair, key=lambda it: not it.lang):   # the ones that say their language first
            lang = item.lang if item.lang and item.lang not in slot else next((x for x in LANGS if x not in slot), None)
            if lang:
                slot[lang] = item
    end_token = _token_at(tokens, end)
    units: list[Unit] = []
    ordered = sorted(by_number)
    starts = {lang: [(n, by_number[n][lang]) for n in ordered if lang in by_number[n]] for lang in LANGS}
    bodies: dict[tuple[int, str], list[int]] = {}
    for lang in LANGS:
        seq = starts[lang]
        for (n, item), nxt in zip(seq, [h.start_token for _, h in seq[1:]] + [end_token]):
            bodies[(n, lang)] = [k for k in range(item.body_token, nxt)
                                 if not tokens[k].debris and tokens[k].lang == lang and k not in in_header]
    for n in ordered:
        blocks = {lang: Block(bodies[(n, lang)], 0, [], 0) for lang in LANGS if (n, lang) in bodies}
        headings = {lang: " ".join(by_number[n][lang].text.split()[1:]) for lang in blocks}
        refers = next(iter(by_number[n].values())).refers_to
        units += build_units(doc_id, source, tokens, blocks, uid_base=f"prot{n}", article=f"Protocolo {n}",
                             kind="protocol_item", refers_to=refers, fixed_heading=headings)
    return units
