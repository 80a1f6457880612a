"""The evaluation runner, baselines and report, with scripted answers instead of models."""
from __future__ import annotations

import pytest

from eval import baselines, report
from eval.gold import item_from_record
from eval.run import run_answers, run_retrieval, select_splits, stratified_subset, summarise, worst_categories


def gold(item_id: str, category: str, language: str = "pt", split_name: str = "core", **overrides) -> object:
    record = {"id": item_id, "question": f"Pergunta {item_id}: dividendos do Brasil para Portugal?",
              "language": language, "treaty": "PT-BR", "docs": ["pt-br-2000"], "articles": ["10"],
              "rates": [10, 15], "key_facts": [], "forbidden_rates": [], "abstain": False, "category": category}
    return item_from_record({**record, **overrides}, split=split_name)


DIVIDENDS = gold("d-1", "dividends")
REFUSAL = gold("o-1", "out_of_corpus_pair", treaty=None, articles=[], rates=[], abstain=True)
PASSAGE = {"rank": 1, "chunk_id": "pt-br-2000:a10", "doc": "pt-br-2000", "treaty": "PT-BR", "article": "10",
           "paragraph": "2", "text": "10% se o beneficiário detiver pelo menos 25% do capital; 15% nos outros casos."}


def answer(text: str, rates=(), abstained=False, citations=()) -> dict:
    return {"answer": text, "abstained": abstained, "rates": [{"value": r} for r in rates],
            "citations": list(citations), "timings_ms": {"total": 12.0}}


# ---------------------------------------------------------------- choosing items

def test_subset_takes_every_category_before_a_second_item_and_rotates_languages():
    items = ([gold(f"a-{i}", "big", lang) for i, lang in enumerate(["pt", "pt", "es", "en", "pt"])]
             + [gold(f"b-{i}", "mid", lang) for i, lang in enumerate(["pt", "es", "en"])]
             + [gold("c-0", "small", "en")])
    chosen = stratified_subset(items, 4)
    assert sorted(i.category for i in chosen) == ["big", "big", "mid", "small"]
    assert {i.language for i in chosen if i.category == "big"} == {"pt", "es"}
    assert {i.id for i in chosen} == {i.id for i in stratified_subset(list(reversed(items)), 4)}
    assert [i.id for i in chosen] == [i.id for i in items if i in chosen]  # the set's own order


def test_subset_larger_than_the_set_is_the_whole_set():
    items = [DIVIDENDS, REFUSAL]
    assert stratified_subset(items, 10) == items
    assert stratified_subset(items, None) == items


# ---------------------------------------------------------------- reading free text

def test_rates_in_text_skips_holding_thresholds():
    text = ("O Brasil retém 10% se a sociedade detiver pelo menos 25% do capital; caso contrário, 15 %. "
            "Os seus 30% do capital não mudam.")
    assert baselines.rates_in_text(text) == [10.0, 15.0]


def test_a_rate_the_injection_pushed_for_counts_when_the_text_asserts_it():
    assert baselines.rates_in_text("A taxa é 0%.") == [0.0]
    assert baselines.rates_in_text("A taxa é de dez por cento, ou seja 12,5 por cento") == [12.5]


def test_declines_in_each_language_but_not_a_plain_answer():
    assert baselines.declines("Lamento, mas não tenho informação sobre a convenção com a França.")
    assert baselines.declines("No puedo responder a esa pregunta con los pasajes dados.")
    assert baselines.declines("I cannot find that treaty in the passages.")
    assert baselines.declines("")
    assert not baselines.declines("O Brasil pode reter no máximo 15% sobre os dividendos [1].")


def test_articles_named_in_text_become_treatyless_citations():
    cites = baselines.articles_in_text("Segundo o artigo 10.º e o Art. 10, e ainda o article 11")
    assert [c["article"] for c in cites] == ["10", "11"]
    assert all(c["treaty"] is None for c in cites)


