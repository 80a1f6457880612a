"""Residence tie-breaker page (art. 4): one question per step until a criterion decides, from rules/ only."""
from __future__ import annotations

from typing import Any

import streamlit as st

import rules
from app_support.render import STEP_OUTCOME_PT, STEP_PT, cite_label, state_pt
from app_support.sources import rule_citation_cards
from app_support.widgets import covering, treaty_label

PLACES = {"home": "Onde tem habitação permanente à sua disposição?",
          "abode": "Onde permanece habitualmente?", "nationality": "De que Estado é nacional?"}
STEP_ICON = {"decided": ":green[:material/check_circle:]", "next": ":material/arrow_forward:",
             "unknown": ":orange[:material/help:]"}


def where(label: str, parties: tuple[str, str], key: str) -> tuple[str, ...] | None:
    a, b = parties
    options = {(a,): f"Só em {state_pt(a)}", (b,): f"Só em {state_pt(b)}", (a, b): "Em ambos", (): "Em nenhum"}
    return st.radio(label, list(options), format_func=options.get, index=None, horizontal=True, key=key)


def tiebreaker_wizard() -> None:
    st.subheader("Desempate da residência (art. 4.º)")
    st.caption("Pessoa considerada residente nos dois Estados: responda passo a passo.")
    cols = st.columns(2)
    treaty = cols[0].selectbox("Convenção", covering("residence"), format_func=treaty_label, key="tb-treaty")
    person = cols[1].radio("Pessoa", ["individual", "company"], horizontal=True, key="tb-person",
                           format_func={"individual": "Pessoa singular", "company": "Sociedade / outra"}.get)
    parties = rules.known_treaties()[treaty]
    answers: dict[str, Any] = {}
    key = f"tb-{treaty}-{person}"
    for _ in range(8):
        try:
            result = rules.residence_tiebreaker(treaty, rules.TiebreakerFacts(person=person, **answers))
        except rules.RulesInputError as exc:
            st.error(str(exc))
            return
        if isinstance(result, rules.NotCovered):
            st.warning(result.message)
            return
        if not result.missing_facts:
            break
        fact = result.missing_facts[0]
        if fact in answers:
            break
        st.markdown(f"**Passo {len(result.steps)} — {STEP_PT.get(result.steps[-1].step, result.steps[-1].step)}**")
        if fact == "permanent_home_in":
            value = where(PLACES["home"], parties, f"{key}-home")
        elif fact == "habitual_abode_in":
            value = where(PLACES["abode"], parties, f"{key}-abode")
        elif fact == "nationality":
            value = where(PLACES["nationality"], parties, f"{key}-nat")
        elif fact == "vital_interests_in":
            opts = {p: state_pt(p) for p in parties} | {"undetermined": "Não é possível determinar"}
            value = st.radio("Com que Estado são mais estreitas as relações pessoais e económicas?", list(opts),
                             format_func=opts.get, index=None, horizontal=True, key=f"{key}-vital")
        else:
            value = st.radio("Onde se situa a direção efetiva?", list(parties), format_func=state_pt, index=None,
                             horizontal=True, key=f"{key}-mgmt")
        if value is None:
            break
        answers[fact] = value
    st.divider()
    for step in result.steps:
        st.markdown(f"{STEP_ICON.get(step.outcome, '')} **{STEP_PT.get(step.step, step.step)}** — {step.text}: "
                    f"{STEP_OUTCOME_PT.get(step.outcome, step.outcome)}"
                    + (f" ({state_pt(step.state)})" if step.state else ""))
    if result.result == "mutual_agreement":
        st.success("Decisão: as autoridades competentes resolvem o caso de comum acordo.")
    elif result.result:
        deciding = result.citations[-1] if result.citations else None
        st.success(f"Residente apenas de **{state_pt(result.result)}** — decide o critério "
                   f"«{STEP_PT.get(result.deciding_step, result.deciding_step)}»"
                   + (f" ({cite_label(deciding)})." if deciding else "."))
    for note in result.notes:
        st.caption(note)
    rule_citation_cards(key, result.citations)


tiebreaker_wizard()
