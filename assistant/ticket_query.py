"""The retrieval query of a long ticket: the sentences that ask, and the treaty articles of the topic read.

A ticket is an e-mail with greetings, names, amounts and side remarks; searched whole, its context words
outvote the question. The focus query is the asking sentence(s) plus the headings, taken from the index,
of the articles the treaty's rule data cite for the topic, so a new treaty brings its own words. Retrieval
fuses the focus query with the whole ticket (assistant/retrieve.py); neither replaces the other.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import zip_longest
from typing import Callable, Iterable, Sequence

from assistant.lexicon.text import tokenize
from assistant.understand.sentences import asking

Article = tuple[str, str]              # (document, article) as the index names them: ("pt-br-2000", "18")

MAX_ASKING = 3                          # more asking sentences than this: the ticket is its own focus
TOPICS = 2                              # the topics read (most relevant first) whose articles are searched


def asking_sentences(text: str) -> tuple[str, ...]:
    """The sentences of a ticket that ask (assistant.understand.sentences.asking, the reader's own splitter);
    empty when nothing asks (the whole text is then the question)."""
    return tuple(s.text for s in asking(text, last_if_none=False))


# --------------------------------------------------------------------------- topic -> articles

def _cited(citations: Iterable) -> list[Article]:
    """(document, article) of CitedQuotes or Citations; a citation without an article names none."""
    out = []
    for c in citations:
        citation = getattr(c, "citation", c)
        if citation.article:
            out.append((citation.doc, str(citation.article)))
    return out


@lru_cache(maxsize=256)
def topic_articles(treaty: str, topic: str) -> tuple[Article, ...]:
    """The articles a treaty's rule data give for a topic, most cited first: the article deciding its
    taxing rights, the withholding rules, figures, the 183-day test (employment), the tie-breaker
    (residence) and the relief methods (double_taxation_relief). Empty for an unknown treaty or topic."""
    from rules.treaty_data import load_all

    data = load_all().get(treaty)
    if data is None:
        return ()
    found: list[Article] = []
    rights = data.rights.get(topic)
    if rights is not None:
        for case in rights.cases:
            found += _cited(case.citations)
    income = data.incomes.get(topic)
    if income is not None:
        for rule in income.rules:
            found += _cited(rule.citations)
    for figure in data.figures:
        if figure.topic == topic:
            found += _cited(figure.citations)
    if topic == "employment" and data.employment is not None:
        found += _cited(data.employment.citations)
    if topic == "residence":
        found += _cited([*data.residence_individual.values(), *data.residence_company.values()])
    if topic == "double_taxation_relief":
        for relief in data.relief:
            found += _cited(relief.citations)
    counts: dict[Article, int] = {}
    for article in found:
        counts[article] = counts.get(article, 0) + 1
    return tuple(sorted(counts, key=lambda a: -counts[a]))


# --------------------------------------------------------------------------- the query

@dataclass(frozen=True)
class TicketQuery:
    """What retrieval searches for one ticket (or one part of it)."""
    text: str                          # the whole ticket (a one-sentence question: with the headings)
    focus: str                         # the asking sentence(s) and the topic's article headings; "" = none
    articles: tuple[Article, ...]      # the topics' articles in the treaty(ies), best first
    asked: tuple[str, ...] = ()        # the asking sentences themselves (dense search reads their vectors)


def ticket_query(text: str, topics: Sequence[str], treaties: Sequence[str],
                 headings: Callable[[Sequence[Article]], list[str]],
                 asking: Sequence[str] | None = None) -> TicketQuery:
    """The query for a ticket whose topics (most relevant first) and candidate treaties were read: the
    first topic's article headings join the asking words, the first TOPICS topics' articles are searched;
    `asking` gives a part's own asking words instead of the ticket's. headings: (document, article) ->
    the article headings the index has (HybridSearch.headings). When the asking words are the whole
    text (a one-line question), the headings join the text and there is no separate focus."""
    asked = tuple(asking) if asking is not None else asking_sentences(text)
    if len(asked) > MAX_ASKING:
        asked = ()
    per_topic = [[a for treaty in treaties for a in topic_articles(treaty, topic)] for topic in topics[:TOPICS]]
    # each topic's first article before any topic's second: the runner-up topic still gets a passage
    articles = tuple(dict.fromkeys(a for rank in zip_longest(*per_topic) for a in rank if a is not None))
    words = " ".join(headings(per_topic[0][:2] if per_topic else []))
    if not asked or _same(" ".join(asked), text):
        return TicketQuery(text=f"{text} {words}".strip(), focus="", articles=articles)
    return TicketQuery(text=text, focus=f"{' '.join(asked)} {words}".strip(), articles=articles, asked=asked)


def _same(a: str, b: str) -> bool:
    return [t.norm for t in tokenize(a) if t.is_word] == [t.norm for t in tokenize(b) if t.is_word]
