"""Presentation of rule results on the calculator pages (Portuguese UI text); answers are drawn by
assistant/presentation/."""
from __future__ import annotations

import rules
from i18n import t
from assistant.answer import citation_label
from assistant.presentation.values import Formatter
from rules.labels import state_name

UI = "pt"                                      # the app's language

STATUS_ICON = {"met": ":green[:material/check_circle:]", "not_met": ":red[:material/cancel:]",
               "unknown": ":orange[:material/help:]", "assumed_not_met": ":gray[:material/remove_circle:]"}
STATUS_PT = {k: t(UI, f"app.status.{k}") for k in STATUS_ICON}
STEP_PT = {k: t(UI, f"app.step.{k}") for k in ("permanent_home", "vital_interests", "habitual_abode", "nationality",
                                               "mutual_agreement", "effective_management")}
STEP_OUTCOME_PT = {k: t(UI, f"app.step_outcome.{k}") for k in ("decided", "next", "unknown")}
WINDOW_RULE_PT = {k: t(UI, f"app.window_rule.{k}") for k in ("calendar_year", "any_12_months",
                                                             "12_months_in_fiscal_year")}


def cite_label(c: rules.Citation) -> str:
    return citation_label(c.treaty, c.article, c.paragraph, c.subparagraph)


def outcome_pt(outcome: str, rate: float | None) -> str:
    if outcome == "cap" and rate is not None:
        return t(UI, "app.outcome.cap", rate=Formatter(UI).number(rate))
    return t(UI, f"app.outcome.{outcome}") if outcome in ("exempt", "no_treaty_limit", "no_treaty_benefit", "not_in_corpus",
                                                            "alternatives") else outcome


def condition_line(c: rules.Condition) -> str:
    return f"{STATUS_ICON.get(c.status, '')} {c.text} — _{STATUS_PT.get(c.status, c.status)}_"


def state_pt(code: str | None) -> str:
    return state_name(code, "pt") if code else "—"


def yes_no(value: bool | None) -> str:
    return "—" if value is None else ("sim" if value else "não")
