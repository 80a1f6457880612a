"""Presentation of rule results and answers in the app, in the UI language; no value is computed here."""
from __future__ import annotations

import re

import rules
from assistant.answer import Answer
from assistant.apply_rules import RuleResult
from assistant.presentation.triage import triage
from assistant.presentation.values import Formatter
from assistant.understand import Query
from i18n import has, t
from rules.labels import state_name, topic_label

STATUS_ICON = {"met": ":green[:material/check_circle:]", "not_met": ":red[:material/cancel:]",
               "unknown": ":orange[:material/help:]", "assumed_not_met": ":gray[:material/remove_circle:]"}
ROMAN = re.compile(r"[IVXLC]+")
OUTCOMES = ("exempt", "no_treaty_limit", "pe_article_7", "source_only", "no_treaty_benefit", "not_in_corpus",
            "alternatives")


def state_label(code: str | None, lang: str) -> str:
    return state_name(code, lang) if code else "—"


def yes_no(value: bool | None, lang: str) -> str:
    return "—" if value is None else t(lang, "app.described.answer_yes" if value else "app.described.answer_no")


def outcome_text(outcome: str, rate: float | None, lang: str) -> str:
    """A withholding outcome in words, the rate written the way the language writes numbers (12,5% / 12.5%)."""
    if outcome == "cap" and rate is not None:
        return t(lang, "app.outcome.cap", rate=Formatter(lang).number(rate))
    return t(lang, f"app.outcome.{outcome}") if outcome in OUTCOMES else outcome


def condition_line(c: rules.Condition, lang: str) -> str:
    return f"{STATUS_ICON.get(c.status, '')} {c.text_in(lang)} — _{t(lang, f'app.status.{c.status}')}_"


def document_name(treaty: str, kinds: tuple[str, ...] | list[str], lang: str) -> str:
    """A short name for a corpus document: "Convenção Portugal–Brasil", "Brazil–Spain Treaty", "MLI"."""
    if treaty == "MLI" or "multilateral_instrument" in kinds:
        return t(lang, "app.doc.mli")
    parties = Formatter(lang).treaty(treaty)
    if "ministerial_order" in kinds:
        return t(lang, "app.doc.order", parties=parties)
    return t(lang, "app.doc.summary" if "summary" in kinds else "app.doc.convention", parties=parties)


def address_label(article: str | None, paragraph: str | None, subparagraph: str | None, lang: str) -> str:
    """"art. 18.º, n.º 2, alínea a)" / "art. 18, apartado 2, letra a)" / "Art. 18(2)(a)"; a protocol item as named."""
    if not article:
        return ""
    if article[0].isdigit():
        head = t(lang, "app.doc.article", article=article)
    elif ROMAN.fullmatch(article):
        head = t(lang, "app.doc.item", item=article)
    else:                                               # "Protocolo 9": named as the document names it
        head = article
    parts = [head]
    if paragraph:
        parts.append(t(lang, "app.doc.paragraph", paragraph=paragraph))
    if subparagraph:
        parts.append(t(lang, "app.doc.subparagraph", subparagraph=subparagraph))
    if lang == "en" and article[0].isdigit():          # English cites compactly: "Art. 18(2)(a)"
        return parts[0] + "".join(f"({x})" for x in (paragraph, subparagraph) if x)
    return ", ".join(parts)


def source_label(treaty: str, kinds: tuple[str, ...] | list[str], article: str | None, paragraph: str | None,
                 subparagraph: str | None, lang: str) -> str:
    """One short document label: "Convenção Portugal–Brasil, art. 18.º, n.º 2" (never the full title)."""
    where = address_label(article, paragraph, subparagraph, lang)
    name = document_name(treaty, kinds, lang)
    return f"{name}, {where}" if where else name


# ------------------------------------------------------------------ answers

def reply_text(answer: Answer) -> str:
    """The reply to send the customer (a view of the card, in the ticket's language); a question refused as
    bad input has none, and shows its message."""
    return answer.reply or answer.answer


def missing_fact_labels(missing: list[str], lang: str) -> list[str]:
    """The missing facts as the agent would ask them (catalogue questions), else their plain description."""
    out = []
    for name in missing:
        key = f"app.quick_input.{name}"
        out.append(t(lang, key) if has(key) else (t(lang, f"assistant.facts.{name}") if has(f"assistant.facts.{name}")
                                                  else name))
    return out


