"""Reading the parsed corpus for display: an article with its paragraphs, the protocol items that refer to
it, and the same address in the other language of a bilingual source. Works from the units alone, so a new
document in a known layout shows up without changes here."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ingest.units import ParsedDocument, Unit


@dataclass(frozen=True)
class ArticleView:
    article: Unit
    body: list[Unit]            # paragraphs and alíneas in source order ([] when the article has none)

    def blocks(self) -> list[tuple[int, Unit]]:
        """(indent level, unit): paragraphs at 0, alíneas at 1; the article itself when it has no parts."""
        if not self.body:
            return [(0, self.article)]
        return [(0 if u.level == "paragraph" else 1, u) for u in self.body]


def articles(doc: ParsedDocument, language: str | None = None) -> list[Unit]:
    return [u for u in doc.articles() if language is None or u.language == language]


def languages(doc: ParsedDocument) -> list[str]:
    seen: list[str] = []
    for u in doc.articles():
        if u.language and u.language not in seen:
            seen.append(u.language)
    return seen


def _descendants(doc: ParsedDocument, root: Unit) -> list[Unit]:
    inside = {root.uid}
    found: list[Unit] = []
    for u in doc.units:
        if u.parent in inside:
            inside.add(u.uid)
            found.append(u)
    return sorted(found, key=lambda u: u.start)


def article_view(doc: ParsedDocument, article: Unit) -> ArticleView:
    return ArticleView(article=article, body=_descendants(doc, article))


def find_article(doc: ParsedDocument, article: str | None, language: str | None = None) -> Unit | None:
    """The article unit holding an address (an article id as cited), in the given language if there is one."""
    if not article:
        return None
    candidates = [u for u in doc.articles() if u.article == article]
    if not candidates:
        units = [u for u in doc.units if u.article == article]
        by_uid = {u.uid: u for u in doc.units}
        for u in units:                       # summaries cite "4" inside a section: climb to its article
            while u.parent is not None and u.level != "article":
                u = by_uid[u.parent]
            if u.level == "article":
                candidates.append(u)
    preferred = [u for u in candidates if language is None or u.language == language]
    return (preferred or candidates or [None])[0]


def find_unit(doc: ParsedDocument, article: str | None, paragraph: str | None, subparagraph: str | None,
              language: str | None = None) -> Unit | None:
    """The most precise unit at a cited address (falls back to the paragraph, then the article)."""
    if not article:
        return None
    for p, s in ((paragraph, subparagraph), (paragraph, None), (None, None)):
        found = doc.find(article, p, s, language) or (doc.find(article, p, s) if language else [])
        if found:
            return found[0]
    return None


_ARTICLE_REF = re.compile(r"(?:^|[;,\s])(\d+)(?=\(|$|[;,\s])")


def referred_articles(refers_to: str | None) -> set[str]:
    """Article numbers in a protocol item's `refers_to` ("13(4); 14(1)" -> {"13", "14"})."""
    return set(_ARTICLE_REF.findall(refers_to or ""))


def protocol_items(doc: ParsedDocument, article: str | None, language: str | None = None) -> list[Unit]:
    """Protocol items of the same document (in the given language) that concern this article."""
    if not article:
        return []
    return [u for u in doc.units if u.level == "article" and u.refers_to
            and (language is None or u.language == language) and article in referred_articles(u.refers_to)]
