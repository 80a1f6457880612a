"""The card, built once from the rule results (RuleRun) and the citation numbers: typed lines, no text."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Sequence, TypeVar

import rules
from assistant.applied import checked
from assistant.apply_rules import RuleRun
from assistant.presentation.card import About, Card, CardRate, Line, Ref, Section, Source
from assistant.presentation.values import (
    Check,
    Day,
    Emph,
    Join,
    Num,
    Paren,
    Phrase,
    Rate,
    Stated,
    StateName,
    Topic,
    Value,
    check,
    condition,
    phrase_of,
)
from rules.thresholds import ActivityTest, SiteTest

T = TypeVar("T")
Cite = Callable[[rules.Citation], "int | None"]     # a rule's citation -> its [n], when shown


def say(key: str, **params: Value) -> Phrase:
    """An assistant message (i18n/assistant.yaml)."""
    return Phrase(f"assistant.{key}", params)


def word(key: str) -> Emph:
    """A stressed word of the card (presentation.word.*)."""
    return Emph(Phrase(f"presentation.word.{key}"))


@dataclass(frozen=True)
class Part:
    """One reading of the question and what the rules said for it; label None when the reading is certain."""
    label: Value | None
    topic: str | None
    run: RuleRun


class _Builder:
    def __init__(self, cite: Cite):
        self.cite = cite
        self.facts: rules.Facts | None = None      # the facts the rules read: stated numbers vs thresholds

    def check(self, c: rules.Condition) -> Check:
        return checked(c, self.facts)

    def refs(self, citations: Iterable[rules.Citation]) -> tuple[int, ...]:
        return tuple(dict.fromkeys(n for n in (self.cite(c) for c in citations) if n))

    # ---- withholding --------------------------------------------------------------------------
    def withholding(self, result: rules.WithholdingResult) -> list[Line]:
        direction = say("direction", source=StateName(result.source_state),
                        residence=StateName(result.residence_state))
        lines = [Line("heading", Join((Emph(Topic(result.income, capitalised=True)), Paren(direction)), " "),
                      about=About("withholding", result.income, result.source_state, result.residence_state))]
        alternatives = result.outcome == "alternatives"
        options = usual_first(result.alternatives) if alternatives else [result]
        if alternatives:
            lines.append(Line("intro", say("alternatives_intro")))
        for opt in options:
            outcome = _outcome(opt.outcome, opt.rate)
            plain = _conditions(opt.conditions)
            text: Value = outcome
            if plain is not None and alternatives:
                only_otherwise = all(c.code == "otherwise" for c in opt.conditions)
                marked = Join(tuple(self.check(c) for c in opt.conditions if c.code != "otherwise"))
                text = Join((outcome, plain if only_otherwise else say("if_conditions", conditions=marked)), " — ")
            value = 0.0 if opt.outcome == "exempt" else opt.rate
            rates = (CardRate(float(value), result.income, result.source_state, result.residence_state, plain,
                              _ref(opt.citations)),) if value is not None else ()
            lines.append(Line("outcome", text, level=1, refs=self.refs(opt.citations), rates=rates))
        if not alternatives:
            checks = [self.check(c) for c in result.conditions if c.code != "otherwise"]
            known = [c for c in checks if c.status != "unknown"]
            unknown = [c for c in checks if c.status == "unknown"]
            if known:
                lines.append(Line("detail", Join(tuple(known)), level=2))
            if unknown:          # not known from the question: said as a condition, never as a fact
                lines.append(Line("detail", say("if_conditions", conditions=Join(tuple(unknown))), level=2))
        for alt in result.ruled_out:        # why a lower rate does not apply: the stated fact that fails it
            if alt.conditions:
                failed = Join(tuple(Check(self.check(c).phrase, "not_met") for c in alt.conditions))
                lines.append(Line("detail", say("ruled_out", conditions=failed), level=2,
                                  refs=self.refs(alt.citations)))
        lines += _assumptions(result.assumptions)
        if result.coverage == "summary":
            lines.append(Line("note", say("summary_only")))
        return lines

    # ---- employment, tie-breaker, figures -----------------------------------------------------------
    def employment(self, result: rules.EmploymentResult) -> list[Line]:
        if result.taxable_in_work_state is True:
            head, verdict = say("employment_taxable", may_tax=word("may_tax")), "work_state"
        elif result.taxable_in_work_state is False:
            head, verdict = say("employment_exempt", only_residence=word("only_residence")), "residence_only"
        else:
            head, verdict = say("employment_unknown", items=_facts(result.missing_facts)), "undetermined"
        lines = [Line("outcome", head, about=About("employment", "employment", verdict=verdict))]
        if result.window_start and result.window_end:
            lines.append(Line("detail", say(
                "employment_window", start=Day(result.window_start), end=Day(result.window_end),
                days=Emph(Num(result.days, "days")), max_days=result.max_days,
                rule=Phrase(f"rules.windows.{result.window_rule}"))))
        lines += [Line("detail", check(c), level=1, status=check(c).status) for c in result.conditions]
        lines.append(Line("detail", Join(()), refs=self.refs(result.citations)))
        return lines

    def tiebreaker(self, result: rules.TiebreakerResult) -> list[Line]:
        if result.result == "mutual_agreement":
            head = say("tiebreaker_mutual", mutual=word("mutual"))
        elif result.result:
            head = say("tiebreaker_result", state=Emph(StateName(result.result, "of")),
                       step=say(f"steps.{result.deciding_step}"))
        else:
            head = say("tiebreaker_unknown", items=_facts(result.missing_facts))
        lines = [Line("outcome", head)]
        lines += [Line("detail", Phrase(f"rules.tiebreaker_steps.{s.step}"), level=1) for s in result.steps]
        lines.append(Line("detail", Join(()), refs=self.refs(result.citations)))
        return lines

    def figure(self, fig: rules.Figure, level: int, kind: str = "outcome") -> Line:
        text: Value = phrase_of(fig.description)
        if isinstance(fig.value, (int, float)) and not isinstance(fig.value, bool):
            text = Join((Emph(Num(float(fig.value), fig.unit)), text), " — ")
        return Line(kind, text, level=level, refs=self.refs(fig.citations))  # type: ignore[arg-type]

    def figures(self, figures: list[rules.Figure], intro: Phrase) -> list[Line]:
        return [Line("figure", intro), *(self.figure(f, 1, "figure") for f in figures)]

    # ---- who may tax ----------------------------------------------------------------------------
    def rights(self, result: rules.TaxingRightsResult, caps_shown: bool) -> list[Line]:
        """caps_shown: the withholding block already states the caps (their rates are not repeated)."""
        direction = say("direction", source=StateName(result.source_state),
                        residence=StateName(result.residence_state))
        lines = [Line("heading", Join((Emph(Phrase("assistant.rights.heading")), Paren(direction)), " "),
                      about=About("rights", result.income, result.source_state, result.residence_state))]
        if result.outcome == "decided":
            case = result.cases[0]
            text, rates = _rights_line(case, result, caps_shown)
            lines.append(Line("outcome", text, refs=self.refs(case.citations), rates=rates))
            marks = tuple(self.check(c) for c in case.conditions if c.status in ("met", "not_met"))
            if marks:
                lines.append(Line("detail", Join(marks), level=2))
            lines += self.relief_of(case, result)
            lines += [Line("note", phrase_of(n)) for n in case.notes]
        else:
            lines.append(Line("intro", say("alternatives_intro")))
            for case in sorted(result.cases, key=lambda c: any(x.code != "otherwise"
                                                                for x in c.conditions)):
                conditions = _all(case.conditions)
                when = say("if_conditions", conditions=conditions) if conditions is not None else \
                    Phrase("rules.conditions.otherwise")
                text, rates = _rights_line(case, result, caps_shown)
                lines.append(Line("outcome", Join((when, text), ": "), level=1, refs=self.refs(case.citations),
                                  rates=rates))
                lines += [Line(x.kind, x.text, level=2, refs=x.refs) for x in self.relief_of(case, result)]
        lines += _assumptions(result.assumptions)
        if result.coverage == "summary":
            lines.append(Line("note", say("summary_only")))
        return lines

    def relief_of(self, case: rules.RightsCase, result: rules.TaxingRightsResult) -> list[Line]:
        if not case.relief:
            own = next((r.right for r in case.rights if r.role == "residence"), None)
            if own == "exclusive":
                return [Line("relief", say("rights.no_double_tax", state=StateName(result.residence_state, "the")))]
            return []
        return self.reliefs(case.relief, result.residence_state)

    def reliefs(self, reliefs: Sequence[rules.Relief], state: str) -> list[Line]:
        lines = [Line("relief", say("rights.relief_intro", state=StateName(state, "the")))]
        for relief in reliefs:
            method: Value = say(f"rights.method.{relief.method}")
            conditions = _all(relief.conditions)
            if conditions is not None:
                method = Join((method, say("if_conditions", conditions=conditions)), " — ")
            lines.append(Line("relief", method, level=1, refs=self.refs(relief.citations)))
            lines += [self.figure(f, 2, "relief") for f in relief.figures]
        return lines

    # ---- the whole run --------------------------------------------------------------------------
    def site(self, run: RuleRun) -> list[Line]:
        """"7 meses < 9 meses: o estaleiro não é estabelecimento estável; só Portugal pode tributar (art. 7.º)":
        a stated site duration against the treaty's figure, or a stated activity against the treaty's words on it
        (a branch is a PE, a storage-only warehouse is not), and who taxes the profits as the rights decide."""
        test: SiteTest | ActivityTest | None = run.site or run.activity
        if isinstance(test, ActivityTest):
            text: Value = say(f"thresholds.pe_activity.{test.activity}")
        elif test is not None and isinstance(test.figure.value, (int, float)):
            limit = float(test.figure.value)
            sign = ">" if test.permanent_establishment else "=" if test.months == limit else "<"
            text = say("thresholds.site_pe" if test.permanent_establishment else "thresholds.site_no_pe",
                       stated=Stated(Num(round(test.months, 1), "months")), op=sign, limit=Num(limit, "months"))
        else:
            return []
        decided = next((r for r in run.rights if r.outcome == "decided" and r.income == "business_profits"), None)
        only = None if decided is None else next(
            (r for r in decided.cases[0].rights if r.right == "exclusive" and r.state), None)
        if decided is not None and only is not None:
            who = say("rights.right.exclusive", who=Emph(StateName(only.state or "", "the")))
            text = Join((text, Join((who, Paren(say("rights.article", article=decided.cases[0].article))), " ")))
        return [Line("outcome", text, refs=self.refs(test.citations))]

    def run(self, run: RuleRun, topic: str | None) -> list[Line]:
        self.facts = run.facts
        lines: list[Line] = []
        if run.source_unknown:
            lines.append(Line("intro", say("both_sources")))
        for result in run.withholding:
            lines += self.withholding(result)
        if run.employment:
            lines += self.employment(run.employment)
        if run.tiebreaker:
            lines += self.tiebreaker(run.tiebreaker)
        if run.figures and topic:
            lines += self.figures(run.figures, say("figures_intro", topic=Topic(topic)))
        lines += self.site(run)
        if run.stated:
            lines.append(Line("detail", say("thresholds.stated", items=Join(tuple(self.check(c) for c in run.stated)))))
        for rights in run.rights:
            lines += self.rights(rights, caps_shown=bool(run.withholding))
        if run.relief:
            lines += self.reliefs(run.relief, run.relief[0].state)
        if run.documents:
            lines.append(Line("intro", say("documents_intro")))
            lines += [Line("outcome", phrase_of(d.description), level=1, refs=self.refs(d.citations))
                      for d in run.documents]
        if run.instrument_figures:
            lines += self.figures(run.instrument_figures, say("instrument_figures_intro"))
        notes: list[Phrase] = []
        for note in (phrase_of(n) for r in [*run.withholding, *run.rights] for n in r.notes):
            if note not in notes:
                notes.append(note)
        if notes:
            lines.append(Line("notes", Join(tuple(notes), " ")))
        lines += [Line("error", phrase_of(e)) for e in run.errors]
        if run.absent is not None:          # the provision asked about is not in the corpus's text
            lines.append(Line("outcome", phrase_of(run.absent.reason)))
        return _notes_once(lines)


def usual_first(options: list[T]) -> list[T]:
    """Alternatives with the rule that holds "in all other cases" first: a question that does not say who
    receives the income leads with the usual rate, not the rare government exemption."""
    return sorted(options, key=lambda o: not all(c.code == "otherwise" for c in getattr(o, "conditions")))


def _notes_once(lines: list[Line]) -> list[Line]:
    """A note said once per card, however many blocks add it (e.g. "summary only")."""
    seen: list[Line] = []
    out = []
    for line in lines:
        if line.kind == "note":
            if line in seen:
                continue
            seen.append(line)
        out.append(line)
    return out


def _outcome(outcome: str, rate: float | None) -> Value:
    if outcome == "cap" and rate is not None:
        return say("rate_cap", rate=Emph(Rate(rate)))
    if outcome == "exempt":
        return say("rate_exempt", exempt=word("exempt"))
    if outcome == "source_only":
        return say("source_only", only_source=word("only_source"))
    return say(outcome) if outcome in ("no_treaty_limit", "pe_article_7", "no_treaty_benefit",
                                       "not_in_corpus") else outcome


def _conditions(conditions: Sequence[rules.Condition]) -> Value | None:
    """A withholding option's conditions joined (without their status); "in all other cases" only alone."""
    real = tuple(condition(c) for c in conditions if c.code != "otherwise")
    if real:
        return Join(real)
    return condition(conditions[0]) if conditions else None


