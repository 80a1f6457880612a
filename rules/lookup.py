"""Resolving the user's treaty and State codes against the data files; refusals are catalogue keys."""
from __future__ import annotations

from rules.results import NotCovered, RulesInputError
from rules.treaty_data import TreatyData, load_all, resolve


def bilateral() -> dict[str, TreatyData]:
    return {t: d for t, d in load_all().items() if len(d.parties) == 2}


def known_treaties() -> dict[str, tuple[str, str]]:
    """Bilateral treaties the rules know, with their two parties (for query understanding)."""
    return {t: (d.parties[0], d.parties[1]) for t, d in bilateral().items()}


def covered_list() -> list[str]:
    return [f"{t} ({' – '.join(d.parties)})" if d.parties else t for t, d in sorted(load_all().items())]


def treaty_or_not_covered(treaty: str) -> TreatyData | NotCovered:
    data = resolve(treaty) if isinstance(treaty, str) else None
    if data is None:
        return NotCovered.because(str(treaty), covered_list(), "rules.not_covered.unknown_treaty", treaty=treaty,
                                  listed=", ".join(covered_list()))
    return data


def treaty_for(state_a: str, state_b: str) -> str | NotCovered:
    """The treaty between two States (codes, any order), or NotCovered."""
    pair = {str(state_a).strip().upper(), str(state_b).strip().upper()}
    for t, d in bilateral().items():
        if set(d.parties) == pair:
            return t
    return NotCovered.because(f"{state_a}-{state_b}", covered_list(), "rules.not_covered.no_treaty_between",
                              a=state_a, b=state_b, listed=", ".join(covered_list()))


def other_party(data: TreatyData, source_state: str) -> str:
    state = str(source_state).strip().upper()
    if len(data.parties) != 2:
        raise RulesInputError("not_bilateral", treaty=data.treaty)
    if state not in data.parties:
        raise RulesInputError("source_not_party", state=repr(source_state), treaty=data.treaty,
                              parties=", ".join(data.parties))
    return data.parties[1] if data.parties[0] == state else data.parties[0]
