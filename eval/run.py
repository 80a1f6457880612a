"""`python -m eval.run`: the assistant and its baselines on the same questions, scored the same way.

Retrieval baselines (bm25, dense, hybrid) share the assistant's treaty restriction; answer systems
all produce the CLI's JSON answer, so eval/score.py treats them alike. LLM systems are slow on a
CPU (~25 s a question), so they run on a small stratified subset; the deterministic assistant runs
on the whole set. Every eval/questions*.jsonl file is a split (core, realworld, ...) and is summarised
on its own as well as together. Writes eval/results/<date>[-<label>].json and the evaluation section
of eval/RESULTS.md, with "before" columns from an earlier results file when one is given.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from collections import Counter, defaultdict
from dataclasses import asdict
from datetime import date
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from tqdm import tqdm

from eval import baselines, report
from eval.gold import LANGUAGES, GoldItem, load_eval_set, splits
from eval.score import ItemScore, aggregate, parse_answer, parse_retrieval, percentile, score_item, score_retrieval

RESULTS_DIR = Path(__file__).with_name("results")
RETRIEVAL_K = 10
DEFAULT_LLM_SUBSET = 24
# Short key (for --systems) -> the name shown in tables.
SYSTEMS = {"bm25": "bm25", "dense": "dense", "hybrid": "hybrid", "ours": "ours (llm none)",
           "ours-llm": "ours (local LLM)", "llm-alone": "LLM alone", "naive-rag": "naive RAG"}
RETRIEVAL_SYSTEMS = ("bm25", "dense", "hybrid")
LLM_SYSTEMS = ("ours-llm", "llm-alone", "naive-rag")

AnswerFn = Callable[[str], dict]
RetrieveFn = Callable[[str], list[dict]]


# --------------------------------------------------------------------------- choosing items

def select_splits(items: Sequence[GoldItem], names: Sequence[str]) -> list[GoldItem]:
    """Only the named splits (every split when none is named), for a quick run on one kind of question."""
    if not names:
        return list(items)
    known = splits(list(items))
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ValueError(f"divisões desconhecidas: {', '.join(unknown)} (existem: {', '.join(known)})")
    return [i for i in items if i.split in names]


def stratified_subset(items: Sequence[GoldItem], n: int | None) -> list[GoldItem]:
    """n items, deterministic: one category after another (largest first), each category handing out
    its items in turn across languages, so small categories and es/en questions are represented."""
    if n is None or n >= len(items):
        return list(items)
    by_cat: dict[str, list[GoldItem]] = defaultdict(list)
    for item in sorted(items, key=lambda i: i.id):
        by_cat[item.category].append(item)
    categories = sorted(by_cat, key=lambda c: (-len(by_cat[c]), c))
    queues = {}
    for position, cat in enumerate(categories):
        by_lang = {lang: [i for i in by_cat[cat] if i.language == lang] for lang in LANGUAGES}
        order = LANGUAGES[position % len(LANGUAGES):] + LANGUAGES[:position % len(LANGUAGES)]
        queue: list[GoldItem] = []
        while any(by_lang.values()):
            for lang in order:
                if by_lang[lang]:
                    queue.append(by_lang[lang].pop(0))
        queues[cat] = queue
    chosen: list[GoldItem] = []
    while len(chosen) < n:
        for cat in categories:
            if queues[cat] and len(chosen) < n:
                chosen.append(queues[cat].pop(0))
    order = {item.id: k for k, item in enumerate(items)}
    return sorted(chosen, key=lambda i: order[i.id])


# --------------------------------------------------------------------------- running systems

def hit_dict(rank: int, hit) -> dict[str, Any]:
    c = hit.chunk
    return {"rank": rank, "chunk_id": c.id, "doc": c.doc, "treaty": c.treaty, "article": c.article,
            "paragraph": c.paragraph or None, "language": c.language, "score": hit.score, "text": c.text}


def run_retrieval(items: Sequence[GoldItem], retrieve: RetrieveFn, label: str = "") -> tuple[dict, list[dict]]:
    """Recall@k and MRR over the items that have gold articles, plus the search latency."""
    results, records, times = [], [], []
    for item in tqdm(items, desc=label, leave=False, disable=not label):
        if not item.articles:
            continue
        started = time.perf_counter()
        hits = parse_retrieval(retrieve(item.question))
        times.append((time.perf_counter() - started) * 1000)
        scored = score_retrieval(item, hits)
        results.append(scored)
        records.append({"id": item.id, "first_relevant_rank": scored.first_relevant_rank,
                        "top": [f"{h.treaty} {h.article}" for h in hits[:5]]})
    summary: dict[str, Any] = {"n": len(results), "retrieval_n": len(results)}
    for k in (1, 3, 5, 10):
        summary[f"retrieval_recall@{k}"] = (sum(r.recall_at.get(k, 0.0) for r in results) / len(results)
                                            if results else None)
    summary["retrieval_mrr"] = sum(r.reciprocal_rank for r in results) / len(results) if results else None
    summary["latency_ms"] = {"retrieve": _latency(times)} if times else {}
    return summary, records


def run_answers(items: Sequence[GoldItem], answer_fn: AnswerFn, label: str = "") -> tuple[list[ItemScore], list[dict]]:
    """Ask every item, score it; an exception or a malformed answer is scored as an empty, wrong answer."""
    scores, records = [], []
    for item in tqdm(items, desc=label, leave=False, disable=not label):
        try:
            raw = answer_fn(item.question)
            answer = parse_answer(raw)
        except Exception as exc:  # noqa: BLE001 - one failure must not end the run
            raw = {"answer": "", "abstained": False, "error": f"{type(exc).__name__}: {exc}"}
            answer = parse_answer(raw)
        score = score_item(item, answer)
        scores.append(score)
        records.append(item_record(item, score, raw))
    return scores, records


def item_record(item: GoldItem, score: ItemScore, raw: dict) -> dict[str, Any]:
    """What a reader needs to see why an item failed, without the whole passages."""
    acc = score.accuracy
    return {
        "id": item.id, "split": item.split, "category": item.category, "language": item.language,
        "variant": item.variant, "question": item.question[:300], "correct": acc.correct,
        "gold_abstain": item.abstain, "abstained": score.abstained,
        "rates": [r.get("value") for r in raw.get("rates") or [] if isinstance(r, dict)],
        "missing_rates": list(acc.missing_rates), "missing_in_text": list(acc.missing_in_text),
        "wrong_rates": list(acc.wrong_rates), "forbidden_given": list(acc.forbidden_given),
        "missing_facts": list(acc.missing_facts),
        "citation_recall": score.citations.recall if score.citations else None,
        "cited": sorted({f"{c.get('treaty')} {c.get('article')}" for c in raw.get("citations") or []
                         if isinstance(c, dict) and c.get("article")}),
        "ungrounded_numbers": list(score.faithfulness.ungrounded),
        "error": raw.get("error"), "timings_ms": dict(score.timings_ms),
        "guardrail": (raw.get("guardrail") or {}).get("action") if isinstance(raw.get("guardrail"), dict) else None,
        "answer": str(raw.get("answer") or "")[:1500],
    }


def summarise(scores: Sequence[ItemScore], by_split: bool = True) -> dict:
    """score.aggregate plus the time to the first streamed token, where there is one, and the same
    summary for each split under "by_split"."""
    summary = aggregate(scores)
    firsts = [s.timings_ms["first_token"] for s in scores if "first_token" in s.timings_ms]
    if firsts:
        summary["latency_ms"]["first_token"] = _latency(firsts)
    if by_split:
        groups: dict[str, list[ItemScore]] = defaultdict(list)
        for score in scores:
            groups[score.split].append(score)
        summary["by_split"] = {name: summarise(group, by_split=False) for name, group in groups.items()}
    return summary


def _latency(values: Sequence[float]) -> dict[str, float | int | None]:
    return {"p50": percentile(values, 50), "p95": percentile(values, 95), "n": len(values)}


# --------------------------------------------------------------------------- the assistant's systems

def ours_answer(assistant) -> AnswerFn:
    """The assistant's own answer, with the time to its first explanation token."""
    def answer(question: str) -> dict:
        started = time.perf_counter()
        first = None
        final = None
        for event in assistant.stream(question):
            if event.kind == "token" and first is None:
                first = (time.perf_counter() - started) * 1000
            elif event.kind == "final":
                final = event.answer
        data = final.to_dict()
        if first is not None:
            data["timings_ms"]["first_token"] = round(first, 1)
        return data
    return answer


