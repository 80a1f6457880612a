"""The real components, run for real: EmbeddingGemma ranking and the local LLM end to end."""
from __future__ import annotations

import numpy as np
import pytest

from config import load_settings
from ingest.corpus import DEFAULT_CORPUS_DIR
from ingest.embeddings import load_embeddings
from ingest.index import build_chunks

pytestmark = pytest.mark.slow  # real models


def test_real_embeddings_rank_the_dividend_paragraph_first():
    chunks = {c.id: c for c in build_chunks(DEFAULT_CORPUS_DIR)}
    wanted = "pt-br-2000:art10.p2:0"
    others = ["pt-br-2000:art26.p1:0", "pt-br-2000:art15.p1:0", "mli-pt-2019:art19.p1:0",
              "pt-br-2000:art13.p1:0", "pt-br-2000:art6.p1:0"]
    ids = [wanted, *others]
    embeddings = load_embeddings(load_settings())
    docs = np.array(embeddings.embed_documents([chunks[i].embed_text for i in ids]))
    query = np.array(embeddings.embed_query(
        "Sou residente em Portugal e recebo dividendos de uma empresa brasileira. Quanto retém o Brasil?"))
    scores = docs @ query
    assert ids[int(np.argmax(scores))] == wanted, dict(zip(ids, scores.round(3)))


def test_local_llm_end_to_end(real_assistant):
    """The configured local model through its server (started on demand), with the shared real index."""
    from assistant.llm import make_chat_model
    from assistant.pipeline import Assistant

    settings = real_assistant.settings.replace(llm_max_tokens=48)
    chat, info = make_chat_model(settings, "local")
    assistant = Assistant(settings, real_assistant.catalog, real_assistant.search, chat, info)
    answer = assistant.ask("A minha empresa portuguesa detém diretamente 40% de uma sociedade brasileira "
                           "há 5 anos. Qual é a taxa máxima de retenção sobre os dividendos?")
    assert answer.llm["backend"] == "local" and answer.llm["model"].endswith(".gguf")
    assert [r.value for r in answer.rates] == [10.0]
    assert answer.guardrail.checked and answer.guardrail.action in ("passed", "trimmed", "fallback")
    if answer.guardrail.action in ("passed", "trimmed"):
        assert answer.explanation and answer.explanation in answer.answer
    else:
        assert not answer.explanation and answer.notices
    assert answer.timings_ms["generate"] > 0
