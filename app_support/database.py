"""The team store's database: SQLite (WAL) by default, PostgreSQL when TREATY_DB_URL names one, so several
app servers behind a balancer share feedback and conversation history. One engine per URL and process;
the tables are created on first use; every failure is one Portuguese StoreError."""
from __future__ import annotations

import time
from functools import lru_cache
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError

METADATA = sa.MetaData()

FEEDBACK = sa.Table(
    "feedback", METADATA,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("created_at", sa.Text, nullable=False),
    sa.Column("rating", sa.Integer, sa.CheckConstraint("rating IN (-1, 1)"), nullable=False),
    sa.Column("comment", sa.Text, nullable=False, server_default=""),
    sa.Column("question", sa.Text, nullable=False),
    sa.Column("language", sa.Text),
    sa.Column("treaty", sa.Text),
    sa.Column("answer", sa.Text, nullable=False),
    sa.Column("citations", sa.Text, nullable=False),
    sa.Column("rule_results", sa.Text, nullable=False),
    sa.Column("llm_backend", sa.Text),
    sa.Column("llm_model", sa.Text),
    sa.Column("total_ms", sa.Float),
    sa.Column("guardrail_action", sa.Text),
    sa.Column("idempotency_key", sa.Text),
    sa.Index("feedback_key", "idempotency_key", unique=True),
)

# One row per version of a turn: what recomputes the answer (question, facts added by follow-ups, the text
# shown, the vetted model text); a follow-up is a new version, so the previous answer stays one click away.
CONVERSATIONS = sa.Table(
    "conversation", METADATA,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("session", sa.Text, nullable=False),
    sa.Column("turn", sa.Text, nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("position", sa.Integer, nullable=False),
    sa.Column("created_at", sa.Text, nullable=False),
    sa.Column("question", sa.Text, nullable=False),
    sa.Column("facts", sa.Text, nullable=False),
    sa.Column("shown", sa.Text, nullable=False),
    sa.Column("explanation", sa.Text, nullable=False, server_default=""),
    sa.Index("conversation_version", "session", "turn", "version", unique=True),
)


class StoreError(RuntimeError):
    """The team store cannot be reached or written; the message is Portuguese."""


def shown(url: str) -> str:
    """The URL as it may be shown or logged: without its password."""
    try:
        return sa.make_url(url).render_as_string(hide_password=True)
    except SQLAlchemyError:
        return "(URL inválido)"


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite URL (None for another database or an in-memory one)."""
    parsed = sa.make_url(url)
    return Path(parsed.database) if parsed.get_backend_name() == "sqlite" and parsed.database else None


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cursor = dbapi_conn.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")   # readers never block the writer
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


@lru_cache(maxsize=8)
def engine(url: str) -> Engine:
    """The engine for `url`, its tables created (and a feedback table made before keys given one)."""
    try:
        path = sqlite_file(url)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            made = sa.create_engine(url, connect_args={"timeout": 10})
            sa.event.listen(made, "connect", _sqlite_pragmas)
        else:
            made = sa.create_engine(url, pool_pre_ping=True)
        _create_tables(made)
        return made
    except (SQLAlchemyError, OSError, ValueError, ImportError) as exc:
        raise StoreError(f"Não foi possível abrir a base de dados {shown(url)}: {exc}") from exc


def _create_tables(made: Engine, attempts: int = 5) -> None:
    """The tables, created once however many servers start at the same moment: a CREATE that loses the race
    to another server's fails, and the next look finds the tables there."""
    for attempt in range(attempts):
        try:
            METADATA.create_all(made)
            _add_missing_key(made)
            return
        except SQLAlchemyError:
            if attempt == attempts - 1:
                raise
            time.sleep(0.05 * (attempt + 1))


def _add_missing_key(made: Engine) -> None:
    columns = {c["name"] for c in sa.inspect(made).get_columns("feedback")}
    if "idempotency_key" not in columns:  # a database from before retried clicks were recognised
        with made.begin() as conn:
            conn.execute(sa.text("ALTER TABLE feedback ADD COLUMN idempotency_key TEXT"))
            conn.execute(sa.text("CREATE UNIQUE INDEX IF NOT EXISTS feedback_key ON feedback (idempotency_key)"))


def upsert(made: Engine, table: sa.Table, values: dict[str, Any], key: str | tuple[str, ...],
           update: tuple[str, ...]) -> int:
    """Insert a row, or update `update` columns of the row with the same `key` column(s) (ON CONFLICT in both
    dialects); returns the row's id."""
    dialect: Any = postgresql if made.dialect.name == "postgresql" else sqlite
    stmt = dialect.insert(table).values(**values)
    keys = [key] if isinstance(key, str) else list(key)
    stmt = stmt.on_conflict_do_update(index_elements=keys, set_={c: stmt.excluded[c] for c in update})
    with made.begin() as conn:
        return int(conn.execute(stmt.returning(table.c.id)).scalar_one())
