"""Where a ticket asks: its sentences and the ones that ask something, as character spans of the text.

A long e-mail tells a story and asks one or more questions; the reader classifies what each asking
sentence asks, with the whole ticket as context. A sentence asks when it has a question mark; a ticket
without one asks in its last sentence ("Preciso saber quem tributa a pensão.").
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from assistant.lexicon import asking_words
from assistant.lexicon.text import tokenize

# A sentence ends at ? ! ; or a line break, or at a full stop followed by a space and a capital or an
# opening mark (never inside "art. 10", "Lda. em", "10.5" or "U.S.").
_END = re.compile(r"[?!]+|;|\n+|\.(?=\s+[A-ZÀ-Ý¿¡\"'(])|\.\s*$")


@dataclass(frozen=True)
class Span:
    start: int
    end: int
    text: str

    @property
    def asks(self) -> bool:
        return "?" in self.text


def sentences(text: str) -> list[Span]:
    """Non-empty sentences, stripped, with their offsets in the text."""
    out, start = [], 0
    for m in _END.finditer(text):
        _add(out, text, start, m.end())
        start = m.end()
    _add(out, text, start, len(text))
    return out


def _add(out: list[Span], text: str, start: int, end: int) -> None:
    piece = text[start:end]
    lead = len(piece) - len(piece.lstrip())
    body = piece.strip()
    if any(c.isalnum() for c in body):
        out.append(Span(start + lead, start + lead + len(body), body))


def _requests(span: Span) -> bool:
    """A request phrase ("gostaria de saber", "quisiera saber", "please confirm") in a sentence that does not
    introduce a list of questions (which ends in a colon)."""
    return not span.text.endswith(":") and bool(asking_words().requests.find(tokenize(span.text)))


def asking(text: str) -> list[Span]:
    """The sentences that ask, in order: a question mark or a request phrase; the last sentence when none."""
    spans = sentences(text)
    asked = [s for s in spans if s.asks or _requests(s)]
    return asked or spans[-1:] or [Span(0, len(text), text)]
