"""Step 5: every number in generated text must be grounded; every [n] must point to a passage; an exemption
may be claimed only when a rule result gives one.

Numbers are compared after normalisation ("3.000", "3 000" and "3000" are one number; "12,5" is 12.5), and
numbers written in words are read in pt/es/en when a percent or time unit follows ("meio por cento" is 0.5,
"doce y medio por ciento" 12.5, "twenty-five percent" 25, "dois anos" 2), so the model cannot slip a figure
past the check by reformatting it. The user's question may ground the facts it states (years, days, a
holding of 30%) but never a rate: a percentage in the question used as a rate there, or used as a rate in
the answer, must be grounded by the rules or the passages.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

from assistant.lexicon.quantities import SCALES, word_values, words_value
from assistant.lexicon.text import fold

_CITE = re.compile(r"\[(\d+)\]")
_NUMBER = re.compile(r"(?<![\w.,])(\d{1,3}(?:[. ]\d{3})+|\d+)(?:[.,](\d+))?(?![\w])")

# ---- numbers written in words (the vocabulary and the value: assistant.lexicon.quantities) ----------------
_UNITS = {w: v for w, v in word_values().items() if w not in ("a", "an")}   # English articles: never a count
_SCALES = SCALES
_HALF = r"(?:meio|meia|medio|media|a\s+half|one\s+half)"
_JOIN = r"(?:\s+(?:e|y|and)\s+|\s*-\s*|\s+)"
_WORD = r"(?:" + "|".join(sorted((re.escape(w) for w in [*_UNITS, *_SCALES]), key=len, reverse=True)) + r")\b"
_DIGIT_WORDS = r"(?:" + "|".join(w for w, v in _UNITS.items() if v < 10) + r")"
_PERCENT_UNIT = (r"(?:%|por\s+cento|por\s+ciento|per\s*cent|pct\b|pontos?\s+percentua\w+|puntos?\s+porcentua\w+|"
                 r"percentage\s+points?)")
_TIME_UNIT = r"(?:dias?|días?|days?|meses|m[eê]s|months?|anos?|años?|years?|semanas?|weeks?)\b"
# "um ano", "a year", "dos anos" (pt "of the years"): articles, not counts; they count only before a percent.
_ARTICLES = {"um", "uma", "un", "una", "uno", "one", "dos"}
_WORD_NUMBER = re.compile(
    r"(?<![\w-])(?<!por )(?:(?P<half>half(?:\s+(?:a|of\s+one))?|" + _HALF + r")"
    r"|(?P<words>" + _WORD + r"(?:" + _JOIN + _WORD + r")*)"
    r"(?:(?:\s+(?:e|y|and)\s+)(?P<andhalf>" + _HALF + r")"
    r"|\s+(?:v[ií]rgula|coma|point)\s+(?P<decimals>" + _DIGIT_WORDS + r"(?:\s+" + _DIGIT_WORDS + r")*))?)"
    r"\s+(?:(?P<pct>" + _PERCENT_UNIT + r")|(?P<time>" + _TIME_UNIT + r"))",
    re.IGNORECASE)


@dataclass(frozen=True)
class Mention:
    value: str          # normalised: "3000", "12.5"
    start: int
    end: int
    percent: bool


def _fmt(value: float) -> str:
    return f"{value:g}"


def _normalise(integer: str, fraction: str | None) -> str:
    whole = int(re.sub(r"[. ]", "", integer))
    if fraction and int(fraction) != 0:
        return f"{whole}.{fraction.rstrip('0')}"
    return str(whole)


_PERCENT_AFTER = re.compile(r"\s*" + _PERCENT_UNIT, re.IGNORECASE)


def mentions(text: str) -> list[Mention]:
    """Every number in the text, written in digits or in words, in text order (citation markers excluded)."""
    text = fold(_CITE.sub(lambda m: " " * len(m.group(0)), text))     # same offsets, accents and case folded
    found: list[Mention] = []
    for m in _NUMBER.finditer(text):
        after = _PERCENT_AFTER.match(text, m.end())
        found.append(Mention(_normalise(m.group(1), m.group(2)), m.start(), after.end() if after else m.end(),
                             bool(after)))
    for m in _WORD_NUMBER.finditer(text):
        if m.group("half"):
            value: float | None = 0.5
        else:
            value = words_value(m.group("words"))
            if value is None:
                continue
            if m.group("andhalf"):
                value += 0.5
            if m.group("decimals"):
                value = float(f"{int(value)}." + "".join(str(_UNITS[d])
                                                          for d in m.group("decimals").split()))
        if m.group("time") and m.group("words") and m.group("words") in _ARTICLES:
            continue
        found.append(Mention(_fmt(value), m.start(), m.end(), bool(m.group("pct"))))
    return sorted(found, key=lambda x: x.start)


def numbers_in(text: str) -> list[str]:
    return [m.value for m in mentions(text)]


def percentages_in(text: str) -> list[str]:
    """Numbers used as percentages: a rate must match a percentage, not any number that happens to
    appear (an article number 12 does not ground a 12% rate)."""
    return [m.value for m in mentions(text) if m.percent]


def without_percentages(text: str, values: Iterable[float]) -> str:
    """The text with the given percentages blanked out (rates a user asserted must not ground an answer)."""
    wanted = {_fmt(v) for v in values}
    pieces, last = [], 0
    for m in mentions(text):
        if m.percent and m.value in wanted and m.start >= last:
            pieces.append(text[last:m.start] + " ")
            last = m.end
    return "".join(pieces) + text[last:]


# ---- is a percentage used as a rate? -------------------------------------------------------------------
_RATE_WORDS = re.compile(
    r"\b(?:tax[ao]s?|tasas?|rates?|al[ií]quotas?|reten[çc]\w*|ret[eé]m|ret[eé]n|reter|retener|retiene\w*|"
    r"retid\w*|retenid\w*|withh\w*|limit\w*|l[ií]mite\w*|caps?|capped|impost\w*|impuest\w*|tax(?:es|ed)?|"
    r"tribut\w*|cobra\w*|charged?|levied|m[aá]xim\w*|maximum|at\s+most|isent\w*|exent\w*|exempt\w*)\b",
    re.IGNORECASE)
_CLAUSE_END = re.compile(r"[.;:!?](?:\s|$)|\n")
_AFTER_END = re.compile(r"[,.;:!?\n]")


def _as_rate(text: str, m: Mention, previous_end: int) -> bool:
    """A rate word in the same clause just before the percentage (since the previous one) or right after."""
    start = max(previous_end, m.start - 60)
    before = text[start:m.start]
    cut = [c.end() for c in _CLAUSE_END.finditer(before)]
    before = before[cut[-1]:] if cut else before
    after = " ".join(_AFTER_END.split(text[m.end:m.end + 40], 1)[0].split()[:3])
    return bool(_RATE_WORDS.search(before) or _RATE_WORDS.search(after))


def _percent_uses(text: str) -> list[tuple[Mention, bool]]:
    """(percentage mention, used as a rate) for every percentage in the text."""
    found, previous_end = [], 0
    for m in mentions(text):
        if m.percent:
            found.append((m, _as_rate(text, m, previous_end)))
            previous_end = m.end
    return found


def stated_facts_percentages(question: str) -> set[str]:
    """Percentages the question uses as facts (a holding), not as rates: they may be restated, never as rates."""
    return {m.value for m, as_rate in _percent_uses(question) if not as_rate}


# ---- exemption claims ----------------------------------------------------------------------------------
_EXEMPTION = re.compile(
    r"\b(?:isent\w*|isenç\w*|isenc\w*|exent\w*|exenci\w*|exempt\w*|tax[- ]free|duty[- ]free|"
    r"sem\s+(?:qualquer\s+)?(?:reten[çc][ãa]o|imposto|tributa[çc][ãa]o)|"
    r"sin\s+(?:ninguna\s+)?(?:retenci[óo]n|impuesto|tributaci[óo]n)|"
    r"no\s+(?:withholding|tax\s+is\s+(?:withheld|due|levied|charged))|"
    r"(?:n[ãa]o|no)\s+(?:h[áa]|hay|existe)\s+(?:lugar\s+a\s+)?(?:qualquer\s+|ninguna\s+)?(?:reten[çc][ãa]o|retenci[óo]n|imposto|impuesto)|"
    r"n[ãa]o\s+(?:[ée]|s[ãa]o|est[áa]|est[ãa]o|fica|ficam)\s+sujeit[oa]s?\s+a\s+(?:reten[çc][ãa]o|imposto|tributa[çc][ãa]o)|"
    r"no\s+(?:es|son|est[áa]|est[áa]n|queda|quedan)\s+(?:sujet[oa]s?|gravad[oa]s?)|"
    r"(?:is|are)\s+not\s+(?:subject\s+to\s+(?:withholding|tax)|taxed|taxable)|"
    r"livre\s+de\s+impostos?|libres?\s+de\s+impuestos?|free\s+of\s+(?:tax|withholding))",
    re.IGNORECASE)


def exemption_claims(text: str) -> list[str]:
    return [m.group(0) for m in _EXEMPTION.finditer(text)]



# ---- the check -----------------------------------------------------------------------------------------
def citation_refs(text: str) -> list[int]:
    return [int(n) for n in _CITE.findall(text)]


@dataclass(frozen=True)
class Verdict:
    ok: bool
    numbers: list[str]
    ungrounded: list[str]
    invalid_refs: list[int]
    unsupported_claims: list[str]

    def problems(self) -> str:
        parts = []
        if self.ungrounded:
            parts.append("numbers " + ", ".join(self.ungrounded))
        if self.invalid_refs:
            parts.append("references " + ", ".join(f"[{n}]" for n in self.invalid_refs))
        if self.unsupported_claims:
            parts.append("an exemption the RESULT does not give (" + ", ".join(self.unsupported_claims) + ")")
        return "; ".join(parts)


def verify(generated: str, grounding_texts: list[str], valid_refs: set[int], question: str = "",
           exemption_given: bool = False) -> Verdict:
    """Grounding texts (card, passages, labels) ground any number; the question grounds plain numbers and the
    percentages it states as facts, restated as facts; an exemption claim needs the rules to give one
    (RuleRun.gives_exemption). Who may tax is the claim check's (assistant.claims), sentence by sentence."""
    facts_pct = stated_facts_percentages(question)
    allowed = {m.value for m in mentions(question) if not m.percent} | facts_pct
    allowed_pct: set[str] = set()
    for text in grounding_texts:
        allowed.update(numbers_in(text))
        allowed_pct.update(percentages_in(text))
    found = mentions(generated)
    ungrounded = [m.value for m in found if not m.percent and m.value not in allowed]
    ungrounded += [m.value for m, as_rate in _percent_uses(generated)
                   if m.value not in allowed_pct and (as_rate or m.value not in facts_pct)]
    numbers = [m.value for m in found]
    ungrounded = sorted(set(ungrounded), key=numbers.index)
    invalid = sorted(set(n for n in citation_refs(generated) if n not in valid_refs))
    claims = [] if exemption_given else exemption_claims(generated)
    return Verdict(ok=not ungrounded and not invalid and not claims, numbers=numbers, ungrounded=ungrounded,
                   invalid_refs=invalid, unsupported_claims=claims)