def _token_stream(model, timeout_s: float):
    from assistant.llm import stream_tokens
    return lambda messages: stream_tokens(model, messages, timeout_s)


def build_systems(assistant, keys: Iterable[str]) -> tuple[dict[str, RetrieveFn], dict[str, AnswerFn]]:
    from assistant.llm import LlmInfo
    from assistant.pipeline import Assistant

    retrievers = {k: (lambda q, mode=k: [hit_dict(i, h) for i, h in
                                         enumerate(assistant.retrieve(q, RETRIEVAL_K, mode), start=1)])
                  for k in keys if k in RETRIEVAL_SYSTEMS}
    answerers: dict[str, AnswerFn] = {}
    if "ours" in keys:
        deterministic = Assistant(assistant.settings, assistant.catalog, assistant.search, None, LlmInfo("none", ""))
        answerers["ours"] = ours_answer(deterministic)
    if assistant.chat_model is not None:
        stream = _token_stream(assistant.chat_model, assistant.settings.llm_timeout_s)
        def dense_top(q: str, k: int) -> list[dict]:
            return [hit_dict(i, h) for i, h in enumerate(assistant.retrieve(q, k, "dense"), start=1)]
        if "ours-llm" in keys:
            answerers["ours-llm"] = ours_answer(assistant)
        if "llm-alone" in keys:
            answerers["llm-alone"] = lambda q: baselines.llm_alone(stream, q)
        if "naive-rag" in keys:
            answerers["naive-rag"] = lambda q: baselines.naive_rag(stream, dense_top, q)
    return retrievers, answerers


