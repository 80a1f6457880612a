"""withholding_cap(): the source State's maximum withholding rate under a treaty, from the data files.

Rules of an income are read in order. Exclusions (PE-attributable income, free-zone beneficiaries,
payments to a PE in a third State) decide when the fact is stated; when it is not, they are listed as
assumptions instead of multiplying the alternatives. The other rules decide when all their conditions
are met; while a rule's facts are missing, every rule still possible is returned as an alternative,
with the missing facts named, and nothing is guessed.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, TypeVar

from rules.conditions import describe, evaluate
from rules.data_parts import CitedQuote
from rules.fact_registry import check_facts
from rules.facts import INCOME_TYPES, Facts
from rules.labels import topic_label
from rules.lookup import known_treaties, other_party, treaty_or_not_covered
from rules.results import Alternative, Citation, Condition, Message, NotCovered, RulesInputError, WithholdingResult
from rules.treaty_data import IncomeSpec, Rule, TreatyData


@dataclass(frozen=True)
class TopicList(Message):
    """Income names joined with ", ", each in the message's language."""
    key: str = ""
    topics: tuple[str, ...] = ()

    def text_in(self, language: str) -> str:
        return ", ".join(topic_label(i, language) for i in self.topics)


def topic_list(topics: list[str]) -> TopicList:
    return TopicList(topics=tuple(topics))


def validate_facts(facts: Facts) -> None:
    """The stated facts are usable: the specific messages first, then every value within the fact registry."""
    if not isinstance(facts, Facts):
        raise RulesInputError("facts_type", expected="Facts")
    if facts.holding_pct is not None and not 0 <= facts.holding_pct <= 100:
        raise RulesInputError("holding_pct", value=facts.holding_pct)
    if facts.holding_months is not None and facts.holding_months < 0:
        raise RulesInputError("holding_months", value=facts.holding_months)
    if facts.loan_term_years is not None and facts.loan_term_years < 0:
        raise RulesInputError("loan_term", value=facts.loan_term_years)
    check_facts(facts)


def _cites(items: tuple[CitedQuote, ...], source_state: str) -> list[Citation]:
    return [c.citation for c in items if not c.source_states or source_state in c.source_states]


def _check(rule: Rule, facts: Facts) -> tuple[str, list[Condition]]:
    conditions = [evaluate(c.code, c.params, facts) for c in rule.when] or [describe("otherwise", {}, "met")]
    statuses = {c.status for c in conditions}
    status = "not_met" if "not_met" in statuses else ("unknown" if "unknown" in statuses else "met")
    return status, conditions


def _missing(conditions: list[Condition]) -> list[str]:
    return [f for c in conditions if c.status == "unknown" for f in c.facts]


T = TypeVar("T")


def _dedupe(items: list[T]) -> list[T]:
    return list(dict.fromkeys(items))


def bilateral_treaty(treaty: str, facts: Facts | None) -> TreatyData | NotCovered:
    """The treaty's data once the facts are valid: the rules that split taxing rights need two States."""
    data = treaty_or_not_covered(treaty)
    if isinstance(data, NotCovered):
        return data
    validate_facts(Facts() if facts is None else facts)
    if len(data.parties) != 2:
        return NotCovered.because(data.treaty, sorted(known_treaties()), "rules.not_covered.not_bilateral",
                                  treaty=data.treaty)
    return data


def withholding_cap(treaty: str, income: str, source_state: str, facts: Facts | None = None
                    ) -> WithholdingResult | NotCovered:
    data = bilateral_treaty(treaty, facts)
    if isinstance(data, NotCovered):
        return data
    facts = Facts() if facts is None else facts
    residence = other_party(data, source_state)
    source = str(source_state).strip().upper()
    if income not in INCOME_TYPES or income not in data.incomes:
        covered = sorted(data.incomes)
        key = "unknown_income" if income not in INCOME_TYPES else "income_not_covered"
        return NotCovered.because(f"{data.treaty}: {income}", covered, f"rules.not_covered.{key}", income=income,
                                  treaty=data.treaty, incomes=topic_list(covered))
    spec = data.incomes[income]
    if spec.source_states and source not in spec.source_states:
        reason = spec.not_covered_message or Message("rules.not_covered.source_states_only",
                                                     {"states": ", ".join(spec.source_states)})
        return NotCovered(f"{data.treaty}: {income} com fonte em {source}",
                          [f"{income} com fonte em {s}" for s in spec.source_states], reason)
    if spec.redirect and evaluate(spec.redirect.when, {}, facts).status == "met":
        result = withholding_cap(data.treaty, spec.redirect.income, source, facts)
        if isinstance(result, WithholdingResult):
            note = Message("rules.notes.redirected", {"asked": Message(f"rules.topics.{income}"),
                                                      "treated": Message(f"rules.topics.{spec.redirect.income}")})
            return replace(result, citations=_cites(spec.redirect.citations, source) + result.citations,
                           notes=[note] + result.notes)
        return result
    return _evaluate(data, income, spec, source, residence, facts)


