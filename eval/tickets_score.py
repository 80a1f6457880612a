"""Scoring the assistant's reading of a ticket against the ticket bank's labels (eval/tickets.py).

Pure functions over two typed values: the gold Ticket and a TicketReading (what the assistant read and
answered, built by eval/tickets_run.py from the Answer). Scored per part: topic, answer (the expected
outcome: who may tax / cap / figure / abstain), gold-article citation and retrieval recall@5; per
ticket: treaty, direction (residence/source States) and the stated facts (precision and recall).

Predicted parts are aligned to the gold parts by topic first, then in order; a gold part with no
predicted part left is missed (wrong topic, wrong answer), so a reader that reads a two-question ticket
as one question scores the other part as missed.
"""
from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from assistant.lexicon.quantities import dates
from assistant.lexicon.text import fold
from eval.gold import GoldArticle, normalise_article, parse_article_ref, parse_paragraph_ref
from eval.score import percentile
from eval.tickets import FACT_TYPES, Expected, Ticket

OUT_OF_SCOPE = "out_of_scope"
Article = tuple[str | None, str]          # (treaty, normalised article)


# --------------------------------------------------------------------------- what the assistant gave

@dataclass(frozen=True)
class PredictedOutcome:
    """A part's rule results in the bank's outcome vocabulary (eval.tickets.Outcome)."""
    outcome: str
    state: str | None = None               # who taxes (*_only) or where resident
    rates: tuple[float, ...] = ()          # the cap, or every alternative cap
    missing: tuple[str, ...] = ()          # facts the rules say would decide


@dataclass(frozen=True)
class PartReading:
    topic: str | None                      # a rules topic, "out_of_scope", or None (no topic read)
    outcome: PredictedOutcome
    text: str = ""                         # the part's section of the card (figures are checked here)
    cited: tuple[Article, ...] = ()        # citations shown for this part
    retrieved: tuple[Article, ...] = ()    # the part's own retrieval, best first (empty: the ticket's)
    confidence: float | None = None


@dataclass(frozen=True)
class TicketReading:
    treaty: str | None
    residence_state: str | None
    source_state: str | None
    facts: dict[str, Any]                  # FACT_TYPES names -> values (assistant.understand.stated_facts)
    parts: tuple[PartReading, ...]
    retrieved: tuple[Article, ...] = ()    # the whole ticket's retrieval, best first
    latency_ms: float | None = None


# --------------------------------------------------------------------------- facts: the one mapping

def same_value(name: str, gold: Any, read: Any) -> bool:
    """Numbers within 1% (a day either way for day counts), lists as sets, words without case."""
    if isinstance(gold, bool) or isinstance(read, bool):
        return gold is read if isinstance(gold, bool) and isinstance(read, bool) else False
    if isinstance(gold, (int, float)) and isinstance(read, (int, float)):
        slack = 1.0 if name == "stay_days" else max(1e-6, abs(gold) * 0.01)
        return abs(float(gold) - float(read)) <= slack
    if isinstance(gold, list) and isinstance(read, (list, tuple)):
        return {str(x).upper() for x in gold} == {str(x).upper() for x in read}
    return str(gold).casefold() == str(read).casefold()


@dataclass(frozen=True)
class FactScore:
    gold: int
    read: int
    correct: int                           # read with the gold's name and value
    wrong_value: tuple[str, ...] = ()      # names read with another value than the gold's
    missed: tuple[str, ...] = ()           # gold names not read at all
    extra: tuple[str, ...] = ()            # read, not stated in the ticket


def score_facts(ticket: Ticket, read: dict[str, Any]) -> FactScore:
    """Read facts against the labels; a fact the bank's schema cannot label (not in FACT_TYPES, e.g. BR-ES
    14(1)'s "paid by a company or a PE") is neither right nor extra: no label could hold it."""
    gold = {f.name: f.value for f in ticket.facts}
    read = {n: v for n, v in read.items() if n in FACT_TYPES}
    correct = [n for n, v in gold.items() if n in read and same_value(n, v, read[n])]
    return FactScore(gold=len(gold), read=len(read), correct=len(correct),
                     wrong_value=tuple(n for n in gold if n in read and n not in correct),
                     missed=tuple(n for n in gold if n not in read),
                     extra=tuple(n for n in read if n not in gold))


