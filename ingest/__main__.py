"""`python -m ingest [--rebuild] [--stats] [--ocr-report]`: bring the index in line with corpus/."""
from __future__ import annotations

import argparse
import sys
from collections import Counter

from config import Settings, load_settings
from ingest.catalog import CorpusError
from ingest.chunks import Chunk
from ingest.embedding_cache import EmbeddingCache
from ingest.embeddings import EmbeddingModelMissing, load_embeddings
from ingest.index import SyncReport, build_chunks, rebuild, resume_swap, sync, write_chunks_file
from ingest.model_fingerprint import model_fingerprint
from ingest.store import (
    StoreUnavailable,
    chroma_client,
    chroma_path,
    chunk_collection,
    prune_orphan_segments,
    unreachable,
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ingest", description="Indexa o corpus no Chroma.")
    parser.add_argument("--rebuild", action="store_true",
                        help="volta a indexar tudo numa coleção nova, trocada só quando completa")
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
    cache = None if args.no_cache else EmbeddingCache(settings.embedding_cache_file)
    try:
        report, count = _index(settings, chunks, args.rebuild, not args.quiet, cache)
    except EmbeddingModelMissing as exc:
        print(f"erro: {exc}", file=sys.stderr)
        return 2
    except StoreUnavailable as exc:
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
        print(f"  coleção: {count} vetores")
    return 0


def _index(settings: Settings, chunks: list[Chunk], full: bool, progress: bool,
           cache: EmbeddingCache | None) -> tuple[SyncReport, int]:
    """Sync (or rebuild) the collection; any store failure becomes one StoreUnavailable line."""
    model_ref = model_fingerprint(settings.embedding_model_ref, settings.model_fingerprints_file)
    client = chroma_client(settings)
    try:
        if full:
            report = rebuild(client, settings.collection, chunks, lambda: load_embeddings(settings), model_ref,
                             progress=progress, cache=cache)
        else:
            resume_swap(client, settings.collection)  # what an interrupted rebuild left
            report = sync(chunk_collection(client, settings.collection), chunks, lambda: load_embeddings(settings),
                          model_ref, progress=progress, cache=cache)
        count = chunk_collection(client, settings.collection).count()
    except EmbeddingModelMissing:
        raise
    except Exception as exc:  # noqa: BLE001 - chromadb/httpx raise many types when the store goes away
        raise unreachable(settings, exc) from exc
    if settings.chroma_mode == "embedded":
        prune_orphan_segments(chroma_path(settings))
    return report, count


if __name__ == "__main__":
    sys.exit(main())
