"""Result types of the rule functions: plain dataclasses holding codes and params, never sentences.

User text is rendered from the one message catalogue (i18n.t) in pt/es/en: `text_in(language)`,
`message_in(language)`, `notes_in(language)`; unknown languages fall back to pt. The Portuguese
`text` / `message` / `notes` properties remain for callers that show Portuguese only, and `to_dict()`
adds them rendered in Portuguese.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from i18n import has, t


@dataclass(frozen=True)
class Message:
    """A catalogue key with its params; a param that is itself a Message is rendered in the same language."""
    key: str
    params: dict[str, Any] = field(default_factory=dict)

    def text_in(self, language: str) -> str:
        values = {k: v.text_in(language) if isinstance(v, Message) else v for k, v in self.params.items()}
        return t(language, self.key, **values)

    @property
    def text(self) -> str:
        return self.text_in("pt")

    def __str__(self) -> str:          # where a caller prints a message as is, the reference language
        return self.text


def _plain(value: Any) -> Any:
    if isinstance(value, Message):
        return value.text
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        data = {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
        for name in getattr(type(value), "RENDERED", ()):
            data[name] = _plain(getattr(value, name))
        return data
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


class Serialisable:
    RENDERED: tuple[str, ...] = ()        # properties to_dict() adds, rendered in Portuguese

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = _plain(self)
        data["type"] = type(self).__name__
        return data


class WithNotes:
    notes: list[Message]

    def notes_in(self, language: str) -> list[str]:
        return [n.text_in(language) for n in self.notes]


class RulesInputError(ValueError):
    """Bad input to a rule function: a catalogue message (rules.input.<key>), safe to show to the
    user in their language; str() is the Portuguese text for logs and Portuguese-only pages."""

    def __init__(self, key: str, **params: Any) -> None:
        self.message = Message(f"rules.input.{key}", params)
        super().__init__(self.message.text)

    def text_in(self, language: str) -> str:
        return self.message.text_in(language)


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
    status: str = "unknown"        # "met" | "not_met" | "unknown" | "assumed_not_met" (exclusion not stated)
    facts: tuple[str, ...] = ()    # Facts fields the condition reads
    RENDERED = ("text",)

    def text_in(self, language: str) -> str:
        return t(language, condition_key(self.code, self.params), **self.params)

    @property
    def text(self) -> str:
        return self.text_in("pt")


def condition_key(code: str, params: dict[str, Any]) -> str:
    """The catalogue key of a condition's text: its singular wording when it counts exactly one year ("a
    permanência não excede um ano", not "1 anos") and the catalogue has one."""
    key = f"rules.conditions.{code}"
    return f"{key}_one_year" if params.get("years") == 1 and has(f"{key}_one_year") else key


@dataclass(frozen=True)
class Alternative(Serialisable):
    rule_id: str
    outcome: str                   # "cap" | "exempt" | "no_treaty_limit" | "no_treaty_benefit"
    rate: float | None
    conditions: list[Condition]
    citations: list[Citation]


@dataclass(frozen=True)
class WithholdingResult(Serialisable, WithNotes):
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
    notes: list[Message]
    rule_id: str | None = None
    effective_from: date | None = None
    coverage: str = "full"         # "full" | "summary"
    ruled_out: list[Alternative] = field(default_factory=list)  # lower alternatives a stated fact rules out,
    #                                                             with only the conditions that failed


@dataclass(frozen=True)
class EmploymentResult(Serialisable, WithNotes):
    treaty: str
    taxable_in_work_state: bool | None
    window_rule: str               # "calendar_year" | "any_12_months" | "12_months_in_fiscal_year"
    window_start: date | None
    window_end: date | None
    days: int
    max_days: int
    conditions: list[Condition]
    missing_facts: list[str]
    citations: list[Citation]
    notes: list[Message]
    fiscal_year: int | None = None
    RENDERED = ("window_text",)

    def window_text_in(self, language: str) -> str:
        return t(language, f"rules.windows.{self.window_rule}")

    @property
    def window_text(self) -> str:
        return self.window_text_in("pt")


@dataclass(frozen=True)
class TiebreakerStep(Serialisable):
    step: str                      # "permanent_home" | "vital_interests" | "habitual_abode" | "nationality" | ...
    outcome: str                   # "decided" | "next" | "unknown"
    state: str | None
    RENDERED = ("text",)

    def text_in(self, language: str) -> str:
        return t(language, f"rules.tiebreaker_steps.{self.step}")

    @property
    def text(self) -> str:
        return self.text_in("pt")


