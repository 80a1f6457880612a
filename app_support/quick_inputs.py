"""Which widget asks for which missing fact, and how its answer becomes `extra_facts` for the assistant.

The quick inputs are generated from the rules' fact registry (rules.fact_registry: widget, allowed values,
catalogue keys), one per flat Facts field; facts in a group of Facts (the stays, the tie-breaker facts) are
asked for in the answer's text instead.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from assistant.answer import ReadingChoice
from assistant.presentation.values import Formatter
from i18n import t
from rules.fact_registry import FACTS, FactSpec


@dataclass(frozen=True)
class QuickInput:
    fact: str                         # the missing fact it answers (a Facts field name)
    kind: str                         # the registry's widget: choice | percent | since | years | amount | bool
    spec: FactSpec

    def label(self, lang: str) -> str:
        """The question in the UI language."""
        return t(lang, self.spec.label_key)

    def options(self, lang: str) -> dict[str, str]:
        return {value: t(lang, key) for value, key in self.spec.option_keys().items()}


QUICK_INPUTS: dict[str, QuickInput] = {name: QuickInput(name, spec.widget, spec)
                                       for name, spec in FACTS.items() if spec.offered}


def quick_inputs_for(missing: list[str]) -> list[QuickInput]:
    return [QUICK_INPUTS[m] for m in missing if m in QUICK_INPUTS]


def with_reading(question: str, choice: ReadingChoice) -> str:
    """The question with the chosen candidate treaty's assumption stated, for the assistant to re-read."""
    return f"{question.rstrip()} {choice.clarification}"


def to_facts(q: QuickInput, value: Any, payment_date: date | None = None) -> dict[str, Any]:
    """The Facts fields one answered quick input sets; {} when left unanswered."""
    if value is None or value == "":
        return {}
    if q.kind == "since":
        if not isinstance(value, date):
            return {}
        return {"holding_since": value, "payment_date": payment_date or date.today()}
    if q.kind == "bool":
        return {q.fact: bool(value)}
    if q.kind in ("percent", "years", "amount"):
        return {q.fact: float(value)}
    return {q.fact: value}


def describe_facts(extra: dict[str, Any], lang: str) -> str:
    """The added facts in words (UI language), for the re-run question shown in the chat."""
    def option(name: str, value: str) -> str:
        q = QUICK_INPUTS[name]
        return q.options(lang).get(value, value).lower()

    out = []
    for name, value in extra.items():
        if name == "beneficiary_kind":
            out.append(t(lang, "app.described.beneficiary", value=option(name, value)))
        elif name == "holding_pct":
            out.append(t(lang, "app.described.holding_pct", value=Formatter(lang).number(value)))
        elif name in ("holding_since", "payment_date"):
            out.append(t(lang, f"app.described.{name}", value=value.isoformat()))
        elif name == "royalty_kind":
            out.append(t(lang, "app.described.royalty", value=option(name, value)))
        elif name == "loan_purpose":
            out.append(t(lang, "app.described.loan_purpose", value=option(name, value)))
        elif name in QUICK_INPUTS and QUICK_INPUTS[name].spec.values:
            out.append(f"{QUICK_INPUTS[name].label(lang).rstrip('?')}: {option(name, value)}")
        elif name == "loan_term_years":
            out.append(t(lang, "app.described.loan_term_years", value=Formatter(lang).number(value)))
        elif isinstance(value, bool):
            label = QUICK_INPUTS[name].label(lang).rstrip("?") if name in QUICK_INPUTS else name
            out.append(f"{label}: {t(lang, 'app.described.answer_yes' if value else 'app.described.answer_no')}")
        else:
            out.append(f"{name}: {value}")
    return "; ".join(out)
