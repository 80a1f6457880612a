"""CLI (a contract other tools depend on):
  python -m assistant ask "QUESTION" [--json] [--llm local|openai|none]
  python -m assistant ask --batch FILE --json [--llm …]
  python -m assistant retrieve "QUESTION" -k 5 --json [--retriever hybrid|bm25|dense]
  python -m assistant retrieve --batch FILE -k 5 --json [--retriever …]
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Iterator

from assistant.retrieve import RETRIEVERS, Hit


def _hit_dict(rank: int, hit: Hit) -> dict[str, Any]:
    c = hit.chunk
    return {"rank": rank, "chunk_id": c.id, "doc": c.doc, "treaty": c.treaty, "article": c.article,
            "paragraph": c.paragraph or None, "language": c.language, "score": round(hit.score, 6),
            "text": c.text}


def _batch(path: str) -> Iterator[tuple[Any, Any]]:
    """(id, question) per JSON line; a malformed line yields (None or id, an error message)."""
    try:
        fh = open(path, encoding="utf-8")
    except OSError as exc:
        raise SystemExit(f"erro: não foi possível abrir {path}: {exc.strerror}")
    with fh:
        for number, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                item = json.loads(line)
            except json.JSONDecodeError:
                yield None, ValueError(f"linha {number}: JSON inválido")
                continue
            if not isinstance(item, dict) or "q" not in item:
                yield (item.get("id") if isinstance(item, dict) else None), ValueError(f"linha {number}: falta o campo 'q'")
                continue
            yield item.get("id"), item["q"]


def _emit(obj: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m assistant")
    sub = parser.add_subparsers(dest="command", required=True)
    ask = sub.add_parser("ask", help="responde a uma pergunta")
    ask.add_argument("question", nargs="?")
    ask.add_argument("--batch", help="ficheiro JSON lines com {id, q}")
    ask.add_argument("--json", action="store_true")
    ask.add_argument("--llm", choices=["local", "openai", "none"])
    ret = sub.add_parser("retrieve", help="mostra as passagens recuperadas")
    ret.add_argument("question", nargs="?")
    ret.add_argument("--batch")
    ret.add_argument("-k", type=int, default=5)
    ret.add_argument("--json", action="store_true")
    ret.add_argument("--retriever", choices=list(RETRIEVERS), default="hybrid")
    args = parser.parse_args(argv)
    if bool(args.question) == bool(args.batch):
        parser.error("indique uma pergunta ou --batch FICHEIRO (não ambos)")

    from assistant.pipeline import Assistant
    from ingest.embeddings import EmbeddingModelMissing
    from ingest.index import IndexMissing

    try:
        assistant = Assistant.from_settings(llm="none" if args.command == "retrieve" else args.llm,
                                            dense=args.command == "ask" or args.retriever != "bm25")
    except (IndexMissing, EmbeddingModelMissing) as exc:
        print(f"erro: {exc}", file=sys.stderr)
        return 2

    if args.command == "retrieve":
        if args.question:
            hits = assistant.retrieve(args.question, args.k, args.retriever)
            out = [_hit_dict(i, h) for i, h in enumerate(hits, start=1)]
            if args.json:
                print(json.dumps(out, ensure_ascii=False))
            else:
                for h in out:
                    print(f"{h['rank']:2}. {h['score']:.4f} {h['treaty']} art. {h['article']}"
                          f"{'(' + h['paragraph'] + ')' if h['paragraph'] else ''} [{h['language']}] {h['text'][:120]}")
            return 0
        for item_id, q in _batch(args.batch):
            if isinstance(q, Exception):
                _emit({"id": item_id, "error": str(q)})
                continue
            try:
                hits = assistant.retrieve(str(q), args.k, args.retriever)
                _emit({"id": item_id, "results": [_hit_dict(i, h) for i, h in enumerate(hits, start=1)]})
            except Exception as exc:  # noqa: BLE001 - one bad question must not stop the batch
                _emit({"id": item_id, "error": str(exc)})
        return 0

    if args.question:
        answer = assistant.ask(args.question)
        if args.json:
            print(json.dumps(answer.to_dict(), ensure_ascii=False))
        else:
            print(answer.answer)
        return 1 if answer.error else 0
    for item_id, q in _batch(args.batch):
        if isinstance(q, Exception):
            _emit({"id": item_id, "error": str(q)})
            continue
        try:
            _emit({"id": item_id, **assistant.ask(q if isinstance(q, str) else json.dumps(q)).to_dict()})
        except Exception as exc:  # noqa: BLE001 - one bad question must not stop the batch
            _emit({"id": item_id, "error": f"{type(exc).__name__}: {exc}"})
    return 0


if __name__ == "__main__":
    sys.exit(main())