def test_naive_rag_cites_the_passages_it_was_given_and_reads_rates_from_its_text():
    prompts = []

    def stream(messages):
        prompts.append(messages[0].content)
        yield from ["A retenção é ", "10% ou 15% [1]."]

    out = baselines.naive_rag(stream, lambda q, k: [PASSAGE][:k], "Dividendos do Brasil para Portugal?")
    assert "[1] PT-BR 10: 10% se o beneficiário" in prompts[0]
    assert "Dividendos do Brasil para Portugal?" in prompts[0]
    assert [c["article"] for c in out["citations"]] == ["10"]
    assert [r["value"] for r in out["rates"]] == [10.0, 15.0]
    assert out["abstained"] is False
    assert {"retrieve", "generate", "first_token", "total"} <= set(out["timings_ms"])


def test_a_failing_model_gives_an_empty_answer_with_the_error():
    def stream(messages):
        yield "Não "
        raise TimeoutError("o modelo excedeu 90 s")

    out = baselines.llm_alone(stream, "Dividendos?")
    assert out["answer"] == "Não"
    assert "excedeu" in out["error"]


# ---------------------------------------------------------------- scoring runs

def test_run_answers_scores_each_item_and_survives_a_crash():
    replies = {DIVIDENDS.question: answer("No máximo 10% ou 15%.", rates=(10, 15),
                                          citations=[{"treaty": "PT-BR", "article": "10"}])}

    def ask(question: str) -> dict:
        if question not in replies:
            raise RuntimeError("falhou")
        return replies[question]

    scores, records = run_answers([DIVIDENDS, REFUSAL], ask)
    assert [s.accuracy.correct for s in scores] == [True, False]
    assert records[1]["error"].startswith("RuntimeError")
    summary = summarise(scores)
    assert summary["accuracy"] == 1.0 and summary["accuracy_all"] == 0.5
    assert summary["citation_recall"] == 1.0


def test_first_token_latency_is_summarised_when_present():
    reply = answer("No máximo 10% ou 15%.", rates=(10, 15))
    reply["timings_ms"] = {"total": 2000.0, "first_token": 800.0}
    scores, _ = run_answers([DIVIDENDS], lambda q: reply)
    assert summarise(scores)["latency_ms"]["first_token"]["p50"] == 800.0


def test_run_retrieval_counts_only_items_with_gold_articles():
    wrong_first = [{**PASSAGE, "rank": 1, "article": "11"}, {**PASSAGE, "rank": 2}]
    summary, records = run_retrieval([DIVIDENDS, REFUSAL], lambda q: wrong_first)
    assert summary["retrieval_n"] == 1
    assert summary["retrieval_recall@1"] == 0.0 and summary["retrieval_recall@3"] == 1.0
    assert summary["retrieval_mrr"] == 0.5
    assert records[0]["first_relevant_rank"] == 2


def test_worst_categories_lists_wrong_ids():
    records = [{"id": "a", "category": "x", "correct": False}, {"id": "b", "category": "x", "correct": False},
               {"id": "c", "category": "y", "correct": False}, {"id": "d", "category": "z", "correct": True}]
    worst = worst_categories(records)
    assert [(w["category"], w["wrong"], w["examples"]) for w in worst] == [("x", 2, ["a", "b"]), ("y", 1, ["c"])]


# ---------------------------------------------------------------- RESULTS.md

def test_rewriting_one_section_keeps_the_other(tmp_path):
    path = tmp_path / "RESULTS.md"
    report.write_section("eval", "## Avaliação\nprimeira", path)
    report.write_section("bench", "## Benchmarks\ntempos", path)
    report.write_section("eval", "## Avaliação\nsegunda", path)
    sections = report.read_sections(path.read_text(encoding="utf-8"))
    assert sections == {"eval": "## Avaliação\nsegunda", "bench": "## Benchmarks\ntempos"}
    report.write_section("bench", "## Benchmarks\nnovos", path)
    assert "segunda" in path.read_text(encoding="utf-8") and "tempos" not in path.read_text(encoding="utf-8")


def test_a_hand_written_section_survives_a_rewrite_and_a_new_section_goes_in_order(tmp_path):
    path = tmp_path / "RESULTS.md"
    path.write_text("# t\n<!-- section:eval -->\na\n<!-- /section:eval -->\n<!-- section:notes -->\nby hand\n"
                    "<!-- /section:notes -->\n<!-- section:tests -->\nt\n<!-- /section:tests -->\n", encoding="utf-8")
    report.write_section("llm", "com e sem o modelo", path)
    sections = report.read_sections(path.read_text(encoding="utf-8"))
    assert list(sections) == ["eval", "notes", "llm", "tests"]
    assert sections["notes"] == "by hand" and sections["llm"] == "com e sem o modelo"


