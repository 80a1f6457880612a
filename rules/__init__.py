"""Deterministic treaty rules: every rate, threshold and test result the product shows comes from here.

Values live in rules/data/<treaty>.yaml with exact quotes from the corpus; condition codes are listed in
rules/README.md. Results hold codes and params; their words come from the message catalogue (i18n/).
Bad input raises RulesInputError (a catalogue message, text_in(language)); an uncovered treaty, income or topic returns
NotCovered, never a number.
"""
from rules.conditions import condition_text
from rules.coverage import TreatyCoverage, absent_provision, applicable_documents, coverage, figures
from rules.employment import employment_183_days, stay_exceeds_short_stay
from rules.facts import (
                         BENEFICIARY_KINDS,
                         EMPLOYMENT_KINDS,
                         FACT_NAMES,
                         GAIN_KINDS,
                         INCOME_TYPES,
                         PENSION_KINDS,
                         ROYALTY_KINDS,
                         STUDENT_PAYMENT_ORIGINS,
                         TOPICS,
                         EmploymentFacts,
                         Facts,
                         TiebreakerFacts,
)
from rules.labels import LANGUAGES, state_name, topic_label, unit_label
from rules.lookup import known_treaties, treaty_for
from rules.results import (
                         Alternative,
                         Citation,
                         Condition,
                         DocumentApplication,
                         EmploymentResult,
                         Figure,
                         Message,
                         NotCovered,
                         Relief,
                         RightsCase,
                         RulesInputError,
                         StateRight,
                         TaxingRightsResult,
                         TiebreakerResult,
                         TiebreakerStep,
                         WithholdingResult,
)
from rules.rights import relief_methods, rights_incomes, taxing_rights
from rules.tiebreaker import residence_tiebreaker
from rules.treaty_data import RulesDataError
from rules.withholding import withholding_cap

__all__ = [
    "absent_provision", "withholding_cap", "employment_183_days", "stay_exceeds_short_stay", "residence_tiebreaker",
    "figures", "coverage",
    "applicable_documents", "known_treaties", "treaty_for", "taxing_rights", "relief_methods", "rights_incomes",
    "TaxingRightsResult", "RightsCase", "StateRight", "Relief",
    "condition_text", "topic_label", "unit_label", "state_name", "LANGUAGES",
    "Facts", "EmploymentFacts", "TiebreakerFacts", "FACT_NAMES", "INCOME_TYPES", "TOPICS", "BENEFICIARY_KINDS",
    "ROYALTY_KINDS",
    "PENSION_KINDS", "GAIN_KINDS", "EMPLOYMENT_KINDS", "STUDENT_PAYMENT_ORIGINS", "Message",
    "WithholdingResult", "EmploymentResult", "TiebreakerResult", "TiebreakerStep", "Figure", "NotCovered",
    "Alternative", "Citation", "Condition", "DocumentApplication", "TreatyCoverage",
    "RulesInputError", "RulesDataError",
]
