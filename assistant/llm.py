"""Step 4's model: every backend is an OpenAI-compatible server reached through `langchain-openai`.

"local" is llama.cpp's own server on this machine (started or reused on demand, see llm_server);
"openai" is any other endpoint (vLLM, Ollama, a hosted API); "none" gives the deterministic answer only.
"""
from __future__ import annotations

import re
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langchain_core.outputs import ChatGenerationChunk, ChatResult
from pydantic import ConfigDict, PrivateAttr

from config import Settings

if TYPE_CHECKING:        # imported when a model is first used: the OpenAI SDK costs ~0.5 s of every app start
    from langchain_openai import ChatOpenAI

BACKENDS = ("local", "openai", "none")
HUB_PREFIX = "hf:"
# llama.cpp sampling that keeps the small model on the facts; other servers ignore unknown fields.
LLAMA_SAMPLING = {"top_p": 0.9, "repeat_penalty": 1.1, "cache_prompt": True}


# A sentence ends at . ! ? (or …), optionally followed by its passage references "[1][2]".
_SENTENCE_END = re.compile(r"[.!?…](?:\s*\[\d+\])*(?=\s|$)")
_ABBREVIATION = re.compile(r"\b(?:arts?|n|nos?|al|als|par|para|p|ex|cf|vd|sr|sra|dr|dra)\.$", re.I)


def _sentence_ends(text: str) -> list[int]:
    return [m.end() for m in _SENTENCE_END.finditer(text) if not _ABBREVIATION.search(text[:m.start() + 1])]


def whole_sentences(text: str) -> str:
    """The text up to its last finished sentence: an explanation cut by the token cap must not
    end mid-sentence. A text with no finished sentence is kept as it is."""
    text = text.strip()
    ends = _sentence_ends(text)
    return text[:ends[-1]] if ends else text


_BEGUN = re.compile(r"[^\s\[\]\d]")     # a next sentence has begun (not just its references "[1]")


class SentenceBuffer:
    """Streamed tokens in, finished sentences out: a sentence is released once the next one has begun
    (its references "[1]" may still follow its full stop), so each can be checked before it is shown."""

    def __init__(self) -> None:
        self._text = ""
        self.released = 0          # sentences handed out

    def feed(self, token: str) -> list[str]:
        self._text += token
        ends = [e for e in _sentence_ends(self._text) if _BEGUN.search(self._text, e)]
        return self._cut(ends[-1]) if ends else []

    def finish(self) -> tuple[list[str], str]:
        """(the finished sentences still held, the unfinished tail)."""
        ends = _sentence_ends(self._text)
        done = self._cut(ends[-1]) if ends else []
        tail, self._text = self._text.strip(), ""
        return done, tail

    def _cut(self, end: int) -> list[str]:
        head, self._text = self._text[:end], self._text[end:]
        starts = [0] + _sentence_ends(head)
        out = [head[a:b].strip() for a, b in zip(starts, starts[1:]) if head[a:b].strip()]
        self.released += len(out)
        return out


class LlmUnavailable(Exception):
    """The configured model cannot be used; the user still gets the deterministic answer."""


@dataclass(frozen=True)
class LlmInfo:
    backend: str
    model: str


def openai_chat(settings: Settings, base_url: str, model: str, api_key: str = "") -> ChatOpenAI:
    """The one client for every model."""
    from langchain_openai import ChatOpenAI

    return ChatOpenAI(base_url=base_url, model=model, api_key=api_key or "not-needed", temperature=0.1,
                      max_tokens=settings.llm_max_tokens, timeout=settings.llm_timeout_s, max_retries=0,
                      extra_body=LLAMA_SAMPLING)


class LocalServerChat(BaseChatModel):
    """The local llama.cpp server behind ChatOpenAI; each call finds the server again, so a server that
    died is restarted on the next question instead of failing every question after it."""

    model_config = ConfigDict(arbitrary_types_allowed=True)
    settings: Settings
    model_file: Path
    _client: ChatOpenAI | None = PrivateAttr(default=None)
    _url: str = PrivateAttr(default="")
    _lock: threading.Lock = PrivateAttr(default_factory=threading.Lock)

    @property
    def _llm_type(self) -> str:
        return "llama.cpp-server"

    def client(self) -> ChatOpenAI:
        from assistant.llm_server import ServerUnavailable, ensure_server

        with self._lock:
            try:
                info = ensure_server(self.settings, self.model_file)
            except ServerUnavailable as exc:
                raise LlmUnavailable(str(exc)) from exc
            if self._client is None or info.api_url != self._url:
                self._client, self._url = openai_chat(self.settings, info.api_url, info.model), info.api_url
            return self._client

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                  run_manager: CallbackManagerForLLMRun | None = None, **kwargs: Any) -> ChatResult:
        return self.client()._generate(messages, stop=stop, run_manager=run_manager, **kwargs)

    def _stream(self, messages: list[BaseMessage], stop: list[str] | None = None,
                run_manager: CallbackManagerForLLMRun | None = None, **kwargs: Any) -> Iterator[ChatGenerationChunk]:
        yield from self.client()._stream(messages, stop=stop, run_manager=run_manager, **kwargs)


def make_chat_model(settings: Settings, backend: str) -> tuple[BaseChatModel | None, LlmInfo]:
    if backend not in BACKENDS:
        raise LlmUnavailable(f"backend de LLM desconhecido: {backend!r} ({', '.join(BACKENDS)})")
    if backend == "none":
        return None, LlmInfo("none", "")
    if backend == "openai":
        model = openai_chat(settings, settings.openai_base_url, settings.openai_model, settings.openai_api_key)
        return model, LlmInfo("openai", settings.openai_model)
    path = local_model_path(settings)
    local = LocalServerChat(settings=settings, model_file=path)
    local.client()  # start (or find) the server now, so the first question does not wait for it
    return local, LlmInfo("local", path.name)


def local_model_path(settings: Settings) -> Path:
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
