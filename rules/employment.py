"""employment_183_days(): the dependent-employment test with each treaty's own counting window.

Windows (from the data file, read from each text):
- "calendar_year": days in the calendar year considered (Brazil–Spain);
- "any_12_months": any 12-month period (Portugal–Japan);
- "12_months_in_fiscal_year": any 12-month period beginning or ending in the fiscal year (Portugal–Brazil).
Days are calendar days of presence, each counted once however the stays overlap; a stay's first and last
days both count. The fiscal year is taken as the calendar year, which the corpus does not define.
"""
from __future__ import annotations

from datetime import date, timedelta

from rules.conditions import describe
from rules.data_parts import CitedQuote
from rules.lookup import treaty_or_not_covered
from rules.results import Citation, Condition, EmploymentResult, Message, NotCovered, RulesInputError
from rules.treaty_data import EmploymentSpec, TreatyData, load_all


def _presence(stays: list[tuple[date, date]]) -> set[date]:
    if not isinstance(stays, (list, tuple)):
        raise RulesInputError("stays_not_list")
    days: set[date] = set()
    for i, stay in enumerate(stays):
        if not (isinstance(stay, (list, tuple)) and len(stay) == 2
                and all(isinstance(d, date) for d in stay)):
            raise RulesInputError("stay_not_pair", n=i + 1)
        start, end = stay
        if end < start:
            raise RulesInputError("stay_reversed", n=i + 1, end=end.isoformat(), start=start.isoformat())
        days.update(start + timedelta(n) for n in range((end - start).days + 1))
    return days


def _twelve_months_from(start: date) -> date:
    """Last day of the 12-month period that starts on `start`."""
    try:
        nxt = start.replace(year=start.year + 1)
    except ValueError:                      # 29 February
        nxt = date(start.year + 1, 3, 1)
    return nxt - timedelta(1)


def _count(days: set[date], start: date, end: date) -> int:
    return sum(1 for d in days if start <= d <= end)


def _best_window(days: set[date], window: str, year: int | None) -> tuple[date | None, date | None, int]:
    """The window with the most days of presence (the worst case for the employee)."""
    if not days:
        return None, None, 0
    if window == "calendar_year":
        years = [year] if year is not None else sorted({d.year for d in days})
        return max(((date(y, 1, 1), date(y, 12, 31), _count(days, date(y, 1, 1), date(y, 12, 31)))
                    for y in years), key=lambda w: w[2])
    # The 12-month window holding the most days can always be slid to start on a day of presence. Under the
    # fiscal-year rule the start must stay in the year (or the window must end in it), so the year's last
    # day and the windows ending on a day of presence in the year (or on its first day) are tried too.
    if window == "any_12_months":
        starts = set(days)
    else:
        years = [year] if year is not None else sorted({d.year for d in days})
        starts = set()
        for y in years:
            in_year = {d for d in days if d.year == y}
            starts |= in_year | {date(y, 12, 31)}
            starts |= {_start_of_window_ending(e) for e in in_year | {date(y, 1, 1)}}
    best: tuple[date | None, date | None, int] = (None, None, -1)
    for s in sorted(starts):
        e = _twelve_months_from(s)
        n = _count(days, s, e)
        if n > best[2]:
            best = (s, e, n)
    return best


def _start_of_window_ending(end: date) -> date:
    nxt = end + timedelta(1)
    try:
        return nxt.replace(year=nxt.year - 1)
    except ValueError:
        return date(nxt.year - 1, 2, 28) + timedelta(1)


def _cites(items: tuple[CitedQuote, ...]) -> list[Citation]:
    return [c.citation for c in items]


def employment_183_days(treaty: str, stays: list[tuple[date, date]],
                        employer_resident_in_work_state: bool | None,
                        borne_by_pe: bool | None, fiscal_year: int | None = None) -> EmploymentResult | NotCovered:
    data = treaty_or_not_covered(treaty)
    if isinstance(data, NotCovered):
        return data
    spec: EmploymentSpec | None = data.employment
    if spec is None:
        return NotCovered.because(f"{data.treaty}: emprego", [t for t, d in _with_employment()],
                                  "rules.not_covered.no_employment_rule", treaty=data.treaty)
    if fiscal_year is not None and (not isinstance(fiscal_year, int) or not 1900 <= fiscal_year <= 2200):
        raise RulesInputError("fiscal_year", value=repr(fiscal_year))
    days = _presence(stays)
    notes = list(spec.notes)
    if spec.window != "any_12_months":
        if fiscal_year is None:
            years = sorted({d.year for d in days})
            if len(years) > 1:
                notes.append(Message("rules.notes.fiscal_year_not_given", {"years": ", ".join(map(str, years))}))
        if spec.window == "12_months_in_fiscal_year":
            notes.append(Message("rules.notes.fiscal_year_is_calendar_year"))
    start, end, count = _best_window(days, spec.window, fiscal_year)
    within = count <= spec.max_days
    conditions: list[Condition] = [
        describe("days_within_limit", {"max_days": spec.max_days, "days": count}, "met" if within else "not_met"),
        describe("employer_not_resident_in_work_state", {},
                 _status(None if employer_resident_in_work_state is None else not employer_resident_in_work_state)),
        describe("not_borne_by_pe_in_work_state", {}, _status(None if borne_by_pe is None else not borne_by_pe)),
    ]
    missing = []
    if not within or employer_resident_in_work_state or borne_by_pe:
        taxable: bool | None = True
    elif employer_resident_in_work_state is None or borne_by_pe is None:
        taxable = None
        missing = [name for name, v in (("employer_resident_in_work_state", employer_resident_in_work_state),
                                        ("borne_by_pe", borne_by_pe)) if v is None]
    else:
        taxable = False
    return EmploymentResult(treaty=data.treaty, taxable_in_work_state=taxable, window_rule=spec.window,
                            window_start=start, window_end=end,
                            days=count, max_days=spec.max_days, conditions=conditions, missing_facts=missing,
                            citations=_cites(spec.citations + spec.employer_citations + spec.pe_citations),
                            notes=notes, fiscal_year=fiscal_year)


def stay_exceeds_short_stay(treaty: str, days: float) -> bool | None:
    """Whether one continuous stay of `days` days exceeds the treaty's short-stay limit in some counting
    window whatever its dates (a calendar-year window needs twice the limit: the stay may straddle two
    years); None for a treaty without the rule. For a stated length of stay when no dates are given."""
    data = treaty_or_not_covered(treaty)
    if isinstance(data, NotCovered) or data.employment is None:
        return None
    spec = data.employment
    return days > (2 * spec.max_days if spec.window == "calendar_year" else spec.max_days)


def _status(value: bool | None) -> str:
    return "unknown" if value is None else ("met" if value else "not_met")


def _with_employment() -> list[tuple[str, TreatyData]]:
    return [(t, d) for t, d in load_all().items() if d.employment]
