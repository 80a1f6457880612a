"""Deterministic reading of a taxpayer's question: which treaty, which direction, which topic, which facts.

No model and no network: word lists (assistant/lexicon/*.yaml) and a few grammar rules about the words
around each country, number and date. The treaty list comes from the caller (catalog/rules), so a new
treaty is understood as soon as its countries are in the lexicon. Numbers the user states are kept only
as facts or as claims to check (stated_rates); rates in answers never come from the question.
"""
from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Mapping

from assistant.lexicon import countries, cues, topics
from assistant.lexicon.quantities import date_ranges, dates, durations, percentages
from assistant.lexicon.text import Match, Token, fold, tokenize
from rules.facts import INCOME_TYPES, Facts, TiebreakerFacts

MAX_QUESTION_CHARS = 2000
LANGUAGES = ("pt", "es", "en")


@dataclass(frozen=True)
class Query:
    text: str
    language: str                                  # "pt" | "es" | "en"
    countries: tuple[str, ...] = ()                # ISO codes, in order of first mention
    treaty: str | None = None
    treaty_inferred: bool = False                  # only one party named; the treaty is the only one with it
    pair_not_covered: tuple[str, str] | None = None
    residence_state: str | None = None             # None when unknown or when two are named
    source_state: str | None = None                # for employment: where the work is done
    residence_states: tuple[str, ...] = ()         # every State the person says they are resident of
    work_state: str | None = None
    topic: str | None = None                       # one of rules.facts.TOPICS
    topics: tuple[str, ...] = ()                   # all topics found, most relevant first
    out_of_scope: str | None = None                # "vat" | "inheritance" | "domestic_rate" | ...
    facts: Facts = field(default_factory=Facts)
    stays: tuple[tuple[date, date], ...] = ()
    stay_days: float | None = None
    stay_months: float | None = None
    employer_resident_in_work_state: bool | None = None
    borne_by_pe: bool | None = None
    fiscal_year: int | None = None
    tiebreaker: TiebreakerFacts | None = None
    injection: bool = False
    stated_rates: tuple[float, ...] = ()           # percentages the user asserts as rates
    missing: tuple[str, ...] = ()                  # facts the topic usually needs and the question lacks


# ---------------------------------------------------------------- validation

def validate_question(text: object, max_chars: int = MAX_QUESTION_CHARS) -> str | None:
    """A Portuguese message saying why the question cannot be processed, or None if it can."""
    if not isinstance(text, str):
        return "A pergunta tem de ser texto."
    if not text.strip():
        return "A pergunta está vazia. Escreva a sua questão sobre a convenção."
    if len(text) > max_chars:
        return f"A pergunta é demasiado longa ({len(text)} caracteres; o máximo é {max_chars}). Resuma-a, por favor."
    if any(c == "\ufffd" or (unicodedata.category(c) in ("Cc", "Cs", "Co") and c not in "\n\r\t") for c in text):
        return "A pergunta contém caracteres de controlo ou binários. Escreva-a em texto simples."
    return None


# ---------------------------------------------------------------- language

_LANG_WORDS = {
    "pt": {"nao", "sou", "eu", "tenho", "uma", "um", "em", "no", "na", "nos", "nas", "do", "da", "dos", "das",
           "com", "qual", "quanto", "quanta", "moro", "recebo", "meu", "minha", "voce", "ha", "isso", "pago",
           "sao", "trabalho", "empresa", "taxa", "juros", "ao", "pela", "pelo", "quando", "onde", "também",
           "tambem", "agora", "preciso", "estou", "ter", "durante", "ano", "anos", "mes", "meses", "seu"},
    "es": {"el", "los", "las", "del", "en", "y", "es", "soy", "tengo", "mi", "mis", "cual", "cuanto", "vivo",
           "pero", "hay", "que", "como", "esta", "recibo", "muy", "con", "por", "una", "un", "empresa", "tasa",
           "intereses", "al", "donde", "cuando", "ahora", "estoy", "ano", "anos", "sociedad", "pago", "trabajo"},
    "en": {"the", "i", "is", "am", "are", "my", "of", "and", "in", "what", "how", "do", "does", "to", "from",
           "for", "with", "live", "have", "which", "rate", "tax", "company", "receive", "resident", "pay",
           "paid", "much", "interest", "dividends", "work", "years", "months", "can", "should", "will", "get"},
}

