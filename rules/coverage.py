"""What the corpus covers: fixed figures by topic, the treaties and topics known, and which documents
apply to a treaty (including what the corpus does NOT establish about the MLI). Texts come in pt/es/en;
notes (from the data files and the catalogue) stay Portuguese."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ingest.catalog import DocumentInfo, load_catalog
from ingest.corpus import DEFAULT_CORPUS_DIR
from rules.conditions import describe
from rules.facts import INCOME_TYPES, TOPICS
from rules.labels import LANGUAGES
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


_MAX_RATE = {"pt": "Taxa máxima de {rate:g}% — ", "es": "Tipo máximo del {rate:g}% — ",
             "en": "Maximum rate of {rate:g}% — "}


def _income_figures(data: TreatyData, income: str) -> list[Figure]:
    spec = data.incomes[income]
    out = []
    for rule in (list(data.common_exclusions) + list(spec.rules)):
        if rule.value is None:
            continue
        conditions = [describe(c.code, c.params) for c in rule.when] or [describe("otherwise", {})]
        texts = {lang: _MAX_RATE[lang].format(rate=rule.value) + "; ".join(c.text_in(lang) for c in conditions)
                 for lang in LANGUAGES}
        out.append(Figure(id=rule.id, treaty=data.treaty, topic=income, value=rule.value, unit=rule.unit or "percent",
                          text=texts["pt"], conditions=conditions, citations=[c.citation for c in rule.citations],
                          effective_from=rule.effective_from, notes=list(spec.notes) + list(rule.notes),
                          texts=texts))
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
        known = ", ".join(TOPICS)
        return NotCovered.localised(
            str(topic), list(TOPICS),
            pt=f"O tema {topic!r} não é coberto pelas regras. Temas conhecidos: {known}.",
            es=f"El tema {topic!r} no está cubierto por las reglas. Temas conocidos: {known}.",
            en=f"The topic {topic!r} is not covered by the rules. Known topics: {known}.")
    found = [Figure(id=f.id, treaty=data.treaty, topic=f.topic, value=f.value, unit=f.unit, text=f.text,
                    conditions=[describe(c.code, c.params) for c in f.conditions],
                    citations=[c.citation for c in f.citations], effective_from=f.effective_from,
                    notes=list(f.notes), texts=dict(f.texts)) for f in data.figures if f.topic == topic]
    if topic in INCOME_TYPES and topic in data.incomes:
        found = _income_figures(data, topic) + found
    if not found:
        available = [t for t in _topics(data) if t not in ("residence",)]
        listed = ", ".join(available)
        return NotCovered.localised(
            f"{data.treaty}: {topic}", available,
            pt=f"O corpus não fixa valores sobre {topic!r} para {data.treaty}. Temas com valores para esta convenção: "
               f"{listed}.",
            es=f"El corpus no fija valores sobre {topic!r} para {data.treaty}. Temas con valores para este convenio: "
               f"{listed}.",
            en=f"The corpus sets no figures on {topic!r} for {data.treaty}. Topics with figures for this treaty: "
               f"{listed}.")
    return found


def coverage() -> list[TreatyCoverage]:
    return [TreatyCoverage(treaty=t, parties=list(d.parties), title=d.title, coverage=d.coverage,
                           incomes=sorted(d.incomes), topics=_topics(d),
                           documents=[i.id for i in _documents_of(t)], notes=list(d.notes))
            for t, d in sorted(load_all().items())]


_RELATION_TEXTS = {
    "convention": ("treaty_text", {"pt": "Texto da convenção (e, se existir, do protocolo).",
                                   "es": "Texto del convenio (y, si existe, del protocolo).",
                                   "en": "Text of the treaty (and of its protocol, if any)."}),
    "summary": ("summary", {"pt": "Resumo da convenção, não o texto oficial: só cobre o que resume.",
                            "es": "Resumen del convenio, no el texto oficial: solo cubre lo que resume.",
                            "en": "Summary of the treaty, not the official text: it covers only what it sums up."}),
    "ministerial_order": ("implementing_order", {"pt": "Ato que aplica a convenção num dos Estados.",
                                                 "es": "Acto que aplica el convenio en uno de los Estados.",
                                                 "en": "Act applying the treaty in one of the States."}),
    "multilateral_instrument": ("treaty_text", {"pt": "Texto do instrumento multilateral.",
                                                "es": "Texto del instrumento multilateral.",
                                                "en": "Text of the multilateral instrument."}),
}
_OTHER_DOCUMENT = {"pt": "Documento da convenção.", "es": "Documento del convenio.", "en": "Treaty document."}


def _modifies(treaty: str, provisions: dict[str, str], text: dict[str, str]) -> dict[str, str]:
    return {"pt": f"Modifica a convenção {treaty} ({provisions['pt']}), segundo o corpus: {text['pt']}",
            "es": f"Modifica el convenio {treaty} ({provisions['es']}), según el corpus: {text['es']}",
            "en": f"Modifies the treaty {treaty} ({provisions['en']}), according to the corpus: {text['en']}"}


def _not_established(treaty: str) -> dict[str, str]:
    return {
        "pt": f"O corpus não estabelece que este instrumento multilateral modifique a convenção {treaty}: nenhum "
              f"documento do corpus o afirma, e o texto do instrumento no corpus não inclui as listas de convenções "
              f"abrangidas, reservas e notificações. Não se assume que se aplique nem que não se aplique.",
        "es": f"El corpus no establece que este instrumento multilateral modifique el convenio {treaty}: ningún "
              f"documento del corpus lo afirma, y el texto del instrumento en el corpus no incluye las listas de "
              f"convenios comprendidos, reservas y notificaciones. No se presume ni que se aplique ni que no se "
              f"aplique.",
        "en": f"The corpus does not establish that this multilateral instrument modifies the treaty {treaty}: no "
              f"document in the corpus says so, and the instrument's text in the corpus does not include the lists "
              f"of covered agreements, reservations and notifications. It is assumed neither to apply nor not to "
              f"apply.",
    }


def applicable_documents(treaty: str) -> list[DocumentApplication] | NotCovered:
    data = treaty_or_not_covered(treaty)
    if isinstance(data, NotCovered):
        return data
    out: list[DocumentApplication] = []
    for info in _documents_of(data.treaty):
        kind = next((k for k in info.kind if k in _RELATION_TEXTS), None)
        relation, texts = _RELATION_TEXTS[kind] if kind else ("treaty_text", _OTHER_DOCUMENT)
        texts = dict(texts)
        if info.notes:                       # the catalogue's notes are Portuguese prose
            texts["pt"] = f"{texts['pt']} {info.notes}"
        out.append(DocumentApplication(doc=info.id, title=info.title, relation=relation, text=texts["pt"],
                                       citations=[], texts=texts))
    if len(data.parties) == 2:
        stated = {m.doc: m for m in data.modified_by}
        for info in (d for d in _catalog() if "multilateral_instrument" in d.kind):
            if info.id in stated:
                m = stated[info.id]
                texts = _modifies(data.treaty, m.provisions_texts, m.texts)
                out.append(DocumentApplication(doc=info.id, title=info.title, relation="modifies", text=texts["pt"],
                                               citations=[c.citation for c in m.citations], texts=texts))
            else:
                texts = _not_established(data.treaty)
                out.append(DocumentApplication(doc=info.id, title=info.title, relation="not_established",
                                               text=texts["pt"], citations=[], texts=texts))
    return out
