"""The small, stable set of condition codes the data files may use, and how each reads the facts.

A condition evaluates to True (met), False (not met) or None (a fact it needs was not stated). Codes
and params are the contract with the assistant; their wording in pt/es/en is in the message catalogue
(i18n/rules.yaml, `conditions`). The list is documented in rules/README.md.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any, Callable

from i18n import CatalogueError, t
from rules.exchange import within_usd
from rules.facts import EMPLOYMENT_KINDS, GAIN_KINDS, PENSION_KINDS, STUDENT_PAYMENT_ORIGINS, Facts
from rules.results import Condition, RulesInputError, condition_key

Evaluator = Callable[[Facts, dict[str, Any]], "bool | None"]


@dataclass(frozen=True)
class ConditionSpec:
    code: str
    facts: tuple[str, ...]
    evaluate: Evaluator


def _years_before(day: date, years: int) -> date:
    try:
        return day.replace(year=day.year - years)
    except ValueError:         # 29 February in a non-leap target year
        return day.replace(year=day.year - years, day=28)


def _holding_years(f: Facts, p: dict[str, Any]) -> bool | None:
    years = float(p["years"])
    if f.holding_months is not None:
        return f.holding_months >= years * 12
    if f.holding_since is not None and f.payment_date is not None:
        return f.holding_since <= _years_before(f.payment_date, int(years))
    return None


def _either(first: str, second: str) -> Evaluator:
    """Met when either flag is stated true; not met only when both are stated false."""
    def check(f: Facts, p: dict[str, Any]) -> bool | None:
        values = (getattr(f, first), getattr(f, second))
        return True if True in values else (False if values == (False, False) else None)
    return check


def _holding_years_or_since_formed(f: Facts, p: dict[str, Any]) -> bool | None:
    """PT-BR 23(2): held for the years before payment, or since the paying company was formed if later."""
    held = _holding_years(f, p)
    if held or f.held_since_incorporation:
        return True
    return False if held is False and f.held_since_incorporation is False else None


def _kind_in(kinds: tuple[str, ...]) -> Evaluator:
    return lambda f, p: None if f.beneficiary_kind is None else f.beneficiary_kind in kinds


def _flag(name: str) -> Evaluator:
    def read(f: Facts, p: dict[str, Any]) -> bool | None:
        value: bool | None = getattr(f, name)
        return value
    return read


def _at_least(name: str, param: str) -> Evaluator:
    return lambda f, p: None if getattr(f, name) is None else getattr(f, name) >= p[param]


def _at_most(name: str, param: str) -> Evaluator:
    return lambda f, p: None if getattr(f, name) is None else getattr(f, name) <= p[param]


def _equals(name: str, value: str) -> Evaluator:
    return lambda f, p: None if getattr(f, name) is None else getattr(f, name) == value


SPECS: dict[str, ConditionSpec] = {s.code: s for s in (
    ConditionSpec("otherwise", (), lambda f, p: True),
    ConditionSpec("beneficiary_company", ("beneficiary_kind",), _kind_in(("company", "financial_institution"))),
    ConditionSpec("beneficiary_government", ("beneficiary_kind",), _kind_in(("government", "local_authority"))),
    ConditionSpec("beneficiary_government_agency", ("beneficiary_kind",), _kind_in(("government",))),
    ConditionSpec("beneficiary_individual", ("beneficiary_kind",), _kind_in(("individual",))),
    ConditionSpec("beneficiary_financial_institution", ("beneficiary_kind",), _kind_in(("financial_institution",))),
    ConditionSpec("holding_min_pct", ("holding_pct",), _at_least("holding_pct", "pct")),
    ConditionSpec("holding_direct", ("direct_holding",), _flag("direct_holding")),
    ConditionSpec("holding_min_years", ("holding_months",), _holding_years),
    ConditionSpec("holding_min_years_or_since_formed", ("holding_months", "held_since_incorporation"),
                  _holding_years_or_since_formed),
    ConditionSpec("teaching_visit_invited_or_exchange", ("invited_to_teach_or_research", "exchange_programme_visit"),
                  _either("invited_to_teach_or_research", "exchange_programme_visit")),
    # interest on equity (juros sobre o capital próprio) is paid on shares, not on a loan: no loan term or purpose
    ConditionSpec("loan_min_years", ("loan_term_years",),
                  lambda f, p: False if f.interest_on_equity else _at_least("loan_term_years", "years")(f, p)),
    ConditionSpec("loan_purpose_equipment", ("loan_purpose",),
                  lambda f, p: False if f.interest_on_equity
                  else None if f.loan_purpose is None else f.loan_purpose == "equipment"),
    ConditionSpec("royalty_copyright", ("royalty_kind",),
                  lambda f, p: None if f.royalty_kind is None
                  else f.royalty_kind in ("copyright", "copyright_film")),
    ConditionSpec("attributable_to_pe", ("attributable_to_pe",), _flag("attributable_to_pe")),
    ConditionSpec("paid_to_pe_third_state", ("paid_to_pe_third_state",), _flag("paid_to_pe_third_state")),
    ConditionSpec("free_zone_regime", ("free_zone_regime",), _flag("free_zone_regime")),
    ConditionSpec("registered_central_bank", ("registered_central_bank",), _flag("registered_central_bank")),
    ConditionSpec("interest_on_equity", ("interest_on_equity",), _flag("interest_on_equity")),
    *(ConditionSpec(f"pension_{k}", ("pension_kind",), _equals("pension_kind", k)) for k in PENSION_KINDS),
    *(ConditionSpec(f"gain_{k}", ("gain_kind",), _equals("gain_kind", k)) for k in GAIN_KINDS),
    *(ConditionSpec(f"employment_{k}", ("employment_kind",), _equals("employment_kind", k)) for k in EMPLOYMENT_KINDS),
    *(ConditionSpec(f"student_payments_{k}", ("student_payment_origin",), _equals("student_payment_origin", k))
      for k in STUDENT_PAYMENT_ORIGINS),
    *(ConditionSpec(name, (name,), _flag(name)) for name in (
        "national_of_paying_state", "national_of_residence_state", "services_in_residence_state",
        "government_business", "public_funds_visit", "paid_by_source_resident", "government_debt",
        "invited_to_teach_or_research", "student_practical_training", "employment_183_met",
        "fee_borne_by_company_or_pe", "student_employment_for_studies", "resident_not_solely_for_services",
        "arises_in_other_state", "payer_taxed_not_exempt")),
    ConditionSpec("pension_within_usd", ("pension_annual_usd",),
                  lambda f, p: within_usd(p["usd"], f.pension_annual_usd, f.pension_annual_amount)),
    ConditionSpec("student_within_usd", ("student_annual_usd",),
                  lambda f, p: within_usd(p["usd"], f.student_annual_usd, f.student_annual_amount)),
    ConditionSpec("stay_within_years", ("stay_years",), _at_most("stay_years", "years")),
    ConditionSpec("stay_within_calendar_years", ("stay_years",), _at_most("stay_years", "years")),
)}

# Codes used by employment_183_days(), not read from Facts; kept here so every code is in one place.
OTHER_CODES = ("days_within_limit", "employer_not_resident_in_work_state", "not_borne_by_pe_in_work_state",
               "borne_by_pe_in_work_state")


def _known(code: str) -> None:
    if code not in SPECS and code not in OTHER_CODES:
        raise RulesInputError("unknown_condition", code=repr(code),
                              known=", ".join(sorted(set(SPECS) | set(OTHER_CODES))))


def condition_text(code: str, params: dict[str, Any], language: str) -> str:
    """The condition in "pt", "es" or "en" (any other language → pt), filled with its params."""
    _known(code)
    try:
        return t(language, condition_key(code, params), **params)
    except CatalogueError as exc:
        raise RulesInputError("condition_params", code=code, detail=str(exc)) from exc


def evaluate(code: str, params: dict[str, Any], facts: Facts) -> Condition:
    spec = SPECS[code]
    value = spec.evaluate(facts, params)
    status = "unknown" if value is None else ("met" if value else "not_met")
    return Condition(code=code, params=dict(params), status=status, facts=spec.facts)


def describe(code: str, params: dict[str, Any], status: str = "unknown") -> Condition:
    """A condition shown without evaluating it (alternatives, figures, the employment test)."""
    _known(code)
    facts = SPECS[code].facts if code in SPECS else ()
    return Condition(code=code, params=dict(params), status=status, facts=facts)
