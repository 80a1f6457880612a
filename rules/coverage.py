"""What the corpus covers: fixed figures by topic, the treaties and topics known, and which documents
apply to a treaty (including what the corpus does NOT establish about the MLI). Results carry catalogue
keys (i18n/rules.yaml, i18n/data.yaml); the corpus catalogue's own notes stay Portuguese prose."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from config import load_settings
from ingest.catalog import DocumentInfo, load_catalog
from rules.conditions import describe
from rules.facts import INCOME_TYPES, TOPICS
from rules.lookup import treaty_or_not_covered
from rules.results import Condition, DocumentApplication, Figure, Message, NotCovered, Serialisable
from rules.treaty_data import TreatyData, load_all


@dataclass(frozen=True)
class TreatyCoverage(Serialisable):
    treaty: str
    parties: list[str]
    title: str
    coverage: str                 # "full" | "summary" | "partial"
    incomes: list[str]            # withholding_cap() incomes
    topics: list[str]             # figures() topics and the dedicated tests (employment, residence)
    documents: list[str]
    notes: list[str]


@lru_cache(maxsize=1)
def _catalog() -> tuple[DocumentInfo, ...]:
    return tuple(load_catalog(load_settings().corpus_dir))


def _documents_of(treaty: str) -> list[DocumentInfo]:
    return [d for d in _catalog() if d.treaty == treaty or d.applies_to == treaty]


@dataclass(frozen=True)
class _JoinedConditions(Message):
    """The conditions of a rule joined with "; ", each rendered in the figure's language."""
    key: str = ""
    conditions: tuple[Condition, ...] = ()

    def text_in(self, language: str) -> str:
        return "; ".join(c.text_in(language) for c in self.conditions)


def _income_figures(data: TreatyData, income: str) -> list[Figure]:
    spec = data.incomes[income]
    out = []
    for rule in (list(data.common_exclusions) + list(spec.rules)):
        if rule.value is None:
            continue
        conditions = [describe(c.code, c.params) for c in rule.when] or [describe("otherwise", {})]
        description = Message("rules.documents.max_rate_if", {
            "rate": rule.value, "conditions": _JoinedConditions(conditions=tuple(conditions))})
        out.append(Figure(id=rule.id, treaty=data.treaty, topic=income, value=rule.value, unit=rule.unit or "percent",
                          description=description, conditions=conditions,
                          citations=[c.citation for c in rule.citations],
                          effective_from=rule.effective_from, notes=list(spec.notes) + list(rule.notes)))
    return out


def _topics(data: TreatyData) -> list[str]:
    topics = set(data.incomes) | {f.topic for f in data.figures}
    if data.employment:
        topics.add("employment")
    if data.residence_individual or data.residence_company:
        topics.add("residence")
    return [t for t in TOPICS if t in topics]


def figures(treaty: str, topic: str) -> list[Figure] | NotCovered:
    data = treaty_or_not_covered(treaty)
    if isinstance(data, NotCovered):
        return data
    if topic not in TOPICS:
        return NotCovered.because(str(topic), list(TOPICS), "rules.not_covered.unknown_topic", topic=topic,
                                  known=", ".join(TOPICS))
    found = [Figure(id=f.id, treaty=data.treaty, topic=f.topic, value=f.value, unit=f.unit, description=f.description,
                    conditions=[describe(c.code, c.params) for c in f.conditions],
                    citations=[c.citation for c in f.citations], effective_from=f.effective_from,
                    notes=list(f.notes), ends=f.ends, precondition=f.precondition)
             for f in data.figures if f.answers(topic)]
    if topic in INCOME_TYPES and topic in data.incomes:
        found = _income_figures(data, topic) + found
    if not found:
        available = [t for t in _topics(data) if t not in ("residence",)]
        return NotCovered.because(f"{data.treaty}: {topic}", available, "rules.not_covered.no_figures",
                                  topic=Message(f"rules.topics.{topic}"), treaty=data.treaty,
                                  listed=", ".join(available))
    return found


def absent_provision(treaty: str, topic: str, named: set[str]) -> NotCovered | None:
    """What the corpus lacks when a question on `topic` names (`named`: lexicon provision keys) a provision that
    the text of `treaty`, or of an instrument, in the corpus does not hold; None when it names none."""
    data = load_all()
    for doc in (treaty, *(d.treaty for d in _catalog() if "multilateral_instrument" in d.kind)):
        spec = data.get(doc)
        if spec is None:
            continue
        for absent in spec.absent:
            if absent.provision in named and absent.topic == topic:
                return NotCovered.because(f"{spec.treaty}: {absent.article}", [], "rules.not_covered.absent_provision",
                                          treaty=spec.treaty, article=absent.article)
    return None


def coverage() -> list[TreatyCoverage]:
    return [TreatyCoverage(treaty=t, parties=list(d.parties), title=d.title, coverage=d.coverage,
                           incomes=sorted(d.incomes), topics=_topics(d),
                           documents=[i.id for i in _documents_of(t)], notes=[n.text for n in d.notes])
            for t, d in sorted(load_all().items())]


_RELATIONS = {"convention": "treaty_text", "summary": "summary", "ministerial_order": "implementing_order",
              "multilateral_instrument": "treaty_text"}


def applicable_documents(treaty: str) -> list[DocumentApplication] | NotCovered:
    data = treaty_or_not_covered(treaty)
    if isinstance(data, NotCovered):
        return data
    out: list[DocumentApplication] = []
    for info in _documents_of(data.treaty):
        kind = next((k for k in info.kind if k in _RELATIONS), None)
        relation = _RELATIONS.get(kind or "", "treaty_text")
        out.append(DocumentApplication(doc=info.id, title=info.title, relation=relation,
                                       description=Message(f"rules.documents.{kind or 'other'}"), citations=[],
                                       catalogue_notes=info.notes or ""))
    if len(data.parties) == 2:
        stated = {m.doc: m for m in data.modified_by}
        for info in (d for d in _catalog() if "multilateral_instrument" in d.kind):
            if info.id in stated:
                m = stated[info.id]
                out.append(DocumentApplication(
                    doc=info.id, title=info.title, relation="modifies",
                    description=Message("rules.documents.modifies", {"treaty": data.treaty,
                                                                     "provisions": m.provisions, "text": m.text}),
                    citations=[c.citation for c in m.citations], instrument=info.treaty))
            else:
                out.append(DocumentApplication(
                    doc=info.id, title=info.title, relation="not_established",
                    description=Message("rules.documents.not_established", {"treaty": data.treaty}), citations=[],
                    instrument=info.treaty))
    return out