_LANG_OF = {w: tuple(lang for lang in LANGUAGES if w in _LANG_WORDS[lang]) for ws in _LANG_WORDS.values() for w in ws}


def detect_language(text: str, tokens: list[Token] | None = None) -> str:
    """pt, es or en from function words and spelling; Portuguese when unclear."""
    tokens = tokenize(text) if tokens is None else tokens
    score = {lang: 0.0 for lang in LANGUAGES}
    for t in tokens:
        for lang in _LANG_OF.get(t.norm, ()):
            score[lang] += 1
    low = text.lower()
    score["pt"] += 2 * len(re.findall(r"ção|ções|ã|õ|ç|lh|nh|ê", low))
    score["es"] += 2 * len(re.findall(r"ñ|¿|¡|ción|ll|ía\b", low))
    best = max(LANGUAGES, key=lambda lang: (score[lang], lang == "pt"))
    return best if score[best] > score["pt"] else "pt"


# ---------------------------------------------------------------- countries and their roles

@dataclass
class _Mention:
    start: int           # token span
    end: int
    code: str
    role: str | None = None
    company: bool = False


_LANGUAGE_ADJ = {"portugues", "ingles", "espanhol", "espanol", "castelhano", "castellano", "frances", "alemao",
                 "aleman", "italiano", "japones", "chines", "chino", "english", "spanish", "portuguese", "french",
                 "german", "japanese", "chinese", "italian"}
_INHERITED_ROLES = {"residence", "home", "nationality", "abode", "work", "source", "pe"}
_RIGHT_FILLERS = {"que", "me", "lhe", "nos", "le", "les", "a", "o", "um", "uma", "the", "which", "that", "who",
                  "also", "tambem", "ja", "entao"}


def _find_mentions(text: str, tokens: list[Token]) -> list[_Mention]:
    lex = countries()
    skip: set[int] = set()
    for m in lex.excluded.find(tokens):
        skip.update(range(m.start, m.end))
    found = [_Mention(m.start, m.end, m.value) for m in lex.index.find(tokens, skip)]
    taken = {i for m in found for i in range(m.start, m.end)}
    for pattern, code in lex.exact_case:
        for rm in pattern.finditer(text):
            idx = [i for i, t in enumerate(tokens) if rm.start() <= t.start < rm.end()]
            if idx and not taken.intersection(idx):
                found.append(_Mention(idx[0], idx[-1] + 1, code))
                taken.update(idx)
    kept = []
    for m in sorted(found, key=lambda m: m.start):
        word = tokens[m.start].norm
        prev = tokens[m.start - 1].norm if m.start else ""
        if m.end - m.start == 1 and word in _LANGUAGE_ADJ and prev in ("em", "en", "in"):
            continue                                   # "responda em inglês": a language, not a country
        kept.append(m)
    return kept


class _Grammar:
    """Cue categories by token position, read right to left from a country mention."""

    def __init__(self, tokens: list[Token]):
        self.tokens = tokens
        self.by_end: dict[int, tuple[int, str]] = {}
        self.by_start: dict[int, tuple[int, str]] = {}
        for m in cues().grammar.find(tokens):
            self.by_end[m.end - 1] = (m.start, m.value)
            self.by_start[m.start] = (m.end, m.value)

    def left(self, j: int) -> tuple[int, str | None]:
        return self.by_end.get(j, (j, None))

    def right(self, j: int) -> tuple[int, str | None]:
        return self.by_start.get(j, (j + 1, None))

    def categories_before(self, j: int, units: int) -> list[str]:
        found = []
        while j >= 0 and units > 0 and self.tokens[j].is_word:
            s, cat = self.left(j)
            if cat:
                found.append(cat)
            j, units = s - 1, units - 1
        return found


