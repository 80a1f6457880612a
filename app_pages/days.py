"""183-day page: the days counted in each treaty's window for the stays entered, from rules/ only."""
from __future__ import annotations

from datetime import date

import pandas as pd
import streamlit as st

import rules
from app_support.render import WINDOW_RULE_PT, condition_line
from app_support.sources import rule_citation_cards
from app_support.widgets import covering, treaty_label, tristate


def employment_calculator() -> None:
    st.subheader("Regra dos 183 dias (trabalho dependente)")
    st.caption("Indique as estadias no Estado onde o trabalho é exercido (o primeiro e o último dia contam).")
    default = pd.DataFrame({"Início": [date(date.today().year, 1, 1)], "Fim": [date(date.today().year, 3, 31)]})
    stays_df = st.data_editor(default, num_rows="dynamic", key="emp-stays", width="stretch",
                              column_config={"Início": st.column_config.DateColumn(format="DD/MM/YYYY"),
                                             "Fim": st.column_config.DateColumn(format="DD/MM/YYYY")})
    cols = st.columns(3)
    with cols[0]:
        employer = tristate("Entidade patronal residente no Estado do trabalho?", "emp-employer")
    with cols[1]:
        borne = tristate("Remuneração suportada por estabelecimento estável nesse Estado?", "emp-pe")
    year = cols[2].number_input("Ano fiscal (opcional)", min_value=1900, max_value=2200, value=None, step=1,
                                key="emp-year")
    stays, incomplete = [], 0
    for start, end in zip(stays_df["Início"], stays_df["Fim"]):
        if pd.isna(start) or pd.isna(end):
            incomplete += 1
            continue
        stays.append((pd.Timestamp(start).date(), pd.Timestamp(end).date()))
    if incomplete:
        st.warning(f"{incomplete} estadia(s) sem data de início ou de fim foram ignoradas.")
    if not stays:
        st.info("Acrescente pelo menos uma estadia com as duas datas.")
        return
    results: list[rules.EmploymentResult] = []
    try:
        for treaty in covering("employment"):
            r = rules.employment_183_days(treaty, stays, employer, borne, int(year) if year else None)
            if not isinstance(r, rules.NotCovered):
                results.append(r)
    except rules.RulesInputError as exc:
        st.error(str(exc))
        return
    verdict = {True: "pode tributar", False: "não tributa (só a residência)", None: "indeterminado"}
    st.dataframe(pd.DataFrame([{
        "Convenção": treaty_label(r.treaty), "Janela de contagem": WINDOW_RULE_PT.get(r.window_rule, r.window_rule),
        "Pior janela": f"{r.window_start:%d/%m/%Y} – {r.window_end:%d/%m/%Y}" if r.window_start else "—",
        "Dias": r.days, "Limite": r.max_days, "Estado do trabalho": verdict[r.taxable_in_work_state],
    } for r in results]), hide_index=True, width="stretch")
    worst = max(results, key=lambda r: (r.days - r.max_days, r.days))
    st.markdown(f"**Pior janela:** {treaty_label(worst.treaty)} — {worst.window_text}: "
                f"{worst.window_start:%d/%m/%Y} a {worst.window_end:%d/%m/%Y}, **{worst.days} dias** "
                f"(limite {worst.max_days}).")
    pick = st.selectbox("Detalhe da convenção", [r.treaty for r in results], format_func=treaty_label,
                        key="emp-detail")
    detail = next(r for r in results if r.treaty == pick)
    for c in detail.conditions:
        st.markdown(f"- {condition_line(c)}")
    for note in detail.notes:
        st.caption(note)
    rule_citation_cards(f"emp-{pick}", detail.citations)


employment_calculator()
