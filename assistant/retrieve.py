"""Hybrid retrieval: BM25 over the chunks and dense search in Chroma, fused by reciprocal rank.

Search is restricted to the documents of the detected treaty. Bilingual sources are searched in
both languages, but a hit is always reported as its Portuguese unit (the citation language). For a long
ticket the hybrid search also fuses the words that ask and the topic's articles (assistant/ticket_query.py),
and lists each article's best passage before any second one.
"""
from __future__ import annotations

import re
import threading
import time
import unicodedata
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from langchain_chroma import Chroma
from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.retrievers import BaseRetriever
from rank_bm25 import BM25Okapi

from ingest.chunks import Chunk
from ingest.embedding_cache import batch_queries

RRF_K = 60
HEADING_TOP = 3     # the topic's articles vouch for a few passages, not for a whole article
ARTICLE_WEIGHT = 3.0  # the topic articles' ranking counts thrice: the treaty's structure, not a guess from words
RETRIEVERS = ("hybrid", "bm25", "dense")

_STOPWORDS = frozenset("""
a o as os um uma uns umas de do da dos das em no na nos nas por pelo pela pelos pelas para com sem que
e ou se ao aos à às é ser sao são foi ter tem tenho meu minha eu sou estou esta este isto isso qual quais
quanto quanta como onde quando mais menos muito já nao não sim la las el los un una del al y en con para
por es soy mi mis yo que cual cuanto como the of and or in on at to for from is are am i my me what which
how much many do does this that with by an be it as
""".split())


