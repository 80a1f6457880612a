"""Condition texts agree with the count they carry (issue 19: answers an agent can send)."""
from __future__ import annotations

import pytest

from rules.conditions import condition_text, describe


@pytest.mark.parametrize("language, one, two", [
    ("pt", "não excede um ano", "não excede 2 anos"),
    ("es", "no excede de un año", "no excede de 2 años"),
    ("en", "does not exceed one year", "does not exceed 2 years"),
])
def test_a_stay_of_one_year_is_singular(language, one, two):
    assert one in condition_text("stay_within_years", {"years": 1}, language)
    assert two in condition_text("stay_within_years", {"years": 2}, language)
    assert one in describe("stay_within_years", {"years": 1}).text_in(language)
