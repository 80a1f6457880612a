"""The treaty comparison page: incomes × treaties, each cell the rule's outcome linking to its quoted
paragraph (?row=…&treaty=… opens the cell's sources below the table). Built by assistant.compare."""
from __future__ import annotations

from urllib.parse import urlencode

import streamlit as st

from app_support.sources import source_card
from assistant.compare import Cell, Comparison, compare
from i18n import t

UI = "pt"


def _link(cell: Cell) -> str:
    text = cell.text.replace("|", "/")
    if not cell.covered:
        return f"_{text}_"
    return f"[{text}](?{urlencode({'row': cell.row, 'treaty': cell.treaty})})"


def table_markdown(table: Comparison) -> str:
    head = [t(UI, "assistant.compare.income")] + table.treaties
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in table.rows:
        lines.append("| " + " | ".join([f"**{table.row_labels[row]}**"] +
                                       [_link(table.cell(row, tr)) for tr in table.treaties]) + " |")
    return "\n".join(lines)


def render() -> None:
    st.subheader(t(UI, "app.compare.title"))
    st.caption(t(UI, "assistant.compare.legend"))
    table = compare(UI)
    st.markdown(table_markdown(table))
    row, treaty = st.query_params.get("row"), st.query_params.get("treaty")
    if row in table.rows and treaty in table.treaties:
        cell = table.cell(row, treaty)
        st.markdown(f"#### {table.row_labels[row]} · {treaty}")
        st.markdown(cell.text)
        for i, c in enumerate(cell.citations, 1):
            source_card(f"cmp-{row}-{treaty}-{i}", i, c.doc, c.article, c.paragraph, c.subparagraph, c.quote,
                        c.language, f"{treaty} art. {c.article}")
