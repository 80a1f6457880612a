"""The treaty comparison page: incomes × treaties as a table with filters and CSV export; selecting a cell
opens its quoted paragraphs in a dialog on the same page. Built by assistant.compare (rules/ only)."""
from __future__ import annotations

import pandas as pd
import streamlit as st

import rules
from app_support.render import source_label
from app_support.sources import rule_sources
from app_support.ui import ui_lang
from assistant.compare import Cell, Comparison, compare
from i18n import t


def table_frame(table: Comparison, rows: list[str], treaties: list[str]) -> pd.DataFrame:
    """One row per income, one column per treaty, the cell's outcome as text."""
    data = {t(table.language, "assistant.compare.income"): [table.row_labels[r] for r in rows]}
    for treaty in treaties:
        data[treaty] = [table.cell(r, treaty).text for r in rows]
    return pd.DataFrame(data)


def cell_dialog(label: str, cell: Cell, ui: str) -> None:
    st.markdown(f"#### {label} · {cell.treaty}")
    st.markdown(cell.text)
    cites = [rules.Citation(doc=c.doc, treaty=cell.treaty, article=c.article, paragraph=c.paragraph,
                            subparagraph=c.subparagraph, quote=c.quote, language=c.language) for c in cell.citations]
    st.caption(" · ".join(dict.fromkeys(source_label(cell.treaty, (), c.article, c.paragraph, c.subparagraph, ui)
                                        for c in cell.citations)))
    rule_sources(f"cmp-{cell.row}-{cell.treaty}", cites, ui, opened=True)


def render() -> None:
    ui = ui_lang()
    st.subheader(t(ui, "app.compare.title"))
    st.caption(t(ui, "app.compare.legend"))
    table = compare(ui)
    cols = st.columns([2, 1, 1])
    rows = cols[0].multiselect(t(ui, "app.compare.rows"), table.rows, format_func=table.row_labels.get,
                               key="cmp-rows", placeholder=t(ui, "app.compare.all"))
    treaties = cols[1].multiselect(t(ui, "app.compare.treaties"), table.treaties, key="cmp-treaties",
                                   placeholder=t(ui, "app.compare.all"))
    word = cols[2].text_input(t(ui, "app.compare.filter"), key="cmp-word")
    rows, treaties = rows or table.rows, treaties or table.treaties
    if word.strip():
        needle = word.strip().lower()
        rows = [r for r in rows if needle in table.row_labels[r].lower()
                or any(needle in table.cell(r, tr).text.lower() for tr in treaties)]
    frame = table_frame(table, rows, treaties)
    event = st.dataframe(frame, hide_index=True, width="stretch", on_select="rerun", selection_mode="single-cell",
                         key=f"cmp-table-{ui}")
    st.download_button(t(ui, "app.compare.csv"), frame.to_csv(index=False).encode("utf-8"),
                       file_name=f"comparacao-{ui}.csv", mime="text/csv", icon=":material/download:",
                       on_click="ignore")
    st.caption(t(ui, "app.compare.hint"))
    selected = getattr(event, "selection", None)
    cells = list(getattr(selected, "cells", []) or []) if selected is not None else []
    if cells:
        position, column = cells[0]
        if column in treaties and 0 <= int(position) < len(rows):
            row = rows[int(position)]
            cell = table.cell(row, column)
            if cell.covered:
                st.dialog(t(ui, "app.compare.dialog"), width="large")(cell_dialog)(table.row_labels[row], cell, ui)