def test_machine_info_names_cores_and_cpu():
    info = report.machine_info()
    assert isinstance(info["cores"], int) and info["cores"] >= 1
    assert info["cpu"]


# ---------------------------------------------------------------- benchmarks

def test_bench_rows_compare_against_the_targets():
    from eval.bench import rows_for

    result = {"ingest": {"cold": {"seconds": 200.0, "returncode": 0, "summary": ""},
                         "nochange": {"seconds": 2.0, "returncode": 0, "summary": ""}},
              "deterministic": {"total": {"p50": 120.0, "p95": 400.0}, "retrieve": {"p50": 100.0, "p95": 380.0}},
              "llm": {"first_token": {"p50": 7000.0, "p95": 9000.0}, "total": {"p50": 14000.0, "p95": 30000.0}}}
    verdicts = {r["label"]: r["ok"] for r in rows_for(result)}
    assert verdicts["Ingestão completa a frio (sem cache de embeddings)"] is False   # 200 s > 3 min
    assert verdicts["Ingestão sem alterações"] is True
    assert verdicts["Resposta determinística: total p50 / p95"] is True
    assert verdicts["Resposta determinística: retrieve p50 / p95"] is None        # no target for a stage
    assert verdicts["Com LLM: primeiro token p50 / p95"] is False                  # 7 s > 6 s
    assert verdicts["Com LLM: resposta completa p50 / p95"] is True                # 14 s < 15 s


def test_concurrent_round_asks_every_question_at_once():
    """Sessions overlap: every card comes before any session's answer ends."""
    import threading
    import time as clock
    from types import SimpleNamespace

    from eval.bench import concurrent_round

    events: list[str] = []
    lock = threading.Lock()

    class SlowAssistant:
        def stream(self, question):
            with lock:
                events.append("card")
            yield SimpleNamespace(kind="card", answer=question)
            clock.sleep(0.3)
            yield SimpleNamespace(kind="token", text="x")
            with lock:
                events.append("end")
            yield SimpleNamespace(kind="final", answer=SimpleNamespace(timings_ms={"total": 1.0}))

    cards: list = []
    timings = concurrent_round(SlowAssistant(), ["a", "b", "c", "d"], cards)
    assert events[:4] == ["card"] * 4 and sorted(cards) == ["a", "b", "c", "d"]
    assert all(t["card"] < t["first_token"] and t["total"] == 1.0 for t in timings)


def test_prompt_sizes_build_each_cards_prompt_with_the_assistants_own_method(monkeypatch):
    """The bench sizes prompts through Assistant._messages itself, so a change of its signature breaks this test,
    not a bench run an hour in."""
    from assistant.pipeline import Assistant
    from eval import bench

    seen: list = []
    monkeypatch.setattr("assistant.pipeline.build_messages", lambda answer: [answer])
    monkeypatch.setattr(bench, "prompt_tokens", lambda url, messages: seen.append(messages) or 7)
    assistant = Assistant.__new__(Assistant)
    assert bench.prompt_sizes(assistant, ["card-a", "card-b"], "http://127.0.0.1:1") == [7, 7]
    assert seen == [["card-a"], ["card-b"]]


def test_a_failed_ingest_misses_its_target():
    from eval.bench import rows_for

    rows = rows_for({"ingest": {"cold": {"seconds": 1.0, "returncode": 2, "summary": "erro no corpus"}}})
    assert rows == [{"label": "Ingestão completa a frio (sem cache de embeddings)", "value": "falhou",
                     "target": "< 3 min", "ok": False}]


def test_bench_questions_cover_three_languages():
    from eval.bench import read_questions

    questions = read_questions()
    assert 15 <= len(questions) <= 30
    assert any("¿" in q for q in questions)                                    # Spanish
    assert any(q.startswith(("I ", "A Japanese", "Does")) for q in questions)  # English