def _all(conditions: Sequence[rules.Condition]) -> Value | None:
    return Join(tuple(condition(c) for c in conditions)) if conditions else None


def _assumptions(assumed: Sequence[rules.Condition]) -> list[Line]:
    return [Line("assumption", say("assumptions", items=Join(tuple(condition(c) for c in assumed))))] \
        if assumed else []


def _facts(missing: Sequence[str]) -> Value:
    return Join(tuple(say(f"facts.{m}") for m in missing)) if missing else "—"


def _ref(citations: Sequence[rules.Citation]) -> Ref | None:
    first = citations[0] if citations else None
    return Ref(first.treaty, first.article, first.paragraph, first.subparagraph) if first else None


def _who(right: rules.StateRight, result: rules.TaxingRightsResult, source_role: str | None = None) -> Value:
    if right.role == "effective_management":
        if right.state:          # named in the question
            return say("rights.state_with_role", state=StateName(right.state, "the"),
                       role=say("rights.effective_management"))
        return say("rights.effective_management")
    state = StateName(right.state or "", "the")
    if right.role == "source":
        return say("rights.state_with_role", state=state, role=Phrase(source_role or result.source_role))
    return say("rights.state_residence", state=state)


def _cap(right: rules.StateRight, caps_shown: bool) -> tuple[Value, tuple[CardRate, ...]]:
    cap = right.cap
    if cap is None:
        return say("rights.cap_unknown"), ()
    if cap.outcome == "cap" and cap.rate is not None:
        rates = () if caps_shown else (CardRate(float(cap.rate), cap.income, cap.source_state,
                                                cap.residence_state, None, _ref(cap.citations)),)
        return say("rights.cap_rate", rate=Rate(cap.rate)), rates
    return say("rights.cap_see_above"), ()