# --------------------------------------------------------------------------- outcomes

_EQUIVALENT = {"exempt": "residence_only"}  # "the source State may not tax" is "only the residence State"
_EXCLUSIVE = {"residence_only", "source_only"}


def _same_outcome(gold: str, pred: str) -> bool:
    return _EQUIVALENT.get(gold, gold) == _EQUIVALENT.get(pred, pred)


_NUMBER = re.compile(r"(?<![\d.,])(?:(?P<grouped>\d{1,3}(?:[ .,]\d{3})+)(?P<frac>[.,]\d+)?|(?P<plain>\d+(?:[.,]\d+)?))")


def numbers_in(text: str) -> set[float]:
    """Every number written in a text, with pt/es/en thousand and decimal separators ("10 000", "10.000",
    "10,000" -> 10000; "0,5" -> 0.5)."""
    out = set()
    for m in _NUMBER.finditer(text):
        if m.group("grouped"):
            whole = re.sub(r"[ .,]", "", m.group("grouped"))
            out.add(float(whole + (("." + m.group("frac")[1:]) if m.group("frac") else "")))
        else:
            out.add(float(m.group("plain").replace(",", ".")))
    # a date written in words holds its month's number too ("28 de julho de 2013" is 28/07/2013)
    out |= {float(d.month) for d in dates(fold(text)) if d.day is not None}
    return out


def answer_correct(expected: Expected, part: PartReading | None) -> bool:
    """Does the part's answer say what the ticket's expected outcome says?"""
    if part is None:
        return False
    pred = part.outcome
    if expected.outcome == "abstain" or pred.outcome == "abstain":
        return expected.outcome == pred.outcome
    if expected.outcome == "figure":
        wanted = set().union(*(numbers_in(f) for f in expected.figures)) if expected.figures else set()
        return wanted <= numbers_in(part.text) if wanted else articles_cited(expected, part.cited)
    if expected.outcome == "depends":
        return (pred.outcome == "depends" or (pred.outcome == "capped" and len(pred.rates) > 1)) and \
            bool(set(expected.depends_on) & set(pred.missing))
    if expected.outcome == "capped":
        wanted = set(expected.rates) if expected.rates else {expected.rate}
        return pred.outcome == "capped" and {float(r) for r in wanted if r is not None} == set(pred.rates)
    if expected.outcome == "both" and pred.outcome == "capped":
        return True        # both States tax, the source within a cap: "both" with the cap the gold leaves unsaid
    outcomes = {expected.outcome, pred.outcome}
    if "exempt" in outcomes and outcomes & _EXCLUSIVE and expected.state and pred.state:
        # "exempt" names the State that may not tax, "*_only" the one that taxes: "exempt in Portugal" is "only
        # Brazil may tax", whichever role each State has
        return expected.state.upper() != pred.state.upper()
    if outcomes == _EXCLUSIVE and expected.state and pred.state:
        # "only Portugal may tax" is one answer whichever role the reading gives Portugal (a diplomat posted
        # abroad: the paying State read as the residence)
        return expected.state.upper() == pred.state.upper()
    if not _same_outcome(expected.outcome, pred.outcome):
        return False
    if expected.state is None or pred.state is None:
        return True
    return expected.state.upper() == pred.state.upper()


# --------------------------------------------------------------------------- articles

def gold_articles(expected: Expected, treaty: str | None) -> list[GoldArticle]:
    """'18(2)' -> article 18; 'Protocolo 4'; 'MLI:9(4)' -> MLI article 9."""
    out = []
    for ref in expected.articles:
        if "(" in ref:
            p = parse_paragraph_ref(ref, treaty)
            out.append(GoldArticle(p.treaty, p.article))
        else:
            out.append(parse_article_ref(ref, treaty))
    return out


