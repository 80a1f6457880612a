"""A stated number set against the threshold a condition names, as card values: "30% > 25%", "18 meses < 2
anos", "US$ 2400 < US$ 3000". The threshold is the condition's own param (from rules/data), the stated value
the fact the rules read, marked Stated so it grounds nothing; only the sign is worked out here."""
from __future__ import annotations

from dataclasses import dataclass

from assistant.presentation.values import Check, Join, Num, Paren, Phrase, Rate, Stated, Value, check
from rules import Condition, Facts
from rules.exchange import Money


@dataclass(frozen=True)
class _Threshold:
    fact: str            # the Facts field with the stated value
    param: str           # the condition's param with the threshold
    unit: str            # "percent" | "years" | "usd"
    in_months: bool = False   # the fact is in months, the threshold in years (holding periods)
    money: str | None = None  # the Facts field with the amount stated in another currency (rules.exchange)


THRESHOLDS = {
    "holding_min_pct": _Threshold("holding_pct", "pct", "percent"),
    "holding_min_years": _Threshold("holding_months", "years", "years", in_months=True),
    "loan_min_years": _Threshold("loan_term_years", "years", "years"),
    "pension_within_usd": _Threshold("pension_annual_usd", "usd", "usd", money="pension_annual_amount"),
    "student_within_usd": _Threshold("student_annual_usd", "usd", "usd", money="student_annual_amount"),
    "stay_within_years": _Threshold("stay_years", "years", "years"),
}


def _amount(value: float, unit: str) -> Value:
    if unit == "percent":
        return Rate(value)
    if unit == "usd":
        return Phrase("assistant.thresholds.usd", {"amount": Num(value)})
    return Num(round(value, 2), unit)


def comparison(condition: Condition, facts: Facts | None) -> Value | None:
    """"30% > 25%" for a condition decided by a stated number; None when there is none to show."""
    spec = THRESHOLDS.get(condition.code)
    if spec is None or facts is None or condition.status not in ("met", "not_met"):
        return None
    stated, limit = getattr(facts, spec.fact, None), condition.params.get(spec.param)
    money = getattr(facts, spec.money) if spec.money and stated is None else None
    if isinstance(money, Money) and isinstance(limit, (int, float)):
        # "4800 EUR por ano (US$ 3936 a 7680 …) < US$ 10000": the whole range is on one side of the limit
        low, high = money.usd_range()
        sign = "<" if high < limit else ">" if low > limit else "="
        shown = Phrase("assistant.thresholds.money", {"amount": Num(round(money.value, 2)), "currency": money.currency,
                                                       "low": Num(round(low)), "high": Num(round(high))})
        return Join((Stated(shown), sign, _amount(float(limit), spec.unit)), " ")
    if not isinstance(stated, (int, float)) or not isinstance(limit, (int, float)):
        return None
    compared = stated / 12 if spec.in_months else stated
    sign = "=" if compared == limit else ">" if compared > limit else "<"
    shown = Num(round(stated, 2), "months") if spec.in_months else _amount(stated, spec.unit)
    return Join((Stated(shown), sign, _amount(float(limit), spec.unit)), " ")


def checked(condition: Condition, facts: Facts | None) -> Check:
    """The condition with its status, followed by the stated value against its threshold when there is one."""
    plain = check(condition)
    shown = comparison(condition, facts)
    if shown is None:
        return plain
    return Check(Phrase("assistant.thresholds.compared", {"condition": plain.phrase, "comparison": Paren(shown)}),
                 plain.status)
