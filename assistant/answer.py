"""The Answer: everything one question produced, serialisable to the CLI's JSON contract.

The deterministic part (rate lines, card text, citations) is filled before the LLM runs and is
complete on its own; the explanation is an optional addition that the guardrail vetted. What
understanding read (Query) and what the rules gave (RuleRun) stay typed; to_dict() is the only
place they become JSON.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Any, Literal

from assistant.apply_rules import RuleRun
from assistant.presentation.card import Card, Ref
from assistant.understand.query import Query


@dataclass(frozen=True)
class RateLine:
    value: float                 # percent; 0 for an exemption
    income: str
    source_state: str | None
    residence_state: str | None
    condition: str               # rendered in the question's language
    citation: str                # e.g. "PT-BR art. 10(2)(a)"


@dataclass(frozen=True)
class CitationRef:
    n: int
    doc: str
    treaty: str
    article: str
    paragraph: str | None
    subparagraph: str | None
    quote: str                   # the exact words the answer relies on
    chunk_id: str | None
    heading: str = ""
    language: str = "pt"
    source: str = "retrieval"    # "rule" (cited by a rule) or "retrieval"
    passage: str = ""            # the whole paragraph the quote sits in (for highlighting)
    spans: tuple[tuple[int, int], ...] = ()

    def label(self) -> str:
        return Ref(self.treaty, self.article, self.paragraph, self.subparagraph).label()


@dataclass(frozen=True)
class ReadingChoice:
    """One candidate treaty of an uncertain question, offered to the user to pick."""
    treaty: str
    label: str                   # "Se for residente em Espanha (Brasil–Espanha)"
    clarification: str           # the sentence that, added to the question, picks it


@dataclass(frozen=True)
class AnswerPart:
    """One question of a ticket (or a close second reading of one): how the reader read it, with what
    confidence, and what the rules said; the card has a section for each."""
    question: str                # the asking words, as written
    topic: str                   # a rules topic or "out_of_scope"
    confidence: float | None
    alternative: bool = False    # a close second topic of the question before it, answered too
    out_of_scope: str | None = None
    rule_results: RuleRun | None = None
    citations: tuple[int, ...] = ()   # the answer's citations ([n]) its rules rely on

    def to_dict(self) -> dict[str, Any]:
        data = asdict(replace(self, rule_results=None))
        data["rule_results"] = self.rule_results.to_dicts() if self.rule_results is not None else []
        return data


@dataclass
class Guardrail:
    """What the claim check did to the model's text: every sentence checked, the failed ones dropped."""
    checked: bool = False
    action: Literal["passed", "trimmed", "fallback", "skipped"] = "skipped"
    attempts: int = 0
    numbers_checked: list[str] = field(default_factory=list)
    sentences_kept: int = 0
    sentences_dropped: int = 0
    contradicted_claims: int = 0             # who-taxes claims the rule outcome contradicts (in dropped sentences)
    dropped: list[str] = field(default_factory=list)   # each dropped sentence with its problems
    notes: list[str] = field(default_factory=list)


@dataclass
class Answer:
    question: str
    language: str
    answer: str                              # markdown: card + vetted explanation (or card only)
    abstained: bool
    treaty: str | None
    rates: list[RateLine] = field(default_factory=list)
    citations: list[CitationRef] = field(default_factory=list)
    guardrail: Guardrail = field(default_factory=Guardrail)
    llm: dict[str, Any] = field(default_factory=dict)
    timings_ms: dict[str, float] = field(default_factory=dict)
    card: str = ""                           # the deterministic part alone
    explanation: str = ""                    # the LLM part alone, after the guardrail
    missing_facts: list[str] = field(default_factory=list)
    follow_up: str = ""                      # the question asking for missing facts
    notices: list[str] = field(default_factory=list)
    query: Query | None = None               # what understanding read (triage panel)
    rule_results: RuleRun | None = None      # what the rules gave
    error: str | None = None                 # a clear message for bad input
    readings: list[ReadingChoice] = field(default_factory=list)   # candidate treaties, when uncertain
    premise: str = ""                        # the rate the user took for granted, confirmed or corrected
    card_data: Card | None = None            # the card as data; `card`, `follow_up` and `reply` are its views
    reply: str = ""                          # a reply the agent can send, plain text in the question's language
    parts: list[AnswerPart] = field(default_factory=list)        # the ticket's questions, each answered

    def card_cites(self) -> frozenset[int] | None:
        """The citation numbers the card's lines rely on (None without a card: every rule citation counts)."""
        return self.card_data.cited() if self.card_data is not None else None

    def to_dict(self) -> dict[str, Any]:
        data = asdict(replace(self, query=None, rule_results=None, card_data=None, parts=[]))
        del data["card_data"]
        data["parts"] = [p.to_dict() for p in self.parts]
        data["query"] = self.query.to_dict() if self.query is not None else {}
        data["rule_results"] = self.rule_results.to_dicts() if self.rule_results is not None else []
        return data
