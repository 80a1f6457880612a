"""The `taxing_rights` and `relief` sections of a treaty file (who may tax each income, and how the residence
State removes double taxation), as frozen pydantic models read straight from the YAML.

Each distributive article (6-22) appears under `taxing_rights.articles`, with the incomes it decides or the
reason it allocates none. Each income lists cases read in order, like the withholding rules: a case has
conditions (codes from rules/conditions.py), a right per State role, citations with exact quotes and, where
the source State's tax is capped, `cap_from` naming the withholding income whose rules give the cap (the
number is never repeated here). A case may instead `redirect` to another income (e.g. art. 19(3) → 15/18).
"""
from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, ValidationInfo, field_validator, model_validator

from rules.data_parts import (
    Citations,
    Conditions,
    Frozen,
    Ids,
    Notes,
    OptionalCitations,
    catalogue_message,
    context_value,
)
from rules.facts import TOPICS
from rules.results import Message

Right = Literal["exclusive", "shared", "capped", "none", "exempt"]
Role = Literal["residence", "source", "effective_management"]
ReliefMethod = Literal["credit", "exemption_progression", "exemption", "dividend_deduction", "indirect_credit",
                       "tax_sparing"]


def _topic(value: str, what: str) -> str:
    if value not in TOPICS:
        raise ValueError(f"{what} desconhecido {value!r} (use um código de rules.facts.TOPICS)")
    return value


def _role_key(value: str) -> str:
    return value if value.startswith("rules.roles.") else catalogue_message(f"rules.roles.{value}").key


class RightsCase(Frozen):
    id: str = Field(min_length=1)
    article: str
    when: Conditions = ()
    rights: dict[Role, Right] = Field(default_factory=dict)   # role -> right
    citations: Citations
    cap_from: str | None = None      # withholding income giving the source cap
    redirect: str | None = None      # income whose cases apply instead
    notes: Notes = ()
    assumed_not: tuple[str, ...] = ()  # condition codes of an exception: when one of them is unknown, the
    #                                    case is assumed not to apply (listed in assumptions, no alternative)
    source_role: str | None = None   # catalogue key naming the other State in this case, when the income's
    #                                  role does not fit it (work done at home: the employer's State)

    @model_validator(mode="before")
    @classmethod
    def _assumed(cls, raw: Any) -> Any:
        if isinstance(raw, dict):
            raw = {**raw, "article": str(raw.get("article", ""))}
            if raw.get("assumed_not") is True:
                raw["assumed_not"] = [c.get("code") if isinstance(c, dict) else c for c in raw.get("when") or []]
            elif not raw.get("assumed_not"):
                raw["assumed_not"] = []
        return raw

    @field_validator("redirect")
    @classmethod
    def _redirect(cls, value: str | None) -> str | None:
        return None if value is None else _topic(value, "redirect")

    @field_validator("source_role")
    @classmethod
    def _case_role(cls, value: str | None) -> str | None:
        return None if value is None else _role_key(value)

    @model_validator(mode="after")
    def _consistent(self) -> RightsCase:
        if not self.redirect and not self.rights:
            raise ValueError(f"{self.id}: 'rights' precisa de papéis com direitos (ou 'redirect')")
        if "capped" in self.rights.values() and not self.cap_from:
            raise ValueError(f"{self.id}: um direito 'capped' precisa de 'cap_from' (o rendimento das regras de "
                             "retenção)")
        if any(c not in {w.code for w in self.when} for c in self.assumed_not):
            raise ValueError(f"{self.id}: 'assumed_not' lista códigos que não estão em 'when'")
        return self


class RightsIncome(Frozen):
    cases: tuple[RightsCase, ...]
    source_role: str = "rules.roles.source_state"   # catalogue key: who "source" is for this income
    notes: Notes = ()

    @field_validator("source_role")
    @classmethod
    def _income_role(cls, value: str) -> str:
        return _role_key(value)

    @field_validator("cases")
    @classmethod
    def _last_unconditional(cls, cases: tuple[RightsCase, ...]) -> tuple[RightsCase, ...]:
        if not cases or cases[-1].when:
            raise ValueError("o último caso deve ser incondicional (when: [])")
        return cases


class ArticleEntry(Frozen):
    article: str
    incomes: tuple[str, ...] = ()    # incomes this article decides
    reason: Message | None = None    # why it allocates no taxing right (incomes empty)
    citations: OptionalCitations = ()


def _article_entry(article: str, raw: Any) -> dict[str, Any]:
    if isinstance(raw, list):
        return {"article": article, "incomes": [_topic(str(i), "rendimento") for i in raw]}
    if isinstance(raw, dict) and raw.get("none"):
        return {"article": article, "reason": catalogue_message(f"data.notes.{raw['none']}"),
                "citations": raw.get("citations")}
    raise ValueError(f"artigo {article}: precisa de uma lista de rendimentos ou de 'none: <id da nota>'")


class TaxingRights(Frozen):
    articles: dict[str, ArticleEntry] = Field(default_factory=dict)
    incomes: dict[str, RightsIncome] = Field(default_factory=dict)

    @field_validator("articles", mode="before")
    @classmethod
    def _articles(cls, raw: Any) -> Any:
        if not isinstance(raw, dict):
            return raw
        return {str(a): _article_entry(str(a), entry) for a, entry in raw.items()}

    @field_validator("incomes")
    @classmethod
    def _incomes(cls, incomes: dict[str, RightsIncome]) -> dict[str, RightsIncome]:
        for name in incomes:
            _topic(name, "rendimento")
        return incomes


class ReliefSpec(Frozen):
    id: str = Field(min_length=1)
    residence_states: Ids = ()       # empty in the file = both parties (from the context)
    method: ReliefMethod
    applies: Literal["shared", "residence_exempt"] = "shared"   # shared: the source may tax too
    incomes: Ids = ()                # empty = every income
    when: Conditions = ()
    citations: Citations
    figures: Ids = ()                # ids of figures holding this method's numbers
    notes: Notes = ()
    replaces: Ids = ()               # relief ids this one displaces when its conditions are met

    @model_validator(mode="before")
    @classmethod
    def _states(cls, raw: Any, info: ValidationInfo) -> Any:
        parties = tuple(context_value(info, "parties", ()))
        if isinstance(raw, dict):
            states = tuple(str(s) for s in raw.get("residence_states") or parties)
            if any(s not in parties for s in states):
                raise ValueError(f"{raw.get('id')}: residence_states fora das partes {parties}")
            raw = {**raw, "residence_states": states}
        return raw
