"""Which facts can decide an answer on a topic: the Facts fields the data's conditions read for it.

Read from the data files (withholding rules and requirements, taxing-rights cases, figures, relief), so a
new treaty or case brings its facts with it; the reader uses this to tell the facts a question states that
decide its answer from the facts it merely mentions.
"""
from __future__ import annotations

from functools import lru_cache

from rules.conditions import SPECS
from rules.treaty_data import TreatyData, load_all


def _codes(data: TreatyData, topic: str, seen: frozenset[str] = frozenset()) -> set[str]:
    """Condition codes on `topic`, and on the incomes its cases redirect to (19(2) pensions -> art. 19)."""
    codes: set[str] = set()
    spec = data.incomes.get(topic)
    if spec is not None:
        codes |= {c.code for rule in (*data.common_exclusions, *spec.rules) for c in rule.when}
        codes |= {r.code for r in spec.requirements}
        if spec.redirect is not None:
            codes.add(spec.redirect.when)
    rights = data.rights.get(topic)
    if rights is not None:
        codes |= {c.code for case in rights.cases for c in case.when}
        for target in {case.redirect for case in rights.cases if case.redirect} - seen - {topic}:
            codes |= _codes(data, target, seen | {topic})
    codes |= {c.code for f in data.figures if f.answers(topic) for c in f.conditions}
    codes |= {c.code for r in data.relief if topic in r.incomes or (not r.incomes and topic ==
                                                                     "double_taxation_relief") for c in r.when}
    return codes


@lru_cache(maxsize=256)
def deciding_facts(treaty: str | None, topic: str) -> frozenset[str]:
    """Facts fields some condition on `topic` reads, in that treaty (every treaty when None or unknown)."""
    treaties = load_all()
    chosen = [treaties[treaty]] if treaty in treaties else list(treaties.values())
    codes = set().union(*(_codes(d, topic) for d in chosen)) if chosen else set()
    return frozenset(name for code in codes if code in SPECS for name in SPECS[code].facts)
