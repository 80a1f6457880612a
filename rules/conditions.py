"""The small, stable set of condition codes the data files may use, and how each reads the facts.

A condition evaluates to True (met), False (not met) or None (a fact it needs was not stated). Codes
and params are the contract with the assistant, which renders other languages from them; the
Portuguese text here is the reference wording. The list is documented in rules/README.md.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any, Callable

from rules.facts import Facts
from rules.results import Condition

Evaluator = Callable[[Facts, dict[str, Any]], "bool | None"]


@dataclass(frozen=True)
class ConditionSpec:
    code: str
    facts: tuple[str, ...]
    text: str                  # Portuguese, str.format()-ed with the params
    evaluate: Evaluator


def _years_before(day: date, years: int) -> date:
    try:
        return day.replace(year=day.year - years)
    except ValueError:         # 29 February in a non-leap target year
        return day.replace(year=day.year - years, day=28)


def _holding_years(f: Facts, p: dict[str, Any]) -> bool | None:
    years = p["years"]
    if f.holding_months is not None:
        return f.holding_months >= years * 12
    if f.holding_since is not None and f.payment_date is not None:
        return f.holding_since <= _years_before(f.payment_date, int(years))
    return None


def _kind_in(kinds: tuple[str, ...]) -> Evaluator:
    return lambda f, p: None if f.beneficiary_kind is None else f.beneficiary_kind in kinds


def _flag(name: str) -> Evaluator:
    return lambda f, p: getattr(f, name)


def _at_least(name: str, param: str) -> Evaluator:
    return lambda f, p: None if getattr(f, name) is None else getattr(f, name) >= p[param]


SPECS: dict[str, ConditionSpec] = {s.code: s for s in (
    ConditionSpec("otherwise", (), "nos restantes casos", lambda f, p: True),
    ConditionSpec("beneficiary_company", ("beneficiary_kind",),
                  "o beneficiário efetivo é uma sociedade", _kind_in(("company", "financial_institution"))),
    ConditionSpec("beneficiary_government", ("beneficiary_kind",),
                  "o beneficiário efetivo é o Governo do outro Estado, uma sua subdivisão política ou "
                  "administrativa, autarquia local, ou instituição (inclusive financeira) de sua propriedade "
                  "exclusiva", _kind_in(("government",))),
    ConditionSpec("beneficiary_financial_institution", ("beneficiary_kind",),
                  "o beneficiário é uma instituição financeira", _kind_in(("financial_institution",))),
    ConditionSpec("holding_min_pct", ("holding_pct",),
                  "detém pelo menos {pct}% do capital da sociedade que paga", _at_least("holding_pct", "pct")),
    ConditionSpec("holding_direct", ("direct_holding",), "a participação é detida diretamente",
                  _flag("direct_holding")),
    ConditionSpec("holding_min_years", ("holding_months",),
                  "a participação foi detida durante um período ininterrupto de pelo menos {years} anos "
                  "antes do pagamento", _holding_years),
    ConditionSpec("loan_min_years", ("loan_term_years",),
                  "o empréstimo ou crédito foi concedido por um prazo mínimo de {years} anos",
                  _at_least("loan_term_years", "years")),
    ConditionSpec("loan_purpose_equipment", ("loan_purpose",),
                  "o empréstimo destina-se a financiar a aquisição de bens de equipamento",
                  lambda f, p: None if f.loan_purpose is None else f.loan_purpose == "equipment"),
    ConditionSpec("royalty_copyright", ("royalty_kind",),
                  "royalties por direitos de autor sobre obras literárias, artísticas ou científicas "
                  "(filmes e gravações só quando produzidos por um residente de um dos Estados)",
                  lambda f, p: None if f.royalty_kind is None
                  else f.royalty_kind in ("copyright", "copyright_film")),
    ConditionSpec("attributable_to_pe", ("attributable_to_pe",),
                  "o rendimento está efetivamente ligado a um estabelecimento estável do beneficiário no "
                  "Estado da fonte", _flag("attributable_to_pe")),
    ConditionSpec("paid_to_pe_third_state", ("paid_to_pe_third_state",),
                  "o rendimento é pago a um estabelecimento estável do beneficiário situado num terceiro "
                  "Estado", _flag("paid_to_pe_third_state")),
    ConditionSpec("free_zone_regime", ("free_zone_regime",),
                  "o beneficiário tem direito a benefícios fiscais de um regime de zona franca ou similar "
                  "excluído pelo Protocolo", _flag("free_zone_regime")),
    ConditionSpec("registered_central_bank", ("registered_central_bank",),
                  "o investimento ou contrato está registado no Banco Central do Brasil",
                  _flag("registered_central_bank")),
    ConditionSpec("interest_on_equity", ("interest_on_equity",),
                  "o rendimento são juros sobre o capital próprio (legislação brasileira)",
                  _flag("interest_on_equity")),
)}

# Codes used by employment_183_days(), not read from Facts; kept here so every code is in one place.
OTHER_TEXTS = {
    "days_within_limit": "a permanência no Estado onde o emprego é exercido não excede, no total, {max_days} dias "
                         "no período de contagem (contados: {days})",
    "employer_not_resident_in_work_state": "as remunerações são pagas por (ou em nome de) uma entidade patronal "
                                           "que não é residente do Estado onde o emprego é exercido",
    "not_borne_by_pe_in_work_state": "as remunerações não são suportadas por um estabelecimento estável da "
                                     "entidade patronal nesse Estado",
}


def evaluate(code: str, params: dict[str, Any], facts: Facts) -> Condition:
    spec = SPECS[code]
    value = spec.evaluate(facts, params)
    status = "unknown" if value is None else ("met" if value else "not_met")
    return Condition(code=code, params=dict(params), text=spec.text.format(**params), status=status,
                     facts=spec.facts)


def describe(code: str, params: dict[str, Any], status: str = "unknown") -> Condition:
    """A condition shown without evaluating it (alternatives, figures, the employment test)."""
    if code in OTHER_TEXTS:
        return Condition(code=code, params=dict(params), text=OTHER_TEXTS[code].format(**params), status=status)
    spec = SPECS[code]
    return Condition(code=code, params=dict(params), text=spec.text.format(**params), status=status,
                     facts=spec.facts)
