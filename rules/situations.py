"""Situation tests as data (rules/cases/<treaty>.yaml): input facts → the expected outcome per State, the
relief and a citation, written from the corpus text; `check()` runs one against the rules and says what
differs, `coverage_gaps()` lists the data entries (taxing-rights cases, withholding rules, relief entries)
that no situation decides. `python -m rules.situations` prints both (the coverage report).

Expected rights per State: `exclusive`, `shared`, `none`, `exempt`, or `capped <rate>` / `capped <outcome>`
(the cap the withholding rules give); `effective_management` names the role of arts. 8/13/15(3).
"""
from __future__ import annotations

import sys
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field

from rules.facts import Facts
from rules.results import Citation, NotCovered, TaxingRightsResult, WithholdingResult
from rules.rights import taxing_rights
from rules.treaty_data import TreatyData, load_all
from rules.withholding import withholding_cap

CASES_DIR = Path(__file__).resolve().parent / "cases"


class Situation(BaseModel):
    """One situation: who receives what, and what the treaty text says happens."""
    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str
    says: str = ""                                   # the corpus words the expectation rests on
    kind: Literal["rights", "withholding"] = "rights"
    income: str
    residence: str | None = None                     # rights: the beneficiary's State
    source: str | None = None                        # withholding: the source State
    facts: dict[str, object] = Field(default_factory=dict)
    rule: str | None = None                          # the deciding entry
    via: list[str] = Field(default_factory=list)     # redirecting entries on the way
    rights: dict[str, str] = Field(default_factory=dict)   # State code or role -> expected right
    outcome: str | None = None                       # withholding: cap | exempt | no_treaty_limit | ...
    rate: float | None = None
    alternatives: list[str] = Field(default_factory=list)  # undecided: the entries still possible
    missing: list[str] = Field(default_factory=list)       # undecided: the facts to ask for
    relief: list[str] | None = None                  # relief entry ids of the residence State (None = unchecked)
    cite: str | None = None                          # "18(1)", "11(4)(a)", "Protocolo 6": a citation it must carry
    not_covered: bool = False


class CaseFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    treaty: str
    cases: list[Situation]


@lru_cache(maxsize=4)
def load_cases(cases_dir: Path = CASES_DIR) -> tuple[tuple[str, Situation], ...]:
    out: list[tuple[str, Situation]] = []
    for path in sorted(cases_dir.glob("*.yaml")):
        data = CaseFile.model_validate(yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader))
        out += [(data.treaty, s) for s in data.cases]
    return tuple(out)


def _facts(raw: dict[str, object]) -> Facts:
    values = {k: date.fromisoformat(v) if k in ("holding_since", "payment_date") and isinstance(v, str) else v
              for k, v in raw.items()}
    return Facts(**values)  # type: ignore[arg-type]


def _label(c: Citation) -> str:
    return c.article + "".join(f"({p})" for p in (c.paragraph, c.subparagraph) if p) if c.article else ""


def _cites(citations: list[Citation], wanted: str) -> bool:
    return any(_label(c) == wanted or _label(c).startswith(wanted + "(") for c in citations)


def _right_text(right: str, cap: WithholdingResult | None) -> str:
    if right != "capped" or cap is None:
        return right
    return f"capped {cap.rate:g}" if cap.outcome == "cap" and cap.rate is not None else f"capped {cap.outcome}"


