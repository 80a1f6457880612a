"""The fact registry: for every flat `Facts` field the rules read, its kind, its allowed values, the catalogue keys
that ask for it and the widget that answers it. The app's quick inputs, the answer's follow-up questions and
the rules' input check are generated from it, so a new fact is one entry here (plus its catalogue texts).

Catalogue keys, by convention: the follow-up question `assistant.facts.<name>`, the quick-input label
`app.quick_input.<name>`, a choice's option labels `app.<option_group>.<value>`.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Literal

from rules.facts import (
    BENEFICIARY_KINDS,
    EMPLOYMENT_KINDS,
    FACT_NAMES,
    GAIN_KINDS,
    PE_ACTIVITIES,
    PENSION_KINDS,
    ROYALTY_KINDS,
    STUDENT_PAYMENT_ORIGINS,
    Facts,
)
from rules.results import RulesInputError

Widget = Literal["choice", "bool", "percent", "years", "since", "amount"]
LOAN_PURPOSES = ("equipment", "other")


@dataclass(frozen=True)
class FactSpec:
    name: str
    widget: Widget
    values: tuple[str, ...] = ()          # a choice's allowed values
    option_group: str = ""                # catalogue group of the options' labels (app.<group>.<value>)
    minimum: float | None = None          # numbers: the smallest accepted value
    maximum: float | None = None

    @property
    def question_key(self) -> str:
        return f"assistant.facts.{self.name}"

    @property
    def label_key(self) -> str:
        return f"app.quick_input.{self.name}"

    @property
    def offered(self) -> bool:
        """Whether a widget can ask for it (a choice needs its values listed)."""
        return self.widget != "choice" or bool(self.values)

    def option_keys(self) -> dict[str, str]:
        return {v: f"app.{self.option_group}.{v}" for v in self.values}

    def check(self, value: object) -> None:
        """Refuses a value outside the allowed set or range (RulesInputError, a catalogue message)."""
        if value is None:
            return
        if self.widget == "choice" and self.values and value not in self.values:
            raise RulesInputError("unknown_value", name=self.name, value=repr(value), known=", ".join(self.values))
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            if self.minimum is not None and value < self.minimum:
                raise RulesInputError("negative_value", name=self.name, value=value)
            if self.maximum is not None and value > self.maximum:
                raise RulesInputError("holding_pct", value=value)


_CHOICES = {
    "beneficiary_kind": (BENEFICIARY_KINDS, "beneficiary"),
    "royalty_kind": (ROYALTY_KINDS, "royalty"),
    "loan_purpose": (LOAN_PURPOSES, "loan_purpose"),
    "pension_kind": (PENSION_KINDS, "pension_kind"),
    "gain_kind": (GAIN_KINDS, "gain_kind"),
    "pe_activity": (PE_ACTIVITIES, "pe_activity"),
    "employment_kind": (EMPLOYMENT_KINDS, "employment_kind"),
    "student_payment_origin": (STUDENT_PAYMENT_ORIGINS, "student_payment_origin"),
}
_NUMBERS: dict[str, tuple[Widget, float | None]] = {
    "holding_pct": ("percent", 100.0), "holding_months": ("since", None), "loan_term_years": ("years", None),
    "stay_years": ("years", None), "pension_annual_usd": ("amount", None), "student_annual_usd": ("amount", None),
}
# Set together with holding_months by the "since" widget (a date and the payment date), never asked alone; an
# amount in euros, reais or yen is read from the question, the follow-up asks it in US$.
_NOT_ASKED = ("holding_since", "payment_date", "pension_annual_amount", "student_annual_amount")


def _spec(name: str, annotation: str) -> FactSpec:
    """A field's entry: its registered choices or number widget, else read from its type (a new yes/no fact
    is a bool; a new number a non-negative amount; a new text a choice whose values are not yet listed)."""
    if name in _CHOICES:
        values, group = _CHOICES[name]
        return FactSpec(name, "choice", values, group)
    if name in _NUMBERS:
        widget, maximum = _NUMBERS[name]
        return FactSpec(name, widget, minimum=0.0, maximum=maximum)
    if annotation.startswith(("float", "int")):
        return FactSpec(name, "amount", minimum=0.0)
    if annotation.startswith("str"):
        return FactSpec(name, "choice", option_group=name)
    return FactSpec(name, "bool")


# The flat facts only: a group (the stays, the tie-breaker facts) is asked for in the answer's text.
FACTS: dict[str, FactSpec] = {f.name: _spec(f.name, str(f.type)) for f in fields(Facts)
                              if f.name in FACT_NAMES and f.name not in _NOT_ASKED}


def check_facts(facts: Facts) -> None:
    """Every stated fact within its registered values (the rules' input check)."""
    if not isinstance(facts, Facts):
        raise RulesInputError("facts_type", expected="Facts")
    for name, spec in FACTS.items():
        spec.check(getattr(facts, name))
    if facts.holding_since and facts.payment_date and facts.holding_since > facts.payment_date:
        raise RulesInputError("holding_after_payment")