def _uncapped(right: rules.StateRight) -> bool:
    return right.right == "capped" and right.cap is not None and \
        right.cap.outcome in ("no_treaty_limit", "no_treaty_benefit")


def _rights_line(case: rules.RightsCase, result: rules.TaxingRightsResult, caps_shown: bool
                 ) -> tuple[Value, tuple[CardRate, ...]]:
    parts: list[Value] = []
    rates: tuple[CardRate, ...] = ()
    for right in case.rights:
        who = _who(right, result, case.source_role)
        uncapped = _uncapped(right)
        if right.right == "exempt":
            text: Value = say("rights.right.exempt", who=who, exempt=word("exempt"))
        elif uncapped:   # the treaty's limit does not apply (PT-BR Protocol 9, 11(4)): it taxes freely
            text = Join((say("rights.right.shared", who=Emph(who)), Paren(say("rights.no_treaty_cap"))), " ")
        else:
            text = say(f"rights.right.{right.right}", who=who if right.right == "none" else Emph(who))
        if right.right == "capped" and not uncapped:
            cap, found = _cap(right, caps_shown)
            text, rates = Join((text, Paren(cap)), " "), rates + found
        parts.append(text)
    if len(case.rights) == 2 and all(r.right in ("shared", "capped") for r in case.rights):
        parts[-1] = Join((parts[-1], say("rights.both_may_tax")), " — ")   # said in words, not only by listing
    article = say("rights.article", article=case.article)
    return Join((Join(tuple(parts)), Paren(article)), " "), rates