def _matches(gold: GoldArticle, got: Article) -> bool:
    treaty, article = got
    same_treaty = gold.treaty is None or treaty is None or gold.treaty.upper() == treaty.upper()
    return same_treaty and normalise_article(article) == gold.article


def article_recall(expected: Expected, treaty: str | None, found: Sequence[Article]) -> float | None:
    gold = gold_articles(expected, treaty)
    if not gold:
        return None
    return sum(1 for g in gold if any(_matches(g, a) for a in found)) / len(gold)


def articles_cited(expected: Expected, cited: Sequence[Article], treaty: str | None = None) -> bool:
    recall = article_recall(expected, treaty, cited)
    return recall is not None and recall == 1.0


# --------------------------------------------------------------------------- alignment and one ticket

def align(gold_topics: Sequence[str], pred_topics: Sequence[str | None]) -> list[int | None]:
    """For each gold part, the index of its predicted part: same topic first (of several, the one nearest in
    the ticket's order: "1. the CGA pension (gold: government service) 2. the bank's fund (pensions)", read as two
    pension parts, pairs the second with the second), then the rest in order."""
    free = list(range(len(pred_topics)))
    out: list[int | None] = [None] * len(gold_topics)
    for g, topic in enumerate(gold_topics):
        match = min((p for p in free if pred_topics[p] == topic), key=lambda p: abs(p - g), default=None)
        if match is not None:
            out[g] = match
            free.remove(match)
    for g in range(len(gold_topics)):
        if out[g] is None and free:
            out[g] = free.pop(0)
    return out


@dataclass(frozen=True)
class PartScore:
    ticket_id: str
    language: str
    gold_topic: str
    read_topic: str | None                 # None: no predicted part left (missed)
    topic_correct: bool
    answer_correct: bool
    gold_abstain: bool
    abstained: bool
    article_cited: bool | None             # None: no gold article (abstain)
    recall_at_5: float | None
    confidence: float | None = None


@dataclass(frozen=True)
class TicketScore:
    ticket_id: str
    language: str
    page: str
    parts: tuple[PartScore, ...]
    extra_parts: int                       # predicted parts aligned to no gold part
    extra_abstentions: int                 # of those, how many abstain
    treaty_correct: bool | None            # None: gold has no treaty
    residence_correct: bool | None
    source_correct: bool | None
    facts: FactScore
    latency_ms: float | None = None

    @property
    def direction_correct(self) -> bool | None:
        marks = [m for m in (self.residence_correct, self.source_correct) if m is not None]
        return all(marks) if marks else None


def _state_mark(gold: str | None, read: str | None) -> bool | None:
    return None if gold is None else (read or "").upper() == gold.upper()


def score_ticket(ticket: Ticket, reading: TicketReading, k: int = 5) -> TicketScore:
    gold_topics = [p.topic for p in ticket.parts]
    order = align(gold_topics, [p.topic for p in reading.parts])
    parts = []
    for gold, index in zip(ticket.parts, order):
        pred = reading.parts[index] if index is not None else None
        retrieved = (pred.retrieved if pred is not None and pred.retrieved else reading.retrieved)[:k]
        abstain = gold.expected.outcome == "abstain"
        parts.append(PartScore(
            ticket_id=ticket.id, language=ticket.language, gold_topic=gold.topic,
            read_topic=pred.topic if pred else None, topic_correct=pred is not None and pred.topic == gold.topic,
            answer_correct=answer_correct(gold.expected, pred), gold_abstain=abstain,
            abstained=pred is not None and pred.outcome.outcome == "abstain",
            article_cited=None if abstain else pred is not None and articles_cited(gold.expected, pred.cited,
                                                                                  ticket.treaty),
            recall_at_5=None if abstain else article_recall(gold.expected, ticket.treaty, retrieved),
            confidence=pred.confidence if pred else None))
    used = {i for i in order if i is not None}
    extra = [p for i, p in enumerate(reading.parts) if i not in used]
    return TicketScore(
        ticket_id=ticket.id, language=ticket.language, page=ticket.page, parts=tuple(parts),
        extra_parts=len(extra), extra_abstentions=sum(1 for p in extra if p.outcome.outcome == "abstain"),
        treaty_correct=None if ticket.treaty is None else (reading.treaty or "").upper() == ticket.treaty.upper(),
        residence_correct=_state_mark(ticket.residence_state, reading.residence_state),
        source_correct=_state_mark(ticket.source_state, reading.source_state),
        facts=score_facts(ticket, reading.facts), latency_ms=reading.latency_ms)


