"""Loading and validating rules/data/*.yaml, once per process.

Which treaties exist is whatever files are there: a new treaty is a new YAML file, no code.
Texts shown to users are not here but in the message catalogue (i18n/data.yaml): a figure's description is
`data.figures.<id>`, a note is `data.notes.<note id>` (data files list note ids), a modification's text and
provisions are `data.modifications.<treaty>.<doc>.text|provisions`, an income's refusal is
`data.not_covered.<id>`. The loader refuses a file naming a text the catalogue does not have.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from i18n import CatalogueError, has, t
from ingest.catalog import describe_error
from rules.conditions import SPECS
from rules.facts import INCOME_TYPES, TOPICS
from rules.results import Citation, Message
from rules.rights_data import ArticleEntry, ReliefSpec, RightsIncome, read_relief, read_rights

DATA_DIR = Path(__file__).resolve().parent / "data"
OUTCOMES = ("cap", "exempt", "no_treaty_limit", "pe_article_7", "source_only", "no_treaty_benefit", "not_in_corpus")
WINDOWS = ("calendar_year", "any_12_months", "12_months_in_fiscal_year")
INDIVIDUAL_STEPS = ("permanent_home", "vital_interests", "habitual_abode", "nationality", "mutual_agreement")


class RulesDataError(Exception):
    """A data file is malformed; the message names the file and the entry."""


@dataclass(frozen=True)
class CitedQuote:
    citation: Citation
    source_states: tuple[str, ...] = ()   # empty = whichever State is the source


@dataclass(frozen=True)
class ConditionRef:
    code: str
    params: dict[str, Any]


@dataclass(frozen=True)
class Rule:
    id: str
    outcome: str
    value: float | None
    unit: str | None
    when: tuple[ConditionRef, ...]
    citations: tuple[CitedQuote, ...]
    exclusion: bool = False
    effective_from: date | None = None
    notes: tuple[Message, ...] = ()
    yields_to: tuple[str, ...] = ()   # an exclusion that does not apply when one of these rules is met


@dataclass(frozen=True)
class Requirement:
    code: str
    source_states: tuple[str, ...]
    citations: tuple[CitedQuote, ...]
    note_not_met: Message | None
    note: Message | None = None              # shown whenever the requirement applies (e.g. a proviso)
    not_for: tuple[str, ...] = ()            # rule ids the requirement does not apply to


@dataclass(frozen=True)
class Redirect:
    when: str
    income: str
    citations: tuple[CitedQuote, ...]


@dataclass(frozen=True)
class IncomeSpec:
    rules: tuple[Rule, ...]
    requirements: tuple[Requirement, ...] = ()
    notes: tuple[Message, ...] = ()
    redirect: Redirect | None = None
    source_states: tuple[str, ...] = ()
    not_covered_message: Message | None = None


@dataclass(frozen=True)
class EmploymentSpec:
    window: str
    max_days: int
    citations: tuple[CitedQuote, ...]
    employer_citations: tuple[CitedQuote, ...]
    pe_citations: tuple[CitedQuote, ...]
    notes: tuple[Message, ...] = ()


@dataclass(frozen=True)
class FigureSpec:
    id: str
    topic: str
    value: float | str | None
    unit: str
    description: Message
    citations: tuple[CitedQuote, ...]
    conditions: tuple[ConditionRef, ...] = ()
    effective_from: date | None = None
    notes: tuple[Message, ...] = ()


@dataclass(frozen=True)
class Modification:
    doc: str
    provisions: Message
    text: Message
    citations: tuple[CitedQuote, ...]


@dataclass(frozen=True)
class TreatyData:
    treaty: str
    parties: tuple[str, ...]
    coverage: str
    title: str
    path: Path
    notes: tuple[Message, ...] = ()
    common_exclusions: tuple[Rule, ...] = ()
    incomes: dict[str, IncomeSpec] = field(default_factory=dict)
    employment: EmploymentSpec | None = None
    residence_individual: dict[str, CitedQuote] = field(default_factory=dict)
    residence_company: dict[str, CitedQuote] = field(default_factory=dict)
    figures: tuple[FigureSpec, ...] = ()
    modified_by: tuple[Modification, ...] = ()
    rights_articles: dict[str, ArticleEntry] = field(default_factory=dict)
    rights: dict[str, RightsIncome] = field(default_factory=dict)
    relief: tuple[ReliefSpec, ...] = ()


def _as_tuple(value: Any) -> tuple:
    if value is None:
        return ()
    return tuple(value) if isinstance(value, list) else (value,)


def _opt_str(value: Any) -> str | None:
    return None if value is None else str(value)


def _date(value: Any, where: str) -> date | None:
    if value is None or isinstance(value, date):
        return value
    try:
        return date.fromisoformat(str(value))
    except ValueError as exc:
        raise RulesDataError(f"{where}: data inválida {value!r}") from exc


class _Withholding(BaseModel):
    model_config = ConfigDict(extra="forbid")
    common_exclusions: list[dict[str, Any]] = []
    incomes: dict[str, dict[str, Any]] = {}


class _Residence(BaseModel):
    model_config = ConfigDict(extra="forbid")
    individual: dict[str, dict[str, Any]] = {}
    company: dict[str, dict[str, Any]] = {}


class _FileShape(BaseModel):
    """The top-level shape of a data file (pydantic); _Reader then checks what each entry means."""
    model_config = ConfigDict(extra="allow")
    treaty: str = Field(min_length=1)
    parties: list[str] = []
    coverage: str = "full"
    withholding: _Withholding | None = None
    employment: dict[str, Any] | None = None
    residence: _Residence | None = None
    figures: list[dict[str, Any]] | None = None
    modified_by: list[dict[str, Any]] | None = None


class _Reader:
    def __init__(self, path: Path, treaty: str):
        self.path = path
        self.treaty = treaty

    def fail(self, where: str, message: str) -> RulesDataError:
        return RulesDataError(f"{self.path.name}: {where}: {message}")

    def message(self, key: str, where: str) -> Message:
        """A catalogue text the file refers to; refused when the catalogue lacks it."""
        if not has(key):
            raise self.fail(where, f"o catálogo de mensagens (i18n/) não tem o texto {key!r}")
        return Message(key)

    def notes(self, raw: Any, where: str) -> tuple[Message, ...]:
        return tuple(self.message(f"data.notes.{n}", where) for n in _as_tuple(raw))

    def citation(self, raw: Any, where: str) -> CitedQuote:
        if not isinstance(raw, dict) or not raw.get("doc") or not raw.get("quote"):
            raise self.fail(where, "citação sem 'doc' ou 'quote'")
        return CitedQuote(
            citation=Citation(doc=str(raw["doc"]), treaty=self.treaty, article=_opt_str(raw.get("article")),
                              paragraph=_opt_str(raw.get("paragraph")),
                              subparagraph=_opt_str(raw.get("subparagraph")),
                              quote=" ".join(str(raw["quote"]).split()), language=str(raw.get("language", "pt"))),
            source_states=tuple(str(s) for s in _as_tuple(raw.get("source_states"))))

    def citations(self, raw: Any, where: str, required: bool = True) -> tuple[CitedQuote, ...]:
        items = _as_tuple(raw)
        if required and not items:
            raise self.fail(where, "sem citações")
        return tuple(self.citation(c, f"{where} citação {i + 1}") for i, c in enumerate(items))

    def conditions(self, raw: Any, where: str) -> tuple[ConditionRef, ...]:
        refs = []
        for item in _as_tuple(raw):
            if not isinstance(item, dict) or item.get("code") not in SPECS:
                raise self.fail(where, f"condição desconhecida {item!r} (códigos: {', '.join(sorted(SPECS))})")
            params = {k: v for k, v in item.items() if k != "code"}
            try:
                t("pt", f"rules.conditions.{item['code']}", **params)
            except CatalogueError as exc:
                raise self.fail(where, f"condição {item['code']} sem o parâmetro {exc}") from exc
            refs.append(ConditionRef(code=item["code"], params=params))
        return tuple(refs)

    def rule(self, raw: Any, where: str) -> Rule:
        if not isinstance(raw, dict) or not raw.get("id"):
            raise self.fail(where, "regra sem 'id'")
        where = f"{where} ({raw['id']})"
        if raw.get("outcome") not in OUTCOMES:
            raise self.fail(where, f"outcome inválido {raw.get('outcome')!r}")
        value = raw.get("value")
        if raw["outcome"] == "cap" and not isinstance(value, (int, float)):
            raise self.fail(where, "um limite ('cap') precisa de 'value' numérico")
        return Rule(id=str(raw["id"]), outcome=raw["outcome"], value=None if value is None else float(value),
                    unit=raw.get("unit"), when=self.conditions(raw.get("when"), where),
                    citations=self.citations(raw.get("citations"), where), exclusion=bool(raw.get("exclusion")),
                    effective_from=_date(raw.get("effective_from"), where),
                    notes=self.notes(raw.get("notes"), where), yields_to=tuple(_as_tuple(raw.get("yields_to"))))

    def income(self, name: str, raw: Any) -> IncomeSpec:
        where = f"withholding.incomes.{name}"
        if name not in INCOME_TYPES:
            raise self.fail(where, f"tipo de rendimento desconhecido (conhecidos: {', '.join(INCOME_TYPES)})")
        rules = tuple(self.rule(r, f"{where} regra {i + 1}") for i, r in enumerate(_as_tuple(raw.get("rules"))))
        main = [r for r in rules if not r.exclusion]
        if not main or main[-1].when:
            raise self.fail(where, "a última regra não-exclusão deve ser incondicional (when: [])")
        requirements = []
        for i, req in enumerate(_as_tuple(raw.get("requirements"))):
            rw = f"{where} requisito {i + 1}"
            if req.get("code") not in SPECS:
                raise self.fail(rw, f"código desconhecido {req.get('code')!r}")
            requirements.append(Requirement(code=req["code"], source_states=tuple(_as_tuple(req.get("source_states"))),
                                            citations=self.citations(req.get("citations"), rw),
                                            note_not_met=self.message(f"data.notes.{req['note_not_met']}", rw)
                                            if req.get("note_not_met") else None,
                                            note=self.message(f"data.notes.{req['note']}", rw) if req.get("note")
                                            else None, not_for=tuple(_as_tuple(req.get("not_for")))))
        redirect = None
        if raw.get("redirect"):
            rd = raw["redirect"]
            if rd.get("when") not in SPECS or rd.get("income") not in INCOME_TYPES:
                raise self.fail(f"{where}.redirect", "precisa de 'when' (código) e 'income' conhecidos")
            redirect = Redirect(when=rd["when"], income=rd["income"],
                                citations=self.citations(rd.get("citations"), f"{where}.redirect"))
        return IncomeSpec(rules=rules, requirements=tuple(requirements),
                          notes=self.notes(raw.get("notes"), where),
                          redirect=redirect, source_states=tuple(_as_tuple(raw.get("source_states"))),
                          not_covered_message=self.message(f"data.not_covered.{raw['not_covered_message']}", where)
                          if raw.get("not_covered_message") else None)

    def figure(self, raw: Any, where: str) -> FigureSpec:
        if not isinstance(raw, dict) or not raw.get("id"):
            raise self.fail(where, "valor sem 'id'")
        where = f"{where} ({raw['id']})"
        if raw.get("topic") not in TOPICS:
            raise self.fail(where, f"tópico desconhecido {raw.get('topic')!r}")
        if not raw.get("unit"):
            raise self.fail(where, "falta 'unit'")
        return FigureSpec(id=str(raw["id"]), topic=raw["topic"], value=raw.get("value"), unit=str(raw["unit"]),
                          description=self.message(f"data.figures.{raw['id']}", where),
                          citations=self.citations(raw.get("citations"), where),
                          conditions=self.conditions(raw.get("conditions"), where),
                          effective_from=_date(raw.get("effective_from"), where),
                          notes=self.notes(raw.get("notes"), where))

    def modification(self, raw: Any, where: str) -> Modification:
        if not isinstance(raw, dict) or not raw.get("doc"):
            raise self.fail(where, "modificação sem 'doc'")
        where = f"{where} ({raw['doc']})"
        base = f"data.modifications.{self.treaty.lower()}.{raw['doc']}"
        return Modification(doc=str(raw["doc"]), provisions=self.message(f"{base}.provisions", where),
                            text=self.message(f"{base}.text", where),
                            citations=self.citations(raw.get("citations"), where))


def load_treaty_file(path: Path) -> TreatyData:
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise RulesDataError(f"{path.name}: ficheiro ilegível: {exc}") from exc
    if not isinstance(raw, dict):
        raise RulesDataError(f"{path.name}: tem de ser um mapeamento (encontrado: {type(raw).__name__})")
    try:
        _FileShape.model_validate(raw)
    except ValidationError as exc:
        raise RulesDataError(f"{path.name}: " + "; ".join(describe_error(e) for e in exc.errors()[:5])) from exc
    treaty = str(raw["treaty"])
    reader = _Reader(path, treaty)
    parties = tuple(str(p) for p in _as_tuple(raw.get("parties")))
    if len(parties) not in (0, 2):
        raise reader.fail("parties",
                          "uma convenção bilateral tem duas partes (ou nenhuma, num instrumento multilateral)")
    withholding = raw.get("withholding") or {}
    common = tuple(replace(reader.rule(r, f"withholding.common_exclusions {i + 1}"), exclusion=True)
                   for i, r in enumerate(_as_tuple(withholding.get("common_exclusions"))))
    incomes = {name: reader.income(name, spec) for name, spec in (withholding.get("incomes") or {}).items()}
    employment = None
    if raw.get("employment"):
        emp = raw["employment"]
        if emp.get("window") not in WINDOWS or not isinstance(emp.get("max_days"), int):
            raise reader.fail("employment", f"precisa de 'window' ({', '.join(WINDOWS)}) e 'max_days' inteiro")
        employment = EmploymentSpec(window=emp["window"], max_days=emp["max_days"],
                                    citations=reader.citations(emp.get("citations"), "employment"),
                                    employer_citations=reader.citations(emp.get("employer_citations"), "employment"),
                                    pe_citations=reader.citations(emp.get("pe_citations"), "employment"),
                                    notes=reader.notes(emp.get("notes"), "employment"))
    residence = raw.get("residence") or {}
    individual = {step: reader.citation(c, f"residence.individual.{step}")
                  for step, c in (residence.get("individual") or {}).items()}
    if individual and set(individual) != set(INDIVIDUAL_STEPS):
        raise reader.fail("residence.individual", f"precisa dos passos {', '.join(INDIVIDUAL_STEPS)}")
    company = {step: reader.citation(c, f"residence.company.{step}")
               for step, c in (residence.get("company") or {}).items()}
    if company and set(company) != {"effective_management"}:
        raise reader.fail("residence.company", "só o passo 'effective_management' é conhecido")
    figures = tuple(reader.figure(f, f"figures {i + 1}") for i, f in enumerate(_as_tuple(raw.get("figures"))))
    modified_by = tuple(reader.modification(m, f"modified_by {i + 1}")
                        for i, m in enumerate(_as_tuple(raw.get("modified_by"))))
    rights_articles, rights = read_rights(reader, raw)
    return TreatyData(treaty=treaty, parties=parties, coverage=str(raw.get("coverage", "full")),
                      title=" ".join(str(raw.get("title", treaty)).split()), path=path,
                      notes=reader.notes(raw.get("notes"), "notes"),
                      common_exclusions=common, incomes=incomes, employment=employment,
                      residence_individual=individual, residence_company=company, figures=figures,
                      modified_by=modified_by, rights_articles=rights_articles, rights=rights,
                      relief=read_relief(reader, raw, parties))


@lru_cache(maxsize=4)
def load_all(data_dir: Path = DATA_DIR) -> dict[str, TreatyData]:
    treaties: dict[str, TreatyData] = {}
    for path in sorted(data_dir.glob("*.yaml")):
        data = load_treaty_file(path)
        if data.treaty in treaties:
            raise RulesDataError(f"{path.name}: convenção {data.treaty} repetida (também em "
                                 f"{treaties[data.treaty].path.name})")
        treaties[data.treaty] = data
    return treaties


def _canonical(name: str) -> str:
    cleaned = name.strip().upper().replace("–", "-").replace("_", "-").replace(" ", "-").replace("/", "-")
    return "-".join(part for part in cleaned.split("-") if part)


def resolve(name: str, data_dir: Path = DATA_DIR) -> TreatyData | None:
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
