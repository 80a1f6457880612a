"""Which treaty a question is about and in which direction; when that is not certain, every
candidate treaty in the corpus with the assumption that selects it (answered, not refused)."""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Mapping

from assistant.lexicon import countries, cues
from assistant.lexicon.text import Token, fold
from assistant.understand.places import Mention, unique
from assistant.understand.query import Reading

Treaties = Mapping[str, tuple[str, ...]]
# Roles that make a named country the State where the income arises.
SOURCE_ROLES = ("source", "work", "property", "pe", "employer")


def _pairs(treaties: Treaties) -> dict[frozenset[str], str]:
    return {frozenset(parties): tid for tid, parties in treaties.items() if len(set(parties)) == 2}


def _named_treaty(folded: str, treaties: Treaties) -> str | None:
    for tid in treaties:
        parts = [re.escape(p) for p in fold(tid).split("-")]
        if len(parts) > 1 and re.search(r"\b" + r"\s*[-–/]\s*".join(parts) + r"\b", folded):
            return tid
    return None


_TREATY_WINDOW = 6      # tokens between a treaty word and the two countries it names
_PAIR_GAP = 3           # tokens between the two countries ("Portugal–Japão", "entre Portugal e o Brasil")


def treaty_in_words(tokens: list[Token], mentions: list[Mention], treaties: Treaties) -> str | None:
    """The treaty a question names in words: a treaty word and, close to it, two countries a treaty joins
    ("pela convenção Portugal–Japão", "the Brazil-Spain treaty", "el convenio entre España y Brasil")."""
    pairs = _pairs(treaties)
    words = [i for i, tok in enumerate(tokens) if tok.norm in cues().treaty_words]
    for a, b in zip(mentions, mentions[1:]):
        tid = pairs.get(frozenset((a.code, b.code)))
        if tid is None or b.start - a.end > _PAIR_GAP:
            continue
        if any(a.start - _TREATY_WINDOW <= i < a.start or b.end <= i < b.end + _TREATY_WINDOW for i in words):
            return tid
    return None


@dataclass(frozen=True)
class Direction:
    treaty: str | None
    inferred: bool
    not_covered: tuple[str, str] | None
    residence: str | None
    source: str | None
    readings: tuple[Reading, ...] = ()


def _complete(parties: tuple[str, ...], residence: str | None, source: str | None, roles: dict[str, str | None],
              two_residences: bool) -> tuple[str | None, str | None]:
    """Fill the other party's role when one is known and nothing says otherwise."""
    if len(parties) != 2:
        return residence, source
    if residence in parties and source is None:
        other = parties[1 - parties.index(residence)]
        if roles.get(other) in (None, *SOURCE_ROLES):
            source = other
    elif source in parties and residence is None and not two_residences:
        other = parties[1 - parties.index(source)]
        if roles.get(other) in (None, "residence", "employer"):    # an employer of the other State
            residence = other
    return residence, source


def _readings(named: str, candidates: list[str], treaties: Treaties, role: str | None,
              language: str) -> tuple[Reading, ...]:
    """One reading per treaty that has the only named country: the other party is assumed to be the
    residence when the named country is the source, the source when it is the residence, and when its
    role is unknown, both directions stay open within that treaty."""
    out = []
    for tid in candidates:
        parties = tuple(dict.fromkeys(treaties[tid]))
        other = parties[1 - parties.index(named)]
        if role in ("residence", "base"):
            out.append(Reading(tid, named, other, other, "source"))
        elif role in SOURCE_ROLES:
            out.append(Reading(tid, other, named, other, "residence"))
        else:
            out.append(Reading(tid, None, None, other, "other"))
    return _ranked(out, language)


def _ranked(readings: list[Reading], language: str, mark_likely: bool = True) -> tuple[Reading, ...]:
    """Readings with the question language's likeliest country first; when it is the first choice of that
    language ("es": Spain), that reading is marked likely and answered first, the others offered."""
    likely = countries().language_countries.get(language, ())
    order = sorted(readings, key=lambda r: likely.index(r.assumed) if r.assumed in likely else len(likely))
    if mark_likely and order and likely and order[0].assumed == likely[0]:
        order[0] = replace(order[0], likely=True)
    return tuple(order)


def _two_treaties(known: str, is_residence: bool, tids: list[str], treaties: Treaties,
                  language: str) -> tuple[Reading, ...]:
    out = []
    for tid in tids:
        parties = tuple(dict.fromkeys(treaties[tid]))
        other = parties[1 - parties.index(known)]
        if is_residence:
            out.append(Reading(tid, known, other, other, "source"))
        else:
            out.append(Reading(tid, other, known, other, "residence"))
    return _ranked(out, language, mark_likely=False)        # both were named: both are answered


# The roles a State has as one of a treaty's pair: where one lives or where the income is, or unsaid ("a home in
# Porto", "Spanish by birth", "I lived in Lisbon until 2020" make it no party)
_PARTY_ROLES = (None, "residence", "base", *SOURCE_ROLES)