def fold(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", text.lower()) if unicodedata.category(c) != "Mn")


_TOKEN = re.compile(r"[a-z0-9]+(?:[.,][0-9]+)?")


def tokenize(text: str) -> list[str]:
    return [t for t in _TOKEN.findall(fold(text)) if t not in _STOPWORDS and (len(t) > 1 or t.isdigit())]


def pt_counterpart_id(chunk: Chunk) -> str:
    """The id of the same unit in Portuguese (bilingual sources tag uids with .pt / .es)."""
    if chunk.language != "pt" and chunk.unit_uid.endswith("." + chunk.language):
        return f"{chunk.doc}:{chunk.unit_uid[: -len(chunk.language)]}pt:{chunk.part}"
    return chunk.id


@dataclass(frozen=True)
class Hit:
    chunk: Chunk
    score: float
    bm25_rank: int | None = None
    dense_rank: int | None = None
    dense_similarity: float | None = None


class Bm25Index:
    def __init__(self, chunks: list[Chunk]):
        self.chunks = chunks
        self._bm25 = BM25Okapi([tokenize(c.embed_text) for c in chunks])

    def search(self, query: str, k: int, docs: set[str] | None) -> list[tuple[Chunk, float]]:
        terms = tokenize(query)
        if not terms:
            return []
        scores = self._bm25.get_scores(terms)
        ranked = sorted((i for i, c in enumerate(self.chunks) if docs is None or c.doc in docs),
                        key=lambda i: -scores[i])
        return [(self.chunks[i], float(scores[i])) for i in ranked[:k] if scores[i] > 0]


class DenseUnavailable(Exception):
    """Dense search cannot run now (store unreachable, or its vectors out of step with chunks.jsonl)."""


class DenseIndex:
    """Dense search in Chroma that survives the store going away: a failure is remembered, searches
    raise DenseUnavailable (the hybrid search then answers from BM25), and the connection is tried
    again at most every RETRY_S seconds, so the assistant recovers when the store returns."""

    RETRY_S = 5.0

    def __init__(self, connect: Callable[[], Chroma], chunks_by_id: dict[str, Chunk],
                 embeddings: Embeddings | None = None):
        self._connect = connect
        self.chunks_by_id = chunks_by_id
        self.embeddings = embeddings  # the query embedder (another index over the same model may share it)
        self._vectors: dict[str, list[float]] = {}     # the last queries' embeddings, shared with the topic classifier
        self._store: Chroma | None = None
        self._lock = threading.Lock()
        self._last_try = 0.0
        self.problem: str | None = None
        self._try_connect()

    def _try_connect(self) -> None:
        self._last_try = time.monotonic()
        try:
            self._store, self.problem = self._connect(), None
        except Exception as exc:  # noqa: BLE001 - any failure to open the store degrades to BM25
            self._store, self.problem = None, _reason(exc)

    def _ready(self) -> Chroma:
        with self._lock:
            if self._store is None and time.monotonic() - self._last_try >= self.RETRY_S:
                self._try_connect()
            if self._store is None:
                raise DenseUnavailable(self.problem)
            return self._store

    def embed_query(self, query: str) -> list[float]:
        """The query's embedding, computed once per text (understanding and retrieval both use it)."""
        return self.embed_many([query])[0]

    def embed_many(self, queries: Sequence[str]) -> list[list[float]]:
        """Each text's query embedding, the missing ones computed in one batch and kept: the topic reader embeds
        the asking sentences, and dense search of the ticket reads the same vectors."""
        if self.embeddings is None:
            raise DenseUnavailable("sem modelo de embeddings")
        known = {q: self._vectors[q] for q in queries if q in self._vectors}
        todo = list(dict.fromkeys(q for q in queries if q not in known))
        if todo:
            fresh = dict(zip(todo, batch_queries(self.embeddings)(todo)))
            known.update(fresh)
            if len(self._vectors) + len(fresh) > 32:
                self._vectors.clear()
            self._vectors.update(fresh)
        return [known[q] for q in queries]

    def query_vector(self, texts: Sequence[str]) -> list[float]:
        """One query vector for several asking sentences: the normalised mean of theirs."""
        import numpy as np

        mean = np.mean(np.asarray(self.embed_many(texts), dtype=np.float32), axis=0)
        norm = float(np.linalg.norm(mean))
        return (mean / norm if norm else mean).tolist()

    def search(self, query: str | tuple[str, ...], k: int, docs: set[str] | None) -> list[tuple[Chunk, float]]:
        """query: a text, or a ticket's asking sentences (searched by the mean of their vectors)."""
        store = self._ready()
        where = {"doc": {"$in": sorted(docs)}} if docs else None
        try:
            if self.embeddings is not None:
                vector = self.query_vector(query) if isinstance(query, tuple) else self.embed_query(query)
                found = store.similarity_search_by_vector_with_relevance_scores(vector, k=k, filter=where)
            else:
                text = " ".join(query) if isinstance(query, tuple) else query
                found = store.similarity_search_with_score(text, k=k, filter=where)
        except Exception as exc:  # noqa: BLE001 - the store went away mid-session
            with self._lock:
                self._try_connect()  # names the fault precisely (e.g. which server is down)
                reason = self.problem or _reason(exc)
            raise DenseUnavailable(reason) from exc
        hits = []
        for doc, distance in found:
            chunk = self.chunks_by_id.get(doc.id or "")
            if chunk is not None:
                hits.append((chunk, 1.0 - float(distance)))  # cosine space: similarity = 1 - distance
        return hits


def _reason(exc: Exception) -> str:
    """One line for the user: our own messages as they are, anything else named by its type."""
    from ingest.index import IndexIncomplete
    from ingest.store import StoreUnavailable

    if isinstance(exc, (IndexIncomplete, StoreUnavailable)):
        return str(exc)
    return f"armazenamento de vetores indisponível ({type(exc).__name__})"


def rrf(rankings: Iterable[list[str]], weights: Sequence[float] = ()) -> dict[str, float]:
    """Reciprocal rank fusion; weights (one per ranking, 1 when not given) scale a ranking's votes."""
    fused: dict[str, float] = {}
    for i, ranking in enumerate(rankings):
        weight = weights[i] if i < len(weights) else 1.0
        for rank, key in enumerate(ranking, start=1):
            fused[key] = fused.get(key, 0.0) + weight / (RRF_K + rank)
    return fused


class HybridSearch:
    """The retrieval core, used by the assistant, the CLI and the eval baselines."""

    def __init__(self, chunks: list[Chunk], dense: DenseIndex | None):
        self.chunks = chunks
        self.by_id = {c.id: c for c in chunks}
        # one key per unit: a Spanish passage counts as its Portuguese twin, or as itself when the Portuguese
        # column is split otherwise (BR-ES art. 17 is one Spanish passage and two Portuguese paragraphs)
        self.key = {c.id: k if (k := pt_counterpart_id(c)) in self.by_id else c.id for c in chunks}
        self.bm25 = Bm25Index(chunks)
        self.dense = dense

    def search(self, query: str, k: int = 6, docs: set[str] | None = None, mode: str = "hybrid",
               focus: str = "", articles: Sequence[tuple[str, str]] = (), asked: tuple[str, ...] = ()) -> list[Hit]:
        """query: the whole question. Two more signals join the fusion: focus, the words that ask
        (assistant/ticket_query.py), searched like the query by the mode's retriever(s) (in hybrid mode dense
        search reads the focus instead of the whole ticket; given `asked`, the asking sentences alone, by the
        mean of the vectors the topic reader already computed for them); and articles,
        (document, article) addresses of the topics read, whose passages form a ranking of their own (the
        treaty's own structure as a signal)."""
        if mode not in RETRIEVERS:
            raise ValueError(f"retriever desconhecido: {mode!r} ({', '.join(RETRIEVERS)})")
        if mode in ("dense", "hybrid") and self.dense is None:
            raise RuntimeError("pesquisa densa indisponível: o índice vetorial não foi carregado")
        depth = max(3 * k, 20)
        bm25 = self.bm25.search(query, depth, docs) if mode in ("bm25", "hybrid") else []
        # Embedding a long ticket whole costs about a second on 2 cores (~150-200 tokens): in hybrid mode,
        # when the ticket has asking words, dense search reads those only and BM25 reads the whole ticket.
        whole_dense = mode == "dense" or (mode == "hybrid" and not focus)
        dense = self._dense(query, depth, docs, required=mode == "dense") if whole_dense else []
        bm25_ids = self._ids(bm25)
        dense_ids = self._ids(dense)
        focus_bm25 = self._ids(self.bm25.search(focus, depth, docs)) if focus and mode != "dense" else []
        focused = self._dense(asked or focus, depth, docs, mode == "dense") if focus and mode != "bm25" else []
        focus_dense = self._ids(focused)
        similarity = self._first_scores(dense if whole_dense else focused)
        rankings: list[list[str]] = []
        if mode != "dense":
            rankings += [bm25_ids] + ([focus_bm25] if focus_bm25 else [])
        if mode != "bm25":
            rankings += ([dense_ids] if whole_dense else []) + ([focus_dense] if focus_dense else [])
        if len(rankings) == 1 and not articles:
            fused = self._first_scores(bm25) if mode == "bm25" else dict(similarity)
        else:
            weights = [1.0] * len(rankings) + [ARTICLE_WEIGHT]
            fused = rrf([*rankings, self._article_matches(articles, docs, rankings)], weights)
        ordered = sorted(fused, key=lambda key: -fused[key])
        if focus or articles:
            ordered = self._articles_first(ordered)
        hits = []
        for key in ordered:
            chunk = self.by_id.get(key)
            if chunk is None:
                continue
            hits.append(Hit(chunk=chunk, score=fused[key],
                            bm25_rank=_best_rank([bm25_ids, focus_bm25], key),
                            dense_rank=_best_rank([dense_ids, focus_dense], key),
                            dense_similarity=similarity.get(key)))
            if len(hits) == k:
                break
        return hits

    def _ids(self, pairs: list[tuple[Chunk, float]]) -> list[str]:
        return _dedupe(self.key[c.id] for c, _ in pairs)

    def _first_scores(self, pairs: list[tuple[Chunk, float]]) -> dict[str, float]:
        scores: dict[str, float] = {}
        for chunk, score in pairs:
            scores.setdefault(self.key[chunk.id], score)
        return scores

    def _articles_first(self, ordered: list[str]) -> list[str]:
        """Each article's best passage before any article's second one: five passages of a ticket's answer
        should name five provisions, not three paragraphs of one."""
        seen: set[tuple[str, str]] = set()
        first, later = [], []
        for key in ordered:
            chunk = self.by_id.get(key)
            address = (chunk.doc, chunk.article) if chunk else ("", key)
            (later if address in seen else first).append(key)
            seen.add(address)
        return first + later

    def headings(self, articles: Sequence[tuple[str, str]]) -> list[str]:
        """The headings the index gives these (document, article) addresses, Portuguese first."""
        wanted = set(articles)
        found = [c.heading for c in sorted(self.chunks, key=lambda c: c.language != "pt")
                 if (c.doc, c.article) in wanted and c.heading]
        return list(_dedupe(found))

    def _dense(self, query: str | tuple[str, ...], depth: int, docs: set[str] | None,
               required: bool) -> list[tuple[Chunk, float]]:
        """Dense hits; in hybrid mode an unavailable store leaves BM25 alone (dense_problem() says why)."""
        try:
            return self.dense.search(query, depth, docs)
        except DenseUnavailable:
            if required:
                raise
            return []

    def dense_problem(self) -> str | None:
        """Why dense search is not contributing right now (None when it is, or was never asked for)."""
        return self.dense.problem if self.dense is not None else None

    def _article_matches(self, articles: Sequence[tuple[str, str]], docs: set[str] | None,
                         rankings: list[list[str]]) -> list[str]:
        """The best passage of each of the topics' articles, in the articles' order (a passage's best rank in
        the other rankings picks it; the article's first passage when none ranks), a few only."""
        if not articles:
            return []
        best: dict[str, int] = {}
        for ranking in rankings:
            for i, key in enumerate(ranking):
                best[key] = min(best.get(key, i), i)
        out: list[str] = []
        for address in dict.fromkeys(articles):
            passages = _dedupe(self.key[c.id] for c in self.chunks
                               if (docs is None or c.doc in docs) and (c.doc, c.article) == address)
            if passages:
                out.append(min(passages, key=lambda key: best.get(key, len(self.chunks))))
        return _dedupe(out)[:HEADING_TOP]


def _dedupe(keys: Iterable[str]) -> list[str]:
    seen: dict[str, None] = {}
    for key in keys:
        seen.setdefault(key, None)
    return list(seen)


def _best_rank(rankings: list[list[str]], key: str) -> int | None:
    """The key's best rank among the query's and the focus's rankings of one retriever."""
    ranks = [r for r in (_rank(ids, key) for ids in rankings) if r is not None]
    return min(ranks) if ranks else None


def _rank(ids: list[str], key: str) -> int | None:
    try:
        return ids.index(key) + 1
    except ValueError:
        return None


class TreatyRetriever(BaseRetriever):
    """LangChain face of HybridSearch, for chains that expect a retriever."""

    search_engine: HybridSearch
    k: int = 6
    docs: frozenset[str] | None = None
    mode: str = "hybrid"

    model_config = {"arbitrary_types_allowed": True}

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        hits = self.search_engine.search(query, self.k, set(self.docs) if self.docs else None, self.mode)
        return [Document(page_content=h.chunk.text, id=h.chunk.id,
                         metadata={**h.chunk.metadata(), "score": h.score}) for h in hits]


def open_dense(settings, embeddings: Embeddings, chunks: list[Chunk]) -> DenseIndex:
    """A DenseIndex whose every (re)connection checks the collection against chunks.jsonl."""
    from ingest.index import check_index
    from ingest.store import chroma_client, existing_collection

    def connect() -> Chroma:
        client = chroma_client(settings)
        check_index(existing_collection(client, settings.collection), chunks)
        return Chroma(client=client, collection_name=settings.collection, embedding_function=embeddings,
                      collection_metadata={"hnsw:space": "cosine"})

    return DenseIndex(connect, {c.id: c for c in chunks}, embeddings)
