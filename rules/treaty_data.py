"""The treaty file schema, once: `TreatyData` is the frozen pydantic model tree read straight from
rules/data/*.yaml (unknown keys refused, closed sets as Literal), loaded once per process.

Which treaties exist is whatever files are in the rules folder (Settings.rules_dir): a new treaty is a new
YAML file, no code. Texts shown to users are not here but in the message catalogue (i18n/data.yaml): a
figure's description is `data.figures.<id>`, a note is `data.notes.<note id>` (data files list note ids), a
modification's text and provisions are `data.modifications.<treaty>.<doc>.text|provisions`, an income's
refusal is `data.not_covered.<id>`. Loading refuses a file naming a text the catalogue does not have.
"""
from __future__ import annotations

from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import AfterValidator, Field, StrictInt, ValidationError, ValidationInfo, field_validator, model_validator

from config import load_settings
from ingest.catalog import describe_error
from rules.conditions import SPECS
from rules.data_parts import (
    Citations,
    CitedQuote,
    Conditions,
    Frozen,
    Ids,
    Note,
    Notes,
    catalogue_message,
    context_value,
)
from rules.facts import INCOME_TYPES, TOPICS
from rules.results import Message
from rules.rights_data import ArticleEntry, ReliefSpec, RightsIncome, TaxingRights

Outcome = Literal["cap", "exempt", "no_treaty_limit", "pe_article_7", "source_only", "no_treaty_benefit",
                  "not_in_corpus"]
Window = Literal["calendar_year", "any_12_months", "12_months_in_fiscal_year"]
INDIVIDUAL_STEPS = ("permanent_home", "vital_interests", "habitual_abode", "nationality", "mutual_agreement")


class RulesDataError(Exception):
    """A data file is malformed; the message names the file and the entry."""


class Rule(Frozen):
    id: str = Field(min_length=1)
    outcome: Outcome
    value: float | None = None
    unit: str | None = None
    when: Conditions = ()
    citations: Citations
    exclusion: bool = False
    effective_from: date | None = None
    notes: Notes = ()
    yields_to: Ids = ()   # an exclusion that does not apply when one of these rules is met

    @model_validator(mode="after")
    def _cap_has_value(self) -> Rule:
        if self.outcome == "cap" and self.value is None:
            raise ValueError(f"{self.id}: um limite ('cap') precisa de 'value' numérico")
        return self


class Requirement(Frozen):
    code: str
    source_states: Ids = ()
    citations: Citations
    note_not_met: Note = None
    note: Note = None                 # shown whenever the requirement applies (e.g. a proviso)
    not_for: Ids = ()                 # rule ids the requirement does not apply to

    @field_validator("code")
    @classmethod
    def _known(cls, code: str) -> str:
        if code not in SPECS:
            raise ValueError(f"código desconhecido {code!r}")
        return code


class Redirect(Frozen):
    when: str
    income: str
    citations: Citations

    @model_validator(mode="after")
    def _known(self) -> Redirect:
        if self.when not in SPECS or self.income not in INCOME_TYPES:
            raise ValueError("precisa de 'when' (código) e 'income' conhecidos")
        return self


def _not_covered(value: Any) -> Any:
    return value if value is None or isinstance(value, Message) else catalogue_message(f"data.not_covered.{value}")


class IncomeSpec(Frozen):
    rules: tuple[Rule, ...]
    requirements: tuple[Requirement, ...] = ()
    notes: Notes = ()
    redirect: Redirect | None = None
    source_states: Ids = ()
    not_covered_message: Message | None = None

    @field_validator("not_covered_message", mode="before")
    @classmethod
    def _message(cls, value: Any) -> Any:
        return _not_covered(value)

    @field_validator("rules")
    @classmethod
    def _last_unconditional(cls, rules: tuple[Rule, ...]) -> tuple[Rule, ...]:
        main = [r for r in rules if not r.exclusion]
        if not main or main[-1].when:
            raise ValueError("a última regra não-exclusão deve ser incondicional (when: [])")
        return rules


