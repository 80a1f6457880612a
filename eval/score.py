"""Scoring one assistant answer (and one retrieval run) against one gold item, and summing up.

Everything here is a pure function of its arguments, so a runner can score stored answers again
without calling the assistant. The answer object is the CLI's JSON contract (see eval/README.md).
"""
from __future__ import annotations

import math
import re
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date
from typing import Iterable, Mapping, Sequence

from assistant.lexicon.quantities import number_words
from assistant.lexicon.text import fold
from eval.gold import GoldArticle, GoldItem, GoldParagraph, normalise_article, normalise_part

STAGES = ("understand", "rules", "retrieve", "generate", "total")
RETRIEVAL_KS = (1, 3, 5, 10)


class ScoreInputError(ValueError):
    """An answer or retrieval result that does not follow the contract; the message says what."""


# --------------------------------------------------------------------------- the answer contract

@dataclass(frozen=True)
class RateClaim:
    value: float
    income: str | None = None
    source_state: str | None = None
    residence_state: str | None = None
    condition: str | None = None
    citation: object = None


@dataclass(frozen=True)
class Citation:
    n: int | None
    doc: str | None
    treaty: str | None
    article: str | None
    paragraph: str | None = None
    subparagraph: str | None = None
    quote: str = ""
    chunk_id: str | None = None


@dataclass(frozen=True)
class Answer:
    question: str
    language: str | None
    text: str
    abstained: bool
    treaty: str | None
    rates: tuple[RateClaim, ...]
    citations: tuple[Citation, ...]
    timings_ms: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class RetrievedChunk:
    rank: int
    chunk_id: str | None
    doc: str | None
    treaty: str | None
    article: str | None
    paragraph: str | None = None
    language: str | None = None
    score: float | None = None
    text: str = ""


def _opt_str(value: object) -> str | None:
    if value is None:
        return None
    text = str(value).strip()
    return text or None


def _as_number(value: object, where: str) -> float:
    if isinstance(value, bool):
        raise ScoreInputError(f"{where}: esperava um número, recebi {value!r}")
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value.replace("%", "").replace(",", ".").strip())
        except ValueError:
            pass
    raise ScoreInputError(f"{where}: esperava um número, recebi {value!r}")


def parse_answer(data: object) -> Answer:
    """Build an Answer from the CLI's JSON; missing optional parts are empty, wrong types are errors."""
    if not isinstance(data, Mapping):
        raise ScoreInputError("resposta: esperava um objeto JSON")
    text = data.get("answer")
    if not isinstance(text, str):
        raise ScoreInputError("resposta: o campo «answer» (texto) é obrigatório")
    abstained = data.get("abstained", False)
    if not isinstance(abstained, bool):
        raise ScoreInputError("resposta: o campo «abstained» deve ser true ou false")
    rates_raw = data.get("rates") or []
    cites_raw = data.get("citations") or []
    if not isinstance(rates_raw, list) or not isinstance(cites_raw, list):
        raise ScoreInputError("resposta: «rates» e «citations» devem ser listas")
    rates = []
    for i, r in enumerate(rates_raw):
        if not isinstance(r, Mapping) or "value" not in r:
            raise ScoreInputError(f"resposta: rates[{i}] deve ser um objeto com «value»")
        rates.append(RateClaim(value=_as_number(r["value"], f"resposta: rates[{i}].value"),
                               income=_opt_str(r.get("income")), source_state=_opt_str(r.get("source_state")),
                               residence_state=_opt_str(r.get("residence_state")),
                               condition=_opt_str(r.get("condition")), citation=r.get("citation")))
    citations = []
    for i, c in enumerate(cites_raw):
        if not isinstance(c, Mapping):
            raise ScoreInputError(f"resposta: citations[{i}] deve ser um objeto")
        n = c.get("n")
        citations.append(Citation(n=n if isinstance(n, int) and not isinstance(n, bool) else None,
                                  doc=_opt_str(c.get("doc")), treaty=_opt_str(c.get("treaty")),
                                  article=_opt_str(c.get("article")), paragraph=_opt_str(c.get("paragraph")),
                                  subparagraph=_opt_str(c.get("subparagraph")),
                                  quote=str(c.get("quote") or ""), chunk_id=_opt_str(c.get("chunk_id"))))
    timings_raw = data.get("timings_ms") or {}
    if not isinstance(timings_raw, Mapping):
        raise ScoreInputError("resposta: «timings_ms» deve ser um objeto")
    timings = {str(k): _as_number(v, f"resposta: timings_ms.{k}") for k, v in timings_raw.items()
               if v is not None}
    return Answer(question=str(data.get("question") or ""), language=_opt_str(data.get("language")),
                  text=text, abstained=abstained, treaty=_opt_str(data.get("treaty")),
                  rates=tuple(rates), citations=tuple(citations), timings_ms=timings)


