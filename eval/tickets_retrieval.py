"""`python -m eval.tickets_retrieval --split train`: retrieval alone on the ticket bank — the gold article's
recall@5 per answered part, the number eval/tickets_run.py reports in its recall@5 column, without running
the rules and the card (minutes instead of the whole assistant's run).

Every part is scored against the ticket's retrieval (Assistant.retrieve), as tickets_run does for a part
without its own. Tables per language, style, single/multi-part and gold topic; --json keeps every part
(gold articles, what came back) for reading. The test split is the coordinator's alone.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import defaultdict
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Sequence

from tqdm import tqdm

from eval.score import percentile
from eval.tickets import Ticket, load
from eval.tickets_score import Article, article_recall
from ingest.embedding_cache import CachedQueryEmbeddings

K = 5


@dataclass(frozen=True)
class PartRecall:
    ticket_id: str
    language: str
    style: str
    multi_part: bool
    topic: str
    gold: tuple[str, ...]
    recall: float                      # share of the part's gold articles in the top K
    top1: bool                         # a gold article ranked first
    retrieved: tuple[Article, ...]


def score(ticket: Ticket, retrieved: Sequence[Article], k: int = K) -> list[PartRecall]:
    """Every answered part of a ticket against one ranked list of (treaty, article)."""
    out = []
    for part in ticket.parts:
        if part.expected.outcome == "abstain":
            continue
        recall = article_recall(part.expected, ticket.treaty, retrieved[:k])
        first = article_recall(part.expected, ticket.treaty, retrieved[:1])
        if recall is None:
            continue
        out.append(PartRecall(ticket.id, ticket.language, ticket.style, len(ticket.parts) > 1, part.topic,
                              tuple(part.expected.articles), recall, bool(first), tuple(retrieved[:k])))
    return out


def _articles(hits: Sequence[Any]) -> list[Article]:
    return [(h.chunk.treaty, h.chunk.article) for h in hits if h.chunk.article]


def summary(parts: Sequence[PartRecall]) -> dict[str, Any]:
    def mean(values: list[float]) -> float | None:
        return sum(values) / len(values) if values else None

    groups: dict[str, dict[str, list[PartRecall]]] = {"language": defaultdict(list), "style": defaultdict(list),
                                                       "parts": defaultdict(list), "topic": defaultdict(list)}
    for p in parts:
        groups["language"][p.language].append(p)
        groups["style"][p.style].append(p)
        groups["parts"]["multi" if p.multi_part else "single"].append(p)
        groups["topic"][p.topic].append(p)
    return {"parts": len(parts), "recall_at_5": mean([p.recall for p in parts]),
            "all_gold_at_5": mean([float(p.recall == 1.0) for p in parts]),
            "top1": mean([float(p.top1) for p in parts]),
            "by": {name: {key: {"parts": len(ps), "recall_at_5": mean([p.recall for p in ps])}
                          for key, ps in sorted(g.items())} for name, g in groups.items()}}


def markdown(rep: dict[str, Any], latency: dict[str, float | None]) -> str:
    def pct(v: float | None) -> str:
        return "—" if v is None else f"{100 * v:.1f}%"

    lines = [f"parts {rep['parts']}: recall@5 {pct(rep['recall_at_5'])}, every gold article in top 5 "
             f"{pct(rep['all_gold_at_5'])}, top 1 {pct(rep['top1'])}; retrieval p50 "
             f"{latency['p50']:.0f} ms, p95 {latency['p95']:.0f} ms"]
    for name, rows in rep["by"].items():
        lines += ["", f"| {name} | parts | recall@5 |", "|---|---|---|"]
        lines += [f"| {key} | {row['parts']} | {pct(row['recall_at_5'])} |" for key, row in rows.items()]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m eval.tickets_retrieval",
                                     description="Só a pesquisa no banco de tickets: recall@5 do artigo certo.")
    parser.add_argument("--split", choices=("train",), default="train",
                        help="só train: o teste selado é do coordenador (eval.tickets_run --split test)")
    parser.add_argument("--limit", type=int, help="só os primeiros N tickets")
    parser.add_argument("--every", type=int, default=1, metavar="N",
                        help="só um ticket em cada N (uma amostra de todos os lotes, para iterar)")
    parser.add_argument("--fresh", action="store_true",
                        help="calcula cada vetor de pergunta (para medir a latência) em vez de o ler da cache")
    parser.add_argument("--json", type=Path, metavar="SAÍDA", help="escreve o resumo e cada parte em JSON")
    args = parser.parse_args(argv)
    tickets = load(args.split)[::max(args.every, 1)][:args.limit]
    if not tickets:
        print(f"nenhum ticket em eval/tickets/{args.split}/", file=sys.stderr)
        return 1
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from assistant.pipeline import Assistant
    from config import load_settings

    assistant = Assistant.from_settings(load_settings(), llm="none", dense=True)
    if assistant.search.dense_problem():
        print(f"pesquisa densa indisponível: {assistant.search.dense_problem()}", file=sys.stderr)
        return 1
    if not args.fresh:
        dense = assistant.search.dense
        dense.embeddings = CachedQueryEmbeddings(dense.embeddings, assistant.settings)
    parts: list[PartRecall] = []
    times: list[float] = []
    for ticket in tqdm(tickets, desc="tickets", leave=False):
        started = time.perf_counter()
        hits = assistant.retrieve(ticket.text, K, assistant.default_mode)
        times.append((time.perf_counter() - started) * 1000)
        parts += score(ticket, _articles(hits))
    latency = {"p50": percentile(times, 50), "p95": percentile(times, 95)}
    rep = summary(parts)
    print(markdown(rep, latency))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"split": args.split, "summary": rep, "latency_ms": latency,
                                         "parts": [asdict(p) for p in parts]}, ensure_ascii=False, indent=1),
                             encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
