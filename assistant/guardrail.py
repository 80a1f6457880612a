"""Step 5: every number in generated text must be grounded; every [n] must point to a passage.

Numbers are compared after normalisation ("3.000", "3 000" and "3000" are one number; "12,5" is
12.5), so the model cannot slip a figure past the check by reformatting it; percentages written
in words ("zero por cento", "ten percent") are caught too.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

_CITE = re.compile(r"\[(\d+)\]")
_NUMBER = re.compile(r"(?<![\w.,])(\d{1,3}(?:[. ]\d{3})+|\d+)(?:[.,](\d+))?(?![\w])")
_WORDS = {
    "zero": 0, "cero": 0, "um": 1, "uma": 1, "uno": 1, "una": 1, "one": 1, "dois": 2, "duas": 2, "dos": 2,
    "two": 2, "tres": 3, "três": 3, "three": 3, "quatro": 4, "cuatro": 4, "four": 4, "cinco": 5, "five": 5,
    "seis": 6, "six": 6, "sete": 7, "siete": 7, "seven": 7, "oito": 8, "ocho": 8, "eight": 8, "nove": 9,
    "nueve": 9, "nine": 9, "dez": 10, "diez": 10, "ten": 10, "doze": 12, "doce": 12, "twelve": 12,
    "quinze": 15, "quince": 15, "fifteen": 15, "vinte": 20, "veinte": 20, "twenty": 20, "vinte e cinco": 25,
    "veinticinco": 25, "twenty-five": 25, "twenty five": 25, "trinta": 30, "treinta": 30, "thirty": 30,
    "cinquenta": 50, "cincuenta": 50, "fifty": 50, "cem": 100, "cien": 100, "hundred": 100,
}
_WORD_PERCENT = re.compile(
    r"\b(" + "|".join(sorted((re.escape(w) for w in _WORDS), key=len, reverse=True)) +
    r")\s+(?:por\s+cento|por\s+ciento|percent|per\s+cent)\b", re.IGNORECASE)


def _normalise(integer: str, fraction: str | None) -> str:
    whole = int(re.sub(r"[. ]", "", integer))
    if fraction and int(fraction) != 0:
        return f"{whole}.{fraction.rstrip('0')}"
    return str(whole)


def numbers_in(text: str) -> list[str]:
    text = _CITE.sub(" ", text)
    found = [_normalise(m.group(1), m.group(2)) for m in _NUMBER.finditer(text)]
    found += [str(_WORDS[m.group(1).lower()]) for m in _WORD_PERCENT.finditer(text)]
    return found


_PERCENT_AFTER = re.compile(r"\s*(?:%|por\s+cento|por\s+ciento|percent|per\s+cent)", re.IGNORECASE)


def percentages_in(text: str) -> list[str]:
    """Numbers used as percentages: a rate must match a percentage, not any number that happens to
    appear (an article number 12 does not ground a 12% rate)."""
    text = _CITE.sub(" ", text)
    found = [_normalise(m.group(1), m.group(2)) for m in _NUMBER.finditer(text)
             if _PERCENT_AFTER.match(text, m.end())]
    found += [str(_WORDS[m.group(1).lower()]) for m in _WORD_PERCENT.finditer(text)]
    return found


def without_percentages(text: str, values: tuple[float, ...]) -> str:
    """The text with the given percentages blanked out (rates a user asserted must not ground an answer)."""
    wanted = {f"{v:g}" for v in values}  # the same spelling _normalise gives: "10", "12.5"
    pieces, last = [], 0
    for m in _NUMBER.finditer(text):
        after = _PERCENT_AFTER.match(text, m.end())
        if after and _normalise(m.group(1), m.group(2)) in wanted:
            pieces.append(text[last:m.start()] + " ")
            last = after.end()
    return "".join(pieces) + text[last:]


def citation_refs(text: str) -> list[int]:
    return [int(n) for n in _CITE.findall(text)]


@dataclass(frozen=True)
class Verdict:
    ok: bool
    numbers: list[str]
    ungrounded: list[str]
    invalid_refs: list[int]

    def problems(self) -> str:
        parts = []
        if self.ungrounded:
            parts.append("numbers " + ", ".join(self.ungrounded))
        if self.invalid_refs:
            parts.append("references " + ", ".join(f"[{n}]" for n in self.invalid_refs))
        return "; ".join(parts)


def verify(generated: str, grounding_texts: list[str], valid_refs: set[int]) -> Verdict:
    allowed: set[str] = set()
    allowed_pct: set[str] = set()
    for text in grounding_texts:
        allowed.update(numbers_in(text))
        allowed_pct.update(percentages_in(text))
    numbers = numbers_in(generated)
    percents = set(percentages_in(generated))
    ungrounded = sorted(set(n for n in numbers if n not in allowed or (n in percents and n not in allowed_pct)),
                        key=numbers.index)
    invalid = sorted(set(n for n in citation_refs(generated) if n not in valid_refs))
    return Verdict(ok=not ungrounded and not invalid, numbers=numbers, ungrounded=ungrounded, invalid_refs=invalid)
