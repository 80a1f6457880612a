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
