"""residence_tiebreaker(): art. 4(2) a)–d) step by step for individuals, 4(3) for other persons.

Each step either decides (one State), passes to the next (both States or neither, or vital interests
undetermined), or stops because its fact was not stated (named in missing_facts).
"""
from __future__ import annotations

from rules.facts import TiebreakerFacts
from rules.lookup import treaty_or_not_covered
from rules.results import Message, NotCovered, RulesInputError, TiebreakerResult, TiebreakerStep
from rules.treaty_data import TreatyData, load_all


def _step(step: str, outcome: str, state: str | None) -> TiebreakerStep:
    return TiebreakerStep(step, outcome, state)


def _states(data: TreatyData, value: tuple[str, ...] | list[str] | str | None, step: str) -> tuple[str, ...] | None:
    if value is None:
        return None
    items = (value,) if isinstance(value, str) else tuple(value)
    states = tuple(sorted({str(s).strip().upper() for s in items}))
    unknown = [s for s in states if s not in data.parties]
    if unknown:
        raise RulesInputError("state_not_party", field=Message(f"rules.tiebreaker_steps.{step}"),
                              states=", ".join(unknown), treaty=data.treaty, parties=", ".join(data.parties))
    return states


def residence_tiebreaker(treaty: str, facts: TiebreakerFacts) -> TiebreakerResult | NotCovered:
    data = treaty_or_not_covered(treaty)
    if isinstance(data, NotCovered):
        return data
    if not isinstance(facts, TiebreakerFacts):
        raise RulesInputError("facts_type", expected="TiebreakerFacts")
    if facts.person not in ("individual", "company"):
        raise RulesInputError("unknown_person", value=repr(facts.person))
    steps_data = data.residence_individual if facts.person == "individual" else data.residence_company
    if not steps_data:
        individual = facts.person == "individual"
        covered = [t for t, d in load_all().items() if (d.residence_individual if individual
                                                     else d.residence_company)]
        who = "individual" if individual else "company"
        return NotCovered.because(f"{data.treaty}: residência ({who})", covered,
                                  f"rules.not_covered.no_tiebreaker_{who}", treaty=data.treaty)
    if facts.person == "company":
        return _company(data, facts)
    return _individual(data, facts)


def _result(data: TreatyData, person: str, steps: list[TiebreakerStep], result: str | None,
            missing: list[str]) -> TiebreakerResult:
    table = data.residence_individual if person == "individual" else data.residence_company
    decided = steps[-1].step if result is not None else None
    citations = [table[s.step].citation for s in steps]
    return TiebreakerResult(treaty=data.treaty, person=person, result=result, deciding_step=decided, steps=steps,
                            missing_facts=missing, citations=citations, notes=list(data.notes))


def _company(data: TreatyData, facts: TiebreakerFacts) -> TiebreakerResult:
    place = _states(data, facts.effective_management_in, "effective_management")
    if place is None:
        return _result(data, "company", [_step("effective_management", "unknown", None)], None,
                       ["effective_management_in"])
    if len(place) != 1:
        raise RulesInputError("one_management_place")
    return _result(data, "company", [_step("effective_management", "decided", place[0])], place[0], [])


def _individual(data: TreatyData, facts: TiebreakerFacts) -> TiebreakerResult:
    steps: list[TiebreakerStep] = []

    def stop(step: str, fact: str) -> TiebreakerResult:
        steps.append(_step(step, "unknown", None))
        return _result(data, "individual", steps, None, [fact])

    def decide(step: str, state: str) -> TiebreakerResult:
        steps.append(_step(step, "decided", state))
        return _result(data, "individual", steps, state, [])

    def next_step(step: str) -> None:
        steps.append(_step(step, "next", None))

    home = _states(data, facts.permanent_home_in, "permanent_home")
    if home is None:
        return stop("permanent_home", "permanent_home_in")
    if len(home) == 1:
        return decide("permanent_home", home[0])
    next_step("permanent_home")
    if len(home) == 2:                       # a home in both States: centre of vital interests
        vital = facts.vital_interests_in
        if vital is None:
            return stop("vital_interests", "vital_interests_in")
        if vital.strip().lower() != "undetermined":
            return decide("vital_interests", (_states(data, vital, "vital_interests") or ("",))[0])
        next_step("vital_interests")
    abode = _states(data, facts.habitual_abode_in, "habitual_abode")
    if abode is None:
        return stop("habitual_abode", "habitual_abode_in")
    if len(abode) == 1:
        return decide("habitual_abode", abode[0])
    next_step("habitual_abode")
    nationality = _states(data, facts.nationality, "nationality")
    if nationality is None:
        return stop("nationality", "nationality")
    if len(nationality) == 1:
        return decide("nationality", nationality[0])
    next_step("nationality")
    steps.append(_step("mutual_agreement", "decided", None))
    return _result(data, "individual", steps, "mutual_agreement", [])
