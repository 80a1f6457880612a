"""What the reader took a question to state, named as the ticket bank names facts (eval.tickets.FACT_TYPES).

The one mapping from the Query's fields (its Facts, its stay and employment fields, its tie-breaker facts,
the State of a PE) to the bank's fact names, so a scorer can count fact precision and recall without
knowing where each fact lives in the Query. Values are plain JSON values: numbers as floats, dates as ISO
strings, State lists sorted.
"""
from __future__ import annotations

import dataclasses
from datetime import date

from assistant.understand.query import Query
from rules.facts import Facts

FactValue = bool | float | int | str | list[str]

# Facts fields the bank does not name: holding_since is folded into holding_months (with the payment date),
# employment_183_met is a conclusion, not something a ticket states.
_NOT_BANK_FACTS = {"holding_since", "employment_183_met"}
_QUERY_FACTS = ("stay_days", "stay_months", "employer_resident_in_work_state", "borne_by_pe", "fiscal_year")
_TIEBREAKER_LISTS = ("permanent_home_in", "habitual_abode_in", "nationality")
_TIEBREAKER_ONE = ("vital_interests_in", "effective_management_in")


def _plain(value: object) -> FactValue:
    if isinstance(value, bool) or isinstance(value, str):
        return value
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, (tuple, list)):
        return sorted(str(v) for v in value)
    raise TypeError(f"valor de facto inesperado: {value!r}")


def _months_between(start: date, end: date) -> float:
    return round((end - start).days / 30.44, 2)


def stated_facts(query: Query) -> dict[str, FactValue]:
    """Every fact the reading holds, by the ticket bank's names; a fact not read is absent (never None)."""
    out: dict[str, FactValue] = {}
    facts: Facts = query.facts
    for f in dataclasses.fields(Facts):
        value = getattr(facts, f.name)
        if value is not None and f.name not in _NOT_BANK_FACTS:
            out[f.name] = _plain(value)
    if "holding_months" not in out and facts.holding_since and facts.payment_date:
        out["holding_months"] = _months_between(facts.holding_since, facts.payment_date)
    for name in _QUERY_FACTS:
        value = getattr(query, name)
        if value is not None:
            out[name] = _plain(value)
    tb = query.tiebreaker
    if tb is not None:
        for name in _TIEBREAKER_LISTS:
            value = getattr(tb, name)
            if value:
                out[name] = _plain(value)
        for name in _TIEBREAKER_ONE:
            value = getattr(tb, name)
            if value is not None:
                out[name] = value
        if tb.effective_management_in is not None or tb.person == "company":
            out["person"] = tb.person
    if query.pe_state is not None:
        out["pe_in"] = query.pe_state
    return out


# One stay written in any unit: the reader keeps it in days or months (and in years for the rules); a ticket
# names it once, in the unit it is written in. Compared in days.
_STAY_DAYS = {"stay_days": 1.0, "stay_months": 30.44, "stay_years": 365.25}


@dataclasses.dataclass(frozen=True)
class FactScore:
    """Counts for fact precision (right / read) and recall (right / stated) over one ticket."""
    right: int
    read: int
    stated: int


def _stay(facts: dict[str, object]) -> dict[str, object]:
    """The facts with the stay (in whatever unit) as one "stay" fact in days."""
    out = {k: v for k, v in facts.items() if k not in _STAY_DAYS}
    stays = [float(v) * _STAY_DAYS[k] for k, v in facts.items() if k in _STAY_DAYS and isinstance(v, (int, float))]
    if stays:
        out["stay"] = stays
    return out


def score_facts(expected: dict[str, object], got: dict[str, object]) -> FactScore:
    """Stated facts (name -> value, as in a ticket) against a reading's stated_facts()."""
    want, have = _stay(expected), _stay(got)
    right = 0
    for name, value in want.items():
        if name not in have:
            continue
        if name == "stay":
            right += any(abs(w - h) <= max(1.0, 0.03 * w) for w in value for h in have[name])  # type: ignore[attr-defined]
        else:
            right += same_value(value, have[name])
    return FactScore(right, len(have), len(want))


def same_value(expected: object, got: object) -> bool:
    """A stated fact read right: numbers within 1%, lists as sets, the rest equal."""
    if isinstance(expected, bool) or isinstance(got, bool):
        return expected is got
    if isinstance(expected, (int, float)) and isinstance(got, (int, float)):
        return abs(float(expected) - float(got)) < 0.01 * max(1.0, abs(float(expected)))
    if isinstance(expected, (list, tuple)) and isinstance(got, (list, tuple)):
        return set(map(str, expected)) == set(map(str, got))
    return expected == got
