"""What the reader took a question to state, named as the ticket bank names facts (eval.tickets.FACT_TYPES).

The one mapping from the Query's Facts (its flat facts, its stay and employment group, its tie-breaker group)
and the State of a PE to the bank's fact names, so a scorer counts fact precision and recall without knowing
where each fact lives in the Query. Only the facts that can decide the answer on a topic the reader read
are stated facts: a nationality in a dividends question, or "moro em Lisboa" making the holder an individual
in a pension question, is read but decides nothing there (rules.deciding names, from the data, the facts
each topic's conditions read; the facts of the groups go with the tests that use them). Values are plain
JSON values: dates as ISO strings, State lists sorted.
"""
from __future__ import annotations

from datetime import date
from typing import Sequence

from assistant.understand.query import Query
from rules.deciding import deciding_facts
from rules.facts import FACT_NAMES, Facts

FactValue = bool | float | int | str | list[str]

# Facts fields the bank does not name: holding_since is folded into holding_months (with the payment date),
# employment_183_met is a conclusion, not something a ticket states; a yearly amount in another currency is read
# for the US$ limits (rules.exchange), not a bank fact.
_NOT_BANK_FACTS = {"holding_since", "employment_183_met", "pension_annual_amount", "student_annual_amount"}
_STAY = ("stay_days", "stay_months", "stay_years")
_TIEBREAKER = ("permanent_home_in", "habitual_abode_in", "nationality", "vital_interests_in",
               "effective_management_in", "person")
_PE = ("pe_in", "attributable_to_pe")
# The groups' facts and the tests that read them (the 183 days, the building-site months, art. 4).
_TOPIC_FACTS: dict[str, tuple[str, ...]] = {
    "employment": (*_STAY, "employer_resident_in_work_state", "borne_by_pe", "fiscal_year"),
    "students": _STAY, "professors": _STAY,
    "permanent_establishment": (*_STAY, "attributable_to_pe", "fixed_base_in_source", "beneficiary_kind"),
    "business_profits": (*_STAY, *_PE, "beneficiary_kind"), "branch_profits": (*_PE, "beneficiary_kind"),
    "shipping": ("beneficiary_kind",), "independent_services": (*_STAY, *_PE),   # the enterprise: a company
    "residence": (*_TIEBREAKER, "fiscal_year"),
    "technical_services": ("royalty_kind",),        # a kind of royalty in some protocols (PT-BR Protocol 5)
}
_RELIEF = {"double_taxation_relief", "tax_sparing"}
_NATIONAL = {"national_of_paying_state", "national_of_residence_state"}


def _plain(value: object) -> FactValue:
    if isinstance(value, (bool, str, int, float)):
        return value
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, (tuple, list)):
        return sorted(str(v) for v in value)
    raise TypeError(f"valor de facto inesperado: {value!r}")


def read_facts(query: Query) -> dict[str, FactValue]:
    """Every fact the reading holds, by the bank's names, whatever the topic; a fact not read is absent."""
    out: dict[str, FactValue] = {}
    facts: Facts = query.facts
    for name in FACT_NAMES:
        value = getattr(facts, name)
        if value is not None and name not in _NOT_BANK_FACTS:
            out[name] = _plain(value)
    if "holding_months" not in out and facts.holding_since and facts.payment_date:
        out["holding_months"] = round((facts.payment_date - facts.holding_since).days / 30.44, 2)
    stay = facts.employment
    for name in ("stay_days", "stay_months", "employer_resident_in_work_state", "borne_by_pe", "fiscal_year"):
        value = getattr(stay, name)
        if value is not None:
            out[name] = _plain(value)
    if stay.stay_months is not None:                # a stay is stated once, in the unit it was written in
        out.pop("stay_years", None)
        if stay.stay_unit == "years":
            out["stay_years"] = round(stay.stay_months / 12, 2)
            del out["stay_months"]
    if "stay_days" not in out and stay.stays:       # dates of stay: the days they cover, both ends counted
        out["stay_days"] = int(stay.total_days or 0)
        out.pop("stay_years", None)                 # the same stay, in years, for a student's rules
    tb = facts.residence
    if tb is not None:
        for name in _TIEBREAKER[:-1]:
            value = getattr(tb, name)
            if value:
                out[name] = _plain(value)
        if tb.effective_management_in is not None or tb.person == "company":
            out["person"] = tb.person
    if query.pe_state is not None:
        out["pe_in"] = query.pe_state
    return out


def deciding(query: Query, asked: Sequence[str] = ()) -> frozenset[str]:
    """Fact names that can decide the answer on the topics read (the query's and `asked`, the topics of the
    ticket's parts), under any treaty (the reading's treaty may be wrong, and a fact the question states stays
    stated when another pair would not ask for it)."""
    names: set[str] = set()
    for topic in dict.fromkeys((*query.topics, *asked)):
        if topic not in _RELIEF:                     # relief turns on the income's facts (PT-BR 23(2): dividends)
            names |= deciding_facts(None, topic)
        names |= set(_TOPIC_FACTS.get(topic, ()))   # any treaty: a new pair
    if names & _NATIONAL:
        names.add("nationality")                     # "dupla nacionalidade" states both national_of_* facts
    return frozenset(names)


def _said(name: str, value: FactValue, topics: tuple[str, ...]) -> bool:
    """A nationality is stated ("sou portuguesa"); not being a national of the other State is only inferred
    from it, and one nationality is a tie-breaker fact only when the question is about residence."""
    if name in _NATIONAL:
        return value is True
    if name == "nationality":
        return "residence" in topics or (isinstance(value, list) and len(value) > 1)
    return True


def stated_facts(query: Query, asked: Sequence[str] = ()) -> dict[str, FactValue]:
    """The facts the question states that decide its answer, by the ticket bank's names; `asked`: the topics
    of the ticket's parts, each answered with the same facts ("vivo em Almada" makes the owner an individual
    in the relief part of a rent ticket)."""
    topics = (*query.topics, *asked)
    found = {name: value for name, value in read_facts(query).items() if _said(name, value, topics)}
    if not topics:
        return found
    keep = deciding(query, asked)
    return {name: value for name, value in found.items() if name in keep}
