"""Rate calculator page: the withholding cap for one treaty, income and source State, from rules/ only."""
from __future__ import annotations

from typing import Any

import streamlit as st

import rules
from app_support.quick_inputs import QUICK_INPUTS
from app_support.render import cite_label, condition_line, outcome_pt, state_pt
from app_support.sources import rule_citation_cards
from app_support.widgets import quick_input_widget, treaty_label
from rules.labels import topic_label


def facts_asked(result: rules.WithholdingResult) -> list[str]:
    conditions = list(result.conditions) + list(result.assumptions) + \
        [c for alt in result.alternatives for c in alt.conditions]
    return list(dict.fromkeys(f for c in conditions for f in c.facts))


def rate_calculator() -> None:
    st.subheader("Calculadora de taxas de retenção")
    treaties = [c.treaty for c in rules.coverage() if c.incomes and c.treaty in rules.known_treaties()]
    cols = st.columns(3)
    treaty = cols[0].selectbox("Convenção", treaties, format_func=treaty_label, key="rc-treaty")
    coverage = next(c for c in rules.coverage() if c.treaty == treaty)
    incomes = sorted(coverage.incomes, key=lambda i: rules.INCOME_TYPES.index(i) if i in rules.INCOME_TYPES else 99)
    income = cols[1].selectbox("Tipo de rendimento", incomes, format_func=lambda i: topic_label(i, "pt"),
                               key="rc-income")
    source = cols[2].radio("Estado da fonte (quem paga)", coverage.parties, format_func=state_pt, horizontal=True,
                           key="rc-source")
    try:
        blank = rules.withholding_cap(treaty, income, source, rules.Facts())
        if isinstance(blank, rules.NotCovered):
            st.warning(blank.message)
            return
        facts: dict[str, Any] = {}
        asked = [name for name in facts_asked(blank) if name in QUICK_INPUTS]
        with st.expander("Factos", expanded=True):
            for name in asked:
                facts.update(quick_input_widget(QUICK_INPUTS[name], f"rc-{treaty}-{income}-{name}"))
            if not asked:
                st.caption("Nenhum facto altera o resultado para este rendimento.")
        result = rules.withholding_cap(treaty, income, source, rules.Facts(**facts))
    except rules.RulesInputError as exc:
        st.error(str(exc))
        return
    st.markdown(f"### {outcome_pt(result.outcome, result.rate)}")
    st.caption(f"{topic_label(income, 'pt').capitalize()} pagos por residente de {state_pt(source)} a residente de "
               f"{state_pt(result.residence_state)}" + (" · fonte: resumo da convenção" if result.coverage == "summary"
                                                       else ""))
    if result.outcome == "alternatives":
        for alt in result.alternatives:
            with st.container(border=True):
                st.markdown(f"**{outcome_pt(alt.outcome, alt.rate)}**")
                for c in alt.conditions:
                    st.markdown(f"- {condition_line(c)}")
                st.caption(" · ".join(dict.fromkeys(cite_label(c) for c in alt.citations)))
    for c in result.conditions:
        st.markdown(f"- {condition_line(c)}")
    for c in result.assumptions:
        st.markdown(f"- {condition_line(c)}")
    if result.missing_facts:
        st.info("Para uma só taxa, indique: " + ", ".join(
            QUICK_INPUTS[m].label if m in QUICK_INPUTS else m for m in result.missing_facts))
    for note in result.notes:
        st.caption(note)
    st.markdown("**Fontes**")
    rule_citation_cards(f"rc-{treaty}", list(result.citations) + [c for a in result.alternatives for c in a.citations])


rate_calculator()
