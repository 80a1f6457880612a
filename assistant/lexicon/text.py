"""The one text module: accent folding, tokens, and phrase lookup that tolerates one typo in long words.

fold() lower-cases and strips accents keeping one character per input character, so offsets in the folded
text are offsets in the original: callers can look back at the original spelling (capitals, "à") when it
matters; "1º" folds to "1o". strip_accents() keeps case and every other character, for dictionary words
(language identification and the OCR reading key words by it; a compatibility form like "ª" stays).
"""
from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache
from typing import Generic, Iterable, NamedTuple, TypeVar

V = TypeVar("V")

_TOKEN = re.compile(r"[a-z0-9]+|[.;:!?,()\[\]\"]")
FUZZY_MIN_LEN = 7     # shorter words must match exactly: too many near neighbours otherwise …
SWAP_MIN_LEN = 5      # … but for two neighbouring letters swapped in a word of five or six ("Brsail")
MULTI_FIRST_MIN_LEN = 3   # a phrase with a typo in a later word is looked for after a first word this long


@lru_cache(maxsize=4096)
def _fold_char(c: str) -> str:
    base = "".join(ch for ch in unicodedata.normalize("NFKD", c.lower()) if not unicodedata.combining(ch))
    return base[0] if base else " "


def fold(text: str) -> str:
    """Lower-case, strip accents; same length as the input."""
    return "".join(_fold_char(c) for c in text)


_STRIPPED: dict[int, str] = {}


def strip_accents(text: str) -> str:
    """Accents (combining marks) removed, case and everything else kept; not length-preserving."""
    if text.isascii():
        return text
    for c in text:
        if ord(c) not in _STRIPPED:
            _STRIPPED[ord(c)] = "".join(d for d in unicodedata.normalize("NFD", c) if unicodedata.category(d) != "Mn")
    return text.translate(_STRIPPED)


class Token(NamedTuple):
    norm: str        # folded text
    orig: str        # as typed
    start: int       # offset in the text (same in folded and original)
    end: int

    @property
    def is_word(self) -> bool:
        return self.norm[0].isalnum()


# The shorthand of a message typed on a phone, read as the word it stands for ("tenho q pagar", "qto retém", "e vc
# tbm"): pt-BR and Spanish chat; nothing that is also a word or an abbreviation in a tax text.
_SHORTHAND = {"q": "que", "qto": "quanto", "qnto": "quanto", "qdo": "quando", "qnd": "quando", "pq": "porque",
              "xq": "porque", "vc": "voce", "vcs": "voces", "tbm": "tambem", "tb": "tambem", "tmb": "tambien",
              "hj": "hoje", "msm": "mesmo", "pra": "para", "td": "tudo"}


# "ir" typed in lower case before where one goes or what one goes to do is the verb ("para ir trabalhar", "ir
# morar no Porto", "voy a ir a Brasil"), not the Brazilian income tax ("pagar ir em cima", "IR retido")
_GOING = {"a", "ao", "aos", "as", "al", "para", "pra", "pro", "pras", "pros", "embora", "morar", "viver", "vivir",
          "trabalhar", "trabajar", "estudar", "estudiar", "parar", "buscar", "ver", "visitar", "passar", "ficar"}
_VERB_IR = "ir_"        # never a lexicon phrase's word


def tokenize(text: str) -> list[Token]:
    """The words and marks of a text, folded (a phone's shorthand as its word); offsets as typed."""
    folded = fold(text)
    found = list(_TOKEN.finditer(folded))
    out = []
    for k, m in enumerate(found):
        word, typed = _SHORTHAND.get(m.group(), m.group()), text[m.start():m.end()]
        if word == "ir" and typed != "IR" and k + 1 < len(found) and found[k + 1].group() in _GOING:
            word = _VERB_IR
        out.append(Token(word, typed, m.start(), m.end()))
    return out


def token_at(tokens: list[Token], char: int) -> int:
    """The position of the token that holds (or first follows) a character offset; the last token past the end."""
    ends = [t.end for t in tokens]
    return min(bisect_right(ends, char), len(tokens) - 1)


def phrase_key(phrase: str) -> tuple[str, ...]:
    """The token sequence a lexicon phrase matches ("Grã-Bretanha" -> ("gra", "bretanha"))."""
    return tuple(t.norm for t in tokenize(phrase) if t.is_word)


def _deletes(word: str) -> set[str]:
    return {word[:i] + word[i + 1:] for i in range(len(word))}


def _swapped(word: str) -> set[str]:
    """The word with two neighbouring letters swapped, each way it can be."""
    return {word[:i] + word[i + 1] + word[i] + word[i + 2:] for i in range(len(word) - 1)} - {word}


def _near_word(typed: str, word: str) -> bool:
    """A typo of a lexicon word: one edit from a long word, or two neighbouring letters swapped in a shorter one."""
    if len(word) >= FUZZY_MIN_LEN:
        return typed.isalpha() and within_one_edit(typed, word)
    return len(word) >= SWAP_MIN_LEN and typed in _swapped(word)


