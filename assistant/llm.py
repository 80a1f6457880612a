"""Step 4's model: one factory for the three backends, and a time-boxed token stream."""
from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import BaseMessage

from config import Settings

BACKENDS = ("local", "openai", "none")


class LlmUnavailable(Exception):
    """The configured model cannot be used; the user still gets the deterministic answer."""


@dataclass(frozen=True)
class LlmInfo:
    backend: str
    model: str


def make_chat_model(settings: Settings, backend: str) -> tuple[BaseChatModel | None, LlmInfo]:
    if backend not in BACKENDS:
        raise LlmUnavailable(f"backend de LLM desconhecido: {backend!r} ({', '.join(BACKENDS)})")
    if backend == "none":
        return None, LlmInfo("none", "")
    if backend == "openai":
        from langchain_openai import ChatOpenAI

        model = ChatOpenAI(base_url=settings.openai_base_url, model=settings.openai_model,
                           api_key=settings.openai_api_key or "not-needed", temperature=0.1,
                           max_tokens=settings.llm_max_tokens, timeout=settings.llm_timeout_s, max_retries=0)
        return model, LlmInfo("openai", settings.openai_model)
    path = _resolve_gguf(settings)
    from langchain_community.chat_models import ChatLlamaCpp

    model = ChatLlamaCpp(model_path=str(path), n_threads=settings.llm_threads, n_ctx=settings.llm_context,
                         n_batch=256, max_tokens=settings.llm_max_tokens, temperature=0.1, top_p=0.9,
                         repeat_penalty=1.1, verbose=False)
    return model, LlmInfo("local", path.name)


HUB_PREFIX = "hf:"


def _resolve_gguf(settings: Settings) -> Path:
    """A local GGUF file, or "hf:<repo id>/<file name>" for users who can reach a model hub."""
    if settings.llm_model_path.startswith(HUB_PREFIX):
        repo, _, filename = settings.llm_model_path[len(HUB_PREFIX):].rpartition("/")
        if not repo or not filename:
            raise LlmUnavailable(f"referência inválida {settings.llm_model_path!r}: use hf:<repo>/<ficheiro.gguf>")
        from huggingface_hub import hf_hub_download
        try:
            return Path(hf_hub_download(repo_id=repo, filename=filename))
        except Exception as exc:  # noqa: BLE001 - offline, unknown repo…: all mean "not available"
            raise LlmUnavailable(f"não foi possível obter {filename} de {repo}: {exc}") from exc
    path = settings.llm_model_file
    if not path.is_file():
        raise LlmUnavailable(f"modelo GGUF não encontrado em {path}: corra `make models`")
    return path


def stream_tokens(model: BaseChatModel, messages: list[BaseMessage], timeout_s: float) -> Iterator[str]:
    """Tokens as they come; stops (TimeoutError) once the time budget is spent."""
    deadline = time.monotonic() + timeout_s
    stream = model.stream(messages)
    try:
        for chunk in stream:
            text = chunk.content if isinstance(chunk.content, str) else ""
            if text:
                yield text
            if time.monotonic() > deadline:
                raise TimeoutError(f"o modelo excedeu {timeout_s:.0f} s")
    finally:
        close = getattr(stream, "close", None)
        if close:
            close()
