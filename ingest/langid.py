"""Portuguese vs Spanish, word by word, for OCR text where the two languages interleave.

A line of a two-column bilingual scan mixes both languages, often mid-sentence, so a per-line
guess is useless. Each word gets a log-likelihood ratio (word frequencies from a small lexicon
file, or character trigrams for words the lexicon lacks, e.g. OCR misreadings), then a
two-state Viterbi with a switch penalty gives runs of words one language. Words that carry no
evidence (numbers, "Estado", "de") take the language of the run they continue, except that an
enumerator, a sentence start or a new line goes with the words that follow it.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Sequence

from assistant.lexicon.text import strip_accents

PT, ES = "pt", "es"
LEXICON_PATH = Path(__file__).resolve().parent / "data" / "lexicon_pt_es.tsv"

LN10 = math.log(10)
FLOOR_ZIPF = 1.0          # frequency assumed for a word the lexicon lacks in one language
WORD_CLIP = 7.0           # no single word decides more than this many nats
CHAR_WEIGHT = 0.5         # trigram evidence is weaker than a dictionary hit
CHAR_CLIP = 5.0
SWITCH_PENALTY = 3.0      # nats paid for each change of language
SHARED_ZIPF = 3.5         # a word this frequent in both languages, with a small gap,
SHARED_GAP = 1.6          # is weak evidence
TRIGRAM_MIN_ZIPF = 3.0  # words frequent enough to teach the character model
WEAK = 2.0               # |score| below this: the word is not evidence for either language

_LETTERS = re.compile(r"[^\W\d_]+")
_ENUMERATOR = re.compile(r"^(?:\(?\d{1,2}\s*[.)\-:]?|[a-z]\)|\(?[ivxlIVX]{1,5}\))$")
_SENTENCE_END = re.compile(r"[.:;]['\"”)]*$")


@dataclass(frozen=True)
class Lexicon:
    """Zipf frequencies per word (lower-case), exact and accent-free, plus trigram log-odds."""
    exact: dict[str, tuple[float, float]]
    folded: dict[str, tuple[float, float]]
    trigram_llr: dict[str, float]


def _trigrams(word: str) -> list[str]:
    padded = f"^{word}$"
    return [padded[i:i + 3] for i in range(len(padded) - 2)]


@lru_cache(maxsize=1)
def load_lexicon(path: Path = LEXICON_PATH) -> Lexicon:
    if not path.exists():
        raise FileNotFoundError(f"léxico de identificação de língua em falta: {path}")
    exact: dict[str, tuple[float, float]] = {}
    teach: dict[str, list[str]] = {PT: [], ES: []}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line or line[0] == "#":
            continue
        word, zpt, zes = line.split("\t")
        freqs = (float(zpt), float(zes))
        exact[word] = freqs
        if freqs[0] >= TRIGRAM_MIN_ZIPF:
            teach[PT].append(word)
        if freqs[1] >= TRIGRAM_MIN_ZIPF:
            teach[ES].append(word)
    folded: dict[str, tuple[float, float]] = {}
    for word, freqs in exact.items():
        key = strip_accents(word)
        old = folded.get(key)
        folded[key] = freqs if old is None else (max(old[0], freqs[0]), max(old[1], freqs[1]))
    counts = {}
    for lang, words in teach.items():
        joined = "^" + "$^".join(words) + "$"
        counts[lang] = Counter(joined[i:i + 3] for i in range(len(joined) - 2))
    totals = {lang: sum(c.values()) for lang, c in counts.items()}
    vocab = len(counts[PT].keys() | counts[ES].keys())
    zp, ze = totals[PT] + 0.5 * vocab, totals[ES] + 0.5 * vocab
    llr = {tri: math.log((counts[PT][tri] + 0.5) / zp) - math.log((counts[ES][tri] + 0.5) / ze)
           for tri in counts[PT].keys() | counts[ES].keys()}
    return Lexicon(exact=exact, folded=folded, trigram_llr=llr)


def _lexicon_llr(freqs: tuple[float, float]) -> float:
    zpt, zes = (max(z, FLOOR_ZIPF) for z in freqs)
    llr = LN10 * (zpt - zes)
    if min(zpt, zes) >= SHARED_ZIPF and abs(zpt - zes) < SHARED_GAP:   # "o", "dei": half-trusted
        llr *= 0.5
    return max(-WORD_CLIP, min(WORD_CLIP, llr))


def word_score(token: str, lexicon: Lexicon | None = None) -> float:
    """Log-likelihood ratio Portuguese:Spanish (positive = Portuguese); 0 when no evidence."""
    lex = lexicon or load_lexicon()
    parts = _LETTERS.findall(token.lower())
    if not parts:
        return 0.0
    word = "".join(parts)
    if word in lex.exact:
        return _lexicon_llr(lex.exact[word])
    if len(parts) > 1 and all(p in lex.exact for p in parts):   # "aplicar-se-á", "notificar-se-ão"
        return max(-WORD_CLIP, min(WORD_CLIP, sum(_lexicon_llr(lex.exact[p]) for p in parts)))
    folded = strip_accents(word)
    if folded in lex.folded and len(folded) > 3:
        return _lexicon_llr(lex.folded[folded]) * 0.7
    if len(word) < 4:
        return 0.0
    total = sum(lex.trigram_llr.get(t, 0.0) for t in _trigrams(word))
    return max(-CHAR_CLIP, min(CHAR_CLIP, CHAR_WEIGHT * total))


def _viterbi(scores: Sequence[float], switch_penalty: float) -> list[str]:
    """Most likely pt/es sequence; emission log-odds are split evenly between the two states."""
    if not scores:
        return []
    states = (PT, ES)
    best = [scores[0] / 2, -scores[0] / 2]
    back: list[tuple[int, int]] = []
    for s in scores[1:]:
        emit = (s / 2, -s / 2)
        new, ptr = [], []
        for k in range(2):
            stay, switch = best[k], best[1 - k] - switch_penalty
            if stay >= switch:
                new.append(stay + emit[k])
                ptr.append(k)
            else:
                new.append(switch + emit[k])
                ptr.append(1 - k)
        back.append((ptr[0], ptr[1]))
        best = new
    k = 0 if best[0] >= best[1] else 1
    path = [k]
    for ptr in reversed(back):
        k = ptr[k]
        path.append(k)
    path.reverse()
    return [states[k] for k in path]


def starts_unit(tokens: Sequence[str], i: int, breaks: frozenset[int] = frozenset()) -> bool:
    """An enumerator ("2.", "a)", "(ii)"), a word after a blank line (breaks), or a capitalised
    word right after a sentence end."""
    if i in breaks:
        return True
    tok = tokens[i]
    if _ENUMERATOR.match(tok):
        return True
    prev = tokens[i - 1] if i > 0 else ""
    return bool(_SENTENCE_END.search(prev)) and tok[:1].isupper()


def label_tokens(tokens: Sequence[str], switch_penalty: float = SWITCH_PENALTY,
                 lexicon: Lexicon | None = None, breaks: frozenset[int] = frozenset()) -> list[str]:
    """One language per token ("pt"/"es"), in runs; see the module docstring. breaks: indices
    of tokens that begin a new block of text (e.g. after a blank line)."""
    lex = lexicon or load_lexicon()
    scores = [word_score(t, lex) for t in tokens]
    labels = _viterbi(scores, switch_penalty)
    _place_boundaries(tokens, scores, labels, breaks)
    return labels


def _place_boundaries(tokens: Sequence[str], scores: Sequence[float], labels: list[str],
                      breaks: frozenset[int]) -> None:
    """Move each language switch inside the evidence-free stretch around it to where a unit starts."""
    n = len(tokens)
    i = 1
    while i < n:
        if labels[i] == labels[i - 1]:
            i += 1
            continue
        lo = i
        while lo > 0 and abs(scores[lo - 1]) < WEAK and labels[lo - 1] == labels[i - 1]:
            lo -= 1
        # lo..i-1 are weak tokens of the old language; i.. weak tokens of the new one
        hi = i
        while hi < n and abs(scores[hi]) < WEAK and labels[hi] == labels[i]:
            hi += 1
        if lo == i and hi == i:
            i += 1
            continue
        old, new = labels[i - 1], labels[i]
        cut = next((k for k in range(max(lo, 1), min(hi, n - 1) + 1) if starts_unit(tokens, k, breaks)), None)
        if cut is None:   # after a sentence end the old text is done; else the clause continues
            cut = next((k for k in range(max(lo, 1), min(hi, n - 1) + 1)
                        if _SENTENCE_END.search(tokens[k - 1])), hi if hi < n else i)
        cut = max(cut, lo if lo > 0 else 1)
        for k in range(lo, hi):
            labels[k] = old if k < cut else new
        i = max(hi, i) + 1
