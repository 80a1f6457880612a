"""The app under test runs with the deterministic backend (no LLM) and a feedback database in a temp dir.

Streamlit keeps st.cache_resource objects for the whole process, so the environment is set once per
session, before the first AppTest run, and every app test shares it."""
import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest

import config

REPO = Path(__file__).resolve().parents[2]
APP = REPO / "app.py"
ARTIFACTS = REPO / "tests" / "artifacts"


@contextmanager
def settings_env(env: dict[str, str]) -> Iterator[None]:
    """TREATY_* settings in the environment while the block runs, the previous values restored after."""
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    config.load_settings.cache_clear()
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        config.load_settings.cache_clear()


@pytest.fixture(scope="session")
def app_env(tmp_path_factory) -> dict[str, str]:
    db = tmp_path_factory.mktemp("feedback") / "feedback.sqlite3"
    env = {"TREATY_LLM_BACKEND": os.environ.get("TREATY_APP_TEST_LLM", "none"), "TREATY_FEEDBACK_DB": str(db)}
    with settings_env(env):
        yield env


PG_URL_VARIABLE = "TREATY_TEST_PG_URL"


def _postgres_database(admin_url: str) -> Iterator[str]:
    """A fresh database on the test server (.ci/postgres.sh) for one test, dropped after it."""
    import uuid

    import sqlalchemy as sa

    from app_support.database import engine

    name = f"t_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(admin_url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
        url = sa.make_url(admin_url).set(database=name).render_as_string(hide_password=False)
        yield url
        engine(url).dispose()
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE "{name}" WITH (FORCE)'))
    finally:
        admin.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request, tmp_path) -> Iterator[str]:
    """The team store's URL on each backend: a SQLite file, and a real PostgreSQL server. Without the server's
    URL the PostgreSQL run fails under CI=true (CI must start it) and is skipped, saying how, elsewhere."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'store' / 'team.sqlite3'}"
        return
    admin_url = os.environ.get(PG_URL_VARIABLE)
    if not admin_url:
        message = (f"{PG_URL_VARIABLE} em falta: o servidor PostgreSQL de teste não foi arrancado "
                   "(`source .ci/postgres.sh` antes do pytest; o .ci/run fá-lo)")
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    yield from _postgres_database(admin_url)