def section(part: Part, cite: Cite) -> Section:
    return Section(part.label, tuple(_Builder(cite).run(part.run, part.topic)), (part.topic,) if part.topic else ())


def _blocks(lines: Sequence[Line]) -> list[tuple[Line, ...]]:
    """A paragraph line with the list items under it."""
    out: list[list[Line]] = []
    for line in lines:
        if line.level == 0 or not out:
            out.append([line])
        else:
            out[-1].append(line)
    return [tuple(b) for b in out]


def _said(block: tuple[Line, ...]) -> list[Value]:
    """What a block says: its items (an introduction says nothing by itself), or its one line."""
    return [line.text for line in (block[1:] or block)]


def _once(sections: Sequence[Section]) -> tuple[Section, ...]:
    """Each paragraph said once per card: a later part ("…and how do I avoid double taxation?") whose
    paragraphs the part before already said joins that part (both questions over one answer). A heading
    stays while anything under it is new, and only then (a heading that differs only in the roles it names, over
    the same paragraphs, says nothing new)."""
    seen: list[Value] = []          # lines hold dicts (a phrase's params): compared, not hashed
    out: list[Section] = []
    for s in sections:
        blocks = _blocks(s.lines)
        new = [block[0].kind == "error" or any(x not in seen for x in _said(block)) for block in blocks]
        seen.extend(line.text for line in s.lines)
        for i, block in enumerate(blocks):
            under = next((j for j in range(i + 1, len(blocks)) if blocks[j][0].kind == "heading"), len(blocks))
            if block[0].kind == "heading" and under > i + 1:
                new[i] = any(new[i + 1:under])
        kept = tuple(line for block, keep in zip(blocks, new) for line in block if keep)
        if s.lines and not kept and out:
            before = out[-1]
            label = Join((before.label, s.label), " · ") if before.label is not None and s.label is not None \
                else before.label
            out[-1] = Section(label, before.lines, before.topics + s.topics)
            continue
        out.append(Section(s.label, kept, s.topics))
    if len(out) == 1 and len(sections) > 1:      # the questions share one answer: no label tells them apart
        out[0] = Section(None, out[0].lines, out[0].topics)
    return tuple(out)