@dataclass(frozen=True)
class TiebreakerResult(Serialisable, WithNotes):
    treaty: str
    person: str
    result: str | None             # a State code, "mutual_agreement", or None when facts are missing
    deciding_step: str | None
    steps: list[TiebreakerStep]
    missing_facts: list[str]
    citations: list[Citation]
    notes: list[Message]


@dataclass(frozen=True)
class Figure(Serialisable, WithNotes):
    id: str
    treaty: str
    topic: str
    value: float | str | None
    unit: str
    description: Message           # what the figure means
    conditions: list[Condition]
    citations: list[Citation]
    effective_from: date | None = None
    notes: list[Message] = field(default_factory=list)
    ends: bool = False             # a termination article's figure (how the treaty ends, not when it applies)
    precondition: bool = False     # whether the topic's rules apply at all (MLI 18): kept beside any figure asked
    RENDERED = ("text",)

    def text_in(self, language: str) -> str:
        return self.description.text_in(language)

    @property
    def text(self) -> str:
        return self.text_in("pt")


@dataclass(frozen=True)
class DocumentApplication(Serialisable):
    doc: str
    title: str
    relation: str                  # "treaty_text" | "summary" | "implementing_order" | "modifies" | "not_established"
    description: Message
    citations: list[Citation]
    catalogue_notes: str = ""      # the corpus catalogue's own notes (Portuguese prose from corpus/catalog.yaml)
    instrument: str = ""           # a multilateral instrument's own rules code ("modifies", "not_established")
    RENDERED = ("text",)

    def text_in(self, language: str) -> str:
        return self.description.text_in(language)

    @property
    def text(self) -> str:
        return " ".join(x for x in (self.text_in("pt"), self.catalogue_notes) if x)


@dataclass(frozen=True)
class NotCovered(Serialisable):
    subject: str                   # the treaty, pair or topic asked about
    covered: list[str]
    reason: Message
    RENDERED = ("message",)

    def message_in(self, language: str) -> str:
        return self.reason.text_in(language)

    @property
    def message(self) -> str:
        return self.message_in("pt")

    @classmethod
    def because(cls, subject: str, covered: list[str], key: str, **params: Any) -> "NotCovered":
        return cls(subject=subject, covered=covered, reason=Message(key, params))


@dataclass(frozen=True)
class StateRight(Serialisable):
    role: str                      # "residence" | "source" | "effective_management"
    state: str | None              # the State's code, when the role names one
    right: str                     # "exclusive" | "shared" | "capped" | "none" | "exempt"
    cap: WithholdingResult | None = None   # the source State's cap, from the withholding rules


@dataclass(frozen=True)
class Relief(Serialisable, WithNotes):
    id: str
    state: str                     # the residence State that relieves
    method: str                    # "credit" | "exemption_progression" | "exemption" | "dividend_deduction" | ...
    conditions: list[Condition]
    citations: list[Citation]
    figures: list[Figure]          # the numbers of the method (95%, 20%/25%), with their own citations
    notes: list[Message] = field(default_factory=list)


@dataclass(frozen=True)
class RightsCase(Serialisable, WithNotes):
    rule_id: str
    article: str
    rights: list[StateRight]
    conditions: list[Condition]
    citations: list[Citation]
    relief: list[Relief]
    notes: list[Message] = field(default_factory=list)
    income: str = ""               # the income whose rule this is (differs from the question's after a redirect)
    via: list[str] = field(default_factory=list)  # the redirecting cases that led here (e.g. 19(3) → art. 15)
    source_role: str | None = None  # catalogue key naming the other State in this case (else the income's)


@dataclass(frozen=True)
class TaxingRightsResult(Serialisable, WithNotes):
    treaty: str
    income: str
    residence_state: str
    source_state: str
    source_role: str               # catalogue key naming who the "source" State is for this income
    outcome: str                   # "decided" | "alternatives"
    cases: list[RightsCase]        # one when decided; every case still possible otherwise
    missing_facts: list[str]
    assumptions: list[Condition]   # exceptions whose fact was not stated, assumed not to apply
    citations: list[Citation]
    notes: list[Message]
    coverage: str = "full"         # "full" | "summary"
