"""employment_183_days(): each treaty's own window; day counts worked out by hand from the calendar."""
from __future__ import annotations

from datetime import date, timedelta

import pytest

from rules import EmploymentResult, NotCovered, RulesInputError, employment_183_days


def run(treaty: str, stays, employer=False, pe=False, year=None) -> EmploymentResult:
    result = employment_183_days(treaty, stays, employer, pe, year)
    assert isinstance(result, EmploymentResult), result
    return result


def days_from(start: date, n: int) -> tuple[date, date]:
    return (start, start + timedelta(n - 1))


@pytest.mark.parametrize("treaty", ["PT-BR", "BR-ES", "PT-JP"])
def test_183_vs_184_days(treaty: str) -> None:
    at_limit = run(treaty, [days_from(date(2023, 3, 1), 183)], year=2023)
    over = run(treaty, [days_from(date(2023, 3, 1), 184)], year=2023)
    assert (at_limit.days, at_limit.taxable_in_work_state) == (183, False)
    assert (over.days, over.taxable_in_work_state) == (184, True)


def test_overlapping_stays_count_each_day_once() -> None:
    r = run("BR-ES", [(date(2023, 1, 1), date(2023, 1, 31)), (date(2023, 1, 15), date(2023, 2, 10))])
    assert r.days == 41


def test_calendar_year_splits_a_stay_across_year_end() -> None:
    # 1 Oct 2023 - 31 Mar 2024: 92 days in 2023, 91 in 2024 (leap February); 183 in all.
    stay = [(date(2023, 10, 1), date(2024, 3, 31))]
    assert run("BR-ES", stay, year=2023).days == 92
    assert run("BR-ES", stay, year=2024).days == 91
    worst = run("BR-ES", stay)
    assert (worst.days, worst.window_start, worst.taxable_in_work_state) == (92, date(2023, 1, 1), False)


def test_twelve_month_window_across_year_end() -> None:
    # 1 Sep 2023 - 31 Mar 2024 = 30+31+30+31+31+29+31 = 213 days: under 183 in each calendar year, not in 12 months.
    stay = [(date(2023, 9, 1), date(2024, 3, 31))]
    assert run("BR-ES", stay).taxable_in_work_state is False
    for treaty, year in (("PT-JP", None), ("PT-BR", 2023), ("PT-BR", 2024)):
        r = run(treaty, stay, year=year)
        assert (r.days, r.taxable_in_work_state) == (213, True)
        assert r.window_start <= date(2023, 9, 1) and r.window_end >= date(2024, 3, 31)


def test_fiscal_year_window_must_begin_or_end_in_that_year() -> None:
    # 1 Nov 2023 - 8 Feb 2024 and 1 Jun - 8 Sep 2024 (100 days each). Fiscal year 2024: the window 1 Nov 2023 -
    # 31 Oct 2024 ends in 2024 and holds 200. Fiscal year 2025: the earliest window ending in 2025 runs from
    # 2 Jan 2024, holding 38 + 100 = 138. Fiscal year 2026: nothing.
    stays = [days_from(date(2023, 11, 1), 100), days_from(date(2024, 6, 1), 100)]
    in_window = run("PT-BR", stays, year=2024)
    assert in_window.days == 200 and in_window.taxable_in_work_state is True
    later = run("PT-BR", stays, year=2025)
    assert (later.days, later.window_start, later.taxable_in_work_state) == (138, date(2024, 1, 2), False)
    far = run("PT-BR", stays, year=2026)
    assert far.days == 0 and far.taxable_in_work_state is False


def test_employer_and_pe_conditions() -> None:
    short = [days_from(date(2023, 5, 1), 30)]
    assert run("PT-BR", short, employer=True).taxable_in_work_state is True
    assert run("PT-BR", short, pe=True).taxable_in_work_state is True
    unknown = employment_183_days("PT-BR", short, None, False)
    assert unknown.taxable_in_work_state is None and unknown.missing_facts == ["employer_resident_in_work_state"]
    long = employment_183_days("PT-BR", [days_from(date(2023, 1, 1), 200)], None, None, 2023)
    assert long.taxable_in_work_state is True and long.missing_facts == []


def test_window_rules_come_from_each_text() -> None:
    rules = {t: run(t, [days_from(date(2023, 1, 1), 10)]) for t in ("PT-BR", "BR-ES", "PT-JP")}
    assert {t: r.window_rule for t, r in rules.items()} == {
        "PT-BR": "12_months_in_fiscal_year", "BR-ES": "calendar_year", "PT-JP": "any_12_months"}
    assert all(r.citations and r.max_days == 183 for r in rules.values())


def test_bad_input() -> None:
    with pytest.raises(RulesInputError, match="anterior"):
        employment_183_days("PT-BR", [(date(2023, 5, 2), date(2023, 5, 1))], False, False)
    with pytest.raises(RulesInputError):
        employment_183_days("PT-BR", [("2023-01-01", "2023-02-01")], False, False)
    assert isinstance(employment_183_days("PT-FR", [], False, False), NotCovered)
    assert isinstance(employment_183_days("MLI", [], False, False), NotCovered)


def test_a_stated_stay_length_exceeds_the_limit_whatever_its_dates():
    from rules import stay_exceeds_short_stay
    # 200 days in a row: 200 days inside one 12-month window (PT-JP, PT-BR)
    assert stay_exceeds_short_stay("PT-JP", 200) is True and stay_exceeds_short_stay("PT-BR", 200) is True
    assert stay_exceeds_short_stay("PT-JP", 150) is False
    # calendar year (BR-ES): 300 days from 1 August fall 153 in one year and 147 in the next
    spread = run("BR-ES", [(date(2024, 8, 1), date(2024, 8, 1) + timedelta(299))])
    assert spread.taxable_in_work_state is False and stay_exceeds_short_stay("BR-ES", 300) is False
    assert stay_exceeds_short_stay("BR-ES", 400) is True
    assert stay_exceeds_short_stay("MLI", 400) is None
