"""Conversation history in the team store: one row per answered question (session id, redacted question, the
answer as redacted JSON, time), so any app server behind a balancer can show a session's past turns."""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import SQLAlchemyError

from app_support.database import CONVERSATIONS, StoreError, engine, shown
from app_support.feedback import now
from app_support.redaction import redact, redact_data
from assistant.answer import Answer

MAX_SESSION_ID = 64


@dataclass(frozen=True)
class HistoryTurn:
    id: int
    session_id: str
    created_at: str
    question: str
    language: str | None
    treaty: str | None
    answer: dict[str, Any]


@dataclass(frozen=True)
class HistoryStore:
    url: str     # a SQLAlchemy URL (Settings.store_url)

    def save(self, session_id: str, answer: Answer) -> int:
        """Stores one answered question of the session; returns the row id."""
        if not session_id or len(session_id) > MAX_SESSION_ID:
            raise ValueError(f"O identificador da sessão tem de ter 1 a {MAX_SESSION_ID} caracteres.")
        values = {"session_id": session_id, "created_at": now(), "question": redact(answer.question),
                  "language": answer.language, "treaty": answer.treaty,
                  "answer_json": json.dumps(redact_data(answer.to_dict()), ensure_ascii=False, default=str)}
        try:
            with engine(self.url).begin() as conn:
                return int(conn.execute(sa.insert(CONVERSATIONS).values(**values)
                                        .returning(CONVERSATIONS.c.id)).scalar_one())
        except SQLAlchemyError as exc:
            raise StoreError(f"Não foi possível gravar a conversa em {shown(self.url)}: {exc}") from exc

    def session(self, session_id: str) -> list[HistoryTurn]:
        """The session's turns, oldest first."""
        query = sa.select(CONVERSATIONS).where(CONVERSATIONS.c.session_id == session_id).order_by(CONVERSATIONS.c.id)
        try:
            with engine(self.url).connect() as conn:
                rows = conn.execute(query).all()
        except SQLAlchemyError as exc:
            raise StoreError(f"Não foi possível ler a conversa em {shown(self.url)}: {exc}") from exc
        return [HistoryTurn(r.id, r.session_id, r.created_at, r.question, r.language, r.treaty,
                            json.loads(r.answer_json)) for r in rows]