def _is_to_prep(tokens: list[Token], j: int, cat: str | None) -> bool:
    if cat == "to_preps":
        return True
    orig = tokens[j].orig.lower()
    if orig in ("à", "às"):
        return True
    nxt = tokens[j + 1].norm if j + 1 < len(tokens) else ""
    return tokens[j].norm == "a" and nxt in ("um", "uma", "un", "una")


def _left_role(k: int, mentions: list[_Mention], g: _Grammar,
               by_end: dict[int, int]) -> tuple[str | None, str | None, bool, bool]:
    """(role, preposition, company, possessive) from the words before mention k."""
    tokens = g.tokens
    j = mentions[k].start - 1
    prep: str | None = None
    company = possessive = after_conj = skipped = False
    steps = 0
    while j >= 0 and steps < 8:
        tok = tokens[j]
        if not tok.is_word:
            break
        if j in by_end:
            prev = mentions[by_end[j]]
            if after_conj and prev.role in _INHERITED_ROLES:
                return prev.role, None, prev.company, False
            if prep != "to" or after_conj:
                break
            j, steps, skipped = prev.start - 1, steps + 1, True     # "destacado de Portugal para o Japão"
            continue
        if after_conj and tok.norm not in ("no", "na", "nos", "nas", "em", "en", "in", "el", "la", "the", "o", "a"):
            break
        s, cat = g.left(j)
        if cat == "conjunctions" and tok.orig.lower() != "é":
            after_conj = True
        elif cat and cat.startswith("role:"):
            role = cat[5:]
            if skipped and role == "source" and prep == "to":   # "pagos por X a um banco português"
                return "residence", prep, company, possessive
            if skipped and role not in ("work", "move", "residence"):
                break
            before = g.categories_before(s - 1, 3)
            if role == "residence" and "family" in before:
                role = "vital"
            elif role == "residence" and "role:employer" in before:
                role = "employer"
            elif role == "nationality" and company:
                role = "residence"
            elif role == "work" and company:
                role = "employer"
            elif role == "move":
                role = "former_residence" if prep == "from" else "residence"
            return role, prep, company, possessive
        elif cat == "from_preps":
            ls, lcat = g.left(s - 1) if s > 0 else (s, None)
            if prep is None and not company and lcat == "company":       # "empresa de Espanha"
                company = True
                j, steps = ls - 1, steps + 2
                continue
            prep = prep or "from"
        elif _is_to_prep(tokens, j, cat):
            prep = prep or "to"
        elif cat == "company" and not skipped:
            company = True
        elif cat == "possessive" and not skipped:
            possessive = True
        elif cat == "income":
            if prep == "from" or steps == 0:
                return "source", prep, company, possessive
        elif cat in ("pay_verbs", "receive_verbs") and prep is not None:
            return ("source" if prep == "from" else "residence"), prep, company, possessive
        elif cat == "supply_verbs" and prep == "to":       # "presta serviços a um cliente brasileiro"
            return "source", prep, company, possessive
        j, steps = s - 1, steps + 1
    return None, prep, company, possessive


def _right_role(k: int, mentions: list[_Mention], g: _Grammar, starts: set[int]) -> tuple[str | None, bool]:
    tokens = g.tokens
    j = mentions[k].end
    company = False
    steps = 0
    while j < len(tokens) and steps < 5 and tokens[j].is_word and j not in starts:
        e, cat = g.right(j)
        if cat == "company":
            company = True
        elif cat in ("pay_verbs", "role:source") or (cat == "income" and steps == 0):
            return "source", company
        elif cat == "receive_verbs" or (cat == "role:residence" and steps == 0):
            return "residence", company
        elif cat is not None or tokens[j].norm not in _RIGHT_FILLERS:
            if cat not in ("possessive",):
                break
        j, steps = e, steps + 1
    return None, company


