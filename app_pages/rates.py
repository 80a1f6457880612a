"""Rate calculator page: the withholding cap for one treaty, income and source State, from rules/ only."""
from __future__ import annotations

from typing import Any

import streamlit as st

import rules
from app_support.quick_inputs import QUICK_INPUTS
from app_support.render import condition_line, outcome_text, source_label, state_label
from app_support.sources import rule_sources
from app_support.ui import ui_lang
from app_support.widgets import quick_input_widget, treaty_label
from i18n import t
from rules.labels import topic_label


def facts_asked(result: rules.WithholdingResult) -> list[str]:
    conditions = list(result.conditions) + list(result.assumptions) + \
        [c for alt in result.alternatives for c in alt.conditions]
    return list(dict.fromkeys(f for c in conditions for f in c.facts))


def cite_short(c: rules.Citation, ui: str) -> str:
    return source_label(c.treaty, (), c.article, c.paragraph, c.subparagraph, ui)


def rate_calculator(ui: str) -> None:
    st.subheader(t(ui, "app.rates.title"))
    treaties = [c.treaty for c in rules.coverage() if c.incomes and c.treaty in rules.known_treaties()]
    cols = st.columns(3)
    treaty = cols[0].selectbox(t(ui, "app.rates.treaty"), treaties, format_func=lambda x: treaty_label(x, ui),
                               key="rc-treaty")
    coverage = next(c for c in rules.coverage() if c.treaty == treaty)
    incomes = sorted(coverage.incomes, key=lambda i: rules.INCOME_TYPES.index(i) if i in rules.INCOME_TYPES else 99)
    income = cols[1].selectbox(t(ui, "app.rates.income"), incomes, format_func=lambda i: topic_label(i, ui),
                               key="rc-income")
    source = cols[2].radio(t(ui, "app.rates.source"), coverage.parties, format_func=lambda s: state_label(s, ui),
                           horizontal=True, key="rc-source")
    try:
        blank = rules.withholding_cap(treaty, income, source, rules.Facts())
        if isinstance(blank, rules.NotCovered):
            st.warning(blank.message_in(ui))
            return
        facts: dict[str, Any] = {}
        asked = [name for name in facts_asked(blank) if name in QUICK_INPUTS]
        with st.expander(t(ui, "app.rates.facts"), expanded=True):
            for name in asked:
                facts.update(quick_input_widget(QUICK_INPUTS[name], f"rc-{treaty}-{income}-{name}", ui))
            if not asked:
                st.caption(t(ui, "app.rates.no_facts"))
        result = rules.withholding_cap(treaty, income, source, rules.Facts(**facts))
    except rules.RulesInputError as exc:
        st.error(exc.text_in(ui))
        return
    st.markdown(f"### {outcome_text(result.outcome, result.rate, ui)}")
    st.caption(t(ui, "app.rates.direction", income=topic_label(income, ui).capitalize(),
                 source=state_label(source, ui), residence=state_label(result.residence_state, ui))
               + (" · " + t(ui, "app.rates.summary_only") if result.coverage == "summary" else ""))
    if result.outcome == "alternatives":
        for alt in result.alternatives:
            with st.container(border=True):
                st.markdown(f"**{outcome_text(alt.outcome, alt.rate, ui)}**")
                for c in alt.conditions:
                    st.markdown(f"- {condition_line(c, ui)}")
                st.caption(" · ".join(dict.fromkeys(cite_short(c, ui) for c in alt.citations)))
    for c in result.conditions:
        st.markdown(f"- {condition_line(c, ui)}")
    for c in result.assumptions:
        st.markdown(f"- {condition_line(c, ui)}")
    if result.missing_facts:
        st.info(t(ui, "app.rates.missing", items="; ".join(
            QUICK_INPUTS[m].label(ui) if m in QUICK_INPUTS else m for m in result.missing_facts)))
    for note in result.notes_in(ui):
        st.caption(note)
    rule_sources(f"rc-{treaty}", list(result.citations) + [c for a in result.alternatives for c in a.citations], ui)


rate_calculator(ui_lang())
