"""Keyword search over the articles of the corpus, for the treaty browser: every word of the query must be in
the article (its heading or its clean reading), accents and case ignored; headings count double."""
from __future__ import annotations

from dataclasses import dataclass

from app_support.corpus_view import article_view
from assistant.lexicon.text import tokenize
from ingest.units import ParsedDocument, Unit


@dataclass(frozen=True)
class ArticleHit:
    doc: str
    article: Unit
    score: int


def _words(text: str) -> list[str]:
    return [tok.norm for tok in tokenize(text) if tok.is_word]


def article_text(doc: ParsedDocument, article: Unit) -> str:
    return " ".join(u.clean_text for _, u in article_view(doc, article).blocks())


def search_articles(docs: dict[str, ParsedDocument], query: str, limit: int = 20) -> list[ArticleHit]:
    wanted = set(_words(query))
    if not wanted:
        return []
    hits = []
    for doc_id, doc in docs.items():
        for article in doc.articles():
            body, heading = _words(article_text(doc, article)), set(_words(article.heading))
            present = set(body) | heading
            if wanted <= present:
                score = sum(body.count(w) for w in wanted) + 2 * len(wanted & heading)
                hits.append(ArticleHit(doc_id, article, score))
    return sorted(hits, key=lambda h: -h.score)[:limit]