def _check_rights(treaty: str, s: Situation) -> list[str]:
    result = taxing_rights(treaty, s.income, s.residence or "", _facts(s.facts))
    if s.not_covered:
        return [] if isinstance(result, NotCovered) else [f"esperado NotCovered, obtido {type(result).__name__}"]
    if not isinstance(result, TaxingRightsResult):
        return [f"sem resultado: {result.message_in('pt')}"]
    problems: list[str] = []
    if s.alternatives:
        got = [c.rule_id for c in result.cases]
        if result.outcome != "alternatives" or sorted(got) != sorted(s.alternatives):
            problems.append(f"alternativas {got} ≠ {s.alternatives}")
        if s.missing and result.missing_facts != s.missing:
            problems.append(f"factos em falta {result.missing_facts} ≠ {s.missing}")
        return problems
    if result.outcome != "decided":
        return [f"não decidido: {[c.rule_id for c in result.cases]} (falta {result.missing_facts})"]
    case = result.cases[0]
    if s.rule and case.rule_id != s.rule:
        problems.append(f"regra {case.rule_id} ≠ {s.rule}")
    if s.via and case.via != s.via:
        problems.append(f"via {case.via} ≠ {s.via}")
    got_rights = {(r.state or r.role): _right_text(r.right, r.cap) for r in case.rights}
    if s.rights and got_rights != s.rights:
        problems.append(f"direitos {got_rights} ≠ {s.rights}")
    if s.relief is not None and sorted(r.id for r in case.relief) != sorted(s.relief):
        problems.append(f"eliminação {[r.id for r in case.relief]} ≠ {s.relief}")
    if s.cite and not _cites(case.citations, s.cite):
        problems.append(f"sem citação de {s.cite}: {[_label(c) for c in case.citations]}")
    return problems


def _check_withholding(treaty: str, s: Situation) -> list[str]:
    result = withholding_cap(treaty, s.income, s.source or "", _facts(s.facts))
    if s.not_covered:
        return [] if isinstance(result, NotCovered) else [f"esperado NotCovered, obtido {result.outcome}"]
    if not isinstance(result, WithholdingResult):
        return [f"sem resultado: {result.message_in('pt')}"]
    problems: list[str] = []
    if s.alternatives:
        got = [a.rule_id for a in result.alternatives]
        if result.outcome != "alternatives" or sorted(got) != sorted(s.alternatives):
            problems.append(f"alternativas {got} ≠ {s.alternatives}")
        if s.missing and sorted(result.missing_facts) != sorted(s.missing):
            problems.append(f"factos em falta {result.missing_facts} ≠ {s.missing}")
        return problems
    if s.outcome and result.outcome != s.outcome:
        problems.append(f"resultado {result.outcome} ≠ {s.outcome}")
    if s.rate is not None and result.rate != s.rate:
        problems.append(f"taxa {result.rate} ≠ {s.rate}")
    if s.rule and result.rule_id != s.rule:
        problems.append(f"regra {result.rule_id} ≠ {s.rule}")
    if s.cite and not _cites(result.citations, s.cite):
        problems.append(f"sem citação de {s.cite}: {[_label(c) for c in result.citations]}")
    return problems


def check(treaty: str, s: Situation) -> list[str]:
    """What the rules answer differently from the situation's expectation (empty = as the text says)."""
    return _check_rights(treaty, s) if s.kind == "rights" else _check_withholding(treaty, s)


def entries(data: TreatyData) -> list[str]:
    """Every entry a situation must decide: taxing-rights cases, withholding rules, relief entries."""
    out = [c.id for spec in data.rights.values() for c in spec.cases]
    out += [r.id for r in data.common_exclusions] + [r.id for spec in data.incomes.values() for r in spec.rules]
    return list(dict.fromkeys(out + [r.id for r in data.relief]))


def coverage_gaps() -> dict[str, list[str]]:
    """Per treaty, the entries that no situation decides (as rule, via or relief)."""
    decided: dict[str, set[str]] = {}
    for treaty, s in load_cases():
        ids = decided.setdefault(treaty, set())
        ids |= {x for x in [s.rule, *s.via, *(s.relief or [])] if x}
    gaps = {t: [e for e in entries(d) if e not in decided.get(t, set())] for t, d in sorted(load_all().items())}
    return {t: g for t, g in gaps.items() if g}


def main() -> int:
    cases = load_cases()
    failed = [(t, s.id, p) for t, s in cases for p in check(t, s)]
    for treaty, sid, problem in failed:
        print(f"FALHA {treaty} {sid}: {problem}")
    gaps = coverage_gaps()
    print(f"{len(cases)} situações, {len(failed)} divergências; entradas sem situação: "
          f"{sum(len(g) for g in gaps.values())}")
    for treaty, missing in gaps.items():
        print(f"  {treaty}: {', '.join(missing)}")
    return 1 if failed or gaps else 0


if __name__ == "__main__":
    sys.exit(main())