def build_card(parts: Sequence[Part], cite: Cite, language: str, treaties: Sequence[str],
               sources: Sequence[Source], missing_facts: Sequence[str], intro: Sequence[Line] = (),
               outro: Sequence[Line] = (), stated_rates: Sequence[float] = ()) -> Card:
    """The card of one answer: a section per part, the readings offered, the premise checked."""
    sections = _once([section(p, cite) for p in parts])
    if not any(s.lines for s in sections):            # no rule speaks to this: point at the passages
        passages = tuple(Line("passage", Join((s.label(), s.heading), " — "), level=1, refs=(s.n,))
                         for s in sources)
        sections = (Section(None, (Line("intro", say("passages_intro")), *passages)),)
    rates = [r for s in sections for line in s.lines for r in line.rates]
    return Card(language=language, treaties=tuple(treaties), sections=sections, intro=tuple(intro),
                outro=tuple(outro), premise=_premise(stated_rates, rates), missing_facts=tuple(missing_facts),
                sources=tuple(sources))


def _premise(stated: Sequence[float], rates: Sequence[CardRate]) -> Line | None:
    """The rate the user took for granted, confirmed or corrected against the card's rates."""
    if not stated or not rates:
        return None
    shown = sorted({r.value for r in rates})
    fixed = Join(tuple(Rate(v) for v in shown), " / ")
    wrong = [v for v in dict.fromkeys(stated) if v not in shown]
    if wrong:
        return Line("intro", say("stated_rate_correction", stated=Join(tuple(Rate(v) for v in wrong), ", "),
                                 fixed=fixed))
    return Line("intro", say("stated_rate_confirmed", stated=Join(tuple(Rate(v) for v in dict.fromkeys(stated)),
                                                                  ", ")))