# --------------------------------------------------------------------------- the run

def evaluate(items: Sequence[GoldItem], llm_items: Sequence[GoldItem], retrievers: dict[str, RetrieveFn],
             answerers: dict[str, AnswerFn], progress: bool = True,
             ours_on_subset: bool = False) -> tuple[dict[str, dict], dict[str, list]]:
    """Every system on its set; the deterministic assistant is also summarised on the LLM subset so the
    LLM columns (run now, or merged from an earlier run: ours_on_subset) have a like-for-like neighbour."""
    summaries: dict[str, dict] = {}
    records: dict[str, list] = {}
    for key, fn in retrievers.items():
        summaries[SYSTEMS[key]], records[SYSTEMS[key]] = run_retrieval(items, fn, SYSTEMS[key] if progress else "")
    for key, fn in answerers.items():
        subset = llm_items if key in LLM_SYSTEMS else items
        scores, recs = run_answers(subset, fn, SYSTEMS[key] if progress else "")
        summaries[SYSTEMS[key]], records[SYSTEMS[key]] = summarise(scores), recs
        subset = ours_on_subset or any(k in LLM_SYSTEMS for k in answerers)
        if key == "ours" and subset and len(llm_items) < len(items):
            chosen = {i.id for i in llm_items}
            summaries[f"{SYSTEMS[key]} @ subconjunto LLM"] = summarise([s for s in scores if s.item_id in chosen])
    return summaries, records


