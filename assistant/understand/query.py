"""What understanding read from one question: the Query the rules, retrieval and the card work from."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from rules.facts import Facts


@dataclass(frozen=True)
class Reading:
    """One way to read an uncertain question: a treaty and a direction, with the assumption that picks it."""
    treaty: str
    residence_state: str | None
    source_state: str | None
    assumed: str | None = None           # the State the reading assumes ("PT"); None when nothing is assumed
    assumed_role: str | None = None      # what it is assumed to be: "residence" | "source" | "other"
    likely: bool = False                 # the question's language points to this one among the candidates

    @property
    def visited(self) -> str | None:
        """The State a student or a visiting teacher whose residence the reading assumes visits: the other one,
        where the income arises."""
        return self.source_state if self.assumed_role == "residence" else None


@dataclass(frozen=True)
class Query:
    text: str
    language: str                                  # "pt" | "es" | "en"
    countries: tuple[str, ...] = ()                # ISO codes, in order of first mention
    treaty: str | None = None
    treaty_inferred: bool = False                  # only one party named; the treaty is the only one with it
    pair_not_covered: tuple[str, str] | None = None
    residence_state: str | None = None             # None when unknown or when two are named
    source_state: str | None = None                # for employment: where the work is done
    residence_states: tuple[str, ...] = ()         # every State the person says they are resident of
    work_state: str | None = None
    host_state: str | None = None                  # professors/students: the State visited, when named
    pe_state: str | None = None                    # where a PE, branch or fixed base named in the question is
    pe_named: bool = False                         # the question names a PE or branch at all (with a State or not)
    site_named: bool = False                       # it names a building site or an installation project
    topic: str | None = None                       # one of rules.facts.TOPICS
    topics: tuple[str, ...] = ()                   # all topics found, most relevant first
    topic_method: str | None = None                # "lexicon" | "exemplar": who decided the topic
    out_of_scope: str | None = None                # the main question is outside the treaties: "vat", ...
    side_notes: tuple[str, ...] = ()               # out-of-scope side mentions of a treaty question
    facts: Facts = field(default_factory=Facts)    # every stated fact (the stays, art. 4's facts: its groups)
    injection: bool = False
    evasion: bool = False                          # asks how to evade tax or hide income: refused
    mentions_mli: bool = False                     # the question names the MLI / BEPS
    asked: str = ""                                # the part's own asking words (text is the whole ticket)
    stated_rates: tuple[float, ...] = ()           # percentages the user asserts as rates (their premise)
    readings: tuple[Reading, ...] = ()             # candidate treaties when the pair is not certain

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (CLI, eval): every field but the raw text (and its asking words), dates as ISO strings."""
        data = dataclasses.asdict(self)
        data.pop("text", None)
        data.pop("asked", None)
        return _plain(data)


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return value