def _assign_roles(mentions: list[_Mention], g: _Grammar, employment: bool) -> None:
    by_end = {m.end - 1: i for i, m in enumerate(mentions)}
    starts = {m.start for m in mentions}
    for k, m in enumerate(mentions):
        role, prep, company, possessive = _left_role(k, mentions, g, by_end)
        right, right_company = _right_role(k, mentions, g, starts) if role is None else (None, False)
        company = company or right_company
        if role is None and employment and company:
            role = "employer"
        if role is None and prep is not None:
            role = "source" if prep == "from" else "residence"
        if role is None:
            role = right
        if role is None and possessive and company:
            role = "residence"
        m.role, m.company = role, company


# ---------------------------------------------------------------- topics

def _topics(tokens: list[Token]) -> tuple[tuple[str, ...], str | None]:
    lex = topics()
    matches = lex.index.find(tokens)
    found: list[str] = []
    for m in matches:
        if m.value not in found:
            found.append(m.value)
    ordered: list[str] = []
    for slot in lex.priority:
        if slot == "INCOME":
            ordered += [t for t in found if t in ("dividends", "interest", "royalties") and t not in ordered]
        elif slot in found and slot not in ordered:
            ordered.append(slot)
    oos = [m.value for m in lex.out_of_scope.find(tokens)]
    return tuple(ordered), (oos[0] if oos else None)


# ---------------------------------------------------------------- facts

class _Hits:
    """Every fact cue in the question, found in one pass, by list name."""

    def __init__(self, tokens: list[Token]):
        self._by_name: dict[str, list[Match[frozenset[str]]]] = {}
        self.all = cues().facts.find(tokens)
        for m in self.all:
            for name in m.value:
                self._by_name.setdefault(name, []).append(m)

    def __call__(self, name: str) -> list[Match[frozenset[str]]]:
        return self._by_name.get(name, [])


def _sentence_bounds(tokens: list[Token], i: int) -> tuple[int, int]:
    s = i
    while s > 0 and tokens[s - 1].norm not in ".;?!":
        s -= 1
    e = i
    while e < len(tokens) and tokens[e].norm not in ".;?!":
        e += 1
    return s, e


def _negated(tokens: list[Token], start: int, lang: str, window: int = 3) -> bool:
    words = {t.norm for t in tokens[max(0, start - window):start]} & cues().negation
    return bool(words - ({"no"} if lang == "pt" else set()))


def _token_at(tokens: list[Token], char: int) -> int:
    ends = [t.end for t in tokens]
    return min(bisect_right(ends, char), len(tokens) - 1)


def _nearest(spans: list[Match[bool]], i: int, bounds: tuple[int, int], window: int) -> int | None:
    """Distance in tokens from position i to the nearest span inside the sentence, or None."""
    best = None
    for m in spans:
        if m.start < bounds[0] or m.end > bounds[1]:
            continue
        d = m.start - i if m.start > i else max(0, i - (m.end - 1))
        if d <= window and (best is None or d < best):
            best = d
    return best


def _flag(hits: _Hits, tokens: list[Token], lang: str, true_list: str, false_list: str | None = None) -> bool | None:
    if false_list and hits(false_list):
        return False
    found = hits(true_list)
    if not found:
        return None
    return not _negated(tokens, found[0].start, lang)


def _royalty_kind(hits: _Hits) -> str | None:
    for m in hits.all:
        kinds = sorted(name[5:] for name in m.value if name.startswith("kind:"))
        if kinds:
            return kinds[0]
    return None


def _beneficiary_kind(hits: _Hits, g: _Grammar, mentions: list[_Mention], employment: bool) -> str | None:
    if hits("individual"):
        return "individual"
    if hits("government"):
        return "government"
    not_bank = {i for m in hits("not_beneficiary_bank") for i in range(m.start, m.end)}
    for m in hits("financial_institution"):
        if m.start in not_bank or "from_preps" in g.categories_before(m.start - 1, 2):
            continue                                   # a bank account, or interest "from a bank": the payer
        return "financial_institution"
    if employment:
        return None                                    # "a minha empresa destacou-me": the employer, not a beneficiary
    if hits("company") or any(m.company and m.role == "residence" for m in mentions):
        return "company"
    return None


@dataclass(frozen=True)
class _Amounts:
    holding_pct: float | None
    stated_rates: tuple[float, ...]
    holding_months: float | None
    loan_term_years: float | None
    stay_days: float | None
    stay_months: float | None


