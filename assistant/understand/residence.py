"""Art. 4 tie-breaker facts read clause by clause: where the person has a home, family (vital interests),
habitual abode and nationality.

People state these facts in clauses ("tenho casa em Lisboa e em Tóquio", "a família está em Portugal",
"casa nos dois", "não dá para determinar o centro de interesses"), not as one word before a country, so
a clause with a cue gives that fact for the countries named in it; "both"/"ambos" gives both States of
the treaty; a clause starting "onde"/"where" speaks of the country of the clause before.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from assistant.lexicon import cues
from assistant.lexicon.text import Token
from assistant.understand.places import Mention, unique


@dataclass
class ResidenceFacts:
    """What the clauses state; None = not stated, () = "in neither State"."""
    homes: tuple[str, ...] | None = None
    vital: str | None = None                 # a State code, or "undetermined"
    abodes: tuple[str, ...] | None = None
    nationality: tuple[str, ...] | None = None
    let_homes: tuple[str, ...] = ()          # where a home is let to others (a source of rent, not a home)
    personal: bool = False                   # a home, family, abode or nationality cue: an individual
    cues: set[str] = field(default_factory=set)


def _clauses(tokens: list[Token]) -> list[tuple[int, int]]:
    """Token spans between punctuation marks (commas, brackets, sentence ends)."""
    spans, start = [], 0
    for i, t in enumerate(tokens):
        if not t.is_word:
            if i > start:
                spans.append((start, i))
            start = i + 1
    if start < len(tokens):
        spans.append((start, len(tokens)))
    return spans


_OTHER_ROLES = {"source", "employer", "work", "pe", "property", "government", "borrower"}
_TAKES_COUNTRIES = ("home", "let_home", "family", "vital", "abode", "nationality")


def _distance(cue_start: int, cue_end: int, at: int) -> tuple[int, int]:
    """Tokens between a cue and a country; on a tie the cue before the country wins."""
    return (at - cue_end + 1, 0) if at >= cue_end else (cue_start - at, 1)


_NEAR = 3      # tokens between a home word and the words that say it is let (or lived in)


def _let_homes(found: list) -> set[int]:
    """Start positions of home cues that name a property let to others."""
    let = [m for m in found if m.value == "let_out"]
    lives = [m for m in found if m.value == "lives"]
    out = set()
    for h in (m for m in found if m.value == "home"):
        near_let = any(0 <= m.start - h.end < _NEAR or 0 <= h.start - m.end < _NEAR for m in let)
        lived_in = any(0 <= h.start - m.end < _NEAR for m in lives)
        if near_let and not lived_in:
            out.add(h.start)
    return out


def read_residence(tokens: list[Token], mentions: list[Mention], parties: tuple[str, ...]) -> ResidenceFacts:
    """Tie-breaker facts by clause; codes outside the treaty's parties are dropped (when they are known).

    Each country in a clause belongs to the nearest fact cue ("a família vive em Portugal e tenho
    nacionalidade japonesa"); "both" belongs to the nearest fact cue too."""
    found = cues().tiebreaker.find(tokens)
    let = _let_homes(found)
    found = [replace(m, value="let_home") if m.value == "home" and m.start in let else m
             for m in found if m.value not in ("let_out", "lives")]
    out = ResidenceFacts()
    by_fact: dict[str, list[str]] = {name: [] for name in _TAKES_COUNTRIES}
    previous: tuple[str, ...] = ()
    for start, end in _clauses(tokens):
        here = [m for m in found if start <= m.start < end]
        names = {m.value for m in here}
        out.cues |= names
        facts = [m for m in here if m.value in _TAKES_COUNTRIES]
        countries = [m for m in mentions if start <= m.start < end and (not parties or m.code in parties)]
        attached: dict[int, list[str]] = {i: [] for i in range(len(facts))}
        if facts:
            for c in countries:
                i = min(range(len(facts)), key=lambda k: _distance(facts[k].start, facts[k].end, c.start))
                if facts[i].value == "nationality" and c.role in _OTHER_ROLES and \
                        _distance(facts[i].start, facts[i].end, c.start)[0] > 1:
                    continue                   # "a Brazilian citizen … for the Spanish government": the payer
                attached[i].append(c.code)
            if not countries and any(m.value == "relative" and m.start == start for m in here):
                attached = {i: list(previous[-1:]) for i in attached}     # "…, onde mora a família"
            for b in (m for m in here if m.value == "both" and parties):
                i = min(range(len(facts)), key=lambda k: _distance(facts[k].start, facts[k].end, b.start))
                attached[i] = list(parties)
        if countries:
            previous = unique(c.code for c in countries)
        for i, f in enumerate(facts):
            by_fact[f.value] += attached[i]
        if "no_home" in names:
            out.homes = ()
        if "undetermined" in names and ("vital" in names or (out.vital is None and "family" not in names)):
            out.vital = "undetermined"
    homes, vital = unique(by_fact["home"]), unique(by_fact["family"] + by_fact["vital"])
    if homes and out.homes is None:
        out.homes = homes
    if vital and out.vital is None:
        out.vital = vital[0]
    out.let_homes = unique(by_fact["let_home"])
    out.abodes = unique(by_fact["abode"]) or None
    out.nationality = unique(by_fact["nationality"]) or None
    out.personal = bool(out.cues & {"home", "no_home", "family", "abode", "nationality", "vital"})
    return out
