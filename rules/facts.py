"""The facts a question can state, shared by query understanding and the rule functions.

Every field is optional: None means "not stated", which the rules treat as unknown (they return
alternatives and name the missing fact), never as a default.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date

# Income types withholding_cap() understands.
INCOME_TYPES = ("dividends", "interest", "royalties", "technical_services", "branch_profits")

# Topics with fixed figures or tests (figures_for(topic) / dedicated functions).
TOPICS = INCOME_TYPES + (
    "employment",          # 183-day test, dependent personal services
    "residence",           # tie-breaker, art. 4
    "permanent_establishment",  # incl. construction-site threshold
    "students",
    "professors",
    "pensions",
    "tax_sparing",
    "double_taxation_relief",   # method article (23/22), incl. PT-BR 95% dividend deduction
    "mutual_agreement",
    "capital_gains",
    "business_profits",
    "immovable_property",
    "government_service",
    "other_income",
    "entry_into_force",    # dates of application
    "anti_abuse",          # MLI PPT / LOB / dividend transfer, PE in third jurisdictions
    "arbitration",
)

# "government": the other State's Government, a political or administrative subdivision, a local
# authority, or an institution (including a financial one) wholly owned by any of them.
BENEFICIARY_KINDS = ("individual", "company", "government", "financial_institution")

# "copyright": literary, artistic or scientific works; "copyright_film": cinema films and film or tape
# recordings for radio or television produced by a resident of one of the two contracting States;
# "copyright_film_other": such films or recordings produced by anyone else; "know_how": secret formulas
# or processes and information on industrial, commercial or scientific experience; "equipment": use
# of industrial, commercial or scientific equipment.
ROYALTY_KINDS = ("copyright", "copyright_film", "copyright_film_other", "patent", "trademark",
                 "design_model_plan", "know_how", "equipment", "technical_services", "other")


@dataclass(frozen=True)
class Facts:
    beneficiary_kind: str | None = None      # one of BENEFICIARY_KINDS
    holding_pct: float | None = None         # % of the paying company's capital held by the beneficiary
    voting_capital: bool | None = None       # the holding is of voting capital
    holding_months: float | None = None      # uninterrupted holding period before payment
    holding_since: date | None = None        # alternative to holding_months, with payment_date
    payment_date: date | None = None
    loan_term_years: float | None = None
    loan_purpose: str | None = None          # "equipment" (industrial/commercial/scientific equipment) or None
    interest_on_equity: bool | None = None   # juros sobre o capital próprio
    royalty_kind: str | None = None          # one of ROYALTY_KINDS
    attributable_to_pe: bool | None = None   # income effectively connected with a PE / fixed base in the source state
    paid_to_pe_third_state: bool | None = None  # paid to a PE (branch) of the beneficiary in a third state
    free_zone_regime: bool | None = None     # beneficiary enjoys a free-zone regime excluded by the protocol
    registered_central_bank: bool | None = None  # investment/contract registered with the Banco Central do Brasil
    direct_holding: bool | None = None       # the holding is direct (PT-BR 10(2)(a) "directamente")


@dataclass(frozen=True)
class TiebreakerFacts:
    """What art. 4(2)/(3) asks about a person resident of both States; None = not stated.

    State tuples list the States (codes) where the fact holds; an empty tuple means "in neither".
    vital_interests_in is a State code, or "undetermined" when it cannot be determined.
    """
    person: str = "individual"                        # "individual" | "company" (any non-individual)
    permanent_home_in: tuple[str, ...] | None = None
    vital_interests_in: str | None = None
    habitual_abode_in: tuple[str, ...] | None = None
    nationality: tuple[str, ...] | None = None
    effective_management_in: str | None = None        # companies, art. 4(3)
