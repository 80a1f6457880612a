"""Retrieval adds the MLI's text only to a treaty the corpus says it modifies (PT-JP), never to PT-BR or BR-ES."""
from __future__ import annotations

from types import SimpleNamespace

from assistant.pipeline import Assistant
from assistant.understand.query import Query
from ingest.catalog import load_catalog
from ingest.corpus import DEFAULT_CORPUS_DIR


def _docs(treaty: str) -> set[str]:
    fake = SimpleNamespace(catalog=load_catalog(DEFAULT_CORPUS_DIR))
    return Assistant._docs_for(fake, Query(text="MLI?", language="pt", treaty=treaty, mentions_mli=True))


def test_mli_text_never_joins_pt_br_or_br_es_answers() -> None:
    assert "mli-pt-2019" not in _docs("PT-BR") and "pt-br-2000" in _docs("PT-BR")
    assert "mli-pt-2019" not in _docs("BR-ES")
    assert "mli-pt-2019" in _docs("PT-JP")                    # the summary says MLI art. 9(4) applies
