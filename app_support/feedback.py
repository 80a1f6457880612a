"""Thumbs up/down per answer, in the team store (app_support.database), with every text redacted before it is
written.

Each rating carries an idempotency key, so a retried click updates its row instead of adding a second one.
The engine's connection pool is shared across Streamlit sessions (threads) and app servers share the
database itself when it is PostgreSQL.
"""
from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import SQLAlchemyError

from app_support.database import FEEDBACK, StoreError, engine, shown, sqlite_file, upsert
from app_support.redaction import redact, redacted_json
from assistant.answer import Answer

COLUMNS = ("id", "created_at", "rating", "comment", "question", "language", "treaty", "answer", "citations",
           "rule_results", "llm_backend", "llm_model", "total_ms", "guardrail_action")

FeedbackError = StoreError   # the name the pages and tests know


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


@dataclass(frozen=True)
class FeedbackStore:
    url: str     # a SQLAlchemy URL (Settings.store_url)

    def record(self, answer: Answer, rating: int, comment: str = "", key: str | None = None) -> int:
        """Stores one rating (+1 or -1) with the redacted question, answer and sources; returns the row id.
        `key` names the click: recording the same key again updates that row (a retry never duplicates)."""
        if rating not in (-1, 1):
            raise ValueError("A avaliação tem de ser 1 (útil) ou -1 (não útil).")
        citations = [{"n": c.n, "label": c.label(), "doc": c.doc, "quote": c.quote, "source": c.source}
                     for c in answer.citations]
        values = {"created_at": now(), "rating": rating, "comment": redact(comment.strip()),
                  "question": redact(answer.question), "language": answer.language, "treaty": answer.treaty,
                  "answer": redact(answer.answer), "citations": redacted_json(citations),
                  "rule_results": redacted_json(answer.rule_results.to_dicts() if answer.rule_results else []),
                  "llm_backend": answer.llm.get("backend"), "llm_model": answer.llm.get("model"),
                  "total_ms": answer.timings_ms.get("total"), "guardrail_action": answer.guardrail.action,
                  "idempotency_key": key}
        try:
            return upsert(engine(self.url), FEEDBACK, values, "idempotency_key", ("created_at", "rating", "comment"))
        except SQLAlchemyError as exc:
            raise StoreError(f"Não foi possível gravar o feedback em {shown(self.url)}: {exc}") from exc

    def rows(self) -> list[dict[str, Any]]:
        path = sqlite_file(self.url)
        if path is not None and not path.exists():
            return []        # nothing recorded yet: no empty database created just to read it
        try:
            with engine(self.url).connect() as conn:
                query = sa.select(*(FEEDBACK.c[c] for c in COLUMNS)).order_by(FEEDBACK.c.id)
                return [dict(r._mapping) for r in conn.execute(query)]
        except SQLAlchemyError as exc:
            raise StoreError(f"Não foi possível ler o feedback em {shown(self.url)}: {exc}") from exc

    def export_csv(self) -> str:
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=COLUMNS)
        writer.writeheader()
        writer.writerows(self.rows())
        return out.getvalue()
