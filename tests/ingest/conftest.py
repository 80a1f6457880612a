from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from ingest.corpus import DEFAULT_CORPUS_DIR

SMALL_DOCS = ("pt-jp-2011-summary", "br-portaria-pt-br")


@pytest.fixture
def small_corpus(tmp_path) -> Path:
    """Two real documents of the corpus with their catalog entries, in a scratch folder."""
    catalog = yaml.safe_load((DEFAULT_CORPUS_DIR / "catalog.yaml").read_text(encoding="utf-8"))
    entries = [d for d in catalog["documents"] if d["id"] in SMALL_DOCS]
    folder = tmp_path / "corpus"
    folder.mkdir()
    for entry in entries:
        shutil.copy(DEFAULT_CORPUS_DIR / entry["file"], folder / entry["file"])
    (folder / "catalog.yaml").write_text(yaml.safe_dump({"documents": entries}, allow_unicode=True),
                                         encoding="utf-8")
    return folder