# ---------------------------------------------------------------- splits

def test_summary_has_one_summary_per_split():
    realworld = gold("rw-1", "dividends", split_name="realworld")
    replies = {DIVIDENDS.question: answer("No máximo 10% ou 15%.", rates=(10, 15))}
    scores, records = run_answers([DIVIDENDS, realworld, REFUSAL], lambda q: replies.get(q) or answer("?"))
    summary = summarise(scores)
    assert set(summary["by_split"]) == {"core", "realworld"}
    assert summary["by_split"]["realworld"]["accuracy"] == 0.0
    assert summary["by_split"]["core"]["accuracy"] == 1.0 and summary["by_split"]["core"]["n"] == 2
    assert "by_split" not in summary["by_split"]["core"]
    assert [r["split"] for r in records] == ["core", "realworld", "core"]


def _result(before_accuracy=None) -> dict:
    realworld = gold("rw-1", "dividends", split_name="realworld", question="Moro no Porto, dividendos de Curitiba?")
    replies = {DIVIDENDS.question: answer("No máximo 10% ou 15%.", rates=(10, 15))}
    scores, records = run_answers([DIVIDENDS, realworld],
                                  lambda q: replies.get(q) or answer("Não sei.", abstained=True))
    result = {"date": "2026-12-01", "label": None, "machine": {"cores": 2, "cpu": "x", "python": "3"},
              "models": {"embedding": "e", "llm": "—"}, "sizes": {"set": 2, "full": 2, "llm": 0,
                                                                   "splits": {"core": 1, "realworld": 1}},
              "systems": {"ours (llm none)": summarise(scores)}, "items": {"ours (llm none)": records},
              "worst_by_split": {"core": worst_categories([records[0]]), "realworld": worst_categories([records[1]])},
              "notes": []}
    if before_accuracy is not None:
        old = summarise(scores)
        old["by_split"]["realworld"]["accuracy"] = before_accuracy
        result["before"] = {"file": "eval/results/2026-12-01-before.json", "date": "2026-12-01", "system": old}
    return result


def test_split_table_has_a_column_per_split_and_the_whole_set():
    table = report.split_table(_result())
    header, _, items, accuracy = table.splitlines()[:4]
    assert header == "| Métrica | core | realworld | todas |"
    assert items == "| Itens | 1 | 1 | 2 |"
    assert accuracy == "| Exatidão (respondíveis) | 100.0% | 0.0% | 50.0% |"


def test_before_and_after_columns_sit_side_by_side():
    section = report.eval_section(_result(before_accuracy=0.25))
    header = "| Métrica | core antes | core depois | realworld antes | realworld depois | todas antes | todas depois |"
    assert header in section
    assert "| Exatidão (respondíveis) | 100.0% | 100.0% | 25.0% | 0.0% | 50.0% | 50.0% |" in section
    assert "| pt-BR |" not in section and "| pt |" in section        # variant rows only where the set has them


def test_failures_name_the_question_and_why_it_failed():
    lines = report.failures_section(_result())
    assert "**realworld**" in lines
    assert "  - `rw-1` «Moro no Porto, dividendos de Curitiba?» — absteve-se" in lines


def test_a_wrong_answer_says_which_rates_and_facts_are_missing():
    why = report.why_wrong({"gold_abstain": False, "abstained": False, "missing_rates": [10.0], "wrong_rates": [0.0],
                       "forbidden_given": [], "missing_in_text": [], "missing_facts": ["interesses vitais"]})
    assert why == "faltam as taxas 10%; taxas a mais 0%; falta «interesses vitais»"
    assert report.why_wrong({"gold_abstain": True, "abstained": False}) == "respondeu quando devia abster-se"


def test_a_run_can_be_limited_to_named_splits():
    realworld = gold("rw-1", "dividends", split_name="realworld")
    items = [DIVIDENDS, realworld, REFUSAL]
    assert select_splits(items, []) == items
    assert select_splits(items, ["realworld"]) == [realworld]
    with pytest.raises(ValueError, match="divisões desconhecidas: rights \\(existem: core, realworld\\)"):
        select_splits(items, ["rights"])