# --------------------------------------------------------------------------- tables

def _share(hits: Iterable[bool | None]) -> float | None:
    marks = [h for h in hits if h is not None]
    return sum(marks) / len(marks) if marks else None


def summarise(scores: Sequence[TicketScore]) -> dict[str, Any]:
    """Every metric over a set of scored tickets (None where nothing is measured)."""
    parts = [p for s in scores for p in s.parts]
    answered = [p for p in parts if not p.gold_abstain]
    abstained = sum(1 for p in parts if p.abstained) + sum(s.extra_abstentions for s in scores)
    right_abstentions = sum(1 for p in parts if p.abstained and p.gold_abstain)
    facts_gold = sum(s.facts.gold for s in scores)
    facts_read = sum(s.facts.read for s in scores)
    facts_right = sum(s.facts.correct for s in scores)
    read_named = sum(s.facts.correct + len(s.facts.wrong_value) for s in scores)
    latencies = [s.latency_ms for s in scores if s.latency_ms is not None]
    recalls = [p.recall_at_5 for p in answered if p.recall_at_5 is not None]
    return {
        "tickets": len(scores), "parts": len(parts),
        "multi_part_tickets": sum(1 for s in scores if len(s.parts) > 1),
        "topic_accuracy": _share(p.topic_correct for p in parts),
        "answer_accuracy": _share(p.answer_correct for p in parts),
        "treaty_accuracy": _share(s.treaty_correct for s in scores),
        "direction_accuracy": _share(s.direction_correct for s in scores),
        "residence_accuracy": _share(s.residence_correct for s in scores),
        "source_accuracy": _share(s.source_correct for s in scores),
        "fact_precision": facts_right / facts_read if facts_read else None,
        "fact_value_accuracy": facts_right / read_named if read_named else None,
        "fact_recall": facts_right / facts_gold if facts_gold else None,
        "abstention_precision": right_abstentions / abstained if abstained else None,
        "abstention_recall": _share(p.abstained for p in parts if p.gold_abstain),
        "article_cited": _share(p.article_cited for p in answered),
        "recall_at_5": sum(recalls) / len(recalls) if recalls else None,
        "extra_parts": sum(s.extra_parts for s in scores),
        "all_parts_answered": _share(all(p.read_topic is not None for p in s.parts)
                                     for s in scores if len(s.parts) > 1),
        "latency_ms_p50": percentile(latencies, 50), "latency_ms_p95": percentile(latencies, 95),
    }


def by_topic(scores: Sequence[TicketScore]) -> dict[str, dict[str, Any]]:
    """Per gold topic: parts, topic and answer accuracy, article cited, recall@5, what it was read as."""
    groups: dict[str, list[PartScore]] = defaultdict(list)
    for s in scores:
        for p in s.parts:
            groups[p.gold_topic].append(p)
    out = {}
    for topic, parts in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        confused: dict[str, int] = defaultdict(int)
        for p in parts:
            if not p.topic_correct:
                confused[p.read_topic or "—"] += 1
        recalls = [p.recall_at_5 for p in parts if p.recall_at_5 is not None]
        out[topic] = {"parts": len(parts), "topic_accuracy": _share(p.topic_correct for p in parts),
                      "answer_accuracy": _share(p.answer_correct for p in parts),
                      "article_cited": _share(p.article_cited for p in parts),
                      "recall_at_5": sum(recalls) / len(recalls) if recalls else None,
                      "read_as": dict(sorted(confused.items(), key=lambda kv: -kv[1])[:3])}
    return out