class Withholding(Frozen):
    common_exclusions: tuple[Rule, ...] = ()
    incomes: dict[str, IncomeSpec] = Field(default_factory=dict)

    @field_validator("common_exclusions", mode="before")
    @classmethod
    def _exclusions(cls, raw: Any) -> Any:
        return [{**r, "exclusion": True} if isinstance(r, dict) else r for r in raw or []]

    @field_validator("incomes", mode="before")
    @classmethod
    def _income_types(cls, raw: Any) -> Any:
        unknown = [k for k in raw if k not in INCOME_TYPES] if isinstance(raw, dict) else []
        if unknown:
            raise ValueError(f"tipo de rendimento desconhecido {unknown} (conhecidos: {', '.join(INCOME_TYPES)})")
        return raw


class EmploymentSpec(Frozen):
    window: Window
    max_days: StrictInt
    citations: Citations
    employer_citations: Citations
    pe_citations: Citations
    notes: Notes = ()


class Residence(Frozen):
    individual: dict[str, CitedQuote] = Field(default_factory=dict)
    company: dict[Literal["effective_management"], CitedQuote] = Field(default_factory=dict)

    @field_validator("individual")
    @classmethod
    def _all_steps(cls, steps: dict[str, CitedQuote]) -> dict[str, CitedQuote]:
        if steps and set(steps) != set(INDIVIDUAL_STEPS):
            raise ValueError(f"precisa dos passos {', '.join(INDIVIDUAL_STEPS)}")
        return steps


def _known_topic(topic: str) -> str:
    if topic not in TOPICS:
        raise ValueError(f"tópico desconhecido {topic!r}")
    return topic


Topic = Annotated[str, AfterValidator(_known_topic)]     # one of rules.facts.TOPICS


class FigureSpec(Frozen):
    id: str = Field(min_length=1)
    topic: Topic
    value: float | str | None = None
    unit: str = Field(min_length=1)
    citations: Citations
    conditions: Conditions = ()
    effective_from: date | None = None
    notes: Notes = ()
    incomes: Ids = ()                     # a relief figure that holds for these incomes only (empty = all)
    also_topics: Ids = ()                 # other topics whose questions it answers (MLI 8 for a dividend question)
    ends: bool = False                    # a termination article's figure (how the treaty ends)
    precondition: bool = False            # whether the topic's rules apply at all: said beside any figure asked
    description: Message                  # data.figures.<id>, set from the id

    @model_validator(mode="before")
    @classmethod
    def _description(cls, raw: Any) -> Any:
        if isinstance(raw, dict) and raw.get("id"):
            return {**raw, "description": catalogue_message(f"data.figures.{raw['id']}")}
        return raw

    @field_validator("also_topics")
    @classmethod
    def _also_topics(cls, topics: tuple[str, ...]) -> tuple[str, ...]:
        unknown = [t for t in topics if t not in TOPICS]
        if unknown:
            raise ValueError(f"tópicos desconhecidos {unknown!r}")
        return topics

    def answers(self, topic: str) -> bool:
        return topic == self.topic or topic in self.also_topics


class Modification(Frozen):
    doc: str = Field(min_length=1)
    citations: Citations
    provisions: Message | None = None     # data.modifications.<treaty>.<doc>.provisions, set from the doc
    text: Message | None = None

    @model_validator(mode="before")
    @classmethod
    def _texts(cls, raw: Any, info: ValidationInfo) -> Any:
        if isinstance(raw, dict) and raw.get("doc"):
            base = f"data.modifications.{str(context_value(info, 'treaty', '')).lower()}.{raw['doc']}"
            return {**raw, "provisions": catalogue_message(f"{base}.provisions"),
                    "text": catalogue_message(f"{base}.text")}
        return raw


class AbsentProvision(Frozen):
    """A provision of the document that its text in the corpus does not hold and that questions name by name
    (the MLI's principal purpose test, art. 7(1), before the excerpt's art. 7(9)): a question on it is answered
    with what the corpus lacks, never with the document's other figures on the topic."""
    provision: str = Field(min_length=1)     # the lexicon's `provisions` key, "MLI:7(1)"
    article: str = Field(min_length=1)       # as the card names it, "7(1)"
    topic: Topic


