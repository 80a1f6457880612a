"""taxing_rights(): who may tax an income under a treaty — for each State, an exclusive, shared, capped or
no right — and how the residence State removes the double taxation, from the data files.

Cases are read in order, as the withholding rules are: the first case whose conditions are all met decides;
while facts are missing, every case still possible is returned with the facts that decide (missing_facts).
A capped right takes its cap from withholding_cap(); a case may redirect to another income's rules.
NotCovered only when the corpus has no rule for the income under that treaty.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, TypeVar

from rules.conditions import describe, evaluate
from rules.data_parts import ConditionRef
from rules.facts import TOPICS, Facts
from rules.lookup import other_party, treaty_or_not_covered
from rules.results import (
    Citation,
    Condition,
    Figure,
    Message,
    NotCovered,
    Relief,
    RightsCase,
    StateRight,
    TaxingRightsResult,
    WithholdingResult,
)
from rules.rights_data import RightsCase as CaseSpec
from rules.treaty_data import TreatyData
from rules.withholding import bilateral_treaty, topic_list, withholding_cap

TAXING = ("exclusive", "shared", "capped")
T = TypeVar("T")


def _dedupe(items: list[T]) -> list[T]:
    return list(dict.fromkeys(items))


def _check(when: tuple[ConditionRef, ...], facts: Facts) -> tuple[str, list[Condition]]:
    conditions = [evaluate(c.code, c.params, facts) for c in when] or [describe("otherwise", {}, "met")]
    statuses = {c.status for c in conditions}
    return ("not_met" if "not_met" in statuses else "unknown" if "unknown" in statuses else "met"), conditions


def _figures(data: TreatyData, ids: tuple[str, ...], income: str | None = None) -> list[Figure]:
    """The figures a relief entry names; for one income, only those that hold for it (20% interest, 25%
    royalties: not both on an interest answer)."""
    return [Figure(id=f.id, treaty=data.treaty, topic=f.topic, value=f.value, unit=f.unit, description=f.description,
                   conditions=[describe(c.code, c.params) for c in f.conditions],
                   citations=[c.citation for c in f.citations], effective_from=f.effective_from, notes=list(f.notes))
            for f in data.figures if f.id in ids and (income is None or not f.incomes or income in f.incomes)]


def _relief(data: TreatyData, income: str, residence: str, rights: Mapping[Any, str], facts: Facts
            ) -> list[Relief]:
    own, other = rights.get("residence"), rights.get("source")
    if other in TAXING and own in ("shared", "capped"):
        mode = "shared"
    elif other in TAXING and own in ("none", "exempt", None) and "residence" in rights:
        mode = "residence_exempt"
    else:
        return []
    out, displaced = [], set()
    for spec in data.relief:
        if (residence not in spec.residence_states or spec.applies != mode
                or (spec.incomes and income not in spec.incomes)):
            continue
        status, conditions = _check(spec.when, facts)
        if status == "not_met":
            continue
        if status == "met":
            displaced |= set(spec.replaces)
        out.append(Relief(id=spec.id, state=residence, method=spec.method,
                          conditions=[c for c in conditions if c.code != "otherwise"],
                          citations=[c.citation for c in spec.citations],
                          figures=_figures(data, spec.figures, income), notes=list(spec.notes)))
    return [r for r in out if r.id not in displaced]


def _state_rights(data: TreatyData, case: CaseSpec, residence: str, source: str, facts: Facts
                  ) -> tuple[list[StateRight], list[Message]]:
    out, notes = [], []
    for role, right in case.rights.items():
        cap = None
        if right == "capped" and case.cap_from:
            found = withholding_cap(data.treaty, case.cap_from, source, facts)
            if isinstance(found, WithholdingResult):
                cap = found
            else:
                notes.append(found.reason)
        if cap is not None and cap.outcome == "exempt":
            right = "exempt"        # a cap that is an exemption (PT-BR 11(3)): that State may not tax at all
        state = residence if role == "residence" else source if role == "source" else None
        out.append(StateRight(role=role, state=state, right=right, cap=cap))
    return out, notes


def _same_as_met(chosen: list[tuple[CaseSpec, list[Condition]]]) -> list[tuple[CaseSpec, list[Condition]]]:
    """The met case alone when it has conditions of its own and every undecided case before it gives the same
    rights: which one applies then changes nothing (a student's job within PT-BR 21(2) is exempt whether or
    not 21(1)'s money from abroad is also received). A fallback ("in all other cases") decides nothing."""
    met = chosen[-1][0]
    same = all(c.rights == met.rights and c.cap_from == met.cap_from and not c.redirect for c, _ in chosen[:-1])
    if any(c.code != "otherwise" for c in met.when) and not met.redirect and same:
        return chosen[-1:]
    return chosen


def _cases(data: TreatyData, income: str, residence: str, source: str, facts: Facts, assumptions: list[Condition],
           seen: tuple[str, ...] = ()) -> tuple[list[RightsCase], list[str]]:
    spec = data.rights[income]
    chosen: list[tuple[CaseSpec, list[Condition]]] = []
    for case in spec.cases:
        status, conditions = _check(case.when, facts)
        if status == "not_met":
            continue
        assumed = [c for c in conditions if c.status == "unknown" and c.code in case.assumed_not]
        if status == "unknown" and assumed:
            first = replace(assumed[0], status="assumed_not_met")   # the first unstated one is what is assumed
            if first not in assumptions:
                assumptions.append(first)
            continue
        chosen.append((case, conditions))
        if status == "met":
            chosen = _same_as_met(chosen)
            break
    out: list[RightsCase] = []
    missing = [f for _, conds in chosen for c in conds if c.status == "unknown" for f in c.facts]
    for case, conditions in chosen:
        shown = [c for c in conditions if c.code != "otherwise"]
        if case.redirect and case.redirect in data.rights and case.redirect not in seen:
            inner, inner_missing = _cases(data, case.redirect, residence, source, facts, assumptions,
                                          seen + (income,))
            missing += inner_missing
            for r in inner:
                out.append(RightsCase(rule_id=r.rule_id, article=r.article, rights=r.rights,
                                      conditions=shown + r.conditions,
                                      citations=[c.citation for c in case.citations] + r.citations,
                                      relief=r.relief, notes=list(case.notes) + r.notes, income=r.income,
                                      via=[case.id] + r.via, source_role=r.source_role))
            continue
        rights, notes = _state_rights(data, case, residence, source, facts)
        effective = {r.role: r.right for r in rights}
        out.append(RightsCase(rule_id=case.id, article=case.article, rights=rights, conditions=shown,
                              citations=[c.citation for c in case.citations],
                              relief=_relief(data, income if not seen else seen[0], residence, effective, facts),
                              notes=list(case.notes) + notes, income=income, source_role=case.source_role))
    return out, missing


def taxing_rights(treaty: str, income: str, residence_state: str, facts: Facts | None = None
                  ) -> TaxingRightsResult | NotCovered:
    """Who may tax `income` received by a resident of `residence_state` from the other party, and the relief."""
    data = bilateral_treaty(treaty, facts)
    if isinstance(data, NotCovered):
        return data
    facts = Facts() if facts is None else facts
    source = other_party(data, residence_state)       # validates the State; the other party is the source
    residence = other_party(data, source)
    if income not in data.rights:
        covered = [t for t in TOPICS if t in data.rights]
        key = "no_rights_rule" if income in TOPICS else "unknown_income"
        return NotCovered.because(f"{data.treaty}: {income}", covered, f"rules.not_covered.{key}",
                                  income=Message(f"rules.topics.{income}") if income in TOPICS else income,
                                  treaty=data.treaty, incomes=topic_list(covered))
    assumptions: list[Condition] = []
    cases, missing = _cases(data, income, residence, source, facts, assumptions)
    citations: list[Citation] = _dedupe([c for case in cases for c in case.citations] +
                                        [c for case in cases for r in case.relief for c in r.citations])
    return TaxingRightsResult(
        treaty=data.treaty, income=income, residence_state=residence, source_state=source,
        source_role=data.rights[income].source_role, outcome="decided" if len(cases) == 1 else "alternatives",
        cases=cases, missing_facts=_dedupe(missing) if len(cases) > 1 else [], assumptions=assumptions,
        citations=citations,
        notes=list(data.rights[income].notes), coverage=data.coverage)


def rights_incomes(treaty: str) -> set[str]:
    """The incomes whose taxing rights the treaty's data records (empty for an unknown treaty)."""
    data = treaty_or_not_covered(treaty)
    return set() if isinstance(data, NotCovered) else set(data.rights)


def relief_methods(treaty: str, residence_state: str) -> list[Relief] | NotCovered:
    """Every relief method the treaty gives the residence State, conditions described (not evaluated):
    for a question on relief that names no income."""
    data = treaty_or_not_covered(treaty)
    if isinstance(data, NotCovered):
        return data
    source = other_party(data, residence_state)
    residence = other_party(data, source)
    return [Relief(id=s.id, state=residence, method=s.method, conditions=[describe(c.code, c.params) for c in s.when],
                   citations=[c.citation for c in s.citations], figures=_figures(data, s.figures),
                   notes=list(s.notes))
            for s in data.relief if residence in s.residence_states]
