"""Reading the `taxing_rights` and `relief` sections of a treaty file (who may tax each income, and how the
residence State removes double taxation).

Each distributive article (6-22) appears under `taxing_rights.articles`, with the incomes it decides or the
reason it allocates none. Each income lists cases read in order, like the withholding rules: a case has
conditions (codes from rules/conditions.py), a right per State role, citations with exact quotes and, where
the source State's tax is capped, `cap_from` naming the withholding income whose rules give the cap (the
number is never repeated here). A case may instead `redirect` to another income (e.g. art. 19(3) → 15/18).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.facts import TOPICS
from rules.results import Message

RIGHTS = ("exclusive", "shared", "capped", "none", "exempt")
ROLES = ("residence", "source", "effective_management")
RELIEF_METHODS = ("credit", "exemption_progression", "exemption", "dividend_deduction", "indirect_credit",
                  "tax_sparing")
RELIEF_APPLIES = ("shared", "residence_exempt")


@dataclass(frozen=True)
class RightsCase:
    id: str
    article: str
    when: tuple                      # ConditionRef
    rights: dict[str, str]           # role -> right
    citations: tuple                 # CitedQuote
    cap_from: str | None = None      # withholding income giving the source cap
    redirect: str | None = None      # income whose cases apply instead
    notes: tuple[Message, ...] = ()
    assumed_not: tuple[str, ...] = ()  # condition codes of an exception: when one of them is unknown, the
    #                                    case is assumed not to apply (listed in assumptions, no alternative)


@dataclass(frozen=True)
class RightsIncome:
    cases: tuple[RightsCase, ...]
    source_role: str                 # catalogue key rules.roles.<source_role>: who "source" is for this income
    notes: tuple[Message, ...] = ()


@dataclass(frozen=True)
class ArticleEntry:
    article: str
    incomes: tuple[str, ...]         # incomes this article decides
    reason: Message | None = None    # why it allocates no taxing right (incomes empty)
    citations: tuple = ()


@dataclass(frozen=True)
class ReliefSpec:
    id: str
    residence_states: tuple[str, ...]
    method: str
    applies: str                     # "shared": the source may tax too; "residence_exempt": only the source may
    incomes: tuple[str, ...]         # empty = every income
    when: tuple
    citations: tuple
    figures: tuple[str, ...] = ()    # ids of figures holding this method's numbers
    notes: tuple[Message, ...] = ()
    replaces: tuple[str, ...] = ()   # relief ids this one displaces when its conditions are met


def read_rights(reader: Any, raw: dict) -> tuple[dict[str, ArticleEntry], dict[str, RightsIncome]]:
    section = raw.get("taxing_rights") or {}
    articles: dict[str, ArticleEntry] = {}
    for article, entry in (section.get("articles") or {}).items():
        where = f"taxing_rights.articles.{article}"
        if isinstance(entry, list):
            unknown = [i for i in entry if i not in TOPICS]
            if unknown:
                raise reader.fail(where, f"rendimentos desconhecidos {unknown}")
            articles[str(article)] = ArticleEntry(str(article), tuple(entry))
        elif isinstance(entry, dict) and entry.get("none"):
            articles[str(article)] = ArticleEntry(
                str(article), (), reader.message(f"data.notes.{entry['none']}", where),
                reader.citations(entry.get("citations"), where))
        else:
            raise reader.fail(where, "precisa de uma lista de rendimentos ou de 'none: <id da nota>'")
    incomes: dict[str, RightsIncome] = {}
    for income, spec in (section.get("incomes") or {}).items():
        where = f"taxing_rights.incomes.{income}"
        if income not in TOPICS:
            raise reader.fail(where, "rendimento desconhecido (use um código de rules.facts.TOPICS)")
        cases = tuple(_case(reader, c, f"{where} caso {i + 1}") for i, c in enumerate(spec.get("cases") or []))
        if not cases or cases[-1].when:
            raise reader.fail(where, "o último caso deve ser incondicional (when: [])")
        role = str(spec.get("source_role", "source_state"))
        incomes[income] = RightsIncome(cases=cases, source_role=reader.message(f"rules.roles.{role}", where).key,
                                       notes=reader.notes(spec.get("notes"), where))
    for entry in articles.values():
        missing = [i for i in entry.incomes if i not in incomes and i not in (raw.get("withholding") or {}).get(
            "incomes", {})]
        if missing:
            raise reader.fail(f"taxing_rights.articles.{entry.article}", f"sem casos para {missing}")
    return articles, incomes


def _case(reader: Any, raw: Any, where: str) -> RightsCase:
    if not isinstance(raw, dict) or not raw.get("id") or not raw.get("article"):
        raise reader.fail(where, "caso sem 'id' ou 'article'")
    where = f"{where} ({raw['id']})"
    rights = {str(k): str(v) for k, v in (raw.get("rights") or {}).items()}
    if raw.get("redirect"):
        if raw["redirect"] not in TOPICS:
            raise reader.fail(where, f"redirect desconhecido {raw['redirect']!r}")
    elif not rights or any(k not in ROLES for k in rights) or any(v not in RIGHTS for v in rights.values()):
        raise reader.fail(where, f"'rights' precisa de papéis {ROLES} com direitos {RIGHTS}")
    if "capped" in rights.values() and not raw.get("cap_from"):
        raise reader.fail(where, "um direito 'capped' precisa de 'cap_from' (o rendimento das regras de retenção)")
    when = reader.conditions(raw.get("when"), where)
    assumed = raw.get("assumed_not") or ()
    codes = tuple(c.code for c in when) if assumed is True else tuple(str(c) for c in assumed)
    if any(c not in {w.code for w in when} for c in codes):
        raise reader.fail(where, "'assumed_not' lista códigos que não estão em 'when'")
    return RightsCase(id=str(raw["id"]), article=str(raw["article"]), when=when,
                      rights=rights, citations=reader.citations(raw.get("citations"), where),
                      cap_from=raw.get("cap_from"), redirect=raw.get("redirect"),
                      notes=reader.notes(raw.get("notes"), where), assumed_not=codes)


def read_relief(reader: Any, raw: dict, parties: tuple[str, ...]) -> tuple[ReliefSpec, ...]:
    out = []
    for i, item in enumerate(raw.get("relief") or []):
        where = f"relief {i + 1} ({item.get('id')})"
        states = tuple(str(s) for s in (item.get("residence_states") or parties))
        if item.get("method") not in RELIEF_METHODS or item.get("applies", "shared") not in RELIEF_APPLIES:
            raise reader.fail(where, f"'method' em {RELIEF_METHODS} e 'applies' em {RELIEF_APPLIES}")
        if any(s not in parties for s in states):
            raise reader.fail(where, f"residence_states fora das partes {parties}")
        out.append(ReliefSpec(id=str(item["id"]), residence_states=states, method=item["method"],
                              applies=item.get("applies", "shared"), incomes=tuple(item.get("incomes") or ()),
                              when=reader.conditions(item.get("when"), where),
                              citations=reader.citations(item.get("citations"), where),
                              figures=tuple(item.get("figures") or ()), notes=reader.notes(item.get("notes"), where),
                              replaces=tuple(item.get("replaces") or ())))
    return tuple(out)
