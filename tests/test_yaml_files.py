"""The product reads its YAML with libyaml's loader (ten times faster at start-up); that loader is stricter
than PyYAML's pure-Python one on some plain scalars ("pergunta:," in a flow list), so every data file must
read the same under both."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted(p for folder in ("assistant", "rules", "i18n", "corpus") for p in (ROOT / folder).rglob("*.yaml"))


def test_the_data_files_are_found():
    assert len(FILES) >= 15


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_libyaml_reads_what_pyyaml_reads(path: Path):
    text = path.read_text(encoding="utf-8")
    assert yaml.load(text, Loader=yaml.CSafeLoader) == yaml.safe_load(text)
