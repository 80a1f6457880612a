"""The browser loads the code-block view (Streamlit's 1.5 MB syntax highlighter) the first time a page shows a
code block. The reply to send is one, so without this the first answer's reply came 2-4 s after its card on
2 cores. An empty, hidden code block on every page makes the browser load it while the agent reads or types."""
from __future__ import annotations

import streamlit as st

KEY = "code-view-preload"      # app.css hides .st-key-code-view-preload


def preload_code_view() -> None:
    with st.container(key=KEY):
        st.code("", language=None)
