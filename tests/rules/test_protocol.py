"""The one rule protocol: a topic's rule is registered inside rules/ as (treaty data, case) -> result, and
apply() dispatches on the topic (figures when no rule is registered)."""
from __future__ import annotations

from datetime import date

import pytest

from rules import EmploymentFacts, Facts, NotCovered, TiebreakerFacts
from rules.facts import INCOME_TYPES
from rules.protocol import RULES, Case, apply
from rules.results import EmploymentResult, TiebreakerResult, WithholdingResult


def test_every_income_and_the_two_tests_are_registered() -> None:
    assert set(INCOME_TYPES) | {"employment", "residence"} <= set(RULES)


def test_apply_dispatches_on_the_topic() -> None:
    cap = apply("PT-BR", Case("dividends", Facts(beneficiary_kind="individual"), source_state="PT"))
    assert isinstance(cap, WithholdingResult) and cap.rate == 15
    stays = ((date(2024, 1, 1), date(2024, 3, 1)),)
    employed = EmploymentFacts(stays=stays, employer_resident_in_work_state=False, borne_by_pe=False)
    work = apply("BR-ES", Case("employment", Facts(employment=employed)))
    assert isinstance(work, EmploymentResult) and work.taxable_in_work_state is False
    tie = apply("PT-BR", Case("residence", Facts(residence=TiebreakerFacts(permanent_home_in=("PT",)))))
    assert isinstance(tie, TiebreakerResult) and tie.result == "PT"
    figs = apply("PT-BR", Case("permanent_establishment"))
    assert isinstance(figs, list) and any(f.value == 9 for f in figs)
    assert isinstance(apply("PT-FR", Case("dividends")), NotCovered)


def test_a_registered_rule_is_what_apply_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[str, str]] = []

    def fake(data, case):               # a test double for a newly registered topic
        seen.append((data.treaty, case.topic))
        return NotCovered.because("x", [], "rules.not_covered.unknown_topic", topic="x", known="")
    monkeypatch.setitem(RULES, "arbitration", fake)
    assert isinstance(apply("PT-BR", Case("arbitration")), NotCovered) and seen == [("PT-BR", "arbitration")]
