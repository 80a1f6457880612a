"""The deterministic answer: a card in the question's language built only from rule results and
citation numbers. It is complete without the LLM and is what the guardrail falls back to."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, TypeVar

import rules
from assistant.answer import RateLine, citation_label
from assistant.apply_rules import RuleRun
from assistant.render_rights import relief_only_lines, rights_lines
from i18n import has, t
from rules.fact_registry import FACTS
from rules.labels import state_name, topic_label, unit_label

CiteRef = Callable[[rules.Citation], str]   # citation -> "[n]"
T = TypeVar("T")
STATUS_MARK = {"met": "✔", "not_met": "✘", "unknown": "?", "assumed_not_met": "≈"}


def msg(language: str, key: str, default: str | None = None, **values: object) -> str:
    """An assistant message (i18n/assistant.yaml) in `language`; `default` when the key is unknown."""
    full = f"assistant.{key}"
    if not has(full):
        if default is None:
            raise KeyError(key)
        return default
    return t(language, full, **values)


def fmt_number(value: float, language: str) -> str:
    text = f"{value:g}"
    return text if language == "en" else text.replace(".", ",")


def fmt_rate(value: float, language: str) -> str:
    return f"{fmt_number(value, language)}%"


def treaty_name(treaty: str, language: str) -> str:
    parties = rules.known_treaties().get(treaty)
    if not parties:
        return treaty
    return "–".join(state_name(p, language) for p in parties)


def follow_up(missing: list[str], language: str) -> str:
    if not missing:
        return ""
    keys = [FACTS[m].question_key if m in FACTS else f"assistant.facts.{m}" for m in missing]
    items = "; ".join(t(language, key) for key in keys if has(key))
    return msg(language, "follow_up", items=items) if items else ""


@dataclass
class Card:
    markdown: str
    rates: list[RateLine]


def _conditions(conditions, language: str, marks: bool = False) -> str:
    """Conditions joined; with marks, each shows whether the stated facts meet it (✔ ✘ ?)."""
    def one(c) -> str:
        return f"{STATUS_MARK.get(c.status, '')} {c.text_in(language)}".strip() if marks else c.text_in(language)
    return "; ".join(one(c) for c in conditions if c.code != "otherwise") or \
        next((c.text_in(language) for c in conditions), "")


def _outcome(outcome: str, rate: float | None, language: str) -> str:
    if outcome == "cap" and rate is not None:
        return msg(language, "rate_cap", rate=fmt_rate(rate, language))
    if outcome == "exempt":
        return msg(language, "rate_exempt")
    return msg(language, outcome) if outcome in ("no_treaty_limit", "pe_article_7", "source_only", "no_treaty_benefit",
                                                     "not_in_corpus") else outcome


def usual_first(options: list[T]) -> list[T]:
    """Alternatives with the rule that holds "in all other cases" first: a question that does not say who
    receives the income leads with the usual rate, not the rare government exemption."""
    return sorted(options, key=lambda o: not all(c.code == "otherwise" for c in getattr(o, "conditions")))


def _once(lines: list[str]) -> list[str]:
    """A note line (italic) said once per card, however many blocks add it (e.g. "summary only")."""
    seen: set[str] = set()
    out = []
    for line in lines:
        if line.startswith("_") and line.endswith("_"):
            if line in seen:
                continue
            seen.add(line)
        out.append(line)
    return out


def _refs(citations, cite: CiteRef) -> str:
    return " ".join(dict.fromkeys(cite(c) for c in citations))


def _withholding(result: rules.WithholdingResult, language: str, cite: CiteRef,
                 lines: list[str], rates: list[RateLine], show_direction: bool) -> None:
    src = state_name(result.source_state, language)
    res = state_name(result.residence_state, language)
    head = f"**{topic_label(result.income, language).capitalize()}**"
    if show_direction:
        head += f" ({msg(language, 'direction', source=src, residence=res)})"
    lines.append(head)
    options = usual_first(result.alternatives) if result.outcome == "alternatives" else [result]
    if result.outcome == "alternatives":
        lines.append(msg(language, "alternatives_intro"))
    for opt in options:
        conditions = opt.conditions
        text = _outcome(opt.outcome, opt.rate, language)
        cond = _conditions(conditions, language)
        line = f"- {text}"
        if cond and result.outcome == "alternatives":
            only_otherwise = all(c.code == "otherwise" for c in conditions)
            marked = _conditions(conditions, language, marks=True)
            line += " — " + (cond if only_otherwise else msg(language, "if_conditions", conditions=marked))
        line += f" {_refs(opt.citations, cite)}"
        lines.append(line.rstrip())
        value = 0.0 if opt.outcome == "exempt" else opt.rate
        if value is not None:
            first = opt.citations[0] if opt.citations else None
            rates.append(RateLine(
                value=float(value), income=result.income, source_state=result.source_state,
                residence_state=result.residence_state, condition=cond,
                citation=citation_label(first.treaty, first.article, first.paragraph, first.subparagraph)
                if first else ""))
    if result.outcome != "alternatives" and result.conditions:
        met = [c for c in result.conditions if c.code != "otherwise"]
        if met:
            lines.append("  " + "; ".join(f"{STATUS_MARK.get(c.status, '')} {c.text_in(language)}" for c in met))
    for alt in result.ruled_out:                 # why a lower rate does not apply: the stated fact that fails it
        failed = "; ".join(f"{STATUS_MARK['not_met']} {c.text_in(language)}" for c in alt.conditions)
        if failed:
            lines.append(f"  {msg(language, 'ruled_out', conditions=failed)} {_refs(alt.citations, cite)}".rstrip())
    if result.assumptions:
        lines.append(msg(language, "assumptions", items="; ".join(c.text_in(language) for c in result.assumptions)))
    if result.coverage == "summary":
        lines.append(f"_{msg(language, 'summary_only')}_")


def _employment(result: rules.EmploymentResult, language: str, cite: CiteRef, lines: list[str]) -> None:
    if result.taxable_in_work_state is True:
        lines.append(msg(language, "employment_taxable"))
    elif result.taxable_in_work_state is False:
        lines.append(msg(language, "employment_exempt"))
    else:
        missing = "; ".join(msg(language, f"facts.{m}") for m in result.missing_facts) or "—"
        lines.append(msg(language, "employment_unknown", items=missing))
    if result.window_start and result.window_end:
        lines.append(msg(language, "employment_window", start=result.window_start.isoformat(),
                         end=result.window_end.isoformat(), days=result.days, max_days=result.max_days,
                         rule=result.window_text_in(language)))
    for c in result.conditions:
        lines.append(f"- {STATUS_MARK.get(c.status, '')} {c.text_in(language)}")
    lines.append(_refs(result.citations, cite))


def _tiebreaker(result: rules.TiebreakerResult, language: str, cite: CiteRef, lines: list[str]) -> None:
    if result.result == "mutual_agreement":
        lines.append(msg(language, "tiebreaker_mutual"))
    elif result.result:
        lines.append(msg(language, "tiebreaker_result", state=state_name(result.result, language),
                         step=msg(language, f"steps.{result.deciding_step}")))
    else:
        missing = "; ".join(msg(language, f"facts.{m}") for m in result.missing_facts) or "—"
        lines.append(msg(language, "tiebreaker_unknown", items=missing))
    for step in result.steps:
        lines.append(f"- {step.text_in(language)}")
    lines.append(_refs(result.citations, cite))


def _figures(figures: list[rules.Figure], topic: str, language: str, cite: CiteRef, lines: list[str]) -> None:
    lines.append(msg(language, "figures_intro", topic=topic_label(topic, language)))
    for fig in figures:
        value = ""
        if isinstance(fig.value, (int, float)):
            value = f"**{fmt_number(float(fig.value), language)} {unit_label(fig.unit, fig.value, language)}** — "
        lines.append(f"- {value}{fig.text_in(language)} {_refs(fig.citations, cite)}".rstrip())


def render_card(run: RuleRun, topic: str | None, language: str, cite: CiteRef) -> Card:
    lines: list[str] = []
    rates: list[RateLine] = []
    if run.source_unknown:
        lines.append(msg(language, "both_sources"))
    for result in run.withholding:
        _withholding(result, language, cite, lines, rates, show_direction=True)
    if run.employment:
        _employment(run.employment, language, cite, lines)
    if run.tiebreaker:
        _tiebreaker(run.tiebreaker, language, cite, lines)
    if run.figures and topic:
        _figures(run.figures, topic, language, cite, lines)
    for result in run.rights:
        lines += rights_lines(result, language, cite, rates, caps_shown=bool(run.withholding))
    lines += relief_only_lines(run.relief, language, cite)
    if run.documents:
        lines.append(msg(language, "documents_intro"))
        lines += [f"- {d.text_in(language)} {_refs(d.citations, cite)}".rstrip() for d in run.documents]
    notes = [n for r in [*run.withholding, *run.rights] for n in r.notes_in(language)]
    if notes:
        lines.append(f"_{msg(language, 'notes')}:_ " + " ".join(dict.fromkeys(notes)))
    lines += [e.text_in(language) for e in run.errors]
    return Card(markdown=join_markdown(_once(lines)), rates=rates)


def join_markdown(lines: list[str]) -> str:
    """List items stay together; every other line is its own paragraph (markdown would merge them)."""
    out = ""
    previous = ""
    for line in (x for x in lines if x.strip()):
        is_item = line.startswith(("- ", "  "))
        sep = "\n" if is_item and previous.startswith(("- ", "  ")) else "\n\n"
        out = f"{out}{sep}{line}" if out else line
        previous = line
    return out
