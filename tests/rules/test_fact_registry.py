"""The fact registry: every fact the rules can ask for is registered with its widget, its allowed values and
its catalogue texts in pt/es/en; the app's quick inputs and the follow-up questions come from it."""
from __future__ import annotations

import dataclasses

import pytest

from i18n import t
from rules import Facts, RulesInputError, withholding_cap
from rules.conditions import SPECS
from rules.fact_registry import FACTS


def test_every_fact_a_condition_reads_is_registered() -> None:
    read = {f for spec in SPECS.values() for f in spec.facts}
    assert read <= set(FACTS), sorted(read - set(FACTS))
    assert set(FACTS) == {f.name for f in dataclasses.fields(Facts)} - {"holding_since", "payment_date",
                                                                        "employment", "residence",
                                                                        "pension_annual_amount",
                                                                        "student_annual_amount"}


@pytest.mark.parametrize("name", sorted(FACTS))
def test_every_fact_has_its_texts_in_three_languages(name: str) -> None:
    spec = FACTS[name]
    for key in (spec.question_key, spec.label_key, *spec.option_keys().values()):
        assert all(t(lang, key) for lang in ("pt", "es", "en")), key


def test_choices_come_from_the_registry_and_are_enforced() -> None:
    assert "local_authority" in FACTS["beneficiary_kind"].values
    assert FACTS["pension_kind"].widget == "choice" and FACTS["student_employment_for_studies"].widget == "bool"
    with pytest.raises(RulesInputError):
        withholding_cap("PT-BR", "interest", "PT", Facts(gain_kind="lottery"))
    with pytest.raises(RulesInputError):
        withholding_cap("PT-BR", "interest", "PT", Facts(stay_years=-1))


def test_quick_inputs_and_follow_up_questions_are_generated_from_it() -> None:
    from app_support.quick_inputs import QUICK_INPUTS
    from assistant.presentation.card import missing_questions
    from assistant.presentation.values import Formatter, render
    assert set(QUICK_INPUTS) == {name for name, spec in FACTS.items() if spec.offered} and len(QUICK_INPUTS) > 30
    assert QUICK_INPUTS["pension_kind"].options("es") and QUICK_INPUTS["pension_kind"].kind == "choice"
    asked = " ".join(render(p, Formatter("en")) for p in missing_questions(("fee_borne_by_company_or_pe", "stays")))
    assert "company resident in" in asked and "dates" in asked
