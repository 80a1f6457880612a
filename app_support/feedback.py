"""Thumbs up/down per answer, in SQLite, with every text redacted before it is written.

One connection per operation, so the store is safe to share across Streamlit sessions (threads).
The database runs in WAL mode (readers never block the writer); each rating carries an idempotency
key, so a retried click updates its row instead of adding a second one.
"""
from __future__ import annotations

import csv
import io
import sqlite3
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from app_support.redaction import redact, redacted_json
from assistant.answer import Answer

COLUMNS = ("id", "created_at", "rating", "comment", "question", "language", "treaty", "answer", "citations",
           "rule_results", "llm_backend", "llm_model", "total_ms", "guardrail_action")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS feedback (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created_at TEXT NOT NULL,
    rating INTEGER NOT NULL CHECK (rating IN (-1, 1)),
    comment TEXT NOT NULL DEFAULT '',
    question TEXT NOT NULL,
    language TEXT,
    treaty TEXT,
    answer TEXT NOT NULL,
    citations TEXT NOT NULL,
    rule_results TEXT NOT NULL,
    llm_backend TEXT,
    llm_model TEXT,
    total_ms REAL,
    guardrail_action TEXT
)
"""
_KEY_COLUMN = "idempotency_key"


class FeedbackError(RuntimeError):
    """The feedback database cannot be written; the message is Portuguese."""


@dataclass(frozen=True)
class FeedbackStore:
    path: Path

    def _connect(self) -> sqlite3.Connection:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self.path, timeout=10)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute(_SCHEMA)
            if _KEY_COLUMN not in {row[1] for row in conn.execute("PRAGMA table_info(feedback)")}:
                conn.execute(f"ALTER TABLE feedback ADD COLUMN {_KEY_COLUMN} TEXT")  # databases made before keys
            conn.execute(f"CREATE UNIQUE INDEX IF NOT EXISTS feedback_key ON feedback ({_KEY_COLUMN})")
        except (OSError, sqlite3.Error) as exc:
            raise FeedbackError(f"Não foi possível abrir a base de dados de feedback {self.path}: {exc}") from exc
        conn.row_factory = sqlite3.Row
        return conn

    def record(self, answer: Answer, rating: int, comment: str = "", key: str | None = None) -> int:
        """Stores one rating (+1 or -1) with the redacted question, answer and sources; returns the row id.
        `key` names the click: recording the same key again updates that row (a retry never duplicates)."""
        if rating not in (-1, 1):
            raise ValueError("A avaliação tem de ser 1 (útil) ou -1 (não útil).")
        citations = [{"n": c.n, "label": c.label(), "doc": c.doc, "quote": c.quote, "source": c.source}
                     for c in answer.citations]
        row = (datetime.now(timezone.utc).isoformat(timespec="seconds"), rating, redact(comment.strip()),
               redact(answer.question), answer.language, answer.treaty, redact(answer.answer),
               redacted_json(citations), redacted_json(answer.rule_results.to_dicts() if answer.rule_results else []),
               answer.llm.get("backend"), answer.llm.get("model"), answer.timings_ms.get("total"),
               answer.guardrail.action, key)
        columns = (*COLUMNS[1:], _KEY_COLUMN)
        updates = ", ".join(f"{c} = excluded.{c}" for c in ("created_at", "rating", "comment"))
        conn = self._connect()
        try:
            with conn:
                (row_id,) = conn.execute(
                    f"INSERT INTO feedback ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))}) "
                    f"ON CONFLICT ({_KEY_COLUMN}) DO UPDATE SET {updates} RETURNING id", row).fetchone()
            return int(row_id)
        except sqlite3.Error as exc:
            raise FeedbackError(f"Não foi possível gravar o feedback em {self.path}: {exc}") from exc
        finally:
            conn.close()

    def rows(self) -> list[dict[str, Any]]:
        if not self.path.exists():
            return []
        conn = self._connect()
        try:
            return [dict(r) for r in conn.execute(f"SELECT {', '.join(COLUMNS)} FROM feedback ORDER BY id")]
        finally:
            conn.close()

    def export_csv(self) -> str:
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=COLUMNS)
        writer.writeheader()
        writer.writerows(self.rows())
        return out.getvalue()
