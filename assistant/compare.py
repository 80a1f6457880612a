"""Treaty comparison (`python -m assistant compare [--json] [--lang pt|es|en]`): rows are income types,
their sub-cases and key thresholds; columns are the bilateral treaties; each cell is the rule's outcome
with the citation (document, article, paragraph, exact quote) it comes from. Built only from rules/."""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

import rules
from assistant.presentation.values import Formatter
from i18n import t
from rules import Facts, NotCovered

# (row id, income, facts that pick the sub-case); the residence State is each treaty's first party.
INCOME_ROWS: tuple[tuple[str, str, Facts], ...] = (
    ("immovable_property", "immovable_property", Facts()),
    ("business_profits", "business_profits", Facts()),
    ("dividends", "dividends", Facts(beneficiary_kind="individual")),
    ("interest", "interest", Facts(beneficiary_kind="individual")),
    ("royalties", "royalties", Facts()),
    ("gains_immovable", "capital_gains", Facts(gain_kind="immovable")),
    ("gains_shares", "capital_gains", Facts(gain_kind="shares")),
    ("independent_services", "independent_services", Facts()),
    ("employment", "employment", Facts()),
    ("directors_fees", "directors_fees", Facts()),
    ("artistes_sportsmen", "artistes_sportsmen", Facts()),
    ("pensions_private", "pensions", Facts(pension_kind="private")),
    ("pensions_social_security", "pensions", Facts(pension_kind="social_security")),
    ("government_service", "government_service", Facts()),
    ("professors", "professors", Facts(invited_to_teach_or_research=True, stay_years=1)),
    ("students", "students", Facts(student_payment_origin="abroad")),
    ("other_income", "other_income", Facts()),
)
# (row id, topic, figure id prefix): thresholds read from the figures of each treaty.
FIGURE_ROWS: tuple[tuple[str, str], ...] = (
    ("employment_days", "employment"),
    ("construction_site", "permanent_establishment"),
)


@dataclass(frozen=True)
class CellCitation:
    doc: str
    article: str | None
    paragraph: str | None
    subparagraph: str | None
    quote: str
    language: str = "pt"


@dataclass(frozen=True)
class Cell:
    row: str
    treaty: str
    text: str                                   # the outcome in the chosen language
    covered: bool
    citations: list[CellCitation] = field(default_factory=list)


@dataclass(frozen=True)
class Comparison:
    language: str
    treaties: list[str]
    rows: list[str]
    row_labels: dict[str, str]
    cells: list[Cell]

    def cell(self, row: str, treaty: str) -> Cell:
        return next(c for c in self.cells if c.row == row and c.treaty == treaty)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _cites(citations: list[rules.Citation]) -> list[CellCitation]:
    seen: dict[tuple, CellCitation] = {}
    for c in citations:
        seen.setdefault((c.doc, c.article, c.paragraph, c.subparagraph, c.quote),
                        CellCitation(c.doc, c.article, c.paragraph, c.subparagraph, c.quote, c.language))
    return list(seen.values())


def _right(right: rules.StateRight, lang: str) -> str | None:
    fmt = Formatter(lang)
    role = t(lang, f"assistant.compare.role.{right.role}")
    if right.right == "none":
        return None
    if right.right == "capped":
        cap = right.cap
        if cap is not None and cap.outcome == "cap" and cap.rate is not None:
            return t(lang, "assistant.compare.right.capped", role=role, rate=fmt.rate(cap.rate))
        if cap is not None and cap.outcome == "alternatives":
            rates = sorted({a.rate for a in cap.alternatives if a.rate is not None})
            return t(lang, "assistant.compare.right.capped", role=role, rate="/".join(fmt.rate(r) for r in rates))
        return t(lang, "assistant.compare.right.shared", role=role)
    return t(lang, f"assistant.compare.right.{right.right}", role=role)


def _case_text(case: rules.RightsCase, lang: str) -> str:
    parts = [p for p in (_right(r, lang) for r in case.rights) if p]
    return f"{'; '.join(parts)} ({t(lang, 'assistant.rights.article', article=case.article)})"


def _income_cell(row: str, treaty: str, income: str, facts: Facts, lang: str) -> Cell:
    residence = rules.known_treaties()[treaty][0]
    result = rules.taxing_rights(treaty, income, residence, facts)
    if isinstance(result, NotCovered):
        return Cell(row, treaty, t(lang, "assistant.compare.not_covered"), False)
    if result.outcome == "decided":
        text = _case_text(result.cases[0], lang)
    else:
        options = " | ".join(_case_text(c, lang) for c in result.cases)
        text = t(lang, "assistant.compare.depends", options=options)
    cites = [c for case in result.cases for c in case.citations]
    cites += [c for case in result.cases for r in case.rights if r.cap for c in r.cap.citations]
    return Cell(row, treaty, text, True, _cites(cites))


def _figure_cell(row: str, treaty: str, topic: str, lang: str) -> Cell:
    found = rules.figures(treaty, topic)
    numeric = [] if isinstance(found, NotCovered) else \
        [f for f in found if isinstance(f.value, (int, float)) and f.unit in ("days", "months")]
    if not numeric:
        return Cell(row, treaty, t(lang, "assistant.compare.not_covered"), False)
    fig = numeric[0]
    text = f"{Formatter(lang).quantity(float(fig.value), fig.unit)} — {fig.text_in(lang)}"
    return Cell(row, treaty, text, True, _cites(fig.citations))


def compare(language: str = "pt") -> Comparison:
    treaties = sorted(rules.known_treaties())
    cells: list[Cell] = []
    for row, income, facts in INCOME_ROWS:
        cells += [_income_cell(row, treaty, income, facts, language) for treaty in treaties]
    for row, topic in FIGURE_ROWS:
        cells += [_figure_cell(row, treaty, topic, language) for treaty in treaties]
    rows = [r for r, _, _ in INCOME_ROWS] + [r for r, _ in FIGURE_ROWS]
    return Comparison(language=language, treaties=treaties, rows=rows,
                      row_labels={r: t(language, f"assistant.compare.rows.{r}") for r in rows}, cells=cells)


def to_markdown(comparison: Comparison) -> str:
    lang = comparison.language
    head = [t(lang, "assistant.compare.income")] + comparison.treaties
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in comparison.rows:
        values = [comparison.cell(row, tr).text.replace("|", "/") for tr in comparison.treaties]
        lines.append("| " + " | ".join([comparison.row_labels[row]] + values) + " |")
    lines.append("")
    lines.append(t(lang, "assistant.compare.legend"))
    return "\n".join(lines)


def main(as_json: bool, language: str) -> int:
    comparison = compare(language)
    print(json.dumps(comparison.to_dict(), ensure_ascii=False, indent=1) if as_json else to_markdown(comparison))
    return 0
