"""A stated number set against the threshold a condition names, for the card: "30% ≥ 25%", "18 meses < 2 anos",
"US$ 2.500 ≤ US$ 3.000". The threshold is the condition's own param (from rules/data), the stated value the
fact the rules read; only the sign is worked out here, so the card says how the fact meets the figure."""
from __future__ import annotations

from dataclasses import dataclass

from rules import Condition, Facts
from rules.labels import unit_label


@dataclass(frozen=True)
class _Threshold:
    fact: str            # the Facts field with the stated value
    param: str           # the condition's param with the threshold
    unit: str            # "percent" | "years" | "months" | "usd"
    in_months: bool = False   # the fact is in months, the threshold in years (holding periods)


THRESHOLDS = {
    "holding_min_pct": _Threshold("holding_pct", "pct", "percent"),
    "holding_min_years": _Threshold("holding_months", "years", "years", in_months=True),
    "loan_min_years": _Threshold("loan_term_years", "years", "years"),
    "pension_within_usd": _Threshold("pension_annual_usd", "usd", "usd"),
    "student_within_usd": _Threshold("student_annual_usd", "usd", "usd"),
    "stay_within_years": _Threshold("stay_years", "years", "years"),
}


def _number(value: float, language: str) -> str:
    text = f"{round(value, 2):g}"
    return text if language == "en" else text.replace(".", ",")


def _amount(value: float, unit: str, language: str) -> str:
    if unit == "percent":
        return f"{_number(value, language)}%"
    if unit == "usd":
        return f"US$ {_number(value, language)}"
    return f"{_number(value, language)} {unit_label(unit, value, language)}"


def comparison(condition: Condition, facts: Facts | None, language: str) -> str:
    """"30% > 25%" for a condition decided by a stated number, "" when there is none to show."""
    spec = THRESHOLDS.get(condition.code)
    if spec is None or facts is None or condition.status not in ("met", "not_met"):
        return ""
    stated, limit = getattr(facts, spec.fact, None), condition.params.get(spec.param)
    if not isinstance(stated, (int, float)) or not isinstance(limit, (int, float)):
        return ""
    compared = stated / 12 if spec.in_months else stated
    sign = "=" if compared == limit else ">" if compared > limit else "<"
    shown = _amount(stated, "months", language) if spec.in_months else _amount(stated, spec.unit, language)
    return f"{shown} {sign} {_amount(float(limit), spec.unit, language)}"


def with_comparison(condition: Condition, facts: Facts | None, language: str) -> str:
    """The condition's text, followed by the stated value against its threshold when there is one."""
    shown = comparison(condition, facts, language)
    text = condition.text_in(language)
    return f"{text} ({shown})" if shown else text


def stated_values(run, language: str) -> list[str]:
    """Every comparison the card shows for `run` (a RuleRun): the question's numbers, which may ground no rate
    in an explanation (the guardrail drops them from the card before grounding)."""
    conditions = [c for r in run.withholding for a in (r, *r.alternatives, *r.ruled_out) for c in a.conditions]
    conditions += [c for r in run.rights for case in r.cases for c in case.conditions] + list(run.stated)
    return [x for x in dict.fromkeys(comparison(c, run.facts, language) for c in conditions) if x]