def within_one_edit(a: str, b: str) -> bool:
    """Optimal-string-alignment distance <= 1 (one insertion, deletion, substitution or swap)."""
    if a == b:
        return True
    la, lb = len(a), len(b)
    if abs(la - lb) > 1:
        return False
    i = 0
    while i < min(la, lb) and a[i] == b[i]:
        i += 1
    if la == lb:
        if a[i + 1:] == b[i + 1:]:
            return True
        return i + 1 < la and a[i] == b[i + 1] and a[i + 1] == b[i] and a[i + 2:] == b[i + 2:]
    return a[i + 1:] == b[i:] if la > lb else a[i:] == b[i + 1:]


@dataclass(frozen=True)
class Match(Generic[V]):
    start: int        # first token index
    end: int          # one past the last token index
    value: V
    exact: bool


class PhraseIndex(Generic[V]):
    """Longest-match lookup of multi-word phrases over a token list."""

    def __init__(self, entries: Iterable[tuple[str, V]], fuzzy: bool = True) -> None:
        """`fuzzy`: a typo matches (one edit in a long word, two letters swapped in a shorter one); False: only what
        is written (the fact cues, where a word two letters off is often another word: "carne" and "crane")."""
        self._phrases: dict[tuple[str, ...], V] = {}
        for phrase, value in entries:
            key = phrase_key(phrase)
            if key:
                self._phrases.setdefault(key, value)
        self._lengths: dict[str, tuple[int, ...]] = {}
        for key in self._phrases:
            self._lengths[key[0]] = tuple(sorted(set(self._lengths.get(key[0], ())) | {len(key)}, reverse=True))
        self._fuzzy_cache: dict[str, str | None] = {}
        self._near: dict[str, set[str]] = {}
        self._swaps: dict[str, set[str]] = {}
        self._multi: dict[str, list[tuple[str, ...]]] = {}
        if fuzzy:
            for key in self._phrases:
                word = key[0]
                if len(key) > 1 and len(word) >= MULTI_FIRST_MIN_LEN:
                    self._multi.setdefault(word, []).append(key)
                if not word.isalpha():
                    continue
                if len(word) >= FUZZY_MIN_LEN:
                    for variant in _deletes(word) | {word}:
                        self._near.setdefault(variant, set()).add(word)
                elif len(word) >= SWAP_MIN_LEN:
                    for variant in _swapped(word):
                        self._swaps.setdefault(variant, set()).add(word)
            for keys in self._multi.values():
                keys.sort(key=len, reverse=True)

    def nearest(self, word: str) -> str | None:
        """The one-word phrase one edit from `word` that a fuzzy match takes (None if none, or several)."""
        return self._fuzzy(word)

    def _fuzzy(self, word: str) -> str | None:
        if len(word) < FUZZY_MIN_LEN:
            swapped = self._swaps.get(word, set()) if word.isalpha() else set()
            return next(iter(swapped)) if len(swapped) == 1 else None
        if not self._near or not word.isalpha():
            return None
        if word not in self._fuzzy_cache:
            candidates: set[str] = set()
            for variant in _deletes(word) | {word}:
                candidates |= self._near.get(variant, set())
            hits = {c for c in candidates if within_one_edit(word, c)}
            if len(self._fuzzy_cache) > 20000:
                self._fuzzy_cache.clear()
            self._fuzzy_cache[word] = hits.pop() if len(hits) == 1 else None
        return self._fuzzy_cache[word]

    def find(self, tokens: list[Token], skip: set[int] | frozenset[int] = frozenset()) -> list[Match[V]]:
        """Non-overlapping matches, left to right, preferring the longest; tokens in skip never match."""
        words = [t.norm for t in tokens]
        found: list[Match[V]] = []
        i = 0
        while i < len(words):
            hit: Match[V] | None = None
            for n in self._lengths.get(words[i], ()):
                if i + n > len(words) or (skip and any(j in skip for j in range(i, i + n))):
                    continue
                key = tuple(words[i:i + n])
                if key in self._phrases:
                    hit = Match(i, i + n, self._phrases[key], True)
                    break
            if hit is None and i not in skip:
                hit = self._fuzzy_match(words, i, skip)
            if hit is not None:
                found.append(hit)
                i = hit.end
            else:
                i += 1
        return found

    def _fuzzy_match(self, words: list[str], i: int, skip: set[int] | frozenset[int]) -> Match[V] | None:
        """A phrase with a typo: one word one edit from a long one ("Seguraçna Social", "apratamento"), or two
        letters swapped in a word of five or six ("Brsail"); the phrase's other words as written."""
        first = words[i] if words[i] in self._lengths else self._fuzzy(words[i])
        if first is None:
            return None
        for key in self._multi.get(first, ()):
            n = len(key)
            if i + n > len(words) or (skip and any(j in skip for j in range(i, i + n))):
                continue
            typed = words[i:i + n]
            if all(w == k or _near_word(w, k) for w, k in zip(typed, key)) and tuple(typed) != key:
                return Match(i, i + n, self._phrases[key], False)
        if first != words[i] and (first,) in self._phrases:
            return Match(i, i + 1, self._phrases[(first,)], False)
        return None

    def contains(self, tokens: list[Token]) -> bool:
        return bool(self.find(tokens))
