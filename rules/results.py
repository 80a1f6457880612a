"""Result types of the rule functions: plain dataclasses the assistant renders in pt/es/en.

Every condition carries a stable machine code (see rules/README.md) plus its text in pt/es/en,
rendered from the code and its params, never translated from the Portuguese. `text` (and `message`,
`window_text`) stay Portuguese for compatibility; `texts` holds pt/es/en and `text_in(language)` picks
one (unknown language → pt). Notes are Portuguese prose only.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import date
from typing import Any

from rules.labels import normalise_language


def _plain(value: Any) -> Any:
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


class Serialisable:
    def to_dict(self) -> dict[str, Any]:
        data = _plain(asdict(self))  # type: ignore[call-overload]
        data["type"] = type(self).__name__
        return data


def pick_text(texts: dict[str, str], language: str, portuguese: str) -> str:
    """The text in `language`, or the Portuguese one when that language has none."""
    return texts.get(normalise_language(language)) or portuguese


class RulesInputError(ValueError):
    """Bad input to a rule function; the message is Portuguese and safe to show to the user."""


@dataclass(frozen=True)
class Citation(Serialisable):
    doc: str
    treaty: str
    article: str | None
    paragraph: str | None
    subparagraph: str | None
    quote: str
    language: str = "pt"           # language of the quoted unit (bilingual sources)


@dataclass(frozen=True)
class Condition(Serialisable):
    code: str                      # stable code, see rules/README.md
    params: dict[str, Any]
    text: str                      # Portuguese
    status: str = "unknown"        # "met" | "not_met" | "unknown" | "assumed_not_met" (exclusion not stated)
    facts: tuple[str, ...] = ()    # Facts fields the condition reads
    texts: dict[str, str] = field(default_factory=dict)   # pt/es/en

    def text_in(self, language: str) -> str:
        return pick_text(self.texts, language, self.text)


@dataclass(frozen=True)
class Alternative(Serialisable):
    rule_id: str
    outcome: str                   # "cap" | "exempt" | "no_treaty_limit" | "no_treaty_benefit"
    rate: float | None
    conditions: list[Condition]
    citations: list[Citation]


@dataclass(frozen=True)
class WithholdingResult(Serialisable):
    treaty: str
    income: str
    source_state: str
    residence_state: str
    outcome: str                   # "cap" | "exempt" | "no_treaty_limit" | "no_treaty_benefit" | "alternatives"
    rate: float | None
    alternatives: list[Alternative]
    conditions: list[Condition]    # conditions that led to the outcome (or requirements still open)
    assumptions: list[Condition]   # exclusions not stated by the user, assumed not to apply
    missing_facts: list[str]       # Facts field names whose answer would decide between alternatives
    citations: list[Citation]
    notes: list[str]               # Portuguese
    rule_id: str | None = None
    effective_from: date | None = None
    coverage: str = "full"         # "full" | "summary"


@dataclass(frozen=True)
class EmploymentResult(Serialisable):
    treaty: str
    taxable_in_work_state: bool | None
    window_rule: str               # "calendar_year" | "any_12_months" | "12_months_in_fiscal_year"
    window_text: str               # Portuguese
    window_start: date | None
    window_end: date | None
    days: int
    max_days: int
    conditions: list[Condition]
    missing_facts: list[str]
    citations: list[Citation]
    notes: list[str]
    fiscal_year: int | None = None
    window_texts: dict[str, str] = field(default_factory=dict)   # pt/es/en

    def window_text_in(self, language: str) -> str:
        return pick_text(self.window_texts, language, self.window_text)


@dataclass(frozen=True)
class TiebreakerStep(Serialisable):
    step: str                      # "permanent_home" | "vital_interests" | "habitual_abode" | "nationality" | ...
    outcome: str                   # "decided" | "next" | "unknown"
    state: str | None
    text: str                      # Portuguese
    texts: dict[str, str] = field(default_factory=dict)   # pt/es/en

    def text_in(self, language: str) -> str:
        return pick_text(self.texts, language, self.text)


@dataclass(frozen=True)
class TiebreakerResult(Serialisable):
    treaty: str
    person: str
    result: str | None             # a State code, "mutual_agreement", or None when facts are missing
    deciding_step: str | None
    steps: list[TiebreakerStep]
    missing_facts: list[str]
    citations: list[Citation]
    notes: list[str]


@dataclass(frozen=True)
class Figure(Serialisable):
    id: str
    treaty: str
    topic: str
    value: float | str | None
    unit: str
    text: str                      # Portuguese description
    conditions: list[Condition]
    citations: list[Citation]
    effective_from: date | None = None
    notes: list[str] = field(default_factory=list)           # Portuguese only
    texts: dict[str, str] = field(default_factory=dict)      # pt/es/en

    def text_in(self, language: str) -> str:
        return pick_text(self.texts, language, self.text)


@dataclass(frozen=True)
class DocumentApplication(Serialisable):
    doc: str
    title: str
    relation: str                  # "treaty_text" | "summary" | "implementing_order" | "modifies" | "not_established"
    text: str                      # Portuguese (with the catalogue's notes)
    citations: list[Citation]
    texts: dict[str, str] = field(default_factory=dict)   # pt/es/en (es/en without the catalogue's pt notes)

    def text_in(self, language: str) -> str:
        return pick_text(self.texts, language, self.text)


@dataclass(frozen=True)
class NotCovered(Serialisable):
    subject: str                   # the treaty, pair or topic asked about
    covered: list[str]
    message: str                   # Portuguese
    messages: dict[str, str] = field(default_factory=dict)   # pt/es/en

    def message_in(self, language: str) -> str:
        return pick_text(self.messages, language, self.message)

    @classmethod
    def localised(cls, subject: str, covered: list[str], pt: str, es: str, en: str) -> "NotCovered":
        return cls(subject=subject, covered=covered, message=pt, messages={"pt": pt, "es": es, "en": en})
