"""`python -m ingest [--rebuild] [--stats] [--ocr-report]`: bring the index in line with corpus/."""
from __future__ import annotations

import argparse
import sys
from collections import Counter

from config import load_settings
from ingest.catalog import CorpusError
from ingest.embedding_cache import EmbeddingCache
from ingest.embeddings import EmbeddingModelMissing, load_embeddings
from ingest.index import build_chunks, sync, write_chunks_file
from ingest.store import chroma_client, chunk_collection


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ingest", description="Indexa o corpus no Chroma.")
    parser.add_argument("--rebuild", action="store_true", help="apaga a coleção e volta a indexar tudo")
    parser.add_argument("--stats", action="store_true", help="mostra contagens por documento e língua")
    parser.add_argument("--quiet", action="store_true", help="sem barra de progresso")
    parser.add_argument("--no-cache", action="store_true",
                        help="não reutilizar vetores da cache de embeddings (mede uma ingestão a frio)")
    parser.add_argument("--ocr-report", action="store_true",
                        help="lista as correções da leitura OCR (texto bruto -> corrigido, regra) e sai")
    args = parser.parse_args(argv)
    settings = load_settings()
    if args.ocr_report:
        from ingest.ocr_report import report_lines
        print("\n".join(report_lines(settings.corpus_dir)))
        return 0
    try:
        chunks = build_chunks(settings.corpus_dir)  # validates every file before any write
    except CorpusError as exc:
        print(f"erro no corpus: {exc}\nO índice existente não foi alterado.", file=sys.stderr)
        return 2
    client = chroma_client(settings)
    if args.rebuild:
        try:
            client.delete_collection(settings.collection)
        except Exception:  # noqa: BLE001 - chroma raises different types for "does not exist"
            pass
    collection = chunk_collection(client, settings.collection)
    cache = None if args.no_cache else EmbeddingCache(settings.cache_dir / "embeddings.sqlite3")
    try:
        report = sync(collection, chunks, lambda: load_embeddings(settings), settings.embedding_model_ref,
                      progress=not args.quiet, cache=cache)
    except EmbeddingModelMissing as exc:
        print(f"erro: {exc}", file=sys.stderr)
        return 2
    finally:
        if cache:
            cache.close()
    write_chunks_file(chunks, settings.index_dir)
    print(f"[ingest] {report.total} chunks: {report.embedded} embebidos, {report.reused} da cache, "
          f"{report.unchanged} inalterados, "
          f"{report.deleted} removidos em {report.seconds:.1f} s ({settings.chroma_mode})")
    if args.stats:
        counts = Counter((c.doc, c.language) for c in chunks)
        articles = Counter()
        for c in {(c.doc, c.article) for c in chunks}:
            articles[c[0]] += 1
        for (doc, lang), n in sorted(counts.items()):
            print(f"  {doc:24} {lang}  {n:4} chunks  {articles[doc]:3} artigos/itens")
        print(f"  coleção: {collection.count()} vetores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
