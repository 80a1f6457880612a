"""The team store on SQLite and on a real PostgreSQL (`store_url` runs each test on both): conversation history
per session, redacted, and several app servers (processes) writing feedback and history at once without a
row lost or duplicated."""
from __future__ import annotations

import subprocess
import sys

import pytest

from app_support.feedback import FeedbackStore
from app_support.history import HistoryStore
from config import REPO_ROOT


def test_history_keeps_each_session_turns_versions_in_order_and_redacted(store_url):
    store = HistoryStore(store_url)
    store.save("sessao-a", "t1", 0, 0, "Recebo dividendos (NIF 123456789), tel. 912 345 678", {}, "Recebo dividendos")
    store.save("sessao-b", "t9", 0, 0, "Outra sessão", {}, "Outra sessão")
    store.save("sessao-a", "t1", 1, 0, "Recebo dividendos", {"beneficiary_kind": "company"}, "+ sociedade")
    store.save("sessao-a", "t2", 0, 1, "Pensão do INSS", {}, "Pensão do INSS")
    store.save("sessao-a", "t2", 0, 1, "Pensão do INSS", {}, "Pensão do INSS", "Explicação.")  # model text arrives
    turns = store.load("sessao-a")
    assert [[v.version for v in turn] for turn in turns] == [[0, 1], [0]]
    first = turns[0][0]
    assert "123456789" not in first.question and "[NIF]" in first.question and "912 345 678" not in first.question
    assert turns[0][1].facts == {"beneficiary_kind": "company"} and turns[1][0].explanation == "Explicação."
    assert store.load("ninguem") == []


@pytest.mark.parametrize("session_id", ["", "x" * 65])
def test_a_bad_session_id_changes_nothing(store_url, session_id):
    store = HistoryStore(store_url)
    with pytest.raises(ValueError, match="identificador da sessão"):
        store.save(session_id, "t1", 0, 0, "q", {}, "q")
    assert store.load(session_id) == []


WRITER = """
import sys
from app_support.feedback import FeedbackStore
from app_support.history import HistoryStore
from tests.app.test_feedback_store import _answer
url, name, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
feedback, history = FeedbackStore(url), HistoryStore(url)
answer = _answer()
for i in range(count):
    feedback.record(answer, 1 if i % 2 else -1, f"{name} {i}", key=f"{name}-{i}")
    feedback.record(answer, 1, f"{name} {i} retried", key=f"{name}-{i}")  # a retried click
    history.save(name, f"t{i}", 0, i, "pergunta", {}, "pergunta")
"""


def test_several_app_servers_share_one_store(store_url):
    """Three processes (as three app servers behind a balancer) write at once: every row once, every retry merged,
    and each sees the others' rows."""
    servers, count = 3, 5
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, store_url, f"server{n}", str(count)], cwd=REPO_ROOT,
                              stderr=subprocess.PIPE, text=True) for n in range(servers)]
    for proc in procs:
        _, err = proc.communicate(timeout=180)
        assert proc.returncode == 0, err[-2000:]
    rows = FeedbackStore(store_url).rows()
    assert len(rows) == servers * count
    assert sorted(r["comment"] for r in rows) == sorted(f"server{n} {i} retried" for n in range(servers)
                                                        for i in range(count))
    history = HistoryStore(store_url)
    assert [len(history.load(f"server{n}")) for n in range(servers)] == [count] * servers
