"""The sidebar's feedback export is built only when asked, never on an ordinary rerun."""
from streamlit.testing.v1 import AppTest

from app_support.feedback import FeedbackStore
from app_support.sidebar import _feedback_csv
from tests.app.conftest import APP


def test_reruns_never_build_the_csv(app_env, monkeypatch):
    calls = []
    real = FeedbackStore.export_csv
    monkeypatch.setattr(FeedbackStore, "export_csv", lambda self: calls.append(1) or real(self))
    at = AppTest.from_file(str(APP), default_timeout=240)
    at.run()
    at.run()
    assert not at.exception, at.exception
    assert calls == []
    assert _feedback_csv().decode("utf-8").startswith("id,created_at,rating")
    assert calls == [1]
