"""Input widgets shared by the chat's quick inputs and the calculators, and the treaty labels they show,
all in the UI language."""
from __future__ import annotations

from datetime import date
from typing import Any

import streamlit as st

import rules
from app_support.quick_inputs import QuickInput, to_facts
from app_support.render import state_label, yes_no
from i18n import t


def quick_input_widget(q: QuickInput, key: str, lang: str) -> dict[str, Any]:
    label = q.label(lang)
    if q.kind == "choice":
        options = q.options(lang)
        value = st.radio(label, list(options), format_func=options.get, index=None, horizontal=True, key=key)
    elif q.kind == "bool":
        value = st.radio(label, [True, False], format_func=lambda v: yes_no(v, lang), index=None, horizontal=True,
                         key=key)
    elif q.kind == "percent":
        value = st.number_input(label, min_value=0.0, max_value=100.0, value=None, step=1.0, key=key)
    elif q.kind in ("years", "amount"):
        value = st.number_input(label, min_value=0.0, value=None, step=1.0 if q.kind == "years" else 100.0,
                                key=key)
    else:                                           # "since": the holding date and the payment date
        cols = st.columns(2)
        value = cols[0].date_input(label, value=None, max_value=date.today(), format="DD/MM/YYYY", key=key)
        paid = cols[1].date_input(t(lang, "app.ui.payment_date"), value=date.today(), format="DD/MM/YYYY",
                                  key=f"{key}-paid")
        return to_facts(q, value, paid)
    return to_facts(q, value)


def tristate(label: str, key: str, lang: str) -> bool | None:
    return st.radio(label, [None, True, False], horizontal=True, key=key,
                    format_func=lambda v: t(lang, "app.ui.unknown") if v is None else yes_no(v, lang))


def treaty_label(code: str, lang: str) -> str:
    parties = rules.known_treaties().get(code, ())
    return f"{code} ({' – '.join(state_label(p, lang) for p in parties)})" if parties else code


def covering(topic: str) -> list[str]:
    """The treaties whose rules cover a topic (the calculators offer only these)."""
    return [c.treaty for c in rules.coverage() if topic in c.topics and c.treaty in rules.known_treaties()]