_IN_MONTHS = {"years": 12.0, "months": 1.0, "weeks": 12 / 52, "days": 12 / 365}
_RULE_WORDS = {"dos", "the", "los", "de", "os", "regra", "rule", "regla", "limite", "limit", "mais", "more", "than"}


def _amounts(hits: _Hits, folded: str, tokens: list[Token], lang: str, topic_list: tuple[str, ...]) -> _Amounts:
    holding = hits("holding")
    rate = hits("rate")
    not_loan = {i for m in hits("not_loan") for i in range(m.start, m.end)}
    loan = [m for m in hits("loan") if m.start not in not_loan]
    stay = hits("stay")

    holding_pct = None
    rates: list[float] = []
    for q in percentages(folded, lang):
        i = _token_at(tokens, q.start)
        bounds = _sentence_bounds(tokens, i)
        dh, dr = _nearest(holding, i, bounds, 6), _nearest(rate, i, bounds, 8)
        # a bare percentage in a dividend question is the holding, but a 0% holding means nothing:
        # "…é 0%" is an asserted rate
        unclaimed = dh is None and dr is None and "dividends" in topic_list and q.value > 0
        if (unclaimed and holding_pct is None) or (dh is not None and (dr is None or dh <= dr)):
            holding_pct = q.value if holding_pct is None else holding_pct
        else:
            rates.append(q.value)

    held = loan_term = days = months = None
    for q in durations(folded, lang):
        i = _token_at(tokens, q.start)
        if q.value == 183 and q.unit == "days" and i > 0 and tokens[i - 1].norm in _RULE_WORDS:
            continue                                   # "a regra dos 183 dias": the rule, not a fact
        bounds = _sentence_bounds(tokens, i)
        dist = {"loan": _nearest(loan, i, bounds, 8), "holding": _nearest(holding, i, bounds, 10),
                "stay": _nearest(stay, i, bounds, 10)}
        known = {k: d for k, d in dist.items() if d is not None}
        if known:
            kind = min(known, key=lambda k: (known[k], k != "holding"))
        elif set(topic_list) & {"dividends", "capital_gains"}:
            kind = "holding"
        elif "interest" in topic_list:
            kind = "loan"
        elif set(topic_list) & {"employment", "students", "professors"}:
            kind = "stay"
        else:
            continue
        in_months = q.value * _IN_MONTHS[q.unit]
        if kind == "holding" and held is None:
            held = round(in_months, 2)
        elif kind == "loan" and loan_term is None:
            loan_term = round(in_months / 12, 2)
        elif kind == "stay" and q.unit == "days" and days is None:
            days = q.value
        elif kind == "stay" and q.unit != "days" and months is None:
            months = round(in_months, 2)
    return _Amounts(holding_pct, tuple(rates), held, loan_term, days, months)


def _direct(stated: bool | None, holding_pct: float | None) -> bool | None:
    """"detenho 30%" states a holding of one's own: people say so when it is held through another
    company, and that cue (direct_false) wins. The card shows the reading, so the agent can correct it."""
    if stated is None and holding_pct is not None:
        return True
    return stated


def _dates(hits: _Hits, folded: str, tokens: list[Token], fiscal_year: int | None):
    mentions = dates(folded)
    ranges = date_ranges(folded, mentions, fiscal_year)
    in_range = {id(a) for a, _, _, _ in ranges} | {id(b) for _, b, _, _ in ranges}
    since_cues, pay_cues = hits("holding_since"), hits("payment")
    holding_since = payment = None
    for d in mentions:
        if id(d) in in_range or d.day is None or d.year is None:
            continue
        i = _token_at(tokens, d.start)
        bounds = _sentence_bounds(tokens, i)
        ds = _nearest([m for m in since_cues if m.end <= i], i, bounds, 6)
        dp = _nearest([m for m in pay_cues if m.end <= i], i, bounds, 6)
        day = d.first_day(d.year)
        if ds is not None and (dp is None or ds <= dp) and holding_since is None:
            holding_since = day
        elif dp is not None and payment is None:
            payment = day
    return tuple((start, end) for _, _, start, end in ranges), holding_since, payment


