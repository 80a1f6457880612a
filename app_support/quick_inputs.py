"""Which widget asks for which missing fact, and how its answer becomes `extra_facts` for the assistant.

The quick inputs are generated from the rules' fact registry (rules.fact_registry: widget, allowed values,
catalogue keys), one per Facts field; facts the rules may ask for that are not Facts fields (stays,
tie-breaker facts) are asked for in the answer's text instead.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from assistant.answer import ReadingChoice
from i18n import t
from rules.fact_registry import FACTS, FactSpec

UI = "pt"                                     # the app's language


def _options(spec: FactSpec) -> dict[str, str]:
    return {value: t(UI, key) for value, key in spec.option_keys().items()}


BENEFICIARY_PT = _options(FACTS["beneficiary_kind"])
ROYALTY_PT = _options(FACTS["royalty_kind"])
LOAN_PURPOSE_PT = _options(FACTS["loan_purpose"])


@dataclass(frozen=True)
class QuickInput:
    fact: str                         # the missing fact it answers (a Facts field name)
    label: str                        # question in the app's language (from the message catalogue)
    kind: str                         # the registry's widget: choice | percent | since | years | amount | bool
    options: dict[str, str] | None = None


QUICK_INPUTS: dict[str, QuickInput] = {
    name: QuickInput(name, t(UI, spec.label_key), spec.widget, _options(spec) if spec.values else None)
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


def describe_facts(extra: dict[str, Any]) -> str:
    """The added facts in words, for the re-run question shown in the chat."""
    out = []
    for name, value in extra.items():
        if name == "beneficiary_kind":
            out.append(t(UI, "app.described.beneficiary", value=BENEFICIARY_PT.get(value, value).lower()))
        elif name == "holding_pct":
            out.append(t(UI, "app.described.holding_pct", value=f"{value:g}"))
        elif name in ("holding_since", "payment_date"):
            out.append(t(UI, f"app.described.{name}", value=value.isoformat()))
        elif name == "royalty_kind":
            out.append(t(UI, "app.described.royalty", value=ROYALTY_PT.get(value, value).lower()))
        elif name == "loan_purpose":
            out.append(t(UI, "app.described.loan_purpose", value=LOAN_PURPOSE_PT.get(value, value).lower()))
        elif name in QUICK_INPUTS and QUICK_INPUTS[name].options:
            q = QUICK_INPUTS[name]
            out.append(f"{q.label.rstrip('?')}: {(q.options or {}).get(value, value).lower()}")
        elif name == "loan_term_years":
            out.append(t(UI, "app.described.loan_term_years", value=f"{value:g}"))
        elif isinstance(value, bool):
            label = QUICK_INPUTS[name].label.rstrip("?") if name in QUICK_INPUTS else name
            out.append(f"{label}: {t(UI, 'app.described.answer_yes' if value else 'app.described.answer_no')}")
        else:
            out.append(f"{name}: {value}")
    return "; ".join(out)