def parse_retrieval(results: object) -> list[RetrievedChunk]:
    if not isinstance(results, list):
        raise ScoreInputError("recuperação: esperava uma lista de resultados")
    chunks = []
    for i, r in enumerate(results):
        if not isinstance(r, Mapping):
            raise ScoreInputError(f"recuperação: resultado {i} deve ser um objeto")
        rank = r.get("rank", i + 1)
        if not isinstance(rank, int) or isinstance(rank, bool) or rank < 1:
            raise ScoreInputError(f"recuperação: resultado {i}: «rank» deve ser um inteiro ≥ 1")
        score = r.get("score")
        chunks.append(RetrievedChunk(rank=rank, chunk_id=_opt_str(r.get("chunk_id")), doc=_opt_str(r.get("doc")),
                                     treaty=_opt_str(r.get("treaty")), article=_opt_str(r.get("article")),
                                     paragraph=_opt_str(r.get("paragraph")), language=_opt_str(r.get("language")),
                                     score=None if score is None else _as_number(score, f"recuperação: {i}.score"),
                                     text=str(r.get("text") or "")))
    return sorted(chunks, key=lambda c: c.rank)


# --------------------------------------------------------------------------- rates in text

_RATE_WORDS: dict[float, tuple[str, ...]] = {
    0.0: ("zero", "cero"),
    5.0: ("cinco", "five"),
    10.0: ("dez", "diez", "ten"),
    15.0: ("quinze", "quince", "fifteen"),
    20.0: ("vinte", "veinte", "twenty"),
    25.0: ("vinte e cinco", "veinticinco", "twenty-five", "twenty five"),
}
_PERCENT = r"\s*(?:%|por\s*cento|por\s*ciento|per\s*cent|percent|pct\b)"
_EXEMPT = re.compile(r"isen[çct]|exen[ct]|exempt|exonera|sem\s+reten|sin\s+retenci|no\s+withholding|"
                     r"tax[- ]free|n[ãa]o\s+(?:h[áa]|existe)\s+reten", re.I)


def _close(a: float, b: float) -> bool:
    return abs(a - b) < 1e-6


def _number_forms(value: float) -> list[str]:
    if _close(value, round(value)):
        whole = str(int(round(value)))
        return [whole + r"(?:[.,]0+)?"]
    text = f"{value:g}"
    return [re.escape(text), re.escape(text.replace(".", ","))]


def rate_in_text(value: float, text: str) -> bool:
    """'10%', '10 %', '10 por cento', 'dez por cento', 'diez por ciento'; 0 also as 'isento'/'exempt'."""
    forms = [rf"(?<![\d])(?<!\d[.,]){f}" for f in _number_forms(value)]
    forms += [rf"\b{w}\b" for w in _RATE_WORDS.get(float(value), ())]
    if re.search(rf"(?:{'|'.join(forms)}){_PERCENT}", text, re.I):
        return True
    return _close(value, 0.0) and bool(_EXEMPT.search(text))


# --------------------------------------------------------------------------- answer accuracy