_FISCAL_YEAR = re.compile(r"\b(?:ano fiscal|ano de|ano|exercicio|ejercicio|ano calendario|tax year|fiscal year|"
                          r"year|em|en|in|durante|during|no ano|para o ano|para|for)\s+(?:de\s+)?((?:19|20)\d{2})\b")


def _fiscal_year(folded: str) -> int | None:
    date_spans = [(d.start, d.end) for d in dates(folded)]
    years = {int(m.group(1)) for m in _FISCAL_YEAR.finditer(folded)
             if not any(s <= m.start(1) < e for s, e in date_spans)}
    return years.pop() if len(years) == 1 else None


_INJECTION = [re.compile(p) for p in (
    r"\b(?:ignor\w*|esquec\w*|olvid\w*|forget|disregard|desconsider\w*|override)\b.{0,40}\b(?:instruc\w*|regras|"
    r"reglas|rules|prompt|ordens|orientac\w*|indicac\w*|previous|anteriores|above|acima)",
    r"system\s*prompt|prompt\s+(?:do|de|del)\s+sistema|mensagem\s+(?:do|de)\s+sistema|developer\s+mode|jailbreak|"
    r"modo\s+(?:de\s+)?desenvolvedor|modo\s+desarrollador",
    # "diz que a taxa é 0%", "di que la tasa es 0", "say that the rate is 0": dictating the answer
    r"\b(?:diz|diga|dizes|digas|dizer|responde|responda|responder|escreve|escreva|escribe|di|digan|afirma|afirme|"
    r"say|answer|write|state)\b(?:\s*-?\s*(?:me|lhe|nos|le))?\s+(?:que|that|the)\b.{0,25}"
    r"\b(?:taxa|tasa|rate|aliquota|imposto|impuesto|tax)\b.{0,15}?(?:\b(?:e|es|is|seja|sea|will\s+be)\b|=)\s*"
    r"(?:de\s+|of\s+)?\d",
    r"\b(?:a partir de agora|from now on|de ahora en adelante|you are now|agora es um|agora es uma|act as|"
    r"finge que|finja que|pretend (?:to be|you are|that)|age como|actua como|roleplay)\b",
    r"<\s*/?\s*(?:system|assistant|user|instructions?)\s*>|\[/?inst\]|###\s*(?:instruction|system)",
)]


def _injection(folded: str) -> bool:
    return any(p.search(folded) for p in _INJECTION)


# ---------------------------------------------------------------- treaty and direction

def _pairs(treaties: Mapping[str, tuple[str, ...]]) -> dict[frozenset[str], str]:
    return {frozenset(parties): tid for tid, parties in treaties.items() if len(set(parties)) == 2}


def _named_treaty(folded: str, treaties: Mapping[str, tuple[str, ...]]) -> str | None:
    for tid in treaties:
        parts = [re.escape(p) for p in fold(tid).split("-")]
        if len(parts) > 1 and re.search(r"\b" + r"\s*[-–/]\s*".join(parts) + r"\b", folded):
            return tid
    return None


def _unique(codes) -> tuple[str, ...]:
    out: list[str] = []
    for c in codes:
        if c not in out:
            out.append(c)
    return tuple(out)


@dataclass(frozen=True)
class _Direction:
    treaty: str | None
    inferred: bool
    not_covered: tuple[str, str] | None
    residence: str | None
    source: str | None


