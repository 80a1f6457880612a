"""The CLI contract, run in-process through main(argv) (real index, real embeddings, no LLM), plus one
subprocess smoke test of `python -m assistant` as a user runs it."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import config
from assistant.__main__ import main
from config import REPO_ROOT

ANSWER_FIELDS = {"question": str, "language": str, "answer": str, "abstained": bool, "rates": list,
                 "citations": list, "guardrail": dict, "llm": dict, "timings_ms": dict, "reply": str}
RATE_FIELDS = {"value": (int, float), "income": str, "source_state": str, "residence_state": str,
               "condition": str, "citation": str}
CITATION_FIELDS = {"n": int, "doc": str, "treaty": str, "article": str, "quote": str}
HIT_FIELDS = {"rank": int, "chunk_id": str, "doc": str, "treaty": str, "article": str, "language": str,
              "score": float, "text": str}


def check_fields(obj: dict, fields: dict) -> None:
    for name, kind in fields.items():
        assert name in obj, name
        assert isinstance(obj[name], kind), (name, obj[name])


def json_lines(out: str) -> list[dict]:
    """Every output line must be valid UTF-8 JSON (strict encode: a lone surrogate fails here)."""
    return [json.loads(line.encode("utf-8").decode("utf-8")) for line in out.splitlines()]


def test_ask_json_contract(real_assistant, capsys):
    code = main(["ask", "Sou residente em Portugal e recebo juros de um banco brasileiro. Qual a taxa?",
                 "--json", "--llm", "none"], real_assistant)
    assert code == 0
    answer = json.loads(capsys.readouterr().out)
    check_fields(answer, ANSWER_FIELDS)
    assert answer["treaty"] == "PT-BR" and answer["language"] == "pt"
    assert {"understand", "rules", "retrieve", "generate", "total"} <= set(answer["timings_ms"])
    assert answer["rates"] and all(check_fields(r, RATE_FIELDS) is None for r in answer["rates"])
    assert 15 in [r["value"] for r in answer["rates"]]
    for c in answer["citations"]:
        check_fields(c, CITATION_FIELDS)
        assert "paragraph" in c and "subparagraph" in c and "chunk_id" in c
    assert answer["llm"]["backend"] == "none"


def test_ask_batch_keeps_order_ids_and_survives_bad_lines(real_assistant, tmp_path, capsys):
    batch = tmp_path / "q.jsonl"
    batch.write_text("\n".join([
        json.dumps({"id": "a", "q": "Vivo en España y cobro dividendos de Brasil"}),
        "isto não é json",
        json.dumps({"id": "c", "q": ""}),
        json.dumps({"id": 4, "q": "I live in Portugal and get royalties from Japan"}),
    ]), encoding="utf-8")
    code = main(["ask", "--batch", str(batch), "--json", "--llm", "none"], real_assistant)
    lines = json_lines(capsys.readouterr().out)
    assert code == 1  # two lines failed
    assert [line.get("id") for line in lines] == ["a", None, "c", "4"]  # a number id comes back as its string
    assert lines[0]["treaty"] == "BR-ES" and lines[0]["language"] == "es"
    assert "error" in lines[1] and lines[1]["line"] == 2
    assert lines[2]["abstained"] and lines[2]["error"]
    assert lines[3]["treaty"] == "PT-JP" and [r["value"] for r in lines[3]["rates"]] == [5]


def test_undecodable_bytes_cost_only_their_line(make_assistant, tmp_path, capsys):
    batch = tmp_path / "q.jsonl"
    good = json.dumps({"id": "ok", "q": "Sou residente em Portugal e recebo dividendos do Brasil"}).encode()
    bad = b'{"id": "bad", "q": "dividendos \xff\xfe Brasil"}\n'
    batch.write_bytes(good + b"\n" + bad + good.replace(b'"ok"', b'"ok2"'))
    code = main(["ask", "--batch", str(batch), "--json"], make_assistant())
    lines = json_lines(capsys.readouterr().out)
    assert code == 1
    assert [line.get("id") for line in lines] == ["ok", None, "ok2"]
    assert lines[0]["treaty"] == lines[2]["treaty"] == "PT-BR" and lines[0]["rates"]
    assert lines[1]["line"] == 2 and "UTF-8" in lines[1]["error"]


def test_lone_surrogates_never_reach_the_output(make_assistant, tmp_path, capsys):
    batch = tmp_path / "q.jsonl"
    batch.write_text('{"id": "x\\ud800", "q": "dividendos \\udc80 Brasil Portugal"}\n', encoding="utf-8")
    code = main(["ask", "--batch", str(batch), "--json"], make_assistant())
    [line] = json_lines(capsys.readouterr().out)
    assert code == 1 and line["error"] and line["id"] == "x\ufffd"
    assert "\ufffd" in line["question"] or line["question"] == ""
    # a command-line argument with invalid UTF-8 arrives as lone surrogates (surrogateescape)
    code = main(["ask", "dividendos \udcff Brasil", "--json"], make_assistant())
    [single] = json_lines(capsys.readouterr().out)
    assert code == 1 and single["error"]


def test_non_string_question_and_duplicate_ids_are_error_lines(make_assistant, tmp_path, capsys):
    batch = tmp_path / "q.jsonl"
    batch.write_text("\n".join(json.dumps(x) for x in [
        {"id": 1, "q": {"texto": "dividendos Brasil Portugal"}},
        {"id": 2, "q": 15},
        {"id": 3, "q": "Sou residente em Portugal e recebo dividendos do Brasil"},
        {"id": 3, "q": "Sou residente em Portugal e recebo juros do Brasil"},
    ]), encoding="utf-8")
    code = main(["ask", "--batch", str(batch), "--json"], make_assistant())
    lines = json_lines(capsys.readouterr().out)
    assert code == 1
    assert [line["id"] for line in lines] == ["1", "2", "3", "3"]
    assert "texto" in lines[0]["error"] and "texto" in lines[1]["error"] and "rates" not in lines[0]
    assert lines[2]["rates"] and "error" not in lines[2] or lines[2]["error"] is None
    assert "repetido" in lines[3]["error"] and "linha 3" in lines[3]["error"]


def _strict(line: str) -> dict:
    """What a strict JSON parser (not Python's) accepts: no NaN, Infinity or -Infinity."""
    def refuse(name):
        raise AssertionError(f"{name} in the output: not JSON")
    return json.loads(line, parse_constant=refuse)


def test_hostile_batch_lines_each_cost_only_their_line(make_assistant, tmp_path, capsys):
    """Issue 21: a 5,000-digit id, 100,000 nested brackets, NaN and 1e999 ids — each an error line or a
    string id, every other line answered, every output line strict JSON."""
    good = "Sou residente em Portugal e recebo dividendos do Brasil"
    lines = [
        '{"id": ' + "9" * 5000 + ', "q": "dividendos Brasil"}',
        "[" * 100_000,
        "[" * 2_000,
        '{"id": NaN, "q": "dividendos Brasil"}',
        '{"id": 1e999, "q": "' + good + '"}',
        '{"id": Infinity, "q": "dividendos Brasil"}',
        '{"id": 12, "q": "' + good.replace("dividendos", "juros") + '"}',
        '{"id": true, "q": "dividendos Brasil"}',
        json.dumps({"id": "x" * 201, "q": good}),
        json.dumps({"id": "last", "q": good}),
    ]
    batch = tmp_path / "q.jsonl"
    batch.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code = main(["ask", "--batch", str(batch), "--json"], make_assistant())
    out = [_strict(line) for line in capsys.readouterr().out.splitlines()]
    assert code == 1 and len(out) == len(lines)
    errors = {o["line"]: o["error"] for o in out if o.get("line")}
    assert "'id' tem 5000 caracteres (máximo 200)" in errors[1]
    assert "linha demasiado longa" in errors[2] and "aninhado" in errors[3]
    assert "NaN não é JSON" in errors[4] and "Infinity não é JSON" in errors[6]
    assert "texto ou número" in errors[8] and "201 caracteres" in errors[9]
    answered = [o for o in out if "rates" in o]
    assert [o["id"] for o in answered] == ["1e999", "12", "last"]
    assert all(o["treaty"] == "PT-BR" for o in answered)


def test_number_question_is_not_text_even_as_a_number_string(make_assistant, tmp_path, capsys):
    batch = tmp_path / "q.jsonl"
    batch.write_text('{"id": "a", "q": 15}\n{"id": "b", "q": 1.5}\n', encoding="utf-8")
    assert main(["ask", "--batch", str(batch), "--json"], make_assistant()) == 1
    assert all("tem de ser texto" in o["error"] for o in map(_strict, capsys.readouterr().out.splitlines()))


def test_non_finite_numbers_never_reach_the_output(capsys):
    from assistant.__main__ import _emit

    _emit({"id": "a", "score": float("nan"), "nested": [float("inf"), 1.5]})
    assert _strict(capsys.readouterr().out) == {"id": "a", "score": None, "nested": [None, 1.5]}


@pytest.mark.parametrize("k", ["-3", "0", "51", "muitos"])
def test_retrieve_k_is_validated(k, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["retrieve", "dividendos", "-k", k, "--json"])
    err = capsys.readouterr().err
    assert exit_info.value.code == 2 and "tem de ser um número inteiro de 1 a 50" in err and k in err


def test_a_clean_batch_exits_zero(make_assistant, tmp_path, capsys):
    batch = tmp_path / "q.jsonl"
    batch.write_text(json.dumps({"id": "a", "q": "Sou residente em Portugal e recebo dividendos do Brasil"}) + "\n",
                     encoding="utf-8")
    assert main(["ask", "--batch", str(batch), "--json"], make_assistant()) == 0
    assert json_lines(capsys.readouterr().out)[0]["treaty"] == "PT-BR"


def test_ask_json_carries_a_plain_reply_with_quotes_only_on_request(make_assistant, capsys):
    question = "Vivo en España y cobro cánones de una empresa brasileña por una patente."
    assert main(["ask", question, "--json"], make_assistant()) == 0
    plain = json.loads(capsys.readouterr().out)
    assert plain["reply"].startswith("Hola:") and "del Convenio Brasil–España" in plain["reply"]
    assert "**" not in plain["reply"] and "[1]" not in plain["reply"] and "“" not in plain["reply"]
    assert main(["ask", question, "--json", "--quotes"], make_assistant()) == 0
    quoted = json.loads(capsys.readouterr().out)["reply"]
    rule_quote = next(c["quote"] for c in plain["citations"] if c["source"] == "rule")
    assert f"“{rule_quote}”" in quoted and len(quoted) > len(plain["reply"])


def test_empty_question_gets_the_json_error_not_usage(make_assistant, capsys):
    code = main(["ask", "", "--json"], make_assistant())
    captured = capsys.readouterr()
    assert code == 1 and "usage" not in captured.err
    assert json.loads(captured.out)["error"]


@pytest.mark.parametrize("mode", ["hybrid", "bm25", "dense"])
def test_retrieve_json_contract(mode, real_assistant, capsys):
    code = main(["retrieve", "dividendos pagos por uma sociedade brasileira a um residente em Portugal",
                 "-k", "5", "--json", "--retriever", mode], real_assistant)
    assert code == 0
    hits = json.loads(capsys.readouterr().out)
    assert [h["rank"] for h in hits] == [1, 2, 3, 4, 5]
    for hit in hits:
        check_fields(hit, HIT_FIELDS)
        assert hit["treaty"] == "PT-BR"
    top = 3 if mode == "hybrid" else 5  # the single retrievers are baselines; the fusion must do better
    assert any(h["article"] == "10" for h in hits[:top])


def test_retrieve_batch(real_assistant, tmp_path, capsys):
    batch = tmp_path / "q.jsonl"
    batch.write_text(json.dumps({"id": "x", "q": "royalties Brasil Espanha"}) + "\n" + '{"id": "y", "q": 7}\n',
                     encoding="utf-8")
    code = main(["retrieve", "--batch", str(batch), "-k", "3", "--json"], real_assistant)
    first, second = json_lines(capsys.readouterr().out)
    assert first["id"] == "x" and len(first["results"]) == 3
    assert second["id"] == "y" and "texto" in second["error"] and code == 1


def test_question_and_batch_are_exclusive(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["ask", "pergunta", "--batch", "f.jsonl"])
    assert exit_info.value.code != 0 and "não ambos" in capsys.readouterr().err


def test_missing_index_is_a_clear_error(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("TREATY_INDEX_DIR", str(tmp_path / "nada"))
    config.load_settings.cache_clear()
    try:
        assert main(["ask", "dividendos Brasil Portugal"]) == 2
    finally:
        config.load_settings.cache_clear()
    err = capsys.readouterr().err
    assert "make index" in err and "Traceback" not in err


def test_subprocess_smoke(tmp_path):
    """`python -m assistant` as a user runs it (BM25, so no model load): real argv, stdout and exit code."""
    batch = tmp_path / "q.jsonl"
    batch.write_bytes(json.dumps({"id": "a", "q": "royalties Brasil Espanha"}).encode()
                      + b"\n{\"id\": \"b\", \"q\": \"\xff\"}\n")
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TREATY_LLM_BACKEND": "none"}
    result = subprocess.run([sys.executable, "-m", "assistant", "retrieve", "--batch", str(batch), "-k", "2",
                             "--json", "--retriever", "bm25"], cwd=REPO_ROOT, env=env, capture_output=True, timeout=300)
    first, second = [json.loads(line) for line in result.stdout.decode("utf-8").splitlines()]
    assert result.returncode == 1, result.stderr.decode("utf-8", "replace")
    assert first["id"] == "a" and [h["treaty"] for h in first["results"]] == ["BR-ES", "BR-ES"]
    assert second["line"] == 2 and "UTF-8" in second["error"]
