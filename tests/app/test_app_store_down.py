"""The app with its vector store unreachable (Chroma server mode, nothing listening): the agent still gets the
rules' card and the keyword-search passages, with a visible notice, never "erro interno (ConnectError)"."""
from __future__ import annotations

import socket

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from tests.app.conftest import APP, settings_env


def _dead_port() -> int:
    with socket.socket() as s:        # bound and closed: nothing listens there
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def store_down_env(tmp_path):
    env = {"TREATY_LLM_BACKEND": "none", "TREATY_FEEDBACK_DB": str(tmp_path / "fb.sqlite3"),
           "TREATY_CHROMA_MODE": "http", "TREATY_CHROMA_PORT": str(_dead_port())}
    with settings_env(env):
        st.cache_resource.clear()          # the app's Assistant must be built with these settings
        yield
    st.cache_resource.clear()              # and the next app test's with its own


@pytest.mark.slow
def test_store_down_still_answers_with_a_notice(store_down_env):
    at = AppTest.from_file(str(APP), default_timeout=240)
    at.run()
    at.chat_input[0].set_value("Resido no Brasil e recebo royalties de direitos de autor de uma editora "
                               "espanhola. Qual a retenção?").run()
    assert not at.exception, at.exception
    texts = [m.value for m in at.markdown]
    assert any("10%" in t for t in texts), texts                       # BR-ES art. 12(2)(a), from the rules
    # its first source block names the paragraph the rate rests on
    assert any("class='src-head'" in t and "Convenção Brasil–Espanha, art. 12.º, n.º 2" in t for t in texts), texts
    assert any("Pesquisa semântica indisponível" in i.value for i in at.info), [i.value for i in at.info]
    assert not any("erro interno" in e.value for e in at.error)
