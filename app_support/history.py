"""The conversation of each browser session, kept in the team store (app_support/database.py: SQLite in WAL
by default, PostgreSQL when TREATY_DB_URL says so) so a reload, or another app server, finds it.

A turn is stored as what recomputes it: the question (redacted), the facts added by follow-ups and the
vetted model text; the deterministic answer is computed again from them. Each follow-up of a turn is a new
version of it, so the previous answer stays one click away. One connection per operation: safe across
Streamlit sessions (threads) and app servers."""
from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from datetime import date, datetime, timezone
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import SQLAlchemyError

from app_support.database import CONVERSATIONS, StoreError, engine, upsert
from app_support.database import shown as shown_url
from app_support.redaction import redact
from rules.facts import FACT_NAMES, Facts

# A follow-up adds flat facts only (a group, the stays or art. 4's facts, is read from the question).
_DATE_FACTS = {f.name for f in dataclasses.fields(Facts) if f.name in FACT_NAMES and "date" in str(f.type)}


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
    unknown = sorted(set(data) - set(FACT_NAMES))
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


MAX_SESSION = 64


@dataclass(frozen=True)
class HistoryStore:
    url: str     # a SQLAlchemy URL (Settings.store_url)

    def save(self, session: str, turn: str, version: int, position: int, question: str, facts: dict[str, Any],
             shown: str, explanation: str = "") -> None:
        """Writes one version of a turn (again: replaces it, e.g. when the model text arrives)."""
        if not session or len(session) > MAX_SESSION:
            raise ValueError(f"O identificador da sessão tem de ter 1 a {MAX_SESSION} caracteres.")
        values = {"session": session, "turn": turn, "version": version, "position": position,
                  "created_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                  "question": redact(question), "facts": facts_to_json(facts), "shown": redact(shown),
                  "explanation": redact(explanation)}
        try:
            upsert(engine(self.url), CONVERSATIONS, values, ("session", "turn", "version"),
                   ("position", "question", "facts", "shown", "explanation"))
        except SQLAlchemyError as exc:
            raise StoreError(f"Não foi possível gravar a conversa em {shown_url(self.url)}: {exc}") from exc

    def load(self, session: str) -> list[list[StoredVersion]]:
        """The session's turns in order, each as its versions (oldest first)."""
        c = CONVERSATIONS.c
        query = sa.select(c.turn, c.version, c.question, c.facts, c.shown, c.explanation) \
            .where(c.session == session).order_by(c.position, c.version)
        try:
            with engine(self.url).connect() as conn:
                rows = conn.execute(query).all()
        except SQLAlchemyError as exc:
            raise StoreError(f"Não foi possível ler a conversa em {shown_url(self.url)}: {exc}") from exc
        turns: dict[str, list[StoredVersion]] = {}
        for turn, version, question, facts, shown, explanation in rows:
            turns.setdefault(turn, []).append(
                StoredVersion(turn, version, question, facts_from_json(facts), shown, explanation))
        return list(turns.values())