def _direction(folded: str, mentions: list[_Mention], treaties: Mapping[str, tuple[str, ...]],
               residence_states: tuple[str, ...], source_states: tuple[str, ...]) -> _Direction:
    pairs = _pairs(treaties)
    named = _named_treaty(folded, treaties)
    codes = _unique(m.code for m in mentions)
    residence = residence_states[0] if len(residence_states) == 1 else None
    source = next((s for s in source_states if s != residence), None)
    treaty = inferred = None
    not_covered = None
    if named:
        treaty, inferred = named, False
    elif len(residence_states) == 2:
        treaty = pairs.get(frozenset(residence_states))
        not_covered = None if treaty else (residence_states[0], residence_states[1])
    elif residence and source:
        treaty = pairs.get(frozenset((residence, source)))
        not_covered = None if treaty else (residence, source)
    else:
        candidates = [(max(codes.index(c) for c in pair), tid) for pair, tid in pairs.items() if pair <= set(codes)]
        if candidates:
            treaty = min(candidates)[1]
        elif len(codes) >= 2:
            not_covered = (codes[0], codes[1])
        elif len(codes) == 1:
            only = [tid for pair, tid in pairs.items() if codes[0] in pair]
            if len(only) == 1:
                treaty, inferred = only[0], True
    if treaty is not None and treaty in treaties:
        parties = tuple(dict.fromkeys(treaties[treaty]))
        if len(parties) == 2:
            roles = {m.code: m.role for m in mentions}
            if residence in parties and source is None:
                other = parties[1 - parties.index(residence)]
                if roles.get(other) in (None, "source", "work", "property", "pe", "employer"):
                    source = other
            elif source in parties and residence is None and len(residence_states) < 2:
                other = parties[1 - parties.index(source)]
                if roles.get(other) in (None, "residence"):
                    residence = other
    return _Direction(treaty, bool(inferred), not_covered, residence, source)


# ---------------------------------------------------------------- missing facts

def _missing(q: Query) -> tuple[str, ...]:
    need: list[str] = []
    if q.treaty is None and q.pair_not_covered is None:
        need.append("treaty")
    if q.topic in INCOME_TYPES or q.topic in ("employment", "pensions", "capital_gains", "immovable_property",
                                             "business_profits", "other_income", "students", "professors"):
        if q.residence_state is None:
            need.append("residence_state")
        if q.source_state is None:
            need.append("source_state")
    f = q.facts
    if q.topic == "dividends":
        if f.beneficiary_kind is None:
            need.append("beneficiary_kind")
        if f.beneficiary_kind in (None, "company") and f.holding_pct is None:
            need.append("holding_pct")
        if f.beneficiary_kind in (None, "company") and f.holding_months is None and f.holding_since is None:
            need.append("holding_months")
    elif q.topic == "interest" and f.beneficiary_kind is None:
        need.append("beneficiary_kind")
    elif q.topic == "royalties" and f.royalty_kind is None:
        need.append("royalty_kind")
    elif q.topic == "employment":
        if not q.stays and q.stay_days is None and q.stay_months is None:
            need.append("stays")
        if q.employer_resident_in_work_state is None:
            need.append("employer_resident_in_work_state")
        if q.borne_by_pe is None:
            need.append("borne_by_pe")
    elif q.topic == "residence" and q.tiebreaker is None:
        need.append("tiebreaker")
    return tuple(need)


# ---------------------------------------------------------------- entry point