def _covered_among(codes: list[str], pairs: dict[frozenset[str], str], roles: dict[str, str | None],
                   residence: str | None, treaties: Treaties, language: str) -> tuple[str | None, tuple[Reading, ...]]:
    """A pair no treaty covers was read, but two States the question names as parties are one a treaty joins
    ("vivo en Madrid y me traslado a Tavira; un piso en São Paulo alquilado"): that treaty; two such
    treaties sharing a State ("resident in Valencia, moving to Lisbon; royalties from São Paulo"): both, as
    readings of the shared State."""
    parties = [c for c in codes if roles.get(c) in _PARTY_ROLES]
    found = sorted(tid for pair, tid in pairs.items() if pair <= set(parties))
    if len(found) == 1:
        return found[0], ()
    shared = set.intersection(*(set(treaties[tid]) for tid in found)) if found else set()
    if len(shared) != 1:
        return None, ()
    common = shared.pop()
    at_home = common == residence or roles.get(common) in ("residence", "base")
    return None, _two_treaties(common, at_home, found, treaties, language)


def direction(folded: str, mentions: list[Mention], treaties: Treaties, residence_states: tuple[str, ...],
              source_states: tuple[str, ...], language: str, has_topic: bool, third_named: bool,
              named_in_words: str | None = None) -> Direction:
    """has_topic: without a treaty subject, one named country is no reason to answer for its treaties;
    third_named: the question says "third country" / "terceiro país"; named_in_words: the treaty the question
    names by its countries (treaty_in_words)."""
    pairs = _pairs(treaties)
    named = _named_treaty(folded, treaties) or named_in_words
    roles = {m.code: m.role for m in mentions}
    # a branch in a country no treaty covers ("a sucursal nas Ilhas Cayman"), or any such country when the
    # question says "third country", is a third State: a fact of the question, not one of the treaty's pair
    codes = unique(m.code for m in mentions
                   if any(m.code in pair for pair in pairs) or not (third_named or roles.get(m.code) == "pe"))
    covered = [c for c in codes if any(c in pair for pair in pairs)]
    residence = residence_states[0] if len(residence_states) == 1 else None
    others = [s for s in source_states if s != residence]
    # of several source States, the first one a treaty pairs with the residence ("moro em Portugal; pensões de
    # um fundo francês e de um fundo brasileiro"): the income a covered treaty decides is answered, not refused
    source = next((s for s in others if residence and frozenset((residence, s)) in pairs),
                  others[0] if others else None)
    treaty = None
    inferred = False
    not_covered = None
    readings: tuple[Reading, ...] = ()
    if named:
        treaty = named
    elif len(residence_states) == 2:
        treaty = pairs.get(frozenset(residence_states))
        not_covered = None if treaty else (residence_states[0], residence_states[1])
    elif residence and source:
        treaty = pairs.get(frozenset((residence, source)))
        not_covered = None if treaty else (residence, source)
    else:
        candidates = [(max(codes.index(c) for c in pair), tid) for pair, tid in pairs.items() if pair <= set(codes)]
        known = residence or source
        if len(candidates) > 1 and known and all(known in treaties[tid] for _, tid in candidates):
            readings = _two_treaties(known, residence is not None, [tid for _, tid in sorted(candidates)],
                                     treaties, language)       # "a holding em Portugal ou em Espanha"
        elif candidates:
            treaty = min(candidates)[1]
        elif len(covered) == 1 and not any(roles.get(c) in (None, "residence", "base", *SOURCE_ROLES)
                                           for c in codes if c != covered[0]):
            only = covered[0]                          # other countries only as nationality, home, ...
            with_it = [tid for pair, tid in pairs.items() if only in pair]
            if len(with_it) == 1:
                treaty, inferred = with_it[0], True
            elif has_topic:      # its role as the question reads it, over its last mention's ("la Receita")
                left = any(m.code == only and m.role == "former_residence" for m in mentions)
                # "moro fora do Brasil": the State left is the source
                role = "residence" if only == residence else "source" if only == source or left else roles.get(only)
                readings = _readings(only, with_it, treaties, role, language)
        elif len(codes) >= 2:
            not_covered = (codes[0], codes[1])
    if not_covered and treaty is None and not readings:
        treaty, readings = _covered_among(codes, pairs, roles, residence, treaties, language)
        if treaty or readings:
            not_covered = None
        if treaty:      # the States read outside the treaty's pair are no party to it
            residence, source = (s if s in treaties[treaty] else None for s in (residence, source))
    if treaty is not None and treaty in treaties:
        residence, source = _complete(tuple(dict.fromkeys(treaties[treaty])), residence, source, roles,
                                      len(residence_states) >= 2)
    return Direction(treaty, inferred, not_covered, residence, source, readings)
