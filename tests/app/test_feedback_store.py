"""The feedback store writes one redacted row per rating and exports it as CSV, on SQLite and on a real
PostgreSQL (the `store_url` fixture runs each test on both)."""
import csv
import io
import json
import sqlite3

import pytest
import sqlalchemy as sa

from app_support.database import FEEDBACK, engine
from app_support.feedback import COLUMNS, FeedbackError, FeedbackStore
from assistant.answer import Answer, CitationRef
from assistant.apply_rules import RuleRun
from rules import Facts, Message, NotCovered, withholding_cap


def _answer() -> Answer:
    return Answer(
        question="Sou residente em Portugal (NIF 123456789, joao@example.pt) e recebo dividendos do Brasil. 30%?",
        language="pt", answer="No máximo **15%** [1]. Contacte 912 345 678.", abstained=False, treaty="PT-BR",
        citations=[CitationRef(n=1, doc="pt-br-2000", treaty="PT-BR", article="10", paragraph="2", subparagraph="b",
                               quote="15% do montante bruto dos dividendos, nos restantes casos", chunk_id=None,
                               source="rule")],
        llm={"backend": "none", "model": ""}, timings_ms={"total": 42.5},
        rule_results=RuleRun(not_covered=NotCovered("PT-BR CPF 529.982.247-25 do titular", [],
                                                     Message("rules.input.unknown_fact", {"names": "x"})),
                             withholding=[withholding_cap("PT-BR", "dividends", "BR",
                                                          Facts(beneficiary_kind="individual"))]))


def test_record_writes_a_redacted_row(store_url):
    store = FeedbackStore(store_url)
    row_id = store.record(_answer(), -1, "A taxa está errada; o meu IBAN é PT50 0002 0123 1234 5678 9015 4")
    with engine(store_url).connect() as conn:
        row = dict(conn.execute(sa.select(FEEDBACK).where(FEEDBACK.c.id == row_id)).one()._mapping)
    assert row["rating"] == -1
    assert "123456789" not in row["question"] and "[NIF]" in row["question"]
    assert "joao@example.pt" not in row["question"] and "30%" in row["question"]
    assert "912 345 678" not in row["answer"] and "**15%**" in row["answer"]
    assert "PT50" not in row["comment"] and "[IBAN]" in row["comment"]
    assert "529.982.247-25" not in row["rule_results"]
    stored = json.loads(row["rule_results"])
    assert stored[0]["type"] == "WithholdingResult" and stored[0]["rate"] == 15.0
    assert stored[-1]["type"] == "NotCovered" and "529.982" not in stored[-1]["subject"]
    assert json.loads(row["citations"])[0]["label"] == "PT-BR art. 10(2)(b)"
    assert (row["treaty"], row["llm_backend"], row["total_ms"]) == ("PT-BR", "none", 42.5)


def test_rating_must_be_up_or_down(store_url):
    with pytest.raises(ValueError):
        FeedbackStore(store_url).record(_answer(), 0)
    assert FeedbackStore(store_url).rows() == []


def test_export_csv_has_every_row_and_column(store_url):
    store = FeedbackStore(store_url)
    assert list(csv.reader(io.StringIO(store.export_csv()))) == [list(COLUMNS)]
    store.record(_answer(), 1)
    store.record(_answer(), -1, "comentário")
    rows = list(csv.DictReader(io.StringIO(store.export_csv())))
    assert [r["rating"] for r in rows] == ["1", "-1"]
    assert rows[1]["comment"] == "comentário"
    assert all("123456789" not in r["question"] for r in rows)


def test_unwritable_path_gives_a_portuguese_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(FeedbackError, match="Não foi possível"):
        FeedbackStore(f"sqlite:///{blocker / 'fb.sqlite3'}").record(_answer(), 1)


def test_unreachable_server_gives_a_portuguese_error_without_the_password():
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nothing listens there
    with pytest.raises(FeedbackError, match="Não foi possível") as info:
        FeedbackStore(f"postgresql+psycopg://u:segredo@127.0.0.1:{port}/x").record(_answer(), 1)
    assert "segredo" not in str(info.value) and str(port) in str(info.value)


def test_database_runs_in_wal_mode(tmp_path):
    store = FeedbackStore(f"sqlite:///{tmp_path / 'fb.sqlite3'}")
    store.record(_answer(), 1)
    with sqlite3.connect(tmp_path / "fb.sqlite3") as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_retried_click_never_duplicates(store_url):
    store = FeedbackStore(store_url)
    first = store.record(_answer(), 1, key="turn-1")
    again = store.record(_answer(), 1, key="turn-1")  # the confirmation was lost; the user clicks again
    changed = store.record(_answer(), -1, "afinal não", key="turn-1")
    other = store.record(_answer(), 1, key="turn-2")
    assert first == again == changed != other
    rows = store.rows()
    assert len(rows) == 2 and (rows[0]["rating"], rows[0]["comment"]) == (-1, "afinal não")


def test_a_database_made_before_keys_gains_them(tmp_path):
    path = tmp_path / "fb.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE feedback (id INTEGER PRIMARY KEY AUTOINCREMENT, created_at TEXT NOT NULL, "
                     "rating INTEGER NOT NULL, comment TEXT NOT NULL DEFAULT '', question TEXT NOT NULL, "
                     "language TEXT, treaty TEXT, answer TEXT NOT NULL, citations TEXT NOT NULL, "
                     "rule_results TEXT NOT NULL, llm_backend TEXT, llm_model TEXT, total_ms REAL, "
                     "guardrail_action TEXT)")
        conn.execute("INSERT INTO feedback (created_at, rating, question, answer, citations, rule_results) "
                     "VALUES ('2026-01-01', 1, 'q', 'a', '[]', '[]')")
    store = FeedbackStore(f"sqlite:///{path}")
    store.record(_answer(), -1, key="k")
    store.record(_answer(), -1, key="k")
    assert [r["rating"] for r in store.rows()] == [1, -1]
