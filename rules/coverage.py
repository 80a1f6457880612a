"""What the corpus covers: fixed figures by topic, the treaties and topics known, and which documents
apply to a treaty (including what the corpus does NOT establish about the MLI)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ingest.catalog import DocumentInfo, load_catalog
from ingest.corpus import DEFAULT_CORPUS_DIR
from rules.conditions import describe
from rules.facts import INCOME_TYPES, TOPICS
from rules.lookup import treaty_or_not_covered
from rules.results import DocumentApplication, Figure, NotCovered, Serialisable
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
    return tuple(load_catalog(DEFAULT_CORPUS_DIR))


def _documents_of(treaty: str) -> list[DocumentInfo]:
    return [d for d in _catalog() if d.treaty == treaty or d.applies_to == treaty]


def _income_figures(data: TreatyData, income: str) -> list[Figure]:
    spec = data.incomes[income]
    out = []
    for rule in (list(data.common_exclusions) + list(spec.rules)):
        if rule.value is None:
            continue
        conditions = [describe(c.code, c.params) for c in rule.when] or [describe("otherwise", {})]
        text = f"Taxa máxima de {rule.value:g}% — " + "; ".join(c.text for c in conditions)
        out.append(Figure(id=rule.id, treaty=data.treaty, topic=income, value=rule.value, unit=rule.unit or "percent",
                          text=text, conditions=conditions, citations=[c.citation for c in rule.citations],
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
        return NotCovered(subject=str(topic), covered=list(TOPICS),
                          message=f"O tema {topic!r} não é coberto pelas regras. Temas conhecidos: {', '.join(TOPICS)}.")
    found = [Figure(id=f.id, treaty=data.treaty, topic=f.topic, value=f.value, unit=f.unit, text=f.text,
                    conditions=[describe(c.code, c.params) for c in f.conditions],
                    citations=[c.citation for c in f.citations], effective_from=f.effective_from,
                    notes=list(f.notes)) for f in data.figures if f.topic == topic]
    if topic in INCOME_TYPES and topic in data.incomes:
        found = _income_figures(data, topic) + found
    if not found:
        available = [t for t in _topics(data) if t not in ("residence",)]
        return NotCovered(subject=f"{data.treaty}: {topic}", covered=available,
                          message=f"O corpus não fixa valores sobre {topic!r} para {data.treaty}. Temas com valores "
                                  f"para esta convenção: {', '.join(available)}.")
    return found


def coverage() -> list[TreatyCoverage]:
    return [TreatyCoverage(treaty=t, parties=list(d.parties), title=d.title, coverage=d.coverage,
                           incomes=sorted(d.incomes), topics=_topics(d),
                           documents=[i.id for i in _documents_of(t)], notes=list(d.notes))
            for t, d in sorted(load_all().items())]


_RELATION_TEXT = {
    "convention": ("treaty_text", "Texto da convenção (e, se existir, do protocolo)."),
    "summary": ("summary", "Resumo da convenção, não o texto oficial: só cobre o que resume."),
    "ministerial_order": ("implementing_order", "Ato que aplica a convenção num dos Estados."),
    "multilateral_instrument": ("treaty_text", "Texto do instrumento multilateral."),
}


def applicable_documents(treaty: str) -> list[DocumentApplication] | NotCovered:
    data = treaty_or_not_covered(treaty)
    if isinstance(data, NotCovered):
        return data
    out: list[DocumentApplication] = []
    for info in _documents_of(data.treaty):
        kind = next((k for k in info.kind if k in _RELATION_TEXT), None)
        relation, text = _RELATION_TEXT[kind] if kind else ("treaty_text", "Documento da convenção.")
        if info.notes:
            text = f"{text} {info.notes}"
        out.append(DocumentApplication(doc=info.id, title=info.title, relation=relation, text=text, citations=[]))
    if len(data.parties) == 2:
        stated = {m.doc: m for m in data.modified_by}
        for info in (d for d in _catalog() if "multilateral_instrument" in d.kind):
            if info.id in stated:
                m = stated[info.id]
                out.append(DocumentApplication(
                    doc=info.id, title=info.title, relation="modifies",
                    text=f"Modifica a convenção {data.treaty} ({m.provisions}), segundo o corpus: {m.text}",
                    citations=[c.citation for c in m.citations]))
            else:
                out.append(DocumentApplication(
                    doc=info.id, title=info.title, relation="not_established",
                    text=f"O corpus não estabelece que este instrumento multilateral modifique a convenção "
                         f"{data.treaty}: nenhum documento do corpus o afirma, e o texto do instrumento no corpus não "
                         f"inclui as listas de convenções abrangidas, reservas e notificações. Não se assume que se "
                         f"aplique nem que não se aplique.",
                    citations=[]))
    return out
