"""The facts a question can state, shared by query understanding and the rule functions.

One `Facts` value carries them all: the flat facts about the income and who may tax it, and two groups for
the tests that are not about one income (the 183-day test's stays and employer, art. 4's tie-breaker), so a
rule, the card and the scorer read every fact from the same place.

Every field is optional: None means "not stated", which the rules treat as unknown (they return
alternatives and name the missing fact), never as a default.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from datetime import date

from rules.exchange import Money

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
    "independent_services",     # art. 14: liberal professions, freelancers
    "directors_fees",           # art. 16
    "artistes_sportsmen",       # art. 17
    "shipping",                 # art. 8: ships and aircraft in international traffic
    "associated_enterprises",   # art. 9: transfer-pricing adjustments
    "entry_into_force",    # dates of application
    "anti_abuse",          # MLI PPT / LOB / dividend transfer, PE in third jurisdictions
    "arbitration",
)

# "government": the other State's Government, a political (or administrative) subdivision, or an agency or
# institution (including a financial one) wholly owned by them; "local_authority": a local authority
# (município, câmara municipal, autarquia local) or an institution it wholly owns. Treaties differ on the
# second: PT-BR 11(3) names "autarquia local", BR-ES 11(4)(a) does not (it names "entidades locais" only
# elsewhere), so the two are separate values.
BENEFICIARY_KINDS = ("individual", "company", "government", "local_authority", "financial_institution")

# "copyright": literary, artistic or scientific works; "copyright_film": cinema films and film or tape
# recordings for radio or television produced by a resident of one of the two contracting States;
# "copyright_film_other": such films or recordings produced by anyone else; "know_how": secret formulas
# or processes and information on industrial, commercial or scientific experience; "equipment": use
# of industrial, commercial or scientific equipment.
ROYALTY_KINDS = ("copyright", "copyright_film", "copyright_film_other", "patent", "trademark",
                 "design_model_plan", "know_how", "equipment", "technical_services", "other")


# Sub-cases the taxing-rights rules distinguish (each a value of one Facts field below).
# pension_kind: "private" = pension for past employment (art. 18(1)); "social_security" = paid under the
# social-security legislation / from social-security funds of a State (PT-BR 18(2), BR-ES 19(4), INSS,
# Segurança Social); "government" = pension paid by a State, subdivision or local authority for public
# service rendered to it (art. 19(2)); "annuity" = a fixed sum paid periodically (BR-ES 18(2)).
PENSION_KINDS = ("private", "social_security", "government", "annuity")
# gain_kind (art. 13): "immovable" = immovable property itself; "pe_assets" = movable property of a PE (or
# the PE itself); "ships_aircraft" = ships/aircraft in international traffic and their movable property;
# "shares_immovable" = shares deriving more than 50% of their value from immovable property (PT-JP summary,
# MLI 9(4)); "shares" = other shares; "other" = any other property or right.
GAIN_KINDS = ("immovable", "pe_assets", "ships_aircraft", "shares_immovable", "shares", "other")
# pe_activity (art. 5): what the enterprise does in the other State, in the treaty's words on it:
# "auxiliary" = a place used only to store, display or deliver its goods, to buy goods or gather information,
# or for another preparatory or auxiliary activity (PT-BR 5(4), BR-ES 5(3)): no PE; "independent_agent" = it
# acts there only through a broker, general commission agent or other independent agent (PT-BR, BR-ES 5(6)):
# no PE; "place_of_business" = a branch, an office, a factory or a workshop there (PT-BR, BR-ES 5(2)): a PE;
# "subsidiary" = it controls a company resident there (PT-BR, BR-ES 5(7)): by itself, no PE.
PE_ACTIVITIES = ("auxiliary", "independent_agent", "place_of_business", "subsidiary")
# employment_kind: "general" = art. 15(1)-(2); "ship_aircraft" = aboard a ship or aircraft in international
# traffic (art. 15(3)); "director" = member of a board of a company (art. 16: directors' fees).
EMPLOYMENT_KINDS = ("general", "ship_aircraft", "director")
# student_payment_origin (art. 21 PT-BR / 21 BR-ES): "abroad" = sums for maintenance, education or training
# coming from sources outside the State where the student stays; "local" = from sources in that State
# (a local grant or salary).
STUDENT_PAYMENT_ORIGINS = ("abroad", "local")


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


@dataclass(frozen=True)
class EmploymentFacts:
    """The stay and the employer, as the 183-day test asks about them (art. 15(2), PT-JP 14(2)); a stay's
    stated length also measures a building site (art. 5) and a student's or a teacher's visit (arts. 20, 21).

    `stays` are dated periods of presence (first day, last day; both counted); stay_days / stay_months are a
    length stated without dates, kept with the unit it was written in, so the bank's fact is named as stated.
    """
    stays: tuple[tuple[date, date], ...] = ()
    stay_days: float | None = None
    stay_months: float | None = None
    stay_unit: str | None = None                 # the unit the stay was written in: days | weeks | months | years
    stay_in_one_year: bool = False               # the stated days fall in one calendar year ("este ano")
    stay_low_days: float | None = None           # the stay is stated as a range ("4 a 8 meses", "3 or 7 months"):
    #                                              its lower end in days; stay_days / stay_months hold the upper
    employer_resident_in_work_state: bool | None = None
    borne_by_pe: bool | None = None              # the pay is borne by a PE the employer has in the work State
    fiscal_year: int | None = None               # the year asked about (the 183-day window's year)

    @property
    def stated_days(self) -> float | None:
        """The length stated without dates, in whole days (months as 365/12 days each)."""
        if self.stay_days is not None:
            return self.stay_days
        return None if self.stay_months is None else round(self.stay_months * 365 / 12)

    @property
    def total_days(self) -> float | None:
        """The whole stay in days: the dated periods' days, else the length stated."""
        if self.stays:
            return float(sum((end - start).days + 1 for start, end in self.stays))
        return self.stated_days