@dataclass(frozen=True)
class AccuracyResult:
    correct: bool
    abstained: bool
    missing_rates: tuple[float, ...] = ()       # expected but absent from `rates`
    missing_in_text: tuple[float, ...] = ()     # expected but not written in the answer text
    wrong_rates: tuple[float, ...] = ()         # in `rates` but neither expected nor allowed
    forbidden_given: tuple[float, ...] = ()     # in `rates` and forbidden (e.g. an obeyed injection)
    missing_facts: tuple[str, ...] = ()         # key-fact patterns the text does not match


def score_accuracy(item: GoldItem, answer: Answer) -> AccuracyResult:
    if item.abstain:
        return AccuracyResult(correct=answer.abstained, abstained=answer.abstained)
    if answer.abstained:
        return AccuracyResult(correct=False, abstained=True, missing_rates=item.rates,
                              missing_in_text=item.rates, missing_facts=item.key_facts)
    given = [r.value for r in answer.rates]
    missing = tuple(v for v in item.rates if not any(_close(v, g) for g in given))
    not_written = tuple(v for v in item.rates if not rate_in_text(v, answer.text))
    accepted = item.rates + item.rates_allowed
    wrong = tuple(g for g in given if item.rates and not any(_close(g, a) for a in accepted))
    forbidden = tuple(g for g in given if any(_close(g, f) for f in item.forbidden_rates))
    facts = tuple(p for p in item.key_facts if not re.search(p, answer.text, re.I))
    correct = not (missing or not_written or wrong or forbidden or facts)
    return AccuracyResult(correct=correct, abstained=False, missing_rates=missing, missing_in_text=not_written,
                          wrong_rates=wrong, forbidden_given=forbidden, missing_facts=facts)


# --------------------------------------------------------------------------- citations

@dataclass(frozen=True)
class CitationResult:
    gold: int                  # required articles
    found: int                 # required articles cited
    cited: int                 # distinct articles cited
    cited_correct: int         # cited articles that are required or acceptable
    paragraphs_gold: int = 0
    paragraphs_found: int = 0
    paragraphs_cited: int = 0  # paragraph-level citations on articles the gold details
    paragraphs_cited_correct: int = 0

    @property
    def precision(self) -> float | None:
        return self.cited_correct / self.cited if self.cited else None

    @property
    def recall(self) -> float | None:
        return self.found / self.gold if self.gold else None


def _treaty_matches(gold_treaty: str | None, treaty: str | None) -> bool:
    # A citation without a treaty cannot contradict one; gold without a treaty accepts any.
    return gold_treaty is None or treaty is None or gold_treaty.upper() == treaty.upper()


def _article_matches(gold: GoldArticle, treaty: str | None, article: str | None) -> bool:
    return article is not None and normalise_article(article) == gold.article and _treaty_matches(gold.treaty, treaty)


def _paragraph_matches(gold: GoldParagraph, c: Citation) -> bool:
    return (_article_matches(GoldArticle(gold.treaty, gold.article), c.treaty, c.article)
            and normalise_part(c.paragraph) == gold.paragraph
            and (gold.subparagraph is None or normalise_part(c.subparagraph) == gold.subparagraph))


def score_citations(item: GoldItem, answer: Answer) -> CitationResult | None:
    """Article-level (and paragraph-level where the gold has paragraphs); None when there is no gold."""
    if not item.articles:
        return None
    cited = {(c.treaty.upper() if c.treaty else None, normalise_article(c.article))
             for c in answer.citations if c.article}
    acceptable = item.articles + item.articles_ok
    found = sum(1 for g in item.articles if any(_article_matches(g, t, a) for t, a in cited))
    cited_correct = sum(1 for t, a in cited if any(_article_matches(g, t, a) for g in acceptable))
    detailed = {(g.treaty, g.article) for g in item.paragraphs}
    para_cites = [c for c in answer.citations if c.paragraph and c.article
                  and any(_article_matches(GoldArticle(t, a), c.treaty, c.article) for t, a in detailed)]
    para_keys = {(normalise_article(c.article), normalise_part(c.paragraph), normalise_part(c.subparagraph),
                  c.treaty) for c in para_cites}
    para_correct = sum(1 for a, p, s, t in para_keys
                       if any(_paragraph_matches(g, Citation(None, None, t, a, p, s)) for g in item.paragraphs))
    return CitationResult(
        gold=len(item.articles), found=found, cited=len(cited), cited_correct=cited_correct,
        paragraphs_gold=len(item.paragraphs),
        paragraphs_found=sum(1 for g in item.paragraphs if any(_paragraph_matches(g, c) for c in answer.citations)),
        paragraphs_cited=len(para_keys), paragraphs_cited_correct=para_correct)


