"""CI's fast regression: the deterministic assistant on the whole question set must stay above the floors
in eval/floors.yaml. Runs the real index (built by `make test` before pytest) and the real embeddings."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from config import load_settings
from eval.gold import load_questions
from eval.run import ours_answer, run_answers, summarise, worst_categories
from ingest.index import CHUNKS_FILE

FLOORS_FILE = Path(__file__).resolve().parents[2] / "eval" / "floors.yaml"
FLOORS = yaml.safe_load(FLOORS_FILE.read_text(encoding="utf-8"))
METRICS = ("accuracy", "citation_recall", "abstention_precision", "abstention_recall", "number_faithfulness")


@pytest.fixture(scope="module")
def evaluated():
    import torch

    from assistant.pipeline import Assistant

    settings = load_settings()
    assert (settings.index_dir / CHUNKS_FILE).is_file(), \
        f"índice em falta em {settings.index_dir}: corra `python -m ingest` (o `make test` constrói-o)"
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # one short query at a time: one thread is faster on a busy 2-core machine
    try:
        assistant = Assistant.from_settings(settings, llm="none", dense=True)
        scores, records = run_answers(load_questions(), ours_answer(assistant))
    finally:
        torch.set_num_threads(threads)
    return summarise(scores), records


def test_floors_file_covers_every_metric_below_its_measurement():
    metrics = FLOORS["metrics"]
    assert set(METRICS) <= set(metrics)
    for name in METRICS:
        assert 0 < metrics[name]["floor"] <= metrics[name]["measured"] <= 1, name


def test_floors_catch_an_assistant_that_always_abstains():
    scores, _ = run_answers(load_questions(), lambda q: {"answer": "Não sei responder.", "abstained": True})
    summary = summarise(scores)
    below = {m for m in METRICS if summary[m] is None or summary[m] < FLOORS["metrics"][m]["floor"]}
    assert {"accuracy", "citation_recall", "abstention_precision"} <= below


def test_floors_catch_an_assistant_that_never_abstains():
    scores, _ = run_answers(load_questions(), lambda q: {"answer": "No máximo 15%.", "abstained": False,
                                                         "rates": [{"value": 15}]})
    assert summarise(scores)["abstention_recall"] < FLOORS["metrics"]["abstention_recall"]["floor"]


@pytest.mark.slow
@pytest.mark.parametrize("metric", METRICS)
def test_deterministic_assistant_stays_above_floor(evaluated, metric):
    summary, records = evaluated
    floor = FLOORS["metrics"][metric]["floor"]
    worst = "; ".join(f"{w['category']} {w['wrong']}/{w['of']} ({', '.join(w['examples'][:3])})"
                      for w in worst_categories(records, limit=4))
    assert summary[metric] is not None and summary[metric] >= floor, \
        f"{metric} = {summary[metric]:.3f} abaixo do mínimo {floor} (eval/floors.yaml). Piores categorias: {worst}"
