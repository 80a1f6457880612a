"""Presentation of rule results and answers in the app (Portuguese UI text); no value is computed here."""
from __future__ import annotations

import dataclasses

import rules
from assistant.answer import Answer, citation_label
from assistant.apply_rules import RuleResult
from assistant.understand import Query
from i18n import t
from rules.labels import state_name, topic_label

UI = "pt"                                      # the app's language
DISCLAIMER = t(UI, "app.disclaimer")

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
        return t(UI, "app.outcome.cap", rate=f"{rate:g}".replace(".", ","))
    named = ("exempt", "no_treaty_limit", "pe_article_7", "source_only", "no_treaty_benefit", "not_in_corpus",
             "alternatives")
    return t(UI, f"app.outcome.{outcome}") if outcome in named else outcome


def condition_line(c: rules.Condition) -> str:
    return f"{STATUS_ICON.get(c.status, '')} {c.text} — _{STATUS_PT.get(c.status, c.status)}_"


def state_pt(code: str | None) -> str:
    return state_name(code, "pt") if code else "—"


def yes_no(value: bool | None) -> str:
    return "—" if value is None else ("sim" if value else "não")


# ------------------------------------------------------------------ answers

def reply_draft(answer: Answer) -> str:
    """The text an agent pastes into a ticket: the answer, its sources, and the fixed disclaimer line."""
    parts = [answer.card.strip() or answer.answer.strip(), answer.follow_up.strip(), answer.explanation.strip(),
             *(n.strip() for n in answer.notices)]
    if answer.citations:
        heading = t(answer.language, "app.sources")
        parts.append(heading + ":\n" + "\n".join(f"[{c.n}] {c.label()} — “{c.quote}”" for c in answer.citations))
    parts.append(DISCLAIMER)
    return "\n\n".join(p for p in parts if p)


def _facts_found(query: Query) -> list[str]:
    facts = dataclasses.asdict(query.facts)
    found = [f"{k} = {v}" for k, v in facts.items() if v not in (None, "", [], {})]
    for key in ("stays", "employer_resident_in_work_state", "borne_by_pe", "fiscal_year", "stay_days"):
        value = getattr(query, key)
        if value not in (None, "", [], (), {}):
            found.append(f"{key} = {value}")
    return found


def _who_taxes(case: rules.RightsCase) -> str:
    return "; ".join(t(UI, f"assistant.rights.right.{sr.right}", who=state_pt(sr.state)).replace("**", "")
                     for sr in case.rights)


def rule_summary(result: RuleResult) -> str:
    """One line per rule result (RuleRun.results()), in Portuguese."""
    if isinstance(result, rules.WithholdingResult):
        head = f"{result.treaty} · {topic_label(result.income, 'pt')} · fonte {result.source_state}"
        if result.outcome == "alternatives":
            rates = ", ".join(f"{a.rate:g}%" for a in result.alternatives if a.rate is not None)
            return f"{head}: alternativas ({rates})"
        return f"{head}: {outcome_pt(result.outcome, result.rate)}"
    if isinstance(result, rules.EmploymentResult):
        verdict = {True: "tributável no Estado do trabalho", False: "só no Estado de residência",
                   None: "indeterminado"}[result.taxable_in_work_state]
        return f"{result.treaty} · 183 dias: {verdict} ({result.days}/{result.max_days} dias)"
    if isinstance(result, rules.TiebreakerResult):
        step = f" ({STEP_PT.get(result.deciding_step, result.deciding_step)})" if result.deciding_step else ""
        return f"{result.treaty} · desempate: {result.result or 'indeterminado'}{step}"
    if isinstance(result, rules.TaxingRightsResult):
        head = f"{result.treaty} · {topic_label(result.income, 'pt')} · quem tributa"
        return f"{head}: " + " | ".join(_who_taxes(case) for case in result.cases)
    if isinstance(result, rules.Relief):
        return f"eliminação da dupla tributação em {state_pt(result.state)}: " + \
            t(UI, f"assistant.rights.method.{result.method}").split(":")[0]
    if isinstance(result, rules.Figure):
        return f"{result.treaty} · {result.id}: {result.value} {result.unit}".strip()
    if isinstance(result, rules.NotCovered):
        return f"não coberto: {result.subject}"
    return f"{result.doc}: {result.relation}"


def triage_rows(answer: Answer) -> list[tuple[str, str]]:
    """What the machine read from the query, for the agent to check at a glance."""
    q = answer.query or Query(text="", language=answer.language)
    results = answer.rule_results.results() if answer.rule_results is not None else []
    timings = answer.timings_ms or {}
    parts = [f"{k} {v:.0f}" for k, v in timings.items() if k != "total" and isinstance(v, (int, float))]
    total = timings.get("total")
    llm = answer.llm or {}
    return [
        ("Convenção", answer.treaty or q.treaty or "—"),
        ("Estado da fonte", state_pt(q.source_state)),
        ("Estado de residência", state_pt(q.residence_state)),
        ("Tipo de rendimento / tema", topic_label(q.topic, "pt") if q.topic else "—"),
        ("Língua da pergunta", answer.language),
        ("Factos encontrados", "; ".join(_facts_found(q)) or "—"),
        ("Factos em falta", ", ".join(answer.missing_facts) or "—"),
        ("Resultado das regras", " | ".join(rule_summary(r) for r in results) or
         ("abstenção" if answer.abstained else "—")),
        ("Modelo (LLM)", f"{llm.get('backend', '—')}" + (f" · {llm['model']}" if llm.get("model") else "")),
        ("Guardrail", answer.guardrail.action),
        ("Tempo", (f"{total:.0f} ms" if isinstance(total, (int, float)) else "—") +
         (f" ({', '.join(parts)})" if parts else "")),
    ]