def _caps(rates: tuple[float, ...], lang: str) -> str:
    if len(rates) == 1:
        return outcome_text("cap", rates[0], lang)
    return t(lang, "app.triage.cap_alternatives", rates=", ".join(Formatter(lang).rate(r) for r in rates))


def triage_rows(answer: Answer, lang: str) -> list[tuple[str, str]]:
    """What the agent needs at a glance: treaty, who may tax, the cap (read from the card), the missing facts,
    what to do next."""
    view = triage(answer.card_data, lang) if answer.card_data is not None else None
    missing = missing_fact_labels(answer.missing_facts, lang)
    if answer.abstained:
        next_step = t(lang, "app.triage.next_abstained")
    elif missing:
        next_step = t(lang, "app.triage.next_ask")
    else:
        next_step = t(lang, "app.triage.next_send")
    treaty = view.treaty if view else (Formatter(lang).treaty(answer.treaty) if answer.treaty else "")
    rows = [(t(lang, "app.triage.treaty"), treaty or "—"),
            (t(lang, "app.triage.who_taxes"), " | ".join(view.who_taxes) if view and view.who_taxes else "—")]
    if view and view.caps:
        rows.append((t(lang, "app.triage.cap"), " | ".join(_caps(c, lang) for c in view.caps)))
    rows += [(t(lang, "app.triage.missing"), "; ".join(missing) or "—"),
             (t(lang, "app.triage.next"), next_step)]
    return rows


def _facts_found(query: Query) -> list[str]:
    facts = query.facts
    found = [f"{k} = {v}" for k in rules.FACT_NAMES if (v := getattr(facts, k)) not in (None, "", [], {})]
    for key in ("stays", "employer_resident_in_work_state", "borne_by_pe", "fiscal_year", "stay_days"):
        value = getattr(facts.employment, key)
        if value not in (None, "", [], (), {}):
            found.append(f"{key} = {value}")
    return found


def rule_summary(result: RuleResult) -> str:
    """One technical line per rule result (codes, for the collapsed technical details)."""
    if isinstance(result, rules.WithholdingResult):
        rates = [a.rate for a in result.alternatives if a.rate is not None] or [result.rate]
        return f"{result.treaty} · {result.income} · {result.source_state}: {result.outcome} {rates}"
    if isinstance(result, rules.EmploymentResult):
        return f"{result.treaty} · employment: {result.taxable_in_work_state} ({result.days}/{result.max_days})"
    if isinstance(result, rules.TiebreakerResult):
        return f"{result.treaty} · tiebreaker: {result.result} ({result.deciding_step})"
    if isinstance(result, rules.TaxingRightsResult):
        return f"{result.treaty} · {result.income} · rights: " + " | ".join(
            ", ".join(f"{sr.state}:{sr.right}" for sr in case.rights) for case in result.cases)
    if isinstance(result, rules.Relief):
        return f"relief {result.state}: {result.method}"
    if isinstance(result, rules.Figure):
        return f"{result.treaty} · {result.id}: {result.value} {result.unit}".strip()
    if isinstance(result, rules.NotCovered):
        return f"not_covered: {result.subject}"
    return f"{result.doc}: {result.relation}"


def technical_rows(answer: Answer, lang: str) -> list[tuple[str, str]]:
    """Internals for whoever maintains the assistant: codes, timings, model, guardrail."""
    q = answer.query or Query(text="", language=answer.language)
    results = answer.rule_results.results() if answer.rule_results is not None else []
    timings = answer.timings_ms or {}
    parts = [f"{k} {v:.0f}" for k, v in timings.items() if k != "total" and isinstance(v, (int, float))]
    total = timings.get("total")
    llm = answer.llm or {}
    return [
        (t(lang, "app.tech.reading"), f"{q.source_state or '—'} → {q.residence_state or '—'} · "
                                      f"{topic_label(q.topic, lang) if q.topic else '—'} · {answer.language}"),
        (t(lang, "app.tech.facts"), "; ".join(_facts_found(q)) or "—"),
        (t(lang, "app.tech.missing"), ", ".join(answer.missing_facts) or "—"),
        (t(lang, "app.tech.rules"), " | ".join(rule_summary(r) for r in results) or "—"),
        (t(lang, "app.tech.model"), f"{llm.get('backend', '—')}" + (f" · {llm['model']}" if llm.get("model") else "")),
        (t(lang, "app.tech.guardrail"), answer.guardrail.action),
        (t(lang, "app.tech.time"), (f"{total:.0f} ms" if isinstance(total, (int, float)) else "—") +
         (f" ({', '.join(parts)})" if parts else "")),
    ]
