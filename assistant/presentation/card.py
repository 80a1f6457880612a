"""The card as data: built once from the rule results and the citations (build.py); every view (markdown,
reply, prompt facts, grounding, triage) reads this and nothing else."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Literal

from assistant.presentation.values import Check, Join, Phrase, Status, Value, walk
from i18n import has

LineKind = Literal[
    "heading",      # what the block answers: the income and its direction
    "intro",        # a sentence that introduces the items below (alternatives, relief, figures, documents)
    "outcome",      # an answer: a rate, who may tax, the 183-day result, the tie-breaker result
    "figure",       # what the corpus fixes on the topic (thresholds, periods), with its introduction
    "relief",       # how the residence State removes the double taxation, and the figures of its methods
    "detail",       # the facts behind the line above (conditions met / failed, a figure of a method)
    "assumption",   # exceptions assumed not to apply
    "note",         # a note of a rule, the summary-only warning
    "notes",        # the notes of the results, gathered
    "error",        # a message from the rules about bad input
    "passage",      # no rule speaks: a passage pointed at
]


@dataclass(frozen=True)
class CardRate:
    """A rate the card states, typed: what the JSON `rates`, the premise check and the grounding read."""
    value: float                       # percent; 0 for an exemption
    income: str
    source_state: str | None
    residence_state: str | None
    condition: Value | None            # the conditions it applies under (None: always)
    ref: "Ref | None"                  # the first citation of the rule


@dataclass(frozen=True)
class About:
    """What a block of the card answers, typed, for the views that summarise it (the triage panel)."""
    kind: Literal["withholding", "rights", "employment"]
    income: str | None = None
    source_state: str | None = None
    residence_state: str | None = None
    verdict: Literal["work_state", "residence_only", "undetermined"] | None = None   # employment


@dataclass(frozen=True)
class Line:
    kind: LineKind
    text: Value                        # a catalogue key + typed params (a Phrase, or values joined)
    level: int = 0                     # 0 paragraph, 1 list item, 2 under an item
    refs: tuple[int, ...] = ()         # the citation numbers ([n]) this line relies on
    rates: tuple[CardRate, ...] = ()
    status: Status | None = None       # a line that is itself a condition: met / not met / unknown
    about: About | None = None         # on the line that opens a block: what the block answers

    def checks(self) -> list[Check]:
        return [v for v in walk(self.text) if isinstance(v, Check)]


@dataclass(frozen=True)
class Section:
    """One part of the answer: a reading of the question (labelled when there are several) and its lines."""
    label: Value | None
    lines: tuple[Line, ...]
    topics: tuple[str, ...] = ()       # the rules topics it answers (a reply answers what was asked first)


@dataclass(frozen=True)
class Ref:
    """Where a rule is written: treaty, article, paragraph, sub-paragraph."""
    treaty: str
    article: str | None
    paragraph: str | None = None
    subparagraph: str | None = None

    def label(self) -> str:
        """The short label ("PT-BR art. 10(2)(a)") of the JSON contract and the sources list."""
        if not self.article:
            return self.treaty
        head = f"art. {self.article}" if self.article[0].isdigit() else self.article
        return f"{self.treaty} {head}" + "".join(f"({x})" for x in (self.paragraph, self.subparagraph) if x)


@dataclass(frozen=True)
class Source:
    """A passage the card cites: enough to name the article in words and to link [n]."""
    n: int
    doc: str
    doc_kind: str                      # the catalogue's first kind: convention, summary, ministerial_order, …
    treaty: str
    article: str
    paragraph: str | None
    subparagraph: str | None
    heading: str = ""                  # the article's heading, in the corpus's words
    quote: str = ""                    # the exact words relied on (shown in a reply only on request)

    def ref(self) -> Ref:
        return Ref(self.treaty, self.article, self.paragraph, self.subparagraph)

    def label(self) -> str:
        return self.ref().label()


@dataclass(frozen=True)
class Card:
    language: str
    treaties: tuple[str, ...]
    sections: tuple[Section, ...]
    intro: tuple[Line, ...] = ()            # before the sections: several readings, several parts
    outro: tuple[Line, ...] = ()            # after: the other readings offered
    premise: Line | None = None             # the rate the user took for granted, confirmed or corrected
    missing_facts: tuple[str, ...] = ()     # Facts names that would decide between alternatives
    sources: tuple[Source, ...] = ()        # every passage shown, in [n] order

    def lines(self) -> Iterator[Line]:
        """Every line in reading order (premise first)."""
        if self.premise is not None:
            yield self.premise
        yield from self.intro
        for section in self.sections:
            yield from section.lines
        yield from self.outro

    def rates(self) -> list[CardRate]:
        return [r for line in self.lines() for r in line.rates]

    def cited(self) -> frozenset[int]:
        """The citation numbers some line of the card relies on: the sources it shows as its own."""
        return frozenset(n for line in self.lines() for n in line.refs)

    def source(self, n: int) -> Source | None:
        return next((s for s in self.sources if s.n == n), None)

    def follow_up(self) -> Phrase | None:
        """The question asking for what is missing, or None."""
        asked = missing_questions(self.missing_facts)
        return Phrase("assistant.follow_up", {"items": Join(asked)}) if asked else None


def missing_questions(names: tuple[str, ...]) -> tuple[Phrase, ...]:
    """What the catalogue can ask about (assistant.facts.*), in order."""
    return tuple(Phrase(f"assistant.facts.{m}") for m in names if has(f"assistant.facts.{m}"))