def understand(text: str, treaties: Mapping[str, tuple[str, ...]]) -> Query:
    """Read a question. Never raises on text input; validate_question() first to reject bad input."""
    text = text if isinstance(text, str) else ""
    tokens = tokenize(text)
    folded = fold(text)
    lang = detect_language(text, tokens)
    topic_list, out_of_scope = _topics(tokens)
    if out_of_scope == "domestic_rate" and topic_list:
        out_of_scope = None                            # a treaty question that also mentions domestic tax
    employment = bool(set(topic_list) & {"employment"}) and not set(topic_list) & set(INCOME_TYPES)

    hits, grammar = _Hits(tokens), _Grammar(tokens)
    mentions = _find_mentions(text, tokens)
    _assign_roles(mentions, grammar, employment)
    by_role: dict[str, list[str]] = {}
    for m in mentions:
        by_role.setdefault(m.role or "", []).append(m.code)

    def role(*names: str) -> tuple[str, ...]:
        return _unique(c for n in names for c in by_role.get(n, []))

    residence_states = role("residence")
    immovable = "immovable_property" in topic_list
    source_states = role("source", "work", "property", *(("home",) if immovable else ()), "pe")
    direction = _direction(folded, mentions, treaties, residence_states, source_states)
    parties = set(treaties.get(direction.treaty, ())) if direction.treaty else set()
    work_state = (role("work") or (None,))[0]
    if work_state is None and employment:
        work_state = direction.source

    fiscal_year = _fiscal_year(folded)
    stays, holding_since, payment = _dates(hits, folded, tokens, fiscal_year)
    amounts = _amounts(hits, folded, tokens, lang, topic_list)

    pe_words = [(start, end) for start, (end, cat) in grammar.by_start.items() if cat == "role:pe"]
    pe_present = bool(pe_words) or bool(hits("attributable_pe"))
    third = None
    if by_role.get("pe") or hits("third_state"):
        third_named = bool(hits("third_state")) and pe_present
        pe_outside = bool(parties) and any(c not in parties for c in by_role.get("pe", []))
        third = True if (third_named or pe_outside) else None
    attributable = _flag(hits, tokens, lang, "attributable_pe", "attributable_pe_false")
    if third and attributable:
        attributable = None
    topic = topic_list[0] if topic_list else None
    equipment = bool(hits("equipment"))
    loan_context = bool(hits("loan")) or topic == "interest"
    kinds = set(topic_list) & {"royalties", "technical_services"}

    facts = Facts(
        beneficiary_kind=_beneficiary_kind(hits, grammar, mentions, employment),
        holding_pct=amounts.holding_pct,
        voting_capital=_flag(hits, tokens, lang, "voting", "voting_false"),
        holding_months=amounts.holding_months,
        holding_since=holding_since,
        payment_date=payment,
        loan_term_years=amounts.loan_term_years,
        loan_purpose="equipment" if equipment and loan_context and not kinds else None,
        interest_on_equity=True if hits("interest_on_equity") else None,
        royalty_kind=_royalty_kind(hits) if kinds else None,
        attributable_to_pe=attributable,
        paid_to_pe_third_state=third,
        free_zone_regime=_flag(hits, tokens, lang, "free_zone"),
        registered_central_bank=_flag(hits, tokens, lang, "central_bank"),
        direct_holding=_direct(_flag(hits, tokens, lang, "direct", "direct_false"), amounts.holding_pct),
    )

    employer_states = role("employer")
    employer_in_work: bool | None = None
    if hits("employer_local"):
        employer_in_work = True
    elif employer_states and work_state:
        employer_in_work = employer_states[0] == work_state
    borne = None
    if "employment" in topic_list:
        for b in hits("borne"):
            if any(0 <= start - b.end <= 6 for start, _ in pe_words):
                borne = not _negated(tokens, b.start, lang)
                break
        if borne is None and attributable is False:
            borne = False

    tiebreaker = None
    homes, abodes, nations = role("home"), role("abode"), role("nationality")
    vital, management = role("vital"), role("management")
    if homes or abodes or nations or vital or management:
        tiebreaker = TiebreakerFacts(
            person="company" if (facts.beneficiary_kind == "company" or management) else "individual",
            permanent_home_in=homes or None,
            vital_interests_in=vital[0] if vital else None,
            habitual_abode_in=abodes or None,
            nationality=nations or None,
            effective_management_in=management[0] if management else None,
        )
    if len(residence_states) == 2 and "residence" not in topic_list:
        topic_list = topic_list + ("residence",)
        topic = topic or "residence"

    query = Query(
        text=text, language=lang, countries=_unique(m.code for m in mentions),
        treaty=direction.treaty, treaty_inferred=direction.inferred, pair_not_covered=direction.not_covered,
        residence_state=direction.residence, source_state=direction.source, residence_states=residence_states,
        work_state=work_state, topic=topic, topics=topic_list, out_of_scope=out_of_scope, facts=facts,
        stays=stays, stay_days=amounts.stay_days, stay_months=amounts.stay_months,
        employer_resident_in_work_state=employer_in_work, borne_by_pe=borne, fiscal_year=fiscal_year,
        tiebreaker=tiebreaker, injection=_injection(folded), stated_rates=amounts.stated_rates,
    )
    return replace(query, missing=_missing(query))
