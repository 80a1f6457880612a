"""CI's fast regression: the deterministic assistant on every split of the question set must stay above
that split's floors in eval/floors.yaml. Runs the real index (built by `make test` before pytest) and the
real embeddings; the eval questions' query vectors are kept in the embedding cache (keyed by the model's
fingerprint, like the index's), so a second run does not embed the same 363 questions again."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from eval.gold import CORE_SPLIT, load_eval_set, splits
from eval.run import ours_answer, run_answers, summarise, worst_categories
from ingest.embedding_cache import CachedQueryEmbeddings

FLOORS_FILE = Path(__file__).resolve().parents[2] / "eval" / "floors.yaml"
FLOORS = yaml.safe_load(FLOORS_FILE.read_text(encoding="utf-8"))
ITEMS = load_eval_set()
METRICS = ("accuracy", "citation_recall", "abstention_precision", "abstention_recall", "number_faithfulness")
ALWAYS = ("accuracy", "citation_recall")          # every split has answerable items with gold articles
FLOORED = [(split, metric) for split, entry in FLOORS["splits"].items() for metric in entry["metrics"]]


def _floor(split: str, metric: str) -> float:
    return FLOORS["splits"][split]["metrics"][metric]["floor"]


@pytest.fixture(scope="module")
def evaluated(real_assistant):
    """The shared real Assistant (tests/conftest.py): loaded once for the whole session."""
    dense = real_assistant.search.dense
    real = dense.embeddings
    dense.embeddings = CachedQueryEmbeddings(real, real_assistant.settings)
    try:
        scores, records = run_answers(ITEMS, ours_answer(real_assistant))
    finally:
        dense.embeddings = real
    return summarise(scores)["by_split"], records


def test_every_split_has_floors():
    missing = [s for s in splits(ITEMS) if s not in FLOORS["splits"]]
    assert not missing, f"divisões sem mínimos em eval/floors.yaml: {', '.join(missing)} (acrescente-as)"


def test_floors_file_covers_the_metrics_below_their_measurement():
    for split, entry in FLOORS["splits"].items():
        metrics = entry["metrics"]
        assert set(ALWAYS) <= set(metrics) and set(metrics) <= set(METRICS), split
        for name, value in metrics.items():
            assert 0 < value["floor"] <= value["measured"] <= 1, (split, name)


def test_floors_catch_an_assistant_that_always_abstains():
    core = [i for i in ITEMS if i.split == CORE_SPLIT]
    scores, _ = run_answers(core, lambda q: {"answer": "Não sei responder.", "abstained": True})
    summary = summarise(scores)
    below = {m for m in METRICS if summary[m] is None or summary[m] < _floor(CORE_SPLIT, m)}
    assert {"accuracy", "citation_recall", "abstention_precision"} <= below


def test_floors_catch_an_assistant_that_never_abstains():
    core = [i for i in ITEMS if i.split == CORE_SPLIT]
    scores, _ = run_answers(core, lambda q: {"answer": "No máximo 15%.", "abstained": False,
                                             "rates": [{"value": 15}]})
    assert summarise(scores)["abstention_recall"] < _floor(CORE_SPLIT, "abstention_recall")


@pytest.mark.slow
@pytest.mark.parametrize("split, metric", FLOORED)
def test_deterministic_assistant_stays_above_floor(evaluated, split, metric):
    by_split, records = evaluated
    summary = by_split.get(split)
    assert summary is not None, f"divisão {split} em eval/floors.yaml mas sem perguntas"
    floor = _floor(split, metric)
    worst = "; ".join(f"{w['category']} {w['wrong']}/{w['of']} ({', '.join(w['examples'][:3])})"
                      for w in worst_categories([r for r in records if r["split"] == split], limit=4))
    value = summary[metric]
    assert value is not None and value >= floor, \
        f"{split}: {metric} = {value} abaixo do mínimo {floor} (eval/floors.yaml). Piores categorias: {worst}"