def by_language(scores: Sequence[TicketScore]) -> dict[str, dict[str, Any]]:
    groups: dict[str, list[TicketScore]] = defaultdict(list)
    for s in scores:
        groups[s.language].append(s)
    return {lang: summarise(group) for lang, group in sorted(groups.items())}


def topic_accuracy(tickets: Sequence[Ticket], topics: Sequence[Sequence[str | None]]) -> float | None:
    """A topic-only method (lexicon, nearest example, trained model): the share of gold parts whose topic
    it read, aligned as in score_ticket."""
    hits, total = 0, 0
    for ticket, read in zip(tickets, topics):
        gold = [p.topic for p in ticket.parts]
        for g, index in zip(gold, align(gold, read)):
            total += 1
            hits += index is not None and read[index] == g
    return hits / total if total else None


@dataclass(frozen=True)
class Report:
    split: str
    overall: dict[str, Any]
    languages: dict[str, dict[str, Any]]
    topics: dict[str, dict[str, Any]]
    methods: dict[str, float | None] = field(default_factory=dict)


def report(split: str, scores: Sequence[TicketScore], methods: dict[str, float | None] | None = None) -> Report:
    return Report(split, summarise(scores), by_language(scores), by_topic(scores), dict(methods or {}))


def _pct(value: Any) -> str:
    return "—" if value is None else f"{100 * value:.0f}%"


_COLUMNS = (("topic_accuracy", "topic"), ("answer_accuracy", "answer"), ("direction_accuracy", "direction"),
            ("fact_precision", "fact P"), ("fact_recall", "fact R"), ("abstention_precision", "abstain P"),
            ("article_cited", "art. cited"), ("recall_at_5", "recall@5"))


def markdown(rep: Report) -> str:
    """The tables: overall and per language, per method (topic), per topic."""
    head = "| | tickets | parts | " + " | ".join(name for _, name in _COLUMNS) + " |"
    lines = [f"#### Ticket bank, split `{rep.split}`", "", head, "|" + "---|" * (len(_COLUMNS) + 3)]
    for name, row in [("all", rep.overall), *rep.languages.items()]:
        lines.append(f"| {name} | {row['tickets']} | {row['parts']} | "
                     + " | ".join(_pct(row[key]) for key, _ in _COLUMNS) + " |")
    o = rep.overall
    lines += ["", f"Treaty {_pct(o['treaty_accuracy'])}; residence {_pct(o['residence_accuracy'])}, source "
              f"{_pct(o['source_accuracy'])}; fact value accuracy (facts read under a stated name) "
              f"{_pct(o['fact_value_accuracy'])}; abstention recall {_pct(o['abstention_recall'])}; "
              f"multi-part tickets with every part answered {_pct(o['all_parts_answered'])} "
              f"(of {o['multi_part_tickets']}); extra parts {o['extra_parts']}; card latency p50 "
              + ("—" if o["latency_ms_p50"] is None else f"{o['latency_ms_p50']:.0f} ms") + "."]
    if rep.methods:
        lines += ["", "| topic method | topic accuracy (per part) |", "|---|---|"]
        lines += [f"| {name} | {_pct(value)} |" for name, value in rep.methods.items()]
    lines += ["", "| gold topic | parts | topic | answer | art. cited | recall@5 | most often read as |",
              "|---|---|---|---|---|---|---|"]
    for topic, row in rep.topics.items():
        read_as = ", ".join(f"{k} ({v})" for k, v in row["read_as"].items()) or ""
        lines.append(f"| {topic} | {row['parts']} | {_pct(row['topic_accuracy'])} | {_pct(row['answer_accuracy'])} "
                     f"| {_pct(row['article_cited'])} | {_pct(row['recall_at_5'])} | {read_as} |")
    return "\n".join(lines)