class TreatyData(Frozen):
    """One treaty file: its withholding caps, employment test, residence tie-breaker, figures, the documents
    that modify it, who may tax each income and how the residence State relieves double taxation."""
    treaty: str = Field(min_length=1)
    parties: Ids = ()
    coverage: Literal["full", "summary", "partial"] = "full"
    title: str = ""
    path: Path
    notes: Notes = ()
    withholding: Withholding = Withholding()
    employment: EmploymentSpec | None = None
    residence: Residence = Residence()
    figures: tuple[FigureSpec, ...] = ()
    modified_by: tuple[Modification, ...] = ()
    taxing_rights: TaxingRights = TaxingRights()
    relief: tuple[ReliefSpec, ...] = ()
    absent: tuple[AbsentProvision, ...] = ()

    @model_validator(mode="before")
    @classmethod
    def _title(cls, raw: Any) -> Any:
        if isinstance(raw, dict):
            title = raw.get("title") or raw.get("treaty") or ""
            return {**raw, "title": " ".join(str(title).split()),
                    "withholding": raw.get("withholding") or {}, "residence": raw.get("residence") or {},
                    "taxing_rights": raw.get("taxing_rights") or {}}
        return raw

    @field_validator("parties")
    @classmethod
    def _two_or_none(cls, parties: tuple[str, ...]) -> tuple[str, ...]:
        if len(parties) not in (0, 2):
            raise ValueError("uma convenção bilateral tem duas partes (ou nenhuma, num instrumento multilateral)")
        return parties

    @model_validator(mode="after")
    def _articles_have_cases(self) -> TreatyData:
        for entry in self.rights_articles.values():
            missing = [i for i in entry.incomes if i not in self.rights and i not in self.incomes]
            if missing:
                raise ValueError(f"taxing_rights.articles.{entry.article}: sem casos para {missing}")
        return self

    @property
    def common_exclusions(self) -> tuple[Rule, ...]:
        return self.withholding.common_exclusions

    @property
    def incomes(self) -> dict[str, IncomeSpec]:
        return self.withholding.incomes

    @property
    def residence_individual(self) -> dict[str, CitedQuote]:
        return self.residence.individual

    @property
    def residence_company(self) -> dict[str, CitedQuote]:
        return {str(step): quote for step, quote in self.residence.company.items()}

    @property
    def rights_articles(self) -> dict[str, ArticleEntry]:
        return self.taxing_rights.articles

    @property
    def rights(self) -> dict[str, RightsIncome]:
        return self.taxing_rights.incomes


def load_treaty_file(path: Path) -> TreatyData:
    try:
        raw = yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader) or {}
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise RulesDataError(f"{path.name}: ficheiro ilegível: {exc}") from exc
    if not isinstance(raw, dict):
        raise RulesDataError(f"{path.name}: tem de ser um mapeamento (encontrado: {type(raw).__name__})")
    context = {"treaty": raw.get("treaty"), "parties": raw.get("parties") or ()}
    try:
        return TreatyData.model_validate({**raw, "path": path}, context=context)
    except ValidationError as exc:
        errors = [describe_error(dict(e)) for e in exc.errors()[:5]]
        raise RulesDataError(f"{path.name}: " + "; ".join(errors)) from exc


def _rules_dir(data_dir: Path | None) -> Path:
    return data_dir if data_dir is not None else load_settings().rules_dir


@lru_cache(maxsize=4)
def _load_dir(data_dir: Path) -> dict[str, TreatyData]:
    treaties: dict[str, TreatyData] = {}
    for path in sorted(data_dir.glob("*.yaml")):
        data = load_treaty_file(path)
        if data.treaty in treaties:
            raise RulesDataError(f"{path.name}: convenção {data.treaty} repetida (também em "
                                 f"{treaties[data.treaty].path.name})")
        treaties[data.treaty] = data
    return treaties


def load_all(data_dir: Path | None = None) -> dict[str, TreatyData]:
    """Every treaty file of the rules folder (Settings.rules_dir unless a folder is given), by treaty id."""
    return _load_dir(_rules_dir(data_dir))


def _canonical(name: str) -> str:
    cleaned = name.strip().upper().replace("–", "-").replace("_", "-").replace(" ", "-").replace("/", "-")
    return "-".join(part for part in cleaned.split("-") if part)


def resolve(name: str, data_dir: Path | None = None) -> TreatyData | None:
    """The treaty a user-given id names: case, dash style and party order do not matter ("br-pt")."""
    if not isinstance(name, str) or not name.strip():
        return None
    wanted = _canonical(name)
    for data in load_all(data_dir).values():
        if wanted == data.treaty.upper():
            return data
        if len(data.parties) == 2 and wanted in ("-".join(data.parties), "-".join(reversed(data.parties))):
            return data
    return None
