"""A clean reading of an OCR unit, mapped word by word back to the raw scan it came from.

The raw unit text stays what the corpus says (citations and rule quotes are checked against it);
the clean reading is what people, BM25, the embedder and the model read. Every change is one
of a few named rules and is recorded (raw -> clean, rule, source offsets), so a reviewer can list
them all (`python -m ingest --ocr-report`) and the app can show the raw words behind any clean one.

Rules, in order, each conservative by construction:
- dehyphenate: "asocia- ciones" -> "asociaciones" when the joined word is a word of the unit's language;
  a second half read a few words later (past the other column) is brought back ("legis- ... lação");
- rejoin: "res idente" -> "residente" when a piece is not a word and the joined one is;
- stray_marks: "de·:·la" -> "de la" when the marks stand between two words;
- confusion: an OCR misreading (l/i/1, rn/m, c/e, accents, stray "_ ! ·" ...) is replaced only by a
  dictionary word of the unit's language reachable with the fewest confusion edits, the most
  frequent such word winning (wordfreq);
- other_column: a non-word of the unit's language that is a word of the document's other language
  is a fragment of the other column read into this one, and leaves the clean reading;
- fragment: what is still not a word (a hyphenated half whose other half is in another column,
  unreadable debris) leaves the clean reading too.
Numbers, enumerators ("2.", "a)") and words already valid are never touched.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache

from assistant.lexicon.text import strip_accents

WORD_ZIPF = 1.0        # at or above this a token is a word of the language (wordfreq zipf scale)
TARGET_ZIPF = 2.0      # a correction must land on a word at least this frequent (plus a quarter point an edit)
OTHER_MARGIN = 1.0     # the other language's reading must score this much better to take a word away
JOIN_ZIPF = 2.0        # a rejoined or dehyphenated word must be at least this frequent
LOOKAHEAD = 12         # words searched for the second half of a hyphenated word read past the other column
LONG_WORD = 8          # letters from which a word may take three confusion edits ...
SHORT_WORD = 6         # ... and below which only one

# raw OCR glyphs -> what they may stand for (lower case; accents are folded separately).
# Strong confusions cost 1, weak ones (a plausible but rarer misreading) cost 2.
STRONG: dict[str, tuple[str, ...]] = {
    "l": ("i", "t"), "i": ("l", "t", "j"), "1": ("l", "i"), "!": ("l", "i"), "j": ("i", "l"),
    "f": ("i", "t", "l"), "t": ("l", "f", "i"), "rn": ("m",), "m": ("rn",), "ri": ("n",), "rt": ("n",),
    "ii": ("ñ", "n", "u"), "c": ("e",), "e": ("c",), "cl": ("d",), "d": ("cl",), "6": ("ó",), "0": ("o",),
    "_": ("",), "·": ("",), "'": ("",), ".": ("",), ",": ("",), ":": ("",), ";": ("",), "~": ("",),
    "-": ("",), "^": ("",), "`": ("",), "´": ("",), "y": ("i", "v"),
}
# a mark the OCR put where it could not read a letter: any letter, or nothing
UNREADABLE = "~!?$()[]{}<>/\\|*@#%&+=\"'.,:;·_^`´"
LETTERS = "abcdefghijklmnopqrstuvwxyzáéíóúâêôãõçàñü"
WEAK: dict[str, tuple[str, ...]] = {
    "l": ("f",), "ci": ("a",), "o": ("a", "e", "c", "u", "n"), "a": ("o", "e"), "e": ("o", "a"), "c": ("o", "a"),
    "u": ("n",),
    "n": ("u", "ri", "h"), "h": ("n", "b"), "k": ("n",), "m": ("n",), "rr": ("m",), "q": ("g", "c"),
    "cj": ("q",), "g": ("q", "c"), "s": ("e",), "3": ("a",), "5": ("s",), "b": ("h",), "vv": ("w",),
    "j": ("g",),
}
CONFUSIONS: dict[str, tuple[tuple[str, int], ...]] = {
    k: tuple((r, 1) for r in STRONG.get(k, ())) + tuple((r, 2) for r in WEAK.get(k, ()))
    for k in STRONG.keys() | WEAK.keys()}
for _mark in UNREADABLE:           # "!" mostly stands for l/i, so dropping it costs more
    CONFUSIONS[_mark] = tuple(dict.fromkeys(CONFUSIONS.get(_mark, ()) + (("", 2 if _mark == "!" else 1),)
                                            + tuple((c, 1) for c in LETTERS)))
RARE_STEM = 5          # a non-word sharing this many first letters (or all but 4) with a word is a rare word
_KEYS = sorted(CONFUSIONS, key=len, reverse=True)

_TOKEN = re.compile(r"\S+")
_LEAD = re.compile(r"^[(\"'«“\[]+")
_TRAIL = re.compile(r"[.,;:)\"'»”\]?]+$")
_ATTACH = re.compile(r"^[.,:;]{1,2}$")
_LETTER = re.compile(r"[^\W\d_]")
_PROTECTED = re.compile(r"^(?:\d|\(?[a-z]\)$|\(?[ivxlcIVXLC]{1,5}\)$|[A-ZÀ-Ý]{2,}$)")
_MARKS = re.compile(r"[·:;~_|*^`´]+")
_INNER_MARKS = re.compile(r"(?<=\w)[.·:;~_'`´]+(?=\w)")
SPLIT_ZIPF = 3.0       # marks split a token only into common words
COMMON_ZIPF = 5.0      # a misreading of a word this frequent is taken as that word, not as half of another
_SIGNS = "$€£%º°ª§"     # currencies, percentages, ordinals: part of an amount or a label
NUMBER = re.compile(r"(?<![^\W\d_])\d+(?:[.,]\d+)*(?![^\W\d_])")


@dataclass(frozen=True)
class Correction:
    raw: str          # the raw words, as they stand in the unit's raw text
    clean: str        # what the clean reading has instead ("" = left out)
    rule: str         # dehyphenate | rejoin | stray_marks | confusion | other_column | fragment
    start: int        # [start, end) in the source text
    end: int


@dataclass(frozen=True)
class Piece:
    """One word of the clean reading and the source range of the raw words it comes from."""
    clean_start: int
    clean_end: int
    raw_start: int
    raw_end: int


@dataclass(frozen=True)
class Reading:
    text: str
    pieces: tuple[Piece, ...]
    corrections: tuple[Correction, ...]

    def raw_range(self, start: int, end: int) -> tuple[int, int] | None:
        """Source range behind the clean text [start, end) (None when it covers no word)."""
        hit = [p for p in self.pieces if p.clean_start < end and start < p.clean_end]
        return (min(p.raw_start for p in hit), max(p.raw_end for p in hit)) if hit else None

    def clean_ranges(self, raw_start: int, raw_end: int) -> list[tuple[int, int]]:
        """Clean-text ranges of the words whose raw words overlap the source range [raw_start, raw_end)."""
        return [(p.clean_start, p.clean_end) for p in self.pieces
                if p.raw_start < raw_end and raw_start < p.raw_end]


@dataclass
class _Word:
    text: str
    start: int
    end: int
    rule: str = ""        # set when the word was changed
    raw: str = ""         # the raw words it replaces (when changed)
    dropped: bool = False

    @property
    def attach(self) -> bool:
        return bool(_ATTACH.match(self.text))


# --- dictionary -----------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class Dictionary:
    """Word frequencies of one language (zipf), with the most frequent word per accent-free form."""
    language: str
    zipf: dict[str, float]
    by_folded: dict[str, str]
    variants: dict[str, tuple[str, ...]]   # accent-free form -> its words, when there are several
    prefixes: frozenset[str]      # every prefix of an accent-free form in by_folded

    def z(self, word: str) -> float:
        return self.zipf.get(word.lower(), 0.0)


@lru_cache(maxsize=8)
def dictionary(language: str) -> Dictionary:
    from wordfreq import get_frequency_dict
    zipf = {w: round(math.log10(f) + 9, 2) for w, f in get_frequency_dict(language).items() if f > 0}
    by_folded: dict[str, str] = {}
    for word, z in zipf.items():
        if z < TARGET_ZIPF or not word.isalpha():
            continue
        key = strip_accents(word)
        old = by_folded.get(key)
        if old is None or z > zipf[old]:
            by_folded[key] = word
    variants: dict[str, list[str]] = {}
    for word, z in zipf.items():
        if z >= TARGET_ZIPF and word.isalpha():
            variants.setdefault(strip_accents(word), []).append(word)
    prefixes = frozenset(key[:i] for key in by_folded for i in range(1, len(key) + 1))
    return Dictionary(language, zipf, by_folded, {k: tuple(v) for k, v in variants.items() if len(v) > 1},
                      prefixes)


# --- single words ---------------------------------------------------------------------------

def split_core(token: str) -> tuple[str, str, str]:
    """(leading quotes/brackets, the word, trailing punctuation)."""
    lead = _LEAD.match(token)
    a = lead.end() if lead else 0
    trail = _TRAIL.search(token, a)
    b = trail.start() if trail else len(token)
    return token[:a], token[a:b], token[b:]


def protected(core: str) -> bool:
    """Numbers, amounts, enumerators and all-capital abbreviations are never changed."""
    return not core or bool(_PROTECTED.match(core)) or not _LETTER.search(core) or any(c in _SIGNS for c in core) \
        or bool(NUMBER.search(core)) \
        or (any(c.isdigit() for c in core) and not core[:1].isalpha())


def is_word(core: str, d: Dictionary) -> bool:
    """A word of the language; a compound ("aplicar-se-á") when each of its parts is one."""
    if d.z(core) >= WORD_ZIPF:
        return True
    parts = core.split("-")
    return len(parts) > 1 and all(parts) and all(d.z(p) >= WORD_ZIPF for p in parts)


def rare_word(core: str, d: Dictionary) -> bool:
    """A word too rare for the frequency list but built like one of it ("transacionando", "isentará"):
    its first letters begin a dictionary word. A column fragment ("butáveis", "nente") does not."""
    folded = strip_accents(core.lower())
    if not folded.isalpha():
        return False
    return folded[:max(RARE_STEM, len(folded) - 4)] in d.prefixes


def _restore_case(model: str, word: str) -> str:
    letters = [c for c in model if c.isalpha()]
    if len(letters) > 1 and all(c.isupper() for c in letters):
        return word.upper()
    return word[:1].upper() + word[1:] if letters and letters[0].isupper() else word


def correct_word(core: str, d: Dictionary) -> tuple[str, float] | None:
    """(word, score) for the dictionary word a misread core most likely stands for, or None.

    Score = zipf - edits: a frequent word one confusion away beats a rare one reached with more;
    a word reached with n edits must have zipf >= TARGET_ZIPF + n / 4."""
    found = _correct(strip_accents(core.lower()), d, _budget(sum(c.isalpha() for c in core)))
    if not found:
        return None
    word = _accents_like(core.lower(), found[0], d)
    return _restore_case(core, word), found[1]


def _accents_like(raw: str, word: str, d: Dictionary) -> str:
    """Of the words spelt alike but for accents ("cánones", "cañones"), the one whose accents the scan
    shows; frequency decides otherwise."""
    options = d.variants.get(strip_accents(word))
    if not options or len(raw) != len(word):
        return word
    def mismatch(w: str) -> int:
        return sum(a != b and not (a.isascii() and b.isascii()) for a, b in zip(raw, w))
    return max(options, key=lambda w: d.zipf[w] - mismatch(w))


def _budget(letters: int) -> int:
    return 1 if letters < SHORT_WORD else 4 if letters >= LONG_WORD else 3


@lru_cache(maxsize=20_000)
def _correct(low: str, d: Dictionary, budget: int) -> tuple[str, float] | None:
    best: list[tuple[str, float]] = []

    def visit(i: int, prefix: str, edits: int) -> None:
        if i == len(low):
            word = d.by_folded.get(prefix)
            if word is not None and d.zipf[word] >= TARGET_ZIPF + edits / 4:
                score = d.zipf[word] - edits
                if not best or score > best[0][1]:
                    best[:] = [(word, score)]
            return
        for key in _KEYS:
            if not low.startswith(key, i):
                continue
            if key == low[i] and prefix + key in d.prefixes:
                visit(i + 1, prefix + key, edits)
            for r, cost in CONFUSIONS[key]:
                nxt = prefix + strip_accents(r)
                if edits + cost <= budget and (not r or nxt in d.prefixes):
                    visit(i + len(key), nxt, edits + cost)
        if low[i] not in CONFUSIONS and prefix + low[i] in d.prefixes:
            visit(i + 1, prefix + low[i], edits)

    visit(0, "", 0)
    return best[0] if best else None


# --- a unit ---------------------------------------------------------------------------------

def raw_words(source: str, spans: tuple[tuple[int, int], ...]) -> list[_Word]:
    return [_Word(m.group(), m.start(), m.end()) for s, e in spans for m in _TOKEN.finditer(source, s, e)]


def join_words(words: list[_Word]) -> str:
    out: list[str] = []
    for w in words:
        if w.attach and out:
            out[-1] += w.text
        else:
            out.append(w.text)
    return " ".join(out)


def _join_candidate(a: _Word, b: _Word, d: Dictionary) -> tuple[str, str] | None:
    """(joined token, rule) when a and b are one word cut in two."""
    la, ca, ta = split_core(a.text)
    lb, cb, tb = split_core(b.text)
    if protected(ca) or protected(cb) or ta or lb or not cb[:1].isalpha():
        return None
    if ca.endswith("-") and len(ca) > 1:
        head, rule = ca[:-1], "dehyphenate"
    else:
        pieces = [_INNER_MARKS.sub("", ca), _INNER_MARKS.sub("", cb)]
        if all(d.z(p) >= JOIN_ZIPF or _common_misreading(p, d) for p in pieces):
            return None                           # two words ("a la", "p'or no", "de l~s") stay two
        head, rule = ca, "rejoin"
    joined = _INNER_MARKS.sub("", head + cb)       # "dividen.d os" -> "dividendos"
    if d.z(joined) >= JOIN_ZIPF:
        return la + joined + tb, rule
    return None


def clean_reading(source: str, spans: tuple[tuple[int, int], ...], language: str,
                  other: str | None) -> Reading:
    """The clean reading of one OCR unit (spans: its raw pieces of the source)."""
    d = dictionary(language)
    od = dictionary(other) if other else None
    words = raw_words(source, spans)
    words = _distant_joins(_joins(words, d), d)
    for w in words:
        if w.attach or w.rule:
            continue
        lead, core, trail = split_core(w.text)
        if protected(core) or is_word(core, d):
            continue
        parts = [p for p in _MARKS.split(core) if p]
        if len(parts) > 1 and all(len(p) > 1 and d.z(p) >= SPLIT_ZIPF for p in parts):     # "de·:·la"
            w.raw, w.text, w.rule = w.text, lead + " ".join(parts) + trail, "stray_marks"
            continue
        if core.endswith("-"):      # a word's first half; the rest is in another column or lost
            w.raw, w.dropped, w.rule = w.text, True, "fragment"
            continue
        fixed = correct_word(core, d)
        elsewhere = correct_word(core, od) if od is not None else None
        if elsewhere is not None and is_word(elsewhere[0], d):
            elsewhere = None           # a word both languages share ("Estado") is no evidence
        if fixed is not None and (elsewhere is None or fixed[1] + OTHER_MARGIN >= elsewhere[1]):
            w.raw, w.text, w.rule = w.text, lead + fixed[0] + trail, "confusion"
        elif elsewhere is not None:
            w.raw, w.dropped, w.rule = w.text, True, "other_column"
        elif not rare_word(core, d):
            w.raw, w.dropped, w.rule = w.text, True, "fragment"
    return _assemble(words)


def _joins(words: list[_Word], d: Dictionary) -> list[_Word]:
    out: list[_Word] = []
    i = 0
    while i < len(words):
        w = words[i]
        if i + 1 < len(words) and not w.attach and not words[i + 1].attach:
            found = _join_candidate(w, words[i + 1], d)
            if found is not None:
                nxt = words[i + 1]
                out.append(_Word(found[0], w.start, nxt.end, found[1], f"{w.text} {nxt.text}"))
                i += 2
                continue
        out.append(w)
        i += 1
    return out


def _common_misreading(core: str, d: Dictionary) -> bool:
    """A piece that is itself a misread frequent word ("l~s" for "los") is no half of another word."""
    found = correct_word(core, d)
    return found is not None and d.z(found[0]) >= COMMON_ZIPF


def _distant_joins(words: list[_Word], d: Dictionary) -> list[_Word]:
    """A word's first half ("legis-") whose second half ("lação") was read a few words later, past the
    other column's words: the halves are joined where the word began, when together they make a word."""
    out = list(words)
    i = 0
    while i < len(out):
        w = out[i]
        lead, core, _ = split_core(w.text)
        if not w.rule and not w.attach and len(core) > 2 and core.endswith("-") and not protected(core):
            for j in range(i + 2, min(i + 1 + LOOKAHEAD, len(out))):
                nxt = out[j]
                nlead, ncore, ntrail = split_core(nxt.text)
                if nxt.rule or nlead or not ncore[:1].islower() or protected(ncore) or is_word(ncore, d):
                    continue
                joined = core[:-1] + ncore
                if d.z(joined) >= JOIN_ZIPF:
                    out[i] = _Word(lead + joined + ntrail, w.start, nxt.end, "dehyphenate", f"{w.text} … {nxt.text}")
                    del out[j]
                    break
        i += 1
    return out


def _assemble(words: list[_Word]) -> Reading:
    text, pieces, changes = "", [], []
    kept = [w for w in words if not w.dropped]
    for w in words:
        if w.rule:
            changes.append(Correction(w.raw, "" if w.dropped else w.text, w.rule, w.start, w.end))
    for k, w in enumerate(kept):
        if w.attach and k > 0 and text:
            start = len(text)
            text += w.text
            last = pieces[-1]
            pieces[-1] = Piece(last.clean_start, len(text), last.raw_start, w.end)
            continue
        if k > 0 and text:
            text += " "
        start = len(text)
        text += w.text
        pieces.append(Piece(start, len(text), w.start, w.end))
    return Reading(text, tuple(pieces), tuple(changes))


@lru_cache(maxsize=4096)
def clean_passage(text: str, language: str, other: str | None) -> str:
    """The clean reading of a stand-alone OCR passage (a rule's quote, cited from the raw text): the same
    rules, applied to its words alone."""
    return clean_reading(text, ((0, len(text)),), language, other).text
