import pytest

import config


@pytest.fixture(autouse=True)
def fresh_settings():
    config.load_settings.cache_clear()
    yield
    config.load_settings.cache_clear()


def test_environment_overrides_defaults(monkeypatch, tmp_path):
    monkeypatch.setenv("TREATY_LLM_BACKEND", "none")
    monkeypatch.setenv("TREATY_INDEX_DIR", str(tmp_path))
    monkeypatch.setenv("TREATY_RETRIEVAL_K", "9")
    settings = config.load_settings()
    assert settings.llm_backend == "none" and settings.index_dir == tmp_path and settings.retrieval_k == 9


def test_relative_paths_are_relative_to_the_repo(monkeypatch):
    monkeypatch.setenv("TREATY_INDEX_DIR", "some/where")
    assert config.load_settings().index_dir == config.REPO_ROOT / "some/where"


@pytest.mark.parametrize("name,value", [("TREATY_LLM_BACKEND", "gpt9"), ("TREATY_CHROMA_MODE", "cloud"),
                                        ("TREATY_APP_PORT", "porto")])
def test_bad_values_give_clear_errors(monkeypatch, name, value):
    monkeypatch.setenv(name, value)
    with pytest.raises(ValueError, match="inválid"):
        config.load_settings()


def test_hub_id_can_replace_the_local_model(monkeypatch):
    monkeypatch.setenv("TREATY_EMBEDDING_MODEL", "google/embeddinggemma-300m")
    assert config.load_settings().embedding_model_ref == "google/embeddinggemma-300m"
