"""The card's "who may tax" block: for each State its right under the treaty, the article that gives it,
and how the residence State removes the double taxation. Built only from taxing_rights() results."""
from __future__ import annotations

from typing import Callable

import rules
from assistant.answer import RateLine, citation_label
from assistant.applied import with_comparison
from i18n import t
from rules.labels import state_name, unit_label

CiteRef = Callable[[rules.Citation], str]


def _refs(citations, cite: CiteRef) -> str:
    return " ".join(dict.fromkeys(cite(c) for c in citations))


def _number(value: float, language: str) -> str:
    text = f"{value:g}"
    return text if language == "en" else text.replace(".", ",")


def _who(right: rules.StateRight, result: rules.TaxingRightsResult, language: str) -> str:
    if right.role == "effective_management":
        return t(language, "assistant.rights.effective_management")
    name = state_name(right.state or "", language)
    if right.role == "source":
        return t(language, "assistant.rights.state_with_role", state=name, role=t(language, result.source_role))
    return t(language, "assistant.rights.state_residence", state=name)


def _cap_text(right: rules.StateRight, language: str, rates: list[RateLine] | None) -> str:
    cap = right.cap
    if cap is None:
        return t(language, "assistant.rights.cap_unknown")
    if cap.outcome == "cap" and cap.rate is not None:
        if rates is not None:
            first = cap.citations[0] if cap.citations else None
            rates.append(RateLine(value=float(cap.rate), income=cap.income, source_state=cap.source_state,
                                  residence_state=cap.residence_state, condition="",
                                  citation=citation_label(first.treaty, first.article, first.paragraph,
                                                          first.subparagraph) if first else ""))
        return t(language, "assistant.rights.cap_rate", rate=f"{_number(cap.rate, language)}%")
    if cap.outcome == "exempt":
        return t(language, "assistant.rights.cap_exempt")
    return t(language, "assistant.rights.cap_see_above")


def _rights_line(case: rules.RightsCase, result: rules.TaxingRightsResult, language: str,
                 rates: list[RateLine] | None) -> str:
    parts = []
    for right in case.rights:
        text = t(language, f"assistant.rights.right.{right.right}", who=_who(right, result, language))
        if right.right == "capped":
            text += f" ({_cap_text(right, language, rates)})"
        parts.append(text)
    article = t(language, "assistant.rights.article", article=case.article)
    if len(case.rights) == 2 and all(r.right in ("shared", "capped") for r in case.rights):
        parts[-1] += " — " + t(language, "assistant.rights.both_may_tax")   # say it in words, not only by listing
    return f"{'; '.join(parts)} ({article})"


def _relief_lines(case: rules.RightsCase, result: rules.TaxingRightsResult, language: str, cite: CiteRef
                  ) -> list[str]:
    state = state_name(result.residence_state, language)
    if not case.relief:
        own = next((r.right for r in case.rights if r.role == "residence"), None)
        if own == "exclusive":
            return [t(language, "assistant.rights.no_double_tax", state=state)]
        return []
    out = [t(language, "assistant.rights.relief_intro", state=state)]
    for relief in case.relief:
        line = f"- {t(language, f'assistant.rights.method.{relief.method}')}"
        conditions = "; ".join(c.text_in(language) for c in relief.conditions)
        if conditions:
            line += " — " + t(language, "assistant.if_conditions", conditions=conditions)
        line += f" {_refs(relief.citations, cite)}"
        out.append(line.rstrip())
        for fig in relief.figures:
            value = f"**{_number(float(fig.value), language)} {unit_label(fig.unit, fig.value, language)}** — " \
                if isinstance(fig.value, (int, float)) else ""
            out.append(f"  {value}{fig.text_in(language)} {_refs(fig.citations, cite)}".rstrip())
    return out


def rights_lines(result: rules.TaxingRightsResult, language: str, cite: CiteRef, rates: list[RateLine],
                 caps_shown: bool, facts: rules.Facts | None = None) -> list[str]:
    """Markdown lines for one result; caps_shown: the withholding block already states the caps; facts: the
    facts the rules read, to show a stated number against a condition's threshold."""
    direction = t(language, "assistant.direction", source=state_name(result.source_state, language),
                  residence=state_name(result.residence_state, language))
    lines = [f"**{t(language, 'assistant.rights.heading')}** ({direction})"]
    rate_sink = None if caps_shown else rates
    if result.outcome == "decided":
        case = result.cases[0]
        lines.append(f"{_rights_line(case, result, language, rate_sink)} {_refs(case.citations, cite)}".rstrip())
        marks = [f"{'✔' if c.status == 'met' else '✘'} {with_comparison(c, facts, language)}" for c in case.conditions
                 if c.status in ("met", "not_met")]           # ✘: a condition the question says fails
        if marks:
            lines.append("  " + "; ".join(marks))
        lines += _relief_lines(case, result, language, cite)
        lines += [f"_{n}_" for n in case.notes_in(language)]
    else:
        lines.append(t(language, "assistant.alternatives_intro"))
        for case in result.cases:
            conditions = "; ".join(c.text_in(language) for c in case.conditions)
            when = t(language, "assistant.if_conditions", conditions=conditions) if conditions else \
                t(language, "rules.conditions.otherwise")
            lines.append(f"- {when}: "
                         f"{_rights_line(case, result, language, rate_sink)} {_refs(case.citations, cite)}".rstrip())
            relief = _relief_lines(case, result, language, cite)
            lines += ["  " + x.lstrip("- ") for x in relief]
    if result.assumptions:
        lines.append(t(language, "assistant.assumptions",
                       items="; ".join(c.text_in(language) for c in result.assumptions)))
    if result.coverage == "summary":
        lines.append(f"_{t(language, 'assistant.summary_only')}_")
    return lines


def relief_only_lines(reliefs: list[rules.Relief], language: str, cite: CiteRef) -> list[str]:
    """A relief question naming no income: every method the residence State applies, with its conditions."""
    if not reliefs:
        return []
    lines = [t(language, "assistant.rights.relief_intro", state=state_name(reliefs[0].state, language))]
    for relief in reliefs:
        line = f"- {t(language, f'assistant.rights.method.{relief.method}')}"
        conditions = "; ".join(c.text_in(language) for c in relief.conditions)
        if conditions:
            line += " — " + t(language, "assistant.if_conditions", conditions=conditions)
        lines.append(f"{line} {_refs(relief.citations, cite)}".rstrip())
        for fig in relief.figures:
            value = f"**{_number(float(fig.value), language)} {unit_label(fig.unit, fig.value, language)}** — " \
                if isinstance(fig.value, (int, float)) else ""
            lines.append(f"  {value}{fig.text_in(language)} {_refs(fig.citations, cite)}".rstrip())
    return lines