@dataclass(frozen=True)
class Facts:
    """Every fact a question states: the only carrier from the reader to the rules, the card and the scorer."""
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
    pe_activity: str | None = None           # one of PE_ACTIVITIES: what the enterprise does there (art. 5)
    paid_to_pe_third_state: bool | None = None  # paid to a PE (branch) of the beneficiary in a third state
    free_zone_regime: bool | None = None     # beneficiary enjoys a free-zone regime excluded by the protocol
    registered_central_bank: bool | None = None  # investment/contract registered with the Banco Central do Brasil
    direct_holding: bool | None = None       # the holding is direct (PT-BR 10(2)(a) "directamente")
    # --- taxing rights (rules.taxing_rights); None = not stated ---
    pension_kind: str | None = None          # one of PENSION_KINDS
    pension_annual_usd: float | None = None  # yearly amount in US$ (BR-ES 18(1): US$ 3,000 per calendar year)
    pension_annual_amount: Money | None = None   # the same stated in euros, reais or yen (rules.exchange)
    gain_kind: str | None = None             # one of GAIN_KINDS
    employment_kind: str | None = None       # one of EMPLOYMENT_KINDS
    student_payment_origin: str | None = None  # one of STUDENT_PAYMENT_ORIGINS
    student_practical_training: bool | None = None  # employed in the other State for practical training tied
    #                                          to the studies (PT-BR 21(2); with employment_years and the
    #                                          US$ 10,000 yearly limit: student_annual_usd)
    student_annual_usd: float | None = None  # yearly remuneration of that employment, in US$
    student_annual_amount: Money | None = None   # the same stated in euros, reais or yen (rules.exchange)
    stay_years: float | None = None          # length of the stay/visit or employment in the other State, years
    #                                          (professors' 2 years, art. 20; students' 1 year, PT-BR 21(2))
    invited_to_teach_or_research: bool | None = None  # visit solely to teach/research at the invitation of
    #                                          the host State's government/university/institution (art. 20)
    national_of_paying_state: bool | None = None  # art. 19: the individual is a national of the State that pays
    national_of_residence_state: bool | None = None  # art. 19: a national of the State where he/she resides
    services_in_residence_state: bool | None = None  # the work is done in the State where the person resides:
    #                                          art. 15(1) (only that State taxes the salary), BR-ES 19(1)
    government_debt: bool | None = None      # BR-ES 11(4)(b): interest on public debt or bonds of a Government
    employment_183_met: bool | None = None   # art. 15(2) (PT-JP 14(2)): all three short-stay conditions hold
    #                                          (set from employment_183_days(), or stated)
    government_business: bool | None = None  # art. 19(3): the services relate to a commercial or industrial
    #                                          business carried on by the paying State (arts. 15/18 apply)
    public_funds_visit: bool | None = None   # art. 17(3) PT-BR: the artiste's activity is financed mainly by
    #                                          public funds of the residence State
    paid_by_source_resident: bool | None = None  # art. 14 PT-BR: independent fees paid by a resident of the
    #                                          other State (or borne by a PE there)
    fixed_base_in_source: bool | None = None # art. 14 BR-ES / PT-JP: a fixed base or PE in the other State
    fee_borne_by_company_or_pe: bool | None = None  # art. 14(1) BR-ES: the fee falls on a PE in, or a company
    #                                          resident of, the other State (not on an individual)
    student_employment_for_studies: bool | None = None  # art. 21(2) BR-ES: employed in the host State to
    #                                          help the studies or training (with stay_years: 4 calendar years)
    resident_not_solely_for_services: bool | None = None  # art. 19(1)(b) BR-ES: did not become resident of
    #                                          the State where the services are rendered only to render them
    exchange_programme_visit: bool | None = None  # art. 20 BR-ES: the visit is under an official cultural
    #                                          exchange programme (instead of an invitation)
    arises_in_other_state: bool | None = None  # art. 22(3) PT-BR: the other income arises in the other State
    #                                          (not in the residence State or a third State)
    held_since_incorporation: bool | None = None  # art. 23(2) PT-BR: the holding was held since the paying
    #                                          company was formed, less than two years before
    payer_taxed_not_exempt: bool | None = None  # art. 23(2)/(3) PT-BR: the paying company is subject to the
    #                                          corporate tax (federal income tax / Portuguese tax) and not exempt
    # --- groups: the facts of the two tests that are not about one income ---
    employment: EmploymentFacts = field(default_factory=EmploymentFacts)
    residence: TiebreakerFacts | None = None     # art. 4's facts; None when the question states none


# The groups of Facts, and the flat facts: one value each, under the names the rules' conditions, the fact
# registry, the follow-up questions and the ticket bank use (the groups are read by their own tests).
FACT_GROUPS = ("employment", "residence")
FACT_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Facts) if f.name not in FACT_GROUPS)
