"""The conversation of each browser session, kept in SQLite (WAL, the feedback database) so a reload keeps it.

A turn is stored as what recomputes it: the question (redacted), the facts added by follow-ups and the
vetted model text; the deterministic answer is computed again from them. Each follow-up of a turn is a new
version of it, so the previous answer stays one click away. One connection per operation: safe across
Streamlit sessions (threads)."""
from __future__ import annotations

import dataclasses
import json
import sqlite3
from dataclasses import dataclass
from datetime import date, datetime, timezone
from pathlib import Path
from typing import Any

from app_support.redaction import redact
from rules.facts import Facts

_SCHEMA = """
CREATE TABLE IF NOT EXISTS conversation (
    session TEXT NOT NULL,
    turn TEXT NOT NULL,
    version INTEGER NOT NULL,
    position INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    question TEXT NOT NULL,
    facts TEXT NOT NULL,
    shown TEXT NOT NULL,
    explanation TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (session, turn, version)
)
"""
_DATE_FACTS = {f.name for f in dataclasses.fields(Facts) if "date" in str(f.type)}


class HistoryError(RuntimeError):
    """The conversation database cannot be read or written."""


def facts_to_json(facts: dict[str, Any]) -> str:
    """Facts added by follow-ups as compact JSON (dates as ISO text), for the store and the answer URL."""
    return json.dumps({k: v.isoformat() if isinstance(v, date) else v for k, v in sorted(facts.items())},
                      ensure_ascii=False, separators=(",", ":"))


def facts_from_json(text: str | None) -> dict[str, Any]:
    """The inverse of facts_to_json; raises ValueError on anything but a JSON object of known facts."""
    if not text:
        return {}
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError("facts must be a JSON object")
    known = {f.name for f in dataclasses.fields(Facts)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ValueError(f"unknown facts: {', '.join(unknown)}")
    return {k: date.fromisoformat(v) if k in _DATE_FACTS and isinstance(v, str) else v for k, v in data.items()}


@dataclass(frozen=True)
class StoredVersion:
    turn: str
    version: int
    question: str
    facts: dict[str, Any]
    shown: str
    explanation: str


@dataclass(frozen=True)
class HistoryStore:
    path: Path

    def _connect(self) -> sqlite3.Connection:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self.path, timeout=10)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute(_SCHEMA)
        except (OSError, sqlite3.Error) as exc:
            raise HistoryError(f"{self.path}: {exc}") from exc
        return conn

    def save(self, session: str, turn: str, version: int, position: int, question: str, facts: dict[str, Any],
             shown: str, explanation: str = "") -> None:
        """Writes one version of a turn (again: replaces it, e.g. when the model text arrives)."""
        row = (session, turn, version, position, datetime.now(timezone.utc).isoformat(timespec="seconds"),
               redact(question), facts_to_json(facts), redact(shown), redact(explanation))
        conn = self._connect()
        try:
            with conn:
                conn.execute("INSERT OR REPLACE INTO conversation (session, turn, version, position, created_at, "
                             "question, facts, shown, explanation) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", row)
        except sqlite3.Error as exc:
            raise HistoryError(f"{self.path}: {exc}") from exc
        finally:
            conn.close()

    def load(self, session: str) -> list[list[StoredVersion]]:
        """The session's turns in order, each as its versions (oldest first)."""
        if not self.path.exists():
            return []
        conn = self._connect()
        try:
            rows = conn.execute("SELECT turn, version, question, facts, shown, explanation FROM conversation "
                                "WHERE session = ? ORDER BY position, version", (session,)).fetchall()
        except sqlite3.Error as exc:
            raise HistoryError(f"{self.path}: {exc}") from exc
        finally:
            conn.close()
        turns: dict[str, list[StoredVersion]] = {}
        for turn, version, question, facts, shown, explanation in rows:
            turns.setdefault(turn, []).append(
                StoredVersion(turn, version, question, facts_from_json(facts), shown, explanation))
        return list(turns.values())
