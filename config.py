"""The one place configuration is read: config.toml defaults, then .env, then TREATY_* variables."""
from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, fields
from functools import lru_cache
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent
ENV_PREFIX = "TREATY_"


@dataclass(frozen=True)
class Settings:
    cache_dir: Path
    corpus_dir: Path
    rules_dir: Path
    index_dir: Path
    chroma_mode: str
    chroma_host: str
    chroma_port: int
    collection: str
    embedding_model: str
    embedding_batch_size: int
    llm_backend: str
    llm_model_path: str
    llm_threads: int
    llm_speculative: str
    llm_draft_model_path: str
    llm_context: int
    llm_parallel: int
    llm_max_tokens: int
    llm_timeout_s: float
    openai_base_url: str
    openai_model: str
    openai_api_key: str
    max_question_chars: int
    retrieval_k: int
    app_port: int
    feedback_db: Path
    db_url: str

    @property
    def store_url(self) -> str:
        """The team store: db_url (PostgreSQL for several app servers) or the SQLite file feedback_db."""
        return self.db_url or f"sqlite:///{self.feedback_db}"

    @property
    def models_dir(self) -> Path:
        return self.cache_dir / "models"

    @property
    def embedding_cache_file(self) -> Path:
        """Vectors already computed (chunks, and fixed query texts), by content hash."""
        return self.cache_dir / "embeddings.sqlite3"

    @property
    def model_fingerprints_file(self) -> Path:
        """Memo of the model files' hashes (by size and mtime), so a fingerprint does not re-read them."""
        return self.cache_dir / "model-fingerprints.json"

    @property
    def embedding_model_ref(self) -> str:
        """A local folder or a hub id; defaults to the folder `make models` assembles."""
        return self.embedding_model or str(self.models_dir / "embeddinggemma-300m")

    @property
    def llm_model_file(self) -> Path:
        return Path(self.llm_model_path) if self.llm_model_path else \
            self.models_dir / "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"

    def replace(self, **changes: object) -> "Settings":
        return Settings(**{**{f.name: getattr(self, f.name) for f in fields(self)}, **changes})


def _read_dotenv(path: Path) -> dict[str, str]:
    values: dict[str, str] = {}
    if path.is_file():
        for line in path.read_text(encoding="utf-8").splitlines():
            line = line.strip()
            if line and not line.startswith("#") and "=" in line:
                key, _, value = line.partition("=")
                values[key.strip()] = value.strip().strip("'\"")
    return values


def _coerce(name: str, raw: object, kind: type) -> object:
    if kind is Path:
        path = Path(os.path.expanduser(str(raw)))
        return path if path.is_absolute() else REPO_ROOT / path
    try:
        return kind(raw)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"configuração inválida: {name}={raw!r} ({kind.__name__} esperado)") from exc


@lru_cache(maxsize=1)
def load_settings() -> Settings:
    defaults = tomllib.loads((REPO_ROOT / "config.toml").read_text(encoding="utf-8"))
    overrides = {**_read_dotenv(REPO_ROOT / ".env"), **os.environ}
    kinds = {"Path": Path, "int": int, "float": float, "str": str}
    values: dict[str, object] = {}
    for f in fields(Settings):
        raw = overrides.get(ENV_PREFIX + f.name.upper(), defaults.get(f.name))
        if raw is None:
            raise ValueError(f"configuração em falta: {f.name}")
        values[f.name] = _coerce(f.name, raw, kinds[str(f.type)])
    if values["llm_backend"] not in ("local", "openai", "none"):
        raise ValueError(f"llm_backend inválido: {values['llm_backend']!r} (local, openai ou none)")
    if values["llm_speculative"] not in ("none", "ngram", "draft"):
        raise ValueError(f"llm_speculative inválido: {values['llm_speculative']!r} (none, ngram ou draft)")
    if values["chroma_mode"] not in ("embedded", "http"):
        raise ValueError(f"chroma_mode inválido: {values['chroma_mode']!r} (embedded ou http)")
    return Settings(**values)  # type: ignore[arg-type]
