"""The situation tests of rules/cases/*.yaml: every case gives the outcome the corpus text gives, every data
entry (taxing-rights case, withholding rule, relief entry) is decided by at least one case, and the checker
itself notices a wrong expectation."""
from __future__ import annotations

import pytest

from rules.situations import Situation, check, coverage_gaps, load_cases

CASES = load_cases()


def test_at_least_250_situations_over_every_bilateral_treaty() -> None:
    assert len(CASES) >= 250
    assert {t for t, _ in CASES} == {"PT-BR", "BR-ES", "PT-JP"}
    assert len({(t, s.id) for t, s in CASES}) == len(CASES), "ids repetidos"


@pytest.mark.parametrize("treaty,situation", CASES, ids=[f"{t}-{s.id}" for t, s in CASES])
def test_situation(treaty: str, situation: Situation) -> None:
    assert check(treaty, situation) == []


def test_every_entry_has_a_situation() -> None:
    assert coverage_gaps() == {}


def test_a_wrong_expectation_is_reported() -> None:
    treaty, right = next((t, s) for t, s in CASES if s.id == "pension-public-non-national")
    assert check(treaty, right) == []
    wrong = right.model_copy(update={"rights": {"BR": "shared", "PT": "shared"}, "rule": "pt-br.rights.19-1"})
    problems = check(treaty, wrong)
    assert len(problems) == 2 and any("direitos" in p for p in problems)
    capped = next(s for t, s in CASES if s.id == "dividends-parent-pt")
    assert any("direitos" in p for p in check("PT-BR", capped.model_copy(update={"rights": {"BR": "capped 15",
                                                                                       "PT": "shared"}})))


def test_the_report_command_runs(capsys: pytest.CaptureFixture[str]) -> None:
    from rules.situations import main
    assert main() == 0
    assert "0 divergências" in capsys.readouterr().out
