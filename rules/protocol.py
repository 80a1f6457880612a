"""One rule protocol: every topic's rule is a function `(treaty data, case) -> result`, registered by topic
here, so the assistant asks `apply(treaty, case)` instead of choosing a function itself. A topic with no
registered rule answers with its figures (rules.coverage.figures). A case carries its facts in one `Facts`
value (the 183-day test and the tie-breaker read its groups), so no rule takes facts from anywhere else."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from rules.coverage import figures
from rules.employment import employment_183_days
from rules.facts import INCOME_TYPES, Facts, TiebreakerFacts
from rules.lookup import treaty_or_not_covered
from rules.results import EmploymentResult, Figure, NotCovered, TiebreakerResult, WithholdingResult
from rules.tiebreaker import residence_tiebreaker
from rules.treaty_data import TreatyData
from rules.withholding import withholding_cap


@dataclass(frozen=True)
class Case:
    """What a rule reads: the topic, the stated facts (every one, groups included) and the source State."""
    topic: str
    facts: Facts = field(default_factory=Facts)
    source_state: str | None = None


Result = WithholdingResult | EmploymentResult | TiebreakerResult | list[Figure] | NotCovered
Rule = Callable[[TreatyData, Case], Result]
RULES: dict[str, Rule] = {}


def rule_for(*topics: str) -> Callable[[Rule], Rule]:
    """Registers the decorated function as the rule of these topics."""
    def register(fn: Rule) -> Rule:
        for topic in topics:
            RULES[topic] = fn
        return fn
    return register


@rule_for(*INCOME_TYPES)
def _withholding(data: TreatyData, case: Case) -> Result:
    if not data.parties:          # an instrument (the MLI) caps no rate: its figures on the income, if any
        return figures(data.treaty, case.topic)
    return withholding_cap(data.treaty, case.topic, case.source_state or "", case.facts)


@rule_for("employment")
def _employment(data: TreatyData, case: Case) -> Result:
    stated = case.facts.employment
    if not stated.stays:                     # without dates, the test's figures (183 days, the window)
        return figures(data.treaty, "employment")
    return employment_183_days(data.treaty, list(stated.stays), stated.employer_resident_in_work_state,
                               stated.borne_by_pe, stated.fiscal_year)


@rule_for("residence")
def _residence(data: TreatyData, case: Case) -> Result:
    return residence_tiebreaker(data.treaty, case.facts.residence or TiebreakerFacts())


def _figures(data: TreatyData, case: Case) -> Result:
    return figures(data.treaty, case.topic)


def apply(treaty: str, case: Case) -> Result:
    """The registered rule of the case's topic (its figures when none is registered)."""
    data = treaty_or_not_covered(treaty)
    if isinstance(data, NotCovered):
        return data
    return RULES.get(case.topic, _figures)(data, case)
