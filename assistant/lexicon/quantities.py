"""Numbers (digits or words), percentages, durations and dates as written in pt, es and en.

Everything works on folded text (see text.fold) and reports character offsets, so the caller can
decide from the surrounding words what a number is about.
"""
from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, timedelta
from functools import lru_cache

from rules.exchange import Money

_UNITS = {
    "pt": {"um": 1, "uma": 1, "dois": 2, "duas": 2, "tres": 3, "quatro": 4, "cinco": 5, "seis": 6,
           "sete": 7, "oito": 8, "nove": 9, "dez": 10, "onze": 11, "doze": 12, "treze": 13, "catorze": 14,
           "quatorze": 14, "quinze": 15, "dezasseis": 16, "dezesseis": 16, "dezassete": 17,
           "dezessete": 17, "dezoito": 18, "dezanove": 19, "dezenove": 19},
    "es": {"un": 1, "uno": 1, "una": 1, "dos": 2, "tres": 3, "cuatro": 4, "cinco": 5, "seis": 6,
           "siete": 7, "ocho": 8, "nueve": 9, "diez": 10, "once": 11, "doce": 12, "trece": 13,
           "catorce": 14, "quince": 15, "dieciseis": 16, "diecisiete": 17, "dieciocho": 18,
           "diecinueve": 19, "veintiun": 21, "veintiuno": 21, "veintidos": 22, "veintitres": 23,
           "veinticuatro": 24, "veinticinco": 25, "veintiseis": 26, "veintisiete": 27,
           "veintiocho": 28, "veintinueve": 29},
    "en": {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
           "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
           "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19},
}
_TENS = {
    "pt": {"vinte": 20, "trinta": 30, "quarenta": 40, "cinquenta": 50, "sessenta": 60, "setenta": 70,
           "oitenta": 80, "noventa": 90, "cem": 100},
    "es": {"veinte": 20, "treinta": 30, "cuarenta": 40, "cincuenta": 50, "sesenta": 60, "setenta": 70,
           "ochenta": 80, "noventa": 90, "cien": 100},
    "en": {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
           "eighty": 80, "ninety": 90, "hundred": 100},
}
_HUNDREDS = {
    "pt": {"cento": 100, "duzentos": 200, "duzentas": 200, "trezentos": 300, "trezentas": 300, "quatrocentos": 400,
           "quinhentos": 500, "seiscentos": 600, "setecentos": 700, "oitocentos": 800, "novecentos": 900,
           "zero": 0},
    "es": {"ciento": 100, "doscientos": 200, "doscientas": 200, "trescientos": 300, "cuatrocientos": 400,
           "quinientos": 500, "seiscientos": 600, "setecientos": 700, "ochocientos": 800, "novecientos": 900,
           "cero": 0, "veintiuna": 21},
    "en": {"zero": 0},
}
SCALES = {"hundred": 100, "mil": 1000, "thousand": 1000}


@lru_cache(maxsize=4)
def word_values(lang: str | None = None) -> dict[str, int]:
    """Number words (folded) and their values in one language, or in all three (text of any language, e.g.
    an explanation the guardrail checks); "hundred", "mil", "thousand" are scales (SCALES), not here."""
    langs = (lang,) if lang else tuple(_UNITS)
    out: dict[str, int] = {}
    for code in langs:
        for table in (_UNITS[code], _TENS[code], _HUNDREDS[code]):
            out.update({w: v for w, v in table.items() if w not in SCALES})
    return out


def words_value(words: str, lang: str | None = None) -> float | None:
    """The value of a number written in (folded) words: "vinte e cinco", "doscientos mil", "two hundred";
    None when a word is not a number word."""
    values = word_values(lang)
    total, current = 0, 0
    for token in re.split(r"\s+(?:e|y|and)\s+|\s*-\s*|\s+", words.strip()):
        if token in SCALES:
            current = (current or 1) * SCALES[token]
            if SCALES[token] >= 1000:
                total, current = total + current, 0
        elif token in values:
            current += values[token]
        else:
            return None
    return float(total + current)


_HALF = r"(?:\s+(?:e|y|and)\s+(?:meio|meia|medio|media|a\s+half))"
_DIGITS = r"\d+(?:[.,]\d+)?"

_MONTHS = {
    "janeiro": 1, "enero": 1, "january": 1, "fevereiro": 2, "febrero": 2, "february": 2,
    "marco": 3, "marzo": 3, "march": 3, "abril": 4, "april": 4, "maio": 5, "mayo": 5, "may": 5,
    "junho": 6, "junio": 6, "june": 6, "julho": 7, "julio": 7, "july": 7, "agosto": 8, "august": 8,
    "setembro": 9, "septiembre": 9, "setiembre": 9, "september": 9, "outubro": 10, "octubre": 10,
    "october": 10, "novembro": 11, "noviembre": 11, "november": 11, "dezembro": 12, "diciembre": 12,
    "december": 12,
}
_MONTH_ABBR = {"jan": 1, "fev": 2, "feb": 2, "mar": 3, "abr": 4, "apr": 4, "mai": 5, "jun": 6, "jul": 7,
               "ago": 8, "aug": 8, "set": 9, "sep": 9, "sept": 9, "out": 10, "oct": 10, "nov": 11,
               "dez": 12, "dic": 12, "dec": 12}
_MONTH_RE = "|".join(sorted(_MONTHS, key=len, reverse=True))
_ANY_MONTH_RE = "|".join(sorted(list(_MONTHS) + list(_MONTH_ABBR), key=len, reverse=True))


def _month(word: str) -> int:
    return _MONTHS.get(word) or _MONTH_ABBR[word.rstrip(".")]


@lru_cache(maxsize=3)
def _number_re(lang: str) -> str:
    units = sorted(_UNITS[lang], key=len, reverse=True)
    tens = sorted(_TENS[lang], key=len, reverse=True)
    tens_re = "|".join(tens)
    units_re = "|".join(u for u in units if _UNITS[lang][u] < 10)
    compound = rf"(?:{tens_re})(?:(?:\s+(?:e|y|and)\s+|\s+|-)(?:{units_re}))?"
    return rf"(?:{_DIGITS}|{compound}|{'|'.join(units)})"


def number_value(words: str, lang: str) -> float | None:
    """Value of a number written as digits or words ("vinte e cinco", "twenty-five", "2,5")."""
    words = words.strip()
    if re.fullmatch(_DIGITS, words):
        return float(words.replace(",", "."))
    return words_value(words, lang)


@dataclass(frozen=True)
class Quantity:
    start: int
    end: int
    value: float
    unit: str          # "pct" | "years" | "months" | "days" | "weeks"
    low: float | None = None    # a range's lower end, `value` its upper ("4 a 8 meses", "3 months or closer to 7")


_UNIT_WORDS = (("years", r"anos?|years?|yrs?"), ("months", r"mes(?:es)?|months?"),
               ("weeks", r"semanas?|weeks?"), ("days", r"dias?|days?"))


@lru_cache(maxsize=3)
def _duration_re(lang: str) -> re.Pattern[str]:
    num = _number_re(lang)
    units = "|".join(f"(?P<{name}>{pattern})" for name, pattern in _UNIT_WORDS)
    return re.compile(
        rf"(?<![\w.,])(?P<num>{num})(?P<half1>\s+(?:and\s+a\s+half|e\s+meio|y\s+medio))?"
        rf"(?:\s*-\s*|\s+)(?:{units})\b(?P<half2>{_HALF})?")


@lru_cache(maxsize=3)
def _pct_re(lang: str) -> re.Pattern[str]:
    num = _number_re(lang)
    return re.compile(rf"(?<![\w.,])(?P<num>{num})\s*(?:%|por\s*cento|por\s*ciento|per\s*cent|percent\b|pct\b)")


_ADDENDS = re.compile(r"(?<![\w.,])(?:\d{1,3}\s*\+\s*)+$")
# Two lengths given as alternatives, in the folded text: "entre 4 e 8 meses", "4-8 months", "3 ou 7 meses" (the
# lower number before the unit) or "quatro meses como pode chegar aos oito", "3 months or closer to 7" (after it).
_OR_BEFORE = r"(?:-|–|a|e|and|y|to|or|ou|o|ate|hasta)"
_OR_AFTER = (r"(?:ou|or|o|a|to|ate|hasta|up to|ou ate|or up to|o hasta|or closer to|or nearer|ou perto de|"
             r"ou mais perto de|o cerca de|como pode chegar (?:a|aos|as)|or maybe|or perhaps|ou talvez|o quizas|"
             r"o tal vez)")


@lru_cache(maxsize=3)
def _range_res(lang: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    num = _number_re(lang)
    units = "|".join(pattern for _, pattern in _UNIT_WORDS)
    return (re.compile(rf"(?<![\w.,])(?:(?:entre|between)\s+)?(?P<low>{num})\s*{_OR_BEFORE}\s*$"),
            re.compile(rf"\s*,?\s*{_OR_AFTER}\s+(?P<high>{num})(?:\s+(?P<unit>{units})\b|(?!\s*(?:%|[.,]\d|\w)))"))


def _unit_of(word: str) -> str:
    return next(name for name, pattern in _UNIT_WORDS if re.fullmatch(pattern, word))


def _range_other(folded: str, m: re.Match[str], value: float, unit: str, lang: str) -> tuple[float | None, int]:
    """The other end of a range the length `m` belongs to, written in increasing order and in the same unit, and
    where the range ends in the text ("500 e 3 meses depois" is no range)."""
    before, after = _range_res(lang)
    low = before.search(folded, max(0, m.start() - 30), m.start())
    if low and not _ADDENDS.search(folded, 0, m.start()):
        other = number_value(low.group("low"), lang)
        if other is not None and other < value:
            return other, m.end()
    high = after.match(folded, m.end())
    if high and (high.group("unit") is None or _unit_of(high.group("unit")) == unit):
        other = number_value(high.group("high"), lang)
        if other is not None and other > value:
            return other, high.end()
    return None, m.end()


# "600 euros a month", "€1,200 a year", "200.000 ienes um mês": an article after a sum of money makes the
# period the sum's, not a stay
_ARTICLES = {"a", "an", "um", "uma", "un", "una"}
# what is counted per period before "a year", "a month" ("twice a year", "two trips a year", "120 days a year")
_COUNT_BEFORE = re.compile(r"\b(?:once|twice|thrice|times|trips|visits|journeys|flights|days|weeks|months)\s+$")
_MONEY_BEFORE = re.compile(r"(?:\d[\d.,]*\s*(?:k|mil|thousand)?\s*(?:euros?|eur|€|reais|reales|real|r\$|us\$|usd|\$"
                           r"|dollars?|dolares|yens?|ienes|¥|libras|pounds?|£)|(?:€|r\$|us\$|usd|eur|\$|¥|£)\s*"
                           r"\d[\d.,]*\s*(?:k|mil|thousand)?)\s*(?:net|gross|brutos?|liquidos?|netos?)?\s*$")


_TERMS = re.compile(r"(?<![\w.,])(?P<num>\d{1,2}|[a-z]+)\s+(?P<term>semestres?|semesters?|trimestres?|trimesters?)\b")


def durations(folded: str, lang: str) -> list[Quantity]:
    found = []
    for m in _duration_re(lang).finditer(folded):
        value = number_value(m.group("num"), lang)
        if value is None:
            continue
        if m.group("num") in _ARTICLES and (_MONEY_BEFORE.search(folded, max(0, m.start() - 40), m.start()) or
                                            _COUNT_BEFORE.search(folded, max(0, m.start() - 40), m.start())):
            continue        # "2.000 euros a month", "a couple of trips a year", "120 days a year": per period
        if m.group("half1") or m.group("half2"):
            value += 0.5
        unit = next(name for name, _ in _UNIT_WORDS if m.group(name))
        start = m.start()
        added = _ADDENDS.search(folded, 0, start)      # "30 + 45 + 40 dias": the stays added up
        if added and not m.group("half1"):
            value += sum(float(n) for n in re.findall(r"\d+", added.group(0)))
            start = added.start()
        if found and found[-1].low is not None and start < found[-1].end:
            continue                                   # "3 meses ou 7 meses": the range's upper end, read with it
        other, end = _range_other(folded, m, value, unit, lang) if not (m.group("half1") or m.group("half2")) \
            else (None, m.end())
        if other is None:
            found.append(Quantity(start, m.end(), value, unit))
        else:
            found.append(Quantity(start, end, max(value, other), unit, low=min(value, other)))
    # "half a year", "meio ano", "medio año"
    for m in re.finditer(r"\b(?:meio|medio|half\s+an?)\s+(ano|year|mes|month)\b", folded):
        unit = "years" if m.group(1) in ("ano", "year") else "months"
        found.append(Quantity(m.start(), m.end(), 0.5, unit))
    # "um semestre", "two semesters", "un trimestre": a counted term of six or three months ("cada trimestre",
    # "no primeiro semestre" count none)
    for m in _TERMS.finditer(folded):
        count = number_value(m.group("num"), lang)
        if count is not None:
            found.append(Quantity(m.start(), m.end(), count * (6 if m.group("term").startswith("sem") else 3),
                                  "months"))
    return sorted(found, key=lambda q: q.start)


def percentages(folded: str, lang: str) -> list[Quantity]:
    found = []
    for m in _pct_re(lang).finditer(folded):
        value = number_value(m.group("num"), lang)
        if value is not None:
            found.append(Quantity(m.start(), m.end(), value, "pct"))
    return found


@dataclass(frozen=True)
class DateMention:
    start: int
    end: int
    year: int | None
    month: int
    day: int | None        # None: the whole month ("março de 2024", or "março" inside a range)

    def first_day(self, year: int) -> date | None:
        return _safe_date(year, self.month, self.day or 1)

    def last_day(self, year: int) -> date | None:
        return _safe_date(year, self.month, self.day or calendar.monthrange(year, self.month)[1])


def in_months(months: float | None, days: float | None) -> float | None:
    """A stay's length in months: as stated in months, else from its days (a year of 365 days is 12 months)."""
    if months is not None:
        return months
    return None if days is None else days * 12 / 365


def _safe_date(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _year(text: str | None) -> int | None:
    if not text:
        return None
    y = int(text)
    return y + 2000 if y < 100 else y


_DAY = r"(?P<day>\d{1,2})(?:o|a|st|nd|rd|th)?"
_DATE_PATTERNS = (
    re.compile(r"\b(?P<year>\d{4})-(?P<month>\d{1,2})-(?P<day>\d{1,2})\b"),
    re.compile(r"\b(?P<day>\d{1,2})[/.-](?P<month>\d{1,2})[/.-](?P<year>\d{4}|\d{2})\b"),
    re.compile(rf"\b{_DAY}\s+(?:de\s+|of\s+)?(?P<mname>{_ANY_MONTH_RE})\.?"
               rf"(?:,?\s+(?:de\s+|del\s+)?(?P<year>\d{{4}}))?\b"),
    re.compile(rf"\b(?P<mname>{_ANY_MONTH_RE})\.?\s+{_DAY}(?:,?\s+(?P<year>\d{{4}}))?\b"),
    re.compile(rf"\b(?P<mname>{_MONTH_RE})\s+(?:de\s+|del\s+|of\s+)?(?P<year>\d{{4}})\b"),
    # "set/2023", "mar-24", "Sep/2023": a month, abbreviated or not, and its year joined by a slash or a dash
    re.compile(rf"\b(?P<mname>{_ANY_MONTH_RE})[/-](?P<year>\d{{4}}|\d{{2}})\b"),
    re.compile(rf"\b(?P<mname>{_MONTH_RE})\b"),
)


# A year said relative to today, right after a date: "1 de setembro deste ano", "31 de marzo del año que viene",
# "March 31 next year" (folded text).
_RELATIVE_YEAR = re.compile(
    r"\s*,?\s*(?:(?P<this>(?:de\s+|of\s+)?(?:d?este|this)\s+ano|(?:de\s+|of\s+)?this\s+year|do\s+ano\s+corrente|"
    r"do\s+corrente\s+ano|del\s+ano\s+en\s+curso)"
    r"|(?P<next>(?:do|del)\s+ano\s+que\s+(?:vem|viene)|(?:do|del)\s+proximo\s+ano|(?:of\s+)?next\s+year)"
    r"|(?P<last>(?:do|del)\s+ano\s+passado|(?:del\s+)?ano\s+pasado|(?:of\s+)?last\s+year))\b")


def _relative(folded: str, end: int, today: date | None) -> tuple[int, int] | None:
    """(year, end of the phrase) of a relative year right after position `end`."""
    m = _RELATIVE_YEAR.match(folded, end) if today is not None else None
    if m is None or today is None:
        return None
    return today.year + (1 if m.group("next") else -1 if m.group("last") else 0), m.end()


# A month said relative to today ("bought 25% of Oi last month", "comprei no mês passado"): last month.
_LAST_MONTH = re.compile(r"\b(?:last month|the previous month|(?:no |o )?mes passado|el mes pasado|"
                         r"el mes anterior|no mes anterior)\b")


def dates(folded: str, today: date | None = None) -> list[DateMention]:
    """Dates and months, non-overlapping, earlier patterns (more precise) winning; with `today`, a year said
    relative to it ("deste ano", "del año que viene", "last year") completes the date, and "last month" is one."""
    taken: list[tuple[int, int]] = []
    found: list[DateMention] = []
    for pattern in _DATE_PATTERNS:
        for m in pattern.finditer(folded):
            if any(m.start() < e and s < m.end() for s, e in taken):
                continue
            groups = m.groupdict()
            month = _month(groups["mname"]) if groups.get("mname") else int(groups["month"])
            day = int(groups["day"]) if groups.get("day") else None
            if day is not None and month > 12 and day <= 12:      # US order 03/15/2022
                month, day = day, month
            year = _year(groups.get("year"))
            if not 1 <= month <= 12 or (day is not None and not 1 <= day <= 31):
                continue
            if groups.get("mname") == "may" and day is None:     # English modal verb
                continue
            end = m.end()
            relative = _relative(folded, end, today) if year is None else None
            if relative is not None:
                year, end = relative
            taken.append((m.start(), end))
            found.append(DateMention(m.start(), end, year, month, day))
    if today is not None:
        last = date(today.year, today.month, 1) - timedelta(days=1)
        found += [DateMention(m.start(), m.end(), last.year, last.month, None) for m in _LAST_MONTH.finditer(folded)
                  if not any(m.start() < e and s < m.end() for s, e in taken)]
    return sorted(found, key=lambda d: d.start)


# the end said as a month's end ("hasta finales de octubre", "ate ao fim de maio", "to the end of June"): the
# range runs to that month's last day
_RANGE_GLUE = re.compile(r"\s*(?:a|ate|to|until|till|hasta|al|-|–|—|e|y|and|through|thru)\s*"
                         r"(?:(?:ao|a|o|el|the)\s+)?(?:(?:finales|final|fins|fim|finais|end|late)\s+(?:de|do|del|of)?\s*)?")


def date_ranges(folded: str, mentions: list[DateMention],
                default_year: int | None = None) -> list[tuple[DateMention, DateMention, date, date]]:
    """Consecutive date pairs joined by "a", "até", "to", "hasta", "-" ..., resolved to dates.

    A start without a year borrows the end's ("de 1 de março a 15 de setembro de 2024"), stepping back
    a year when it would otherwise come after the end.
    """
    ranges = []
    i = 0
    while i + 1 < len(mentions):
        a, b = mentions[i], mentions[i + 1]
        if not _RANGE_GLUE.fullmatch(folded[a.end:b.start]) or (a.day is None and a.year is None
                                                                 and b.day is not None):
            i += 1
            continue
        end_year = b.year or a.year or default_year
        if end_year is None:
            i += 1
            continue
        start_year = a.year or end_year
        start, end = a.first_day(start_year), b.last_day(end_year)
        if start is not None and end is not None and a.year is None and start > end:
            start = a.first_day(start_year - 1)
        if start is not None and end is not None and start <= end:
            ranges.append((a, b, start, end))
            i += 2
        else:
            i += 1
    return ranges


_USD_WORDS = (r"(?:us\s?\$|usd|u\.s\.\s?dollars?|dolares(?:\s+americanos|\s+norte\s?americanos|\s+estadunidenses)?"
              r"|dollars?)")
_AMOUNT = r"(?P<num>\d{1,3}(?:[.,\s]\d{3})+|\d+)(?P<mil>\s*(?:mil|thousand|k)\b)?"     # "14 mil", "14k"
_PER = (r"(?P<per>\s+(?:por|per|a|al|ao|no|each|cada)\s+(?:ano|year|mes|month|ano\s+civil)"
        r"|\s+(?:in|no|en|ao|al)\s+(?:total|todo)"
        r"|\s+(?:during|throughout|durante)\s+(?:the|o|a|el|la|todo|toda)?\s*"
        r"(?:internship|traineeship|stay|estagio|estancia|estadia|practicas|pratica|programa|program)"
        r"|\s+(?:for|por|para)\s+(?:the\s+(?:whole|entire)|todo\s+o|toda\s+a|todo\s+el|toda\s+la)\s+"
        r"(?:internship|traineeship|stay|period|programme|program|estagio|periodo|programa|estancia|estadia|"
        r"practicas))?")
_USD_RE = re.compile(rf"(?:(?:us\s?\$|usd)\s*{_AMOUNT}|"
                     rf"{_AMOUNT.replace('num', 'num2').replace('mil>', 'mil2>')}\s*{_USD_WORDS})" + _PER)
# euros, reais and yen, before or after the number ("800 € por mes", "R$ 1.800 por mes", "9.000 euros al ano")
_CURRENCY_WORDS: dict[str, str] = {"EUR": r"(?:€|eur|euros?)", "BRL": r"(?:r\$|brl|reais|reales)",
                                   "JPY": r"(?:¥|jpy|yen|yenes|ienes|ien|円)"}
_MONEY_RE = {code: re.compile(rf"(?:(?<!\w){symbol}\s*{_AMOUNT}|"
                              rf"{_AMOUNT.replace('num', 'num2').replace('mil>', 'mil2>')}\s*{symbol}(?!\w))" + _PER)
             for code, symbol in _CURRENCY_WORDS.items()}


_TOTAL_BEFORE = 24      # characters before an amount where "no total" / "in total" may stand
_TOTAL_RE = re.compile(r"\b(?:no|in|en|em|al)\s+total\b")
# the dollar figure of an amount just stated in another currency, in brackets ("6.000 € al ano (aprox. 6.500
# dolares)", "EUR 500 a month (about US$ 540)"): the period is the one of that amount
_CONVERTED_RE = re.compile(r"\b(?:por|per|a|al|ao|no|each|cada)\s+(?P<per>ano|year|mes|month)\s*\(\s*"
                           r"(?:aprox\w*\.?|approx\w*\.?|about|around|cerca\s+de|c\.|uns|unos|some|~)?\s*$")


def _stated_amount(m: re.Match[str]) -> float:
    """The number of an _AMOUNT match, before or after its currency ("14.000", "14 mil", "14k")."""
    digits = re.sub(r"[.,\s]", "", m.group("num") or m.group("num2"))
    return float(digits) * (1000 if m.group("mil") or m.group("mil2") else 1)


# "a monthly stipend of about US$ 235": the amount after it is per month
_MONTHLY_REACH = 40     # characters before an amount where "monthly" and the words after it may stand
_MONTHLY_BEFORE = re.compile(r"\b(?:monthly|mensal|mensais|mensual|mensuales)\b\D{0,24}$")


def _monthly_before(folded: str, start: int) -> bool:
    """"monthly" said just before the amount starting at `start` ("uma bolsa mensal de US$ 500")."""
    return bool(_MONTHLY_BEFORE.search(folded[max(0, start - _MONTHLY_REACH):start]))


def usd_per_year(folded: str, within_a_year: bool = False) -> float | None:
    """A yearly amount stated in US dollars ("2.000 dolares al ano", "US$ 250 per month" = 3000), or None when
    none, several, or no period is stated (the treaty limits are per calendar year). A total for the whole
    stay ("US$ 9,000 in total", "no total", "during the internship") bounds every calendar year's part of it, so
    it stands for one, and it wins over the monthly amount it sums ("a monthly stipend of US$ 235, so US$ 1,200
    for the whole internship"); so does an amount with no period when the stay lasts a year or less
    (`within_a_year`: "8 meses … vou ganhar uns 9 mil dólares")."""
    found, totals = set(), set()
    for m in _USD_RE.finditer(folded):
        per = (m.group("per") or "").split()
        before = folded[max(0, m.start() - _TOTAL_BEFORE):m.start()]
        converted = _CONVERTED_RE.search(before)
        if not per and converted:
            per = [converted.group("per")]
        if not per and _monthly_before(folded, m.start()):
            per = ["month"]                  # "a monthly stipend of about US$ 235", "uma bolsa mensal de US$ 500"
        total = bool(per) and per[-1] not in ("ano", "year", "civil", "mes", "month") or _TOTAL_RE.search(before)
        if not per and (within_a_year or total):
            per = ["total"]                  # "no total uns 6.500 dolares", "in total about US$ 9,000"
        if not per:
            continue
        value = _stated_amount(m) * (12 if per[-1] in ("mes", "month") else 1)
        found.add(value)
        if total:
            totals.add(value)
    if len(found) > 1 and len(totals) == 1:
        return totals.pop()
    return found.pop() if len(found) == 1 else None


def amount_per_year(folded: str, months_paid: float | None = None) -> Money | None:
    """A yearly amount stated in euros, reais or yen ("800 € por mes", "9.000 euros al ano", "uma renda mensal de
    500 €"), with its currency code, or None when none, several, or no period is stated. A monthly amount counts
    `months_paid` times in a year (a stay of a year or less is paid for its months only), else 12; a total for
    the stay counts once."""
    found: set[Money] = set()
    for code, pattern in _MONEY_RE.items():
        for m in pattern.finditer(folded):
            per = (m.group("per") or "").split()
            if not per and _monthly_before(folded, m.start()):
                per = ["month"]             # "una renta mensual de unos 500 €", "a monthly pension of EUR 800"
            if not per and months_paid is not None:
                per = ["total"]             # "um estágio de 6 meses … 4.800 euros": the stay's pay
            if not per:
                continue
            value = _stated_amount(m)
            monthly = per[-1] in ("mes", "month")
            found.add(Money(value * (min(months_paid, 12) if months_paid and monthly else 12 if monthly else 1), code))
    return found.pop() if len(found) == 1 else None


# Number words that are also ordinary words ("a", "um", pt "dos" = "of the", en "once"): never read alone.
_AMBIGUOUS_WORDS = {"a", "an", "um", "uma", "un", "una", "uno", "one", "dos", "once"}


def number_words(folded: str) -> set[float]:
    """Values of the numbers a folded text writes as single words ("seis meses", "dois anos", "six months")."""
    words = set(re.findall(r"[a-z]+", folded)) - _AMBIGUOUS_WORDS
    return {float(v) for table in (_UNITS, _TENS) for names in table.values() for name, v in names.items()
            if name in words}