def _evaluate(data: TreatyData, income: str, spec: IncomeSpec, source: str, residence: str,
              facts: Facts) -> WithholdingResult:
    base: dict[str, Any] = dict(treaty=data.treaty, income=income, source_state=source,
                                residence_state=residence, coverage=data.coverage)
    notes = list(data.notes) + list(spec.notes)
    assumptions: list[Condition] = []
    extra_cites: list[Citation] = []
    rules = list(data.common_exclusions) + list(spec.rules)
    for rule in (r for r in rules if r.exclusion):
        if any(_check(r, facts)[0] == "met" for r in rules if r.id in rule.yields_to):
            continue
        status, conditions = _check(rule, facts)
        if status == "met":
            return WithholdingResult(**base, outcome=rule.outcome, rate=rule.value, alternatives=[],
                                     conditions=conditions, assumptions=assumptions, missing_facts=[],
                                     citations=_cites(rule.citations, source), notes=notes + list(rule.notes),
                                     rule_id=rule.id, effective_from=rule.effective_from)
        if status == "unknown":
            assumptions += [replace(c, status="assumed_not_met") for c in conditions if c.status == "unknown"]
            extra_cites += _cites(rule.citations, source)

    candidates: list[tuple[Rule, str, list[Condition]]] = []
    ruled_out: list[Alternative] = []
    for rule in (r for r in rules if not r.exclusion):
        status, conditions = _check(rule, facts)
        if status == "not_met":
            ruled_out.append(Alternative(rule_id=rule.id, outcome=rule.outcome, rate=rule.value,
                                         conditions=[c for c in conditions if c.status == "not_met"],
                                         citations=_cites(rule.citations, source)))
            continue
        candidates.append((rule, status, conditions))
        if status == "met":
            break

    requirement_conditions: list[Condition] = []
    requirement_missing: list[str] = []
    for req in spec.requirements:
        if req.source_states and source not in req.source_states:
            continue
        if len(candidates) == 1 and candidates[0][0].id in req.not_for:
            continue
        if req.note is not None:
            notes.append(req.note)
        cond = evaluate(req.code, {}, facts)
        requirement_conditions.append(cond)
        extra_cites += _cites(req.citations, source)
        if cond.status != "met" and req.note_not_met is not None:
            notes.append(req.note_not_met)
        requirement_missing += _missing([cond])

    if len(candidates) == 1:
        rule, _, conditions = candidates[0]
        return WithholdingResult(**base, outcome=rule.outcome, rate=rule.value, alternatives=[],
                                 conditions=conditions + requirement_conditions, assumptions=assumptions,
                                 missing_facts=_dedupe(requirement_missing),
                                 citations=_cites(rule.citations, source) + extra_cites,
                                 notes=notes + list(rule.notes), rule_id=rule.id,
                                 effective_from=rule.effective_from, ruled_out=ruled_out)
    alternatives = [Alternative(rule_id=r.id, outcome=r.outcome, rate=r.value, conditions=conds,
                                citations=_cites(r.citations, source)) for r, _, conds in candidates]
    missing = _dedupe([f for _, _, conds in candidates for f in _missing(conds)] + requirement_missing)
    return WithholdingResult(**base, outcome="alternatives", rate=None, alternatives=alternatives,
                             conditions=requirement_conditions, assumptions=assumptions, missing_facts=missing,
                             citations=_dedupe([c for a in alternatives for c in a.citations] + extra_cites),
                             notes=notes + [n for r, _, _ in candidates for n in r.notes])