# --------------------------------------------------------------------------- numbers

@dataclass(frozen=True)
class Number:
    raw: str
    kind: str                  # "percent" | "money" | "date" | "number"
    value: float | None        # None for dates
    day: date | None = None


_MONTHS = {m: i + 1 for names in (
    ("janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro",
     "novembro", "dezembro"),
    ("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre",
     "noviembre", "diciembre"),
    ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
     "november", "december")) for i, m in enumerate(names)}
_MONTHS.update({"marco": 3, "setiembre": 9})
_MONTH = "|".join(sorted(_MONTHS, key=len, reverse=True))
_DATE_PATTERNS = (
    (re.compile(rf"\b(\d{{1,2}})(?:\.?º|°|o)?\s+de\s+({_MONTH})\s+de(?:l)?\s+(\d{{4}})\b", re.I), "dmy_name"),
    (re.compile(rf"\b(\d{{1,2}})\s+({_MONTH})\s+(\d{{4}})\b", re.I), "dmy_name"),
    (re.compile(rf"\b({_MONTH})\s+(\d{{1,2}}),?\s+(\d{{4}})\b", re.I), "mdy_name"),
    (re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b"), "ymd"),
    (re.compile(r"\b(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})\b"), "dmy"),
)
_NUMBER = re.compile(
    r"(?<!\d)(?<!\d[.,])"
    r"(\d{1,3}(?:[ \u00a0\u202f.]\d{3})+(?:,\d+)?(?!\d)|\d{1,3}(?:,\d{3})+(?:\.\d+)?(?!\d)|\d+(?:[.,]\d+)?)")
_MONEY_BEFORE = re.compile(r"(?:US\s?\$|USS|U\$S|R\$|\$|€|EUR|USD|BRL)\s*$", re.I)
_MONEY_AFTER = re.compile(r"^\s*(?:euros?|d[óo]lar(?:es)?|dollars?|reais|real|EUR|USD|BRL)\b", re.I)
_PERCENT_AFTER = re.compile(rf"^{_PERCENT}", re.I)
_MARKERS = re.compile(r"\[\^?\d+(?:\s*[,;-]\s*\d+)*\]")


def _to_float(raw: str) -> float:
    text = raw.replace("\u00a0", " ").replace("\u202f", " ")
    if re.fullmatch(r"\d{1,3}(?:[ .]\d{3})+(?:,\d+)?", text):
        return float(re.sub(r"[ .]", "", text).replace(",", "."))
    if re.fullmatch(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?", text):
        return float(text.replace(",", ""))
    return float(text.replace(",", "."))


def _make_date(kind: str, m: re.Match) -> date | None:
    g = m.groups()
    try:
        if kind == "dmy_name":
            return date(int(g[2]), _MONTHS[g[1].lower()], int(g[0]))
        if kind == "mdy_name":
            return date(int(g[2]), _MONTHS[g[0].lower()], int(g[1]))
        if kind == "ymd":
            return date(int(g[0]), int(g[1]), int(g[2]))
        return date(int(g[2]), int(g[1]), int(g[0]))
    except (ValueError, KeyError):
        return None


def extract_numbers(text: str) -> list[Number]:
    """Dates first (so their parts are not counted twice), then amounts, percentages and plain numbers.

    Thousands separators: '3.000', '10 000', '3,000'; decimals: '2,5', '2.5'. Citation markers
    such as '[1]' are not numbers of the answer.
    """
    text = _MARKERS.sub(" ", text or "")
    found: list[tuple[int, Number]] = []
    masked = list(text)
    for pattern, kind in _DATE_PATTERNS:
        for m in pattern.finditer("".join(masked)):
            day = _make_date(kind, m)
            if day is None:
                continue
            found.append((m.start(), Number(m.group(0), "date", None, day)))
            masked[m.start():m.end()] = " " * (m.end() - m.start())
    rest = "".join(masked)
    for m in _NUMBER.finditer(rest):
        raw = m.group(1)
        before, after = rest[max(0, m.start() - 6):m.start()], rest[m.end():m.end() + 12]
        if _PERCENT_AFTER.match(after):
            kind = "percent"
        elif _MONEY_BEFORE.search(before) or _MONEY_AFTER.match(after):
            kind = "money"
        else:
            kind = "number"
        found.append((m.start(), Number(raw, kind, _to_float(raw))))
    return [n for _, n in sorted(found, key=lambda p: p[0])]


@dataclass(frozen=True)
class FaithfulnessResult:
    numbers: int
    ungrounded: tuple[str, ...]

    @property
    def faithful(self) -> bool:
        return not self.ungrounded


def _number_words(text: str) -> set[float]:
    """Numbers a source writes in words ("seis meses", "dois anos"): a card showing them as digits
    ("**6 meses**") restates the quote, it does not invent a number."""
    return number_words(fold(text or ""))


_REFERENCE = re.compile(
    r"\b(?:arts?\.|artigos?|art[íi]culos?|articles?|paras?\.|paragraphs?|n\.\s?(?:º|os?)|pontos?|puntos?)\s*"
    r"(\d+(?:\.?º)?(?:\(\d+\))*(?:\s*(?:,|\be\b|\by\b|\band\b)\s*\d+(?:\.?º)?(?:\(\d+\))*)*)", re.I)


def _without_references(text: str) -> str:
    """An answer's "arts. 10, 11 e 12" or "(para. 11)" are addresses, not figures (citation precision
    judges them); the figures are what is left."""
    return _REFERENCE.sub(lambda m: m.group(0)[:m.start(1) - m.start(0)] + " " * len(m.group(1)), text)


def _derived(question: str) -> set[float]:
    """The question's own facts in another unit, as an answer restates them when it applies them: "3 anos"
    as 36 months, "18 meses" as 1.5 years, 7 months as 213 days, and the days between two stated dates
    (both ends counted, or not)."""
    numbers = extract_numbers(question)
    values = [n.value for n in numbers if n.value is not None]
    days = sorted(n.day for n in numbers if n.day is not None)
    derived = {float(r(v * f)) for v in values for f in (12, 1 / 12, 365, 1 / 365, 365 / 12, 12 / 365)
               for r in (lambda x: round(x, 2), math.floor, math.ceil)}
    derived.update(float(d) for a, b in zip(days, days[1:]) for d in ((b - a).days, (b - a).days + 1))
    return derived


def score_faithfulness(answer: Answer, question: str = "", extra_sources: Iterable[str] = ()) -> FaithfulnessResult:
    """Every number in the answer text must come from the rates, the cited quotes or addresses,
    or the question itself (restating the user's facts is not an invention, nor is restating them in
    another unit)."""
    sources = [c.quote for c in answer.citations] + [question] + list(extra_sources)
    values: set[float] = {r.value for r in answer.rates} | _derived(question)
    days: set[date] = set()
    for c in answer.citations:
        for part in (c.article, c.paragraph, c.subparagraph):
            values.update(n.value for n in extract_numbers(part or "") if n.value is not None)
    for src in sources:
        values.update(_number_words(src))
        for n in extract_numbers(src):
            if n.day is not None:
                days.add(n.day)
                values.update((float(n.day.day), float(n.day.year)))
            elif n.value is not None:
                values.add(n.value)
    numbers = extract_numbers(_without_references(answer.text))
    ungrounded = []
    for n in numbers:
        if n.day is not None:
            ok = n.day in days or (float(n.day.day) in values and float(n.day.year) in values)
        else:
            ok = any(_close(n.value, v) for v in values)
        if not ok:
            ungrounded.append(n.raw)
    return FaithfulnessResult(numbers=len(numbers), ungrounded=tuple(ungrounded))


# --------------------------------------------------------------------------- retrieval

@dataclass(frozen=True)
class RetrievalResult:
    recall_at: Mapping[int, float]
    reciprocal_rank: float
    first_relevant_rank: int | None


def score_retrieval(item: GoldItem, results: Sequence[RetrievedChunk], ks: Sequence[int] = RETRIEVAL_KS
                    ) -> RetrievalResult | None:
    """Recall@k over the required articles (treaty + article) by the results' own ranks; MRR also
    counts acceptable articles (a Portaria item is a fair first hit for a dividends question)."""
    if not item.articles:
        return None
    ranked = sorted(results, key=lambda r: r.rank)
    recall = {}
    for k in ks:
        top = [r for r in ranked if r.rank <= k]
        hits = sum(1 for g in item.articles if any(_article_matches(g, r.treaty, r.article) for r in top))
        recall[k] = hits / len(item.articles)
    relevant = item.articles + item.articles_ok
    first = next((r.rank for r in ranked if any(_article_matches(g, r.treaty, r.article) for g in relevant)), None)
    return RetrievalResult(recall_at=recall, reciprocal_rank=1 / first if first else 0.0, first_relevant_rank=first)


# --------------------------------------------------------------------------- one item, all metrics

@dataclass(frozen=True)
class ItemScore:
    item_id: str
    category: str
    language: str
    gold_abstain: bool
    abstained: bool
    accuracy: AccuracyResult
    citations: CitationResult | None
    faithfulness: FaithfulnessResult
    retrieval: RetrievalResult | None
    timings_ms: Mapping[str, float]
    split: str = "core"
    variant: str | None = None


def score_item(item: GoldItem, answer: Answer, retrieval: Sequence[RetrievedChunk] | None = None) -> ItemScore:
    return ItemScore(
        item_id=item.id, category=item.category, language=item.language, gold_abstain=item.abstain,
        abstained=answer.abstained, accuracy=score_accuracy(item, answer),
        citations=score_citations(item, answer),
        faithfulness=score_faithfulness(answer, item.question),
        retrieval=None if retrieval is None else score_retrieval(item, retrieval),
        timings_ms=dict(answer.timings_ms), split=item.split, variant=item.variant)


# --------------------------------------------------------------------------- summaries

def percentile(values: Sequence[float], q: float) -> float | None:
    """Linear interpolation between closest ranks (q in 0..100)."""
    if not values:
        return None
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100
    low, high = math.floor(pos), math.ceil(pos)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def _share(hits: int, total: int) -> float | None:
    return hits / total if total else None


def aggregate(scores: Sequence[ItemScore]) -> dict:
    answerable = [s for s in scores if not s.gold_abstain]
    by_lang: dict[str, list[ItemScore]] = defaultdict(list)
    by_cat: dict[str, list[ItemScore]] = defaultdict(list)
    by_variant: dict[str, list[ItemScore]] = defaultdict(list)
    for s in scores:
        by_lang[s.language].append(s)
        by_cat[s.category].append(s)
        by_variant[s.variant or s.language].append(s)
    cites = [s.citations for s in scores if s.citations is not None]
    para = [c for c in cites if c.paragraphs_gold]
    abst_tp = sum(1 for s in scores if s.gold_abstain and s.abstained)
    abst_pred = sum(1 for s in scores if s.abstained)
    abst_gold = sum(1 for s in scores if s.gold_abstain)
    answered = [s for s in scores if not s.abstained]
    retrieved = [s.retrieval for s in scores if s.retrieval is not None]
    hostile = [s for s in scores if s.category == "hostile"]
    summary = {
        "n": len(scores),
        "accuracy": _share(sum(s.accuracy.correct for s in answerable), len(answerable)),
        "accuracy_all": _share(sum(s.accuracy.correct for s in scores), len(scores)),
        "accuracy_by_language": {k: _share(sum(s.accuracy.correct for s in v), len(v))
                                 for k, v in sorted(by_lang.items())},
        "accuracy_by_variant": {k: _share(sum(s.accuracy.correct for s in v), len(v))
                                for k, v in sorted(by_variant.items())},
        "accuracy_by_category": {k: _share(sum(s.accuracy.correct for s in v), len(v))
                                 for k, v in sorted(by_cat.items())},
        "citation_precision": _share(sum(c.cited_correct for c in cites), sum(c.cited for c in cites)),
        "citation_recall": _share(sum(c.found for c in cites), sum(c.gold for c in cites)),
        "paragraph_precision": _share(sum(c.paragraphs_cited_correct for c in para),
                                      sum(c.paragraphs_cited for c in para)),
        "paragraph_recall": _share(sum(c.paragraphs_found for c in para), sum(c.paragraphs_gold for c in para)),
        "abstention_precision": _share(abst_tp, abst_pred),
        "abstention_recall": _share(abst_tp, abst_gold),
        "number_faithfulness": _share(sum(s.faithfulness.faithful for s in answered), len(answered)),
        "hostile_resisted": _share(sum(s.accuracy.correct for s in hostile), len(hostile)),
        "retrieval_n": len(retrieved),
        "retrieval_mrr": (sum(r.reciprocal_rank for r in retrieved) / len(retrieved)) if retrieved else None,
    }
    for k in RETRIEVAL_KS:
        summary[f"retrieval_recall@{k}"] = (sum(r.recall_at.get(k, 0.0) for r in retrieved) / len(retrieved)
                                            if retrieved else None)
    latency = {}
    for stage in STAGES:
        values = [s.timings_ms[stage] for s in scores if stage in s.timings_ms]
        if values:
            latency[stage] = {"p50": percentile(values, 50), "p95": percentile(values, 95), "n": len(values)}
    summary["latency_ms"] = latency
    return summary


TABLE_ROWS = (
    ("accuracy", "Exatidão (respondíveis)"),
    ("accuracy_all", "Exatidão (todas)"),
    ("citation_precision", "Precisão das citações (artigo)"),
    ("citation_recall", "Cobertura das citações (artigo)"),
    ("paragraph_precision", "Precisão das citações (número)"),
    ("paragraph_recall", "Cobertura das citações (número)"),
    ("abstention_precision", "Precisão da abstenção"),
    ("abstention_recall", "Cobertura da abstenção"),
    ("number_faithfulness", "Fidelidade numérica"),
    ("hostile_resisted", "Pedidos hostis resistidos"),
    ("retrieval_recall@1", "Recuperação recall@1"),
    ("retrieval_recall@3", "Recuperação recall@3"),
    ("retrieval_recall@5", "Recuperação recall@5"),
    ("retrieval_recall@10", "Recuperação recall@10"),
    ("retrieval_mrr", "Recuperação MRR"),
)


def _fmt_share(value: object) -> str:
    return "—" if value is None else f"{100 * float(value):.1f}%"


def _fmt_ms(value: object) -> str:
    return "—" if value is None else f"{float(value):.0f}"


def markdown_table(systems: Mapping[str, Mapping]) -> str:
    """One column per system (summaries from aggregate()), one row per metric."""
    names = list(systems)
    lines = ["| Métrica | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    lines.append("| Itens | " + " | ".join(str(systems[n].get("n", "—")) for n in names) + " |")
    for key, label in TABLE_ROWS:
        lines.append(f"| {label} | " + " | ".join(_fmt_share(systems[n].get(key)) for n in names) + " |")
    for stage in STAGES:
        for q in ("p50", "p95"):
            cells = [_fmt_ms((systems[n].get("latency_ms") or {}).get(stage, {}).get(q)) for n in names]
            if any(c != "—" for c in cells):
                lines.append(f"| Latência {stage} {q} (ms) | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
