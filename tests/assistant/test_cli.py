"""The CLI contract, run as a user would (real index, real embeddings, no LLM)."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from config import REPO_ROOT

ENV = {**os.environ, "HF_HUB_OFFLINE": "1", "TREATY_LLM_BACKEND": "none"}
ANSWER_FIELDS = {"question": str, "language": str, "answer": str, "abstained": bool, "rates": list,
                 "citations": list, "guardrail": dict, "llm": dict, "timings_ms": dict}
RATE_FIELDS = {"value": (int, float), "income": str, "source_state": str, "residence_state": str,
               "condition": str, "citation": str}
CITATION_FIELDS = {"n": int, "doc": str, "treaty": str, "article": str, "quote": str}
HIT_FIELDS = {"rank": int, "chunk_id": str, "doc": str, "treaty": str, "article": str, "language": str,
              "score": float, "text": str}


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "assistant", *args], cwd=REPO_ROOT, env=ENV, text=True,
                          capture_output=True, input=stdin, timeout=300)


def check_fields(obj: dict, fields: dict) -> None:
    for name, kind in fields.items():
        assert name in obj, name
        assert isinstance(obj[name], kind), (name, obj[name])


def test_ask_json_contract():
    result = run("ask", "Sou residente em Portugal e recebo juros de um banco brasileiro. Qual a taxa?",
                 "--json", "--llm", "none")
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    check_fields(answer, ANSWER_FIELDS)
    assert answer["treaty"] == "PT-BR" and answer["language"] == "pt"
    assert {"understand", "rules", "retrieve", "generate", "total"} <= set(answer["timings_ms"])
    assert answer["rates"] and all(check_fields(r, RATE_FIELDS) is None for r in answer["rates"])
    assert 15 in [r["value"] for r in answer["rates"]]
    for c in answer["citations"]:
        check_fields(c, CITATION_FIELDS)
        assert "paragraph" in c and "subparagraph" in c and "chunk_id" in c
    assert answer["llm"]["backend"] == "none"


def test_ask_batch_keeps_order_ids_and_survives_bad_lines(tmp_path):
    batch = tmp_path / "q.jsonl"
    batch.write_text("\n".join([
        json.dumps({"id": "a", "q": "Vivo en España y cobro dividendos de Brasil"}),
        "isto não é json",
        json.dumps({"id": "c", "q": ""}),
        json.dumps({"id": 4, "q": "I live in Portugal and get royalties from Japan"}),
    ]), encoding="utf-8")
    result = run("ask", "--batch", str(batch), "--json", "--llm", "none")
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line.get("id") for line in lines] == ["a", None, "c", 4]
    assert lines[0]["treaty"] == "BR-ES" and lines[0]["language"] == "es"
    assert "error" in lines[1]
    assert lines[2]["abstained"] and lines[2]["error"]
    assert lines[3]["treaty"] == "PT-JP" and [r["value"] for r in lines[3]["rates"]] == [5]


@pytest.mark.parametrize("mode", ["hybrid", "bm25", "dense"])
def test_retrieve_json_contract(mode):
    result = run("retrieve", "dividendos pagos por uma sociedade brasileira a um residente em Portugal",
                 "-k", "5", "--json", "--retriever", mode)
    assert result.returncode == 0, result.stderr
    hits = json.loads(result.stdout)
    assert [h["rank"] for h in hits] == [1, 2, 3, 4, 5]
    for hit in hits:
        check_fields(hit, HIT_FIELDS)
        assert hit["treaty"] == "PT-BR"
    top = 3 if mode == "hybrid" else 5  # the single retrievers are baselines; the fusion must do better
    assert any(h["article"] == "10" for h in hits[:top])


def test_retrieve_batch(tmp_path):
    batch = tmp_path / "q.jsonl"
    batch.write_text(json.dumps({"id": "x", "q": "royalties Brasil Espanha"}) + "\n", encoding="utf-8")
    result = run("retrieve", "--batch", str(batch), "-k", "3", "--json")
    assert result.returncode == 0, result.stderr
    line = json.loads(result.stdout)
    assert line["id"] == "x" and len(line["results"]) == 3


def test_question_and_batch_are_exclusive():
    result = run("ask", "pergunta", "--batch", "f.jsonl")
    assert result.returncode != 0 and "não ambos" in result.stderr


def test_missing_index_is_a_clear_error(tmp_path):
    env = {**ENV, "TREATY_INDEX_DIR": str(tmp_path / "nada")}
    result = subprocess.run([sys.executable, "-m", "assistant", "ask", "dividendos Brasil Portugal"],
                            cwd=REPO_ROOT, env=env, text=True, capture_output=True, timeout=120)
    assert result.returncode == 2 and "make index" in result.stderr and "Traceback" not in result.stderr
