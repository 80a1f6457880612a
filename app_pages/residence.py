"""Residence tie-breaker page (art. 4): one question per step until a criterion decides, from rules/ only (the
answers go to the rules as one Facts, through the rule protocol, as the assistant's do)."""
from __future__ import annotations

from typing import Any

import streamlit as st

import rules
from app_support.render import source_label, state_label
from app_support.sources import rule_sources
from app_support.ui import ui_lang
from app_support.widgets import covering, treaty_label
from assistant.presentation.values import Formatter
from i18n import t
from rules.protocol import Case, apply

STEP_ICON = {"decided": ":green[:material/check_circle:]", "next": ":material/arrow_forward:",
             "unknown": ":orange[:material/help:]"}


def where(label: str, parties: tuple[str, str], key: str, ui: str) -> tuple[str, ...] | None:
    a, b = parties
    fmt = Formatter(ui)                    # "Só no Brasil", "Solo en España", "Only in Japan"
    options = {(a,): t(ui, "app.residence.only_in", where=fmt.state(a, "in")),
               (b,): t(ui, "app.residence.only_in", where=fmt.state(b, "in")),
               (a, b): t(ui, "app.residence.both"), (): t(ui, "app.residence.neither")}
    return st.radio(label, list(options), format_func=options.get, index=None, horizontal=True, key=key)


def tiebreaker_wizard(ui: str) -> None:
    st.subheader(t(ui, "app.residence.title"))
    st.caption(t(ui, "app.residence.intro"))
    cols = st.columns(2)
    treaty = cols[0].selectbox(t(ui, "app.rates.treaty"), covering("residence"),
                               format_func=lambda x: treaty_label(x, ui), key="tb-treaty")
    person = cols[1].radio(t(ui, "app.residence.person"), ["individual", "company"], horizontal=True, key="tb-person",
                           format_func=lambda p: t(ui, f"app.residence.person_{p}"))
    parties = rules.known_treaties()[treaty]
    answers: dict[str, Any] = {}
    key = f"tb-{treaty}-{person}"
    step = lambda code: t(ui, f"app.step.{code}")  # noqa: E731
    for _ in range(8):
        try:
            stated = rules.TiebreakerFacts(person=person, **answers)
            result = apply(treaty, Case("residence", rules.Facts(residence=stated)))
        except rules.RulesInputError as exc:
            st.error(exc.text_in(ui))
            return
        if isinstance(result, rules.NotCovered):
            st.warning(result.message_in(ui))
            return
        if not result.missing_facts:
            break
        fact = result.missing_facts[0]
        if fact in answers:
            break
        st.markdown(f"**{t(ui, 'app.residence.step', n=len(result.steps), name=step(result.steps[-1].step))}**")
        if fact == "permanent_home_in":
            value = where(t(ui, "app.residence.home"), parties, f"{key}-home", ui)
        elif fact == "habitual_abode_in":
            value = where(t(ui, "app.residence.abode"), parties, f"{key}-abode", ui)
        elif fact == "nationality":
            value = where(t(ui, "app.residence.nationality"), parties, f"{key}-nat", ui)
        elif fact == "vital_interests_in":
            opts = {p: state_label(p, ui) for p in parties} | {"undetermined": t(ui, "app.residence.undetermined")}
            value = st.radio(t(ui, "app.residence.vital"), list(opts), format_func=opts.get, index=None,
                             horizontal=True, key=f"{key}-vital")
        else:
            value = st.radio(t(ui, "app.residence.management"), list(parties), format_func=lambda s: state_label(s, ui),
                             index=None, horizontal=True, key=f"{key}-mgmt")
        if value is None:
            break
        answers[fact] = value
    st.divider()
    for s in result.steps:
        st.markdown(f"{STEP_ICON.get(s.outcome, '')} **{step(s.step)}** — {s.text_in(ui)}: "
                    f"{t(ui, f'app.step_outcome.{s.outcome}')}" + (f" ({state_label(s.state, ui)})" if s.state else ""))
    if result.result == "mutual_agreement":
        st.success(t(ui, "app.residence.mutual_agreement"))
    elif result.result:
        deciding = result.citations[-1] if result.citations else None
        where_cited = source_label(deciding.treaty, (), deciding.article, deciding.paragraph, deciding.subparagraph,
                                   ui) if deciding else ""
        st.success(t(ui, "app.residence.decided", state=Formatter(ui).state(result.result, "of"),
                     step=step(result.deciding_step), cited=where_cited))
    for note in result.notes_in(ui):
        st.caption(note)
    rule_sources(key, result.citations, ui)


tiebreaker_wizard(ui_lang())