def worst_categories(records: Sequence[dict], limit: int = 6, examples: int = 5) -> list[dict]:
    """Categories with the most wrong answers, with example ids (a QA list for the assistant's authors)."""
    wrong: dict[str, list[str]] = defaultdict(list)
    total: dict[str, int] = defaultdict(int)
    for r in records:
        total[r["category"]] += 1
        if not r["correct"]:
            wrong[r["category"]].append(r["id"])
    ranked = sorted(wrong, key=lambda c: (-len(wrong[c]), -len(wrong[c]) / total[c], c))[:limit]
    return [{"category": c, "wrong": len(wrong[c]), "of": total[c], "examples": wrong[c][:examples]} for c in ranked]


def notes_for(result: dict, questions: Sequence[GoldItem]) -> list[str]:
    systems = result["systems"]
    notes = [
        "Exatidão exige todas as taxas esperadas nas `rates` e no texto, os factos-chave, nenhuma taxa proibida "
        "ou fora do ouro; abster-se numa pergunta respondível conta como erro (ver eval/README.md).",
        "Recuperação: `assistant.retrieve(pergunta, k=10, modo)`, com a mesma restrição à convenção detetada "
        "para os três modos; só perguntas com artigos no ouro contam.",
        "Linhas de base com LLM (sem regras, sem guardrail): as `rates` são as percentagens escritas no texto, "
        "exceto limiares de participação (\"pelo menos 25%\", \"30% do capital\"); abster-se = o texto "
        "recusa e não dá nenhuma taxa. O RAG ingénuo cita as 4 passagens densas que recebeu; o LLM sozinho "
        "cita os artigos que nomeia no texto (sem convenção). Como as taxas são lidas do próprio texto, a "
        "fidelidade numérica das linhas de base só apanha números que não sejam percentagens.",
        "Os sistemas com LLM correm num subconjunto pequeno (a geração local faz ~10 tokens/s em 2 núcleos): "
        "compare-os com a coluna «ours (llm none) @ subconjunto LLM», não com a do conjunto inteiro; "
        "num subconjunto deste tamanho, um item vale vários pontos percentuais.",
        "Tempos: máquina de 2 núcleos partilhada com outros processos durante a medição; p95 é ruidoso.",
    ]
    if 0 < result["sizes"]["llm"] < DEFAULT_LLM_SUBSET:
        notes.append(f"Subconjunto com LLM reduzido a {result['sizes']['llm']} perguntas (`--llm-subset`) por falta de "
                     f"tempo: com a máquina ocupada, {DEFAULT_LLM_SUBSET} perguntas × 3 sistemas levavam mais de "
                     "uma hora.")
    lenient = [i.id for i in questions if not i.abstain and not i.rates and not i.key_facts]
    if lenient:
        notes.append(f"{len(lenient)} perguntas do conjunto não têm taxas nem factos-chave no ouro: qualquer resposta "
                     f"que não se abstenha conta como certa ({', '.join(lenient[:5])}…); isto favorece as linhas "
                     "de base.")
    ours = systems.get(SYSTEMS["ours"])
    if ours and ours.get("latency_ms", {}).get("total"):
        notes.append(f"Sem LLM, a resposta determinística leva p50 {ours['latency_ms']['total']['p50']:.0f} ms.")
    for key in ("ours-llm", "llm-alone", "naive-rag"):
        errors = sum(1 for r in result["items"].get(SYSTEMS[key], []) if r.get("error"))
        if errors:
            notes.append(f"{SYSTEMS[key]}: {errors} respostas com erro do LLM (por ex. tempo esgotado), "
                         "contadas como erradas.")
    guarded = [r.get("guardrail") for r in result["items"].get(SYSTEMS["ours-llm"], [])]
    if guarded:
        counts = {a: guarded.count(a) for a in sorted({g for g in guarded if g})}
        notes.append(f"{SYSTEMS['ours-llm']}: guardrail " + ", ".join(f"{a}: {n}" for a, n in counts.items())
                     + " (fallback = a explicação do LLM foi rejeitada ou o tempo esgotou e ficou só o cartão).")
    notes += result.get("extra_notes", [])
    return notes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m eval.run", description="Avalia o assistente e as linhas de base.")
    parser.add_argument("--subset", type=int, help="só N perguntas (estratificadas) em vez do conjunto inteiro")
    parser.add_argument("--split", action="append", default=[], metavar="DIVISÃO",
                        help="só esta divisão (core, realworld, ...; pode repetir-se)")
    parser.add_argument("--llm-subset", type=int, default=DEFAULT_LLM_SUBSET,
                        help=f"perguntas para os sistemas com LLM (omissão {DEFAULT_LLM_SUBSET})")
    parser.add_argument("--systems", help=f"lista separada por vírgulas: {','.join(SYSTEMS)}")
    parser.add_argument("--no-llm", action="store_true", help="sem os sistemas que usam o LLM local")
    parser.add_argument("--no-report", action="store_true", help="não reescreve eval/RESULTS.md")
    parser.add_argument("--merge", nargs="?", const="", metavar="RESULTADOS",
                        help="junta a estes sistemas os outros sistemas de um ficheiro de resultados "
                             "(omissão: o de hoje), por exemplo as colunas com LLM de uma corrida anterior")
    parser.add_argument("--label", help="acrescenta -<rótulo> ao nome do ficheiro de resultados (ex.: antes)")
    parser.add_argument("--before", type=Path, metavar="RESULTADOS",
                        help="ficheiro de resultados anterior: o relatório mostra antes/depois por divisão, "
                             "língua e categoria")
    parser.add_argument("--note", action="append", default=[], metavar="TEXTO",
                        help="nota a acrescentar ao relatório (pode repetir-se), por exemplo o objetivo de uma issue")
    parser.add_argument("--torch-threads", type=int, default=1,
                        help="threads do torch para embeber as perguntas (omissão 1; 0 = a omissão do torch)")
    args = parser.parse_args(argv)
    keys = [k.strip() for k in args.systems.split(",")] if args.systems else list(SYSTEMS)
    unknown = [k for k in keys if k not in SYSTEMS]
    if unknown:
        parser.error(f"sistemas desconhecidos: {', '.join(unknown)} (use {', '.join(SYSTEMS)})")
    if args.no_llm:
        keys = [k for k in keys if k not in LLM_SYSTEMS]
    for name in ("subset", "llm_subset"):
        if getattr(args, name) is not None and getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} tem de ser pelo menos 1")
    if args.label is not None and not re.fullmatch(r"[a-z0-9-]+", args.label):
        parser.error("--label só pode ter minúsculas, números e hífens")
    out = RESULTS_DIR / f"{date.today().isoformat()}{'-' + args.label if args.label else ''}.json"
    merge_from = (Path(args.merge) if args.merge else out) if args.merge is not None else None
    for given in (merge_from, args.before):
        if given is not None and given != out and not given.is_file():
            parser.error(f"{given}: ficheiro de resultados em falta")
    before = json.loads(args.before.read_text(encoding="utf-8")) if args.before else None
    try:
        questions = select_splits(load_eval_set(), args.split)
    except ValueError as exc:
        parser.error(str(exc))

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    set_torch_threads(args.torch_threads)
    from assistant.pipeline import Assistant
    from config import load_settings

    settings = load_settings()
    items = stratified_subset(questions, args.subset)
    previous = json.loads(merge_from.read_text(encoding="utf-8")) if merge_from and merge_from.is_file() else None
    llm_items = stratified_subset(items, args.llm_subset)
    if previous and previous.get("llm_subset_ids") and not any(k in LLM_SYSTEMS for k in keys):
        chosen = set(previous["llm_subset_ids"])   # the merged LLM columns' own questions
        llm_items = [i for i in items if i.id in chosen]
    wants_llm = any(k in LLM_SYSTEMS for k in keys)
    started = time.perf_counter()
    try:
        assistant = Assistant.from_settings(settings, llm="local" if wants_llm else "none", dense=True)
    except FileNotFoundError as exc:
        print(f"erro: índice em falta ({exc.filename}); corra `python -m ingest` primeiro", file=sys.stderr)
        return 2
    load_s = time.perf_counter() - started
    extra = [f"Embeddings das perguntas com {args.torch_threads or 'a omissão de'} thread(s) do torch "
             "(com 2 threads numa máquina de 2 núcleos ocupada, embeber uma pergunta levou 1,5-3 s; com 1, ~0,2 s).",
             f"Carregar o assistente (embeddings{', LLM' if wants_llm else ''}): {load_s:.1f} s."]
    if wants_llm and assistant.chat_model is None:
        extra.append(f"LLM local indisponível ({assistant.llm_error}); sistemas com LLM não avaliados.")
        print(f"aviso: {assistant.llm_error}", file=sys.stderr)
    retrievers, answerers = build_systems(assistant, keys)
    summaries, records = evaluate(items, llm_items, retrievers, answerers,
                                  ours_on_subset=bool(previous and previous.get("llm_subset_ids")))

    llm_ids = [i.id for i in llm_items] if any(k in LLM_SYSTEMS for k in answerers) else []
    if previous:
        kept = [name for name in previous["systems"] if name not in summaries]
        if kept:
            extra.append(f"Colunas {', '.join(kept)} de `eval/results/{merge_from.name}` "
                         f"({previous['date']}, {previous['sizes']['full']} perguntas sem LLM, "
                         f"{previous['sizes']['llm']} com LLM), não re-medidas nesta corrida.")
        summaries = _in_order({**{n: previous["systems"][n] for n in kept}, **summaries})
        records = _in_order({**{n: previous["items"][n] for n in kept if n in previous["items"]}, **records})
        llm_ids = llm_ids or previous.get("llm_subset_ids") or []
    by_split = Counter(i.split for i in questions)
    result = {
        "date": date.today().isoformat(), "label": args.label, "machine": report.machine_info(),
        "models": {"embedding": Path(settings.embedding_model_ref).name,
                   "llm": settings.llm_model_file.name if wants_llm
                   else (previous or {}).get("models", {}).get("llm", "—"),
                   "llm_threads": settings.llm_threads, "llm_max_tokens": settings.llm_max_tokens},
        "sizes": {"set": len(questions), "full": len(items), "llm": len(llm_ids), "splits": dict(by_split)},
        "llm_subset_ids": llm_ids,
        "systems": summaries, "items": records,
        "worst_by_split": {sp: worst_categories([r for r in records.get(SYSTEMS["ours"], []) if r.get("split") == sp])
                           for sp in splits(questions)},
        "extra_notes": extra + args.note,
    }
    if before:
        result["before"] = {"file": str(args.before), "date": before["date"], "label": before.get("label"),
                            "system": before["systems"].get(SYSTEMS["ours"])}
    result["notes"] = notes_for(result, questions)
    RESULTS_DIR.mkdir(exist_ok=True)
    out.write_text(json.dumps(result, ensure_ascii=False, indent=1, default=_json_default), encoding="utf-8")
    table = report.markdown_table(summaries)
    print(table)
    print(report.split_table(result))
    print(f"[eval] resultados em {out}")
    if not args.no_report:
        report.write_section("eval", report.eval_section(result))
        print(f"[eval] {report.RESULTS_MD} atualizado")
    return 0


def _in_order(by_system: dict) -> dict:
    """Systems in the order of SYSTEMS, the deterministic assistant's subset column after its own."""
    names = list(SYSTEMS.values())

    def rank(name: str) -> tuple[int, str]:
        base = name.split(" @ ")[0]
        return (names.index(base) if base in names else len(names), name)
    return {name: by_system[name] for name in sorted(by_system, key=rank)}


def set_torch_threads(n: int) -> None:
    """Query embedding is one short text: on a busy 2-core machine one thread is far faster than two."""
    if n > 0:
        import torch
        torch.set_num_threads(n)


def _json_default(value: object) -> object:
    if hasattr(value, "__dataclass_fields__"):
        return asdict(value)
    return str(value)


if __name__ == "__main__":
    sys.exit(main())
