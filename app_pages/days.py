"""183-day page: the days counted in each treaty's window for the stays entered, from rules/ only (the widgets'
answers go to the rules as one Facts, through the rule protocol, as the assistant's do)."""
from __future__ import annotations

from datetime import date

import pandas as pd
import streamlit as st

import rules
from app_support.render import condition_line
from app_support.sources import rule_sources
from app_support.ui import ui_lang
from app_support.widgets import covering, treaty_label, tristate
from i18n import t
from rules.protocol import Case, apply


def employment_calculator(ui: str) -> None:
    st.subheader(t(ui, "app.days.title"))
    st.caption(t(ui, "app.days.intro"))
    start_col, end_col = t(ui, "app.days.start"), t(ui, "app.days.end")
    default = pd.DataFrame({start_col: [date(date.today().year, 1, 1)], end_col: [date(date.today().year, 3, 31)]})
    stays_df = st.data_editor(default, num_rows="dynamic", key=f"emp-stays-{ui}", width="stretch",
                              column_config={start_col: st.column_config.DateColumn(format="DD/MM/YYYY"),
                                             end_col: st.column_config.DateColumn(format="DD/MM/YYYY")})
    cols = st.columns(3)
    with cols[0]:
        employer = tristate(t(ui, "app.days.employer"), "emp-employer", ui)
    with cols[1]:
        borne = tristate(t(ui, "app.days.borne"), "emp-pe", ui)
    year = cols[2].number_input(t(ui, "app.days.year"), min_value=1900, max_value=2200, value=None, step=1,
                                key="emp-year")
    stays, incomplete = [], 0
    for start, end in zip(stays_df[start_col], stays_df[end_col]):
        if pd.isna(start) or pd.isna(end):
            incomplete += 1
            continue
        stays.append((pd.Timestamp(start).date(), pd.Timestamp(end).date()))
    if incomplete:
        st.warning(t(ui, "app.days.incomplete", n=incomplete))
    if not stays:
        st.info(t(ui, "app.days.none"))
        return
    facts = rules.Facts(employment=rules.EmploymentFacts(
        stays=tuple(stays), employer_resident_in_work_state=employer, borne_by_pe=borne,
        fiscal_year=int(year) if year else None))
    results: list[rules.EmploymentResult] = []
    try:
        for treaty in covering("employment"):
            r = apply(treaty, Case("employment", facts))
            if isinstance(r, rules.EmploymentResult):        # else not covered
                results.append(r)
    except rules.RulesInputError as exc:
        st.error(exc.text_in(ui))
        return
    verdict = {True: t(ui, "app.days.may_tax"), False: t(ui, "app.days.residence_only"),
               None: t(ui, "app.triage.undetermined")}
    st.dataframe(pd.DataFrame([{
        t(ui, "app.days.col_treaty"): treaty_label(r.treaty, ui),
        t(ui, "app.days.col_window"): t(ui, f"app.window_rule.{r.window_rule}"),
        t(ui, "app.days.col_worst"): f"{r.window_start:%d/%m/%Y} – {r.window_end:%d/%m/%Y}" if r.window_start else "—",
        t(ui, "app.days.col_days"): r.days, t(ui, "app.days.col_limit"): r.max_days,
        t(ui, "app.days.col_work_state"): verdict[r.taxable_in_work_state],
    } for r in results]), hide_index=True, width="stretch")
    worst = max(results, key=lambda r: (r.days - r.max_days, r.days))
    st.markdown(t(ui, "app.days.worst", treaty=treaty_label(worst.treaty, ui), window=worst.window_text_in(ui),
                  start=f"{worst.window_start:%d/%m/%Y}", end=f"{worst.window_end:%d/%m/%Y}", days=worst.days,
                  limit=worst.max_days))
    pick = st.selectbox(t(ui, "app.days.detail"), [r.treaty for r in results],
                        format_func=lambda x: treaty_label(x, ui), key="emp-detail")
    detail = next(r for r in results if r.treaty == pick)
    for c in detail.conditions:
        st.markdown(f"- {condition_line(c, ui)}")
    for note in detail.notes_in(ui):
        st.caption(note)
    rule_sources(f"emp-{pick}", detail.citations, ui)


employment_calculator(ui_lang())
