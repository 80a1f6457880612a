"""Step 2 of the pipeline: turn an understood question into rule calls. No number is made here;
every value comes back from rules/ with its citations."""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import Any

import rules
from assistant.lexicon.quantities import in_months
from assistant.lexicon.text import fold, tokenize
from assistant.understand import Query
from assistant.understand.facts import Hits
from assistant.understand.topics import asks_counting, asks_period, named_provisions
from rules import (
    Condition,
    EmploymentResult,
    Facts,
    Figure,
    Message,
    NotCovered,
    RightsCase,
    RulesInputError,
    StateRight,
    TaxingRightsResult,
    TiebreakerResult,
    WithholdingResult,
)
from rules.conditions import describe
from rules.protocol import Case, Result, apply
from rules.thresholds import ActivityTest, SiteTest, construction_site, pe_activity_rule, stated_days

MLI_TOPICS = ("anti_abuse", "arbitration", "capital_gains")
MLI_ONLY_TOPICS = ("anti_abuse", "arbitration")     # capital gains: only an MLI change the corpus states
# a question naming the instrument on a procedure it rewrites ("com o MLI, quanto tempo para o procedimento
# amigável?") gets its text beside the treaty's own article
MLI_NAMED_TOPICS = ("mutual_agreement", "associated_enterprises")
# … and, in a ticket that names it, a question on a treaty's PE or dividends asked in the words of the instrument's
# own rule ("what ownership makes a company closely related?", "from how many days are the separate periods added
# up?", "for how long must the holding be kept?") gets that rule's figure
MLI_RULE_TOPICS = ("permanent_establishment", "dividends")
HOST_INCOMES = ("students", "professors")
RELIEF_TOPICS = ("double_taxation_relief", "tax_sparing")    # questions on relief: the income comes from elsewhere


RuleResult = (WithholdingResult | EmploymentResult | TiebreakerResult | Figure | rules.DocumentApplication
              | TaxingRightsResult | rules.Relief | SiteTest | ActivityTest | NotCovered)


@dataclass
class RuleRun:
    withholding: list[WithholdingResult] = field(default_factory=list)
    employment: EmploymentResult | None = None
    tiebreaker: TiebreakerResult | None = None
    figures: list[Figure] = field(default_factory=list)
    documents: list[rules.DocumentApplication] = field(default_factory=list)
    instrument_figures: list[Figure] = field(default_factory=list)   # a multilateral instrument's own figures
    rights: list[TaxingRightsResult] = field(default_factory=list)   # who may tax, and the relief
    relief: list[rules.Relief] = field(default_factory=list)         # relief methods (a relief question, no income)
    site: SiteTest | None = None                                     # a stated site duration against the figure
    activity: ActivityTest | None = None                            # a stated activity against the treaty's art. 5
    facts: Facts | None = None                                       # the facts the rules were given
    stated: list[Condition] = field(default_factory=list)            # conditions the question says are met
    not_covered: NotCovered | None = None
    absent: NotCovered | None = None          # the provision the question names is not in the corpus's text
    missing_facts: list[str] = field(default_factory=list)
    errors: list[Message] = field(default_factory=list)
    source_unknown: bool = False

    def citations(self) -> list[rules.Citation]:
        found: list[rules.Citation] = []
        for result in self.withholding:
            found += result.citations
            for alt in result.alternatives:
                found += alt.citations
        for result in (self.employment, self.tiebreaker):
            if result is not None:
                found += result.citations
        for fig in [*self.figures, *self.instrument_figures]:
            found += fig.citations
        for test in (self.site, self.activity):
            if test is not None:
                found += test.citations
        for doc in self.documents:
            found += doc.citations
        for result in self.rights:
            found += result.citations
        for relief in self.relief:
            found += relief.citations + [c for f in relief.figures for c in f.citations]
        unique: dict[tuple, rules.Citation] = {}
        for c in found:
            unique.setdefault((c.doc, c.article, c.paragraph, c.subparagraph, c.quote), c)
        return list(unique.values())

    def results(self) -> list[RuleResult]:
        items = [*self.withholding, self.employment, self.tiebreaker, *self.figures, self.site, self.activity,
                 *self.documents, *self.instrument_figures, *self.rights, *self.relief, self.not_covered,
                 self.absent]
        return [x for x in items if x is not None]

    def to_dicts(self) -> list[dict[str, Any]]:
        return [x.to_dict() for x in self.results()]

    @property
    def gives_exemption(self) -> bool:
        """A result (or one of its alternatives) exempts at source, or says a State may not tax the income:
        then an explanation may say "isento" / "exempt". A relief method alone (exemption with progression
        beside a source cap) does not: the claim could be read as no tax at source."""
        outcomes = [o for r in self.withholding for o in (r.outcome, *(a.outcome for a in r.alternatives))]
        rights = [sr.right for r in self.rights for case in r.cases for sr in case.rights]
        return ("exempt" in outcomes or (self.employment is not None and self.employment.taxable_in_work_state is False)
                or any(right in ("none", "exempt") for right in rights))

    @property
    def has_result(self) -> bool:
        return bool(self.withholding or self.employment or self.tiebreaker or self.figures or self.rights
                    or self.relief)


def merge_facts(facts: Facts, extra: dict[str, Any] | None) -> Facts:
    if not extra:
        return facts
    unknown = sorted(set(extra) - set(rules.FACT_NAMES))     # a follow-up answers a flat fact, never a group
    if unknown:
        raise RulesInputError("unknown_fact", names=", ".join(unknown))
    return dataclasses.replace(facts, **extra)


def _missing(run: RuleRun, names: list[str]) -> None:
    for name in names:
        if name not in run.missing_facts:
            run.missing_facts.append(name)


def _collect(run: RuleRun, result: Result, only: bool) -> None:
    """A rule's result into the run: the protocol returns one of a closed set of result types."""
    if isinstance(result, NotCovered):
        if only:
            run.not_covered = result
    elif isinstance(result, WithholdingResult):
        run.withholding.append(result)
        _missing(run, result.missing_facts)
    elif isinstance(result, EmploymentResult):
        run.employment = result
        _missing(run, result.missing_facts)
    elif isinstance(result, TiebreakerResult):
        run.tiebreaker = result
        _missing(run, result.missing_facts)
    else:
        run.figures = result


def run_rules(query: Query, facts: Facts) -> RuleRun:
    run = RuleRun()
    treaty, topic = query.treaty, query.topic
    if treaty is None or topic is None:
        return run
    parties = rules.known_treaties().get(treaty, ())
    try:
        sources: list[str | None] = [query.source_state]
        if topic in rules.INCOME_TYPES and not query.source_state and parties:   # each party but the residence
            sources = [p for p in parties if p != query.residence_state]
            run.source_unknown = len(sources) > 1
            if run.source_unknown:
                _missing(run, ["source_state"])
        case = Case(topic=topic, facts=facts)
        stays = facts.employment.stays
        for source in sources:
            _collect(run, apply(treaty, dataclasses.replace(case, source_state=source)), only=len(sources) == 1)
        if topic in RELIEF_TOPICS and "employment" in query.topics and stays:
            # "…from 1 February to 30 November: can they credit the Brazilian tax?": the relief follows the
            # salary's short-stay test, run on the dates the ticket gives
            _collect(run, apply(treaty, dataclasses.replace(case, topic="employment", source_state=query.source_state)),
                     only=False)
        if topic == "employment" and not stays and facts.employment_kind not in ("ship_aircraft", "director"):
            _missing(run, ["stays"])     # a crew's or a director's pay does not turn on the 183 days
        facts = _site(run, query, treaty, topic, facts)
        run.facts = facts
        _rights(run, query, treaty, topic, facts, parties)
        # a procedure the treaty's text in the corpus is silent on may be in an instrument the corpus says
        # modifies the treaty (PT-JP's one-page summary has no MAP article; the MLI's art. 16 has one)
        silent = topic in MLI_NAMED_TOPICS and not run.figures
        if query.mentions_mli or topic in MLI_TOPICS or silent:
            docs = rules.applicable_documents(treaty)
            if not isinstance(docs, NotCovered):
                said = query.mentions_mli or topic in MLI_ONLY_TOPICS
                run.documents = [d for d in docs if d.relation == "modifies"
                                 or (said and d.relation == "not_established")]
                modified = any(d.relation == "modifies" for d in run.documents)
                if (topic in MLI_ONLY_TOPICS and not run.figures) or (silent and modified) or \
                        (query.mentions_mli and topic in MLI_NAMED_TOPICS):
                    run.instrument_figures = _instrument_figures(run.documents, topic, facts)
                elif query.mentions_mli and topic in MLI_RULE_TOPICS:
                    run.instrument_figures = _worded(_instrument_figures(run.documents, topic, facts), query.asked,
                                                     query.language)
                elif modified and asks_period(query.asked):
                    # "over what period before the sale is the 50% test checked?": the period the instrument that
                    # modifies the treaty sets (MLI 9(4)'s 365 days), beside who may tax
                    run.instrument_figures = _asked_about([f for f in _instrument_figures(run.documents, topic, facts)
                                                           if f.unit == "days"], query.asked, query.language)
        absent = rules.absent_provision(treaty, topic, set(named_provisions(query.asked)))
        if absent is not None:           # "could the MLI's PPT deny the reduced rate?": not the other figures
            run.figures, run.instrument_figures, run.documents, run.absent = [], [], [], absent
        if topic == "employment" and run.figures and asks_counting(query.asked):
            # "is the 183-day test counted per calendar year?": the rule's figure answers, not who taxes a stay
            run.rights, run.employment, run.missing_facts = [], None, []
        if topic == "entry_into_force":    # when it applies, or how it ends
            run.figures = _termination_asked(run.figures, query)
        if topic in MLI_ONLY_TOPICS:
            run.figures = _asked_about(_on_the_income(run.figures, query.topics[1:]), query.text, query.language)
            run.instrument_figures = _asked_about(_on_the_income(run.instrument_figures, query.topics[1:]),
                                                  query.text, query.language)
        excluded = _excluded(treaty, topic, query, facts)
        if excluded:        # the treaty's own exclusion answers, not the instrument's figures
            run.withholding, run.figures, run.instrument_figures, run.documents = excluded, [], [], []
    except RulesInputError as exc:
        run.errors.append(exc.message)
    return run


def _excluded(treaty: str, topic: str, query: Query, facts: Facts) -> list[WithholdingResult]:
    """An anti-abuse question on a case a treaty's own exclusion decides ("a marca passa para uma sociedade na
    Zona Franca da Madeira: nesse caso o Brasil continua obrigado a respeitar o limite?"): the exclusion's result
    for the income the ticket asks about (PT-BR Protocol 9: no treaty benefit)."""
    if topic != "anti_abuse" or query.source_state is None:
        return []
    for income in (t for t in query.topics[1:] if t in rules.INCOME_TYPES):
        found = rules.withholding_cap(treaty, income, query.source_state, facts)
        if isinstance(found, WithholdingResult) and found.outcome == "no_treaty_benefit":
            return [found]
    return []


def _instrument_figures(documents: list[rules.DocumentApplication], topic: str, facts: Facts) -> list[Figure]:
    """What a multilateral instrument's own text sets on an anti-abuse or arbitration question asked about a
    treaty ("what holding period does the MLI's dividend-transfer rule require?"): its text answers the
    question, whether it is established to modify the treaty (the card names the articles it modifies) or not
    (the note before the figures says it may not apply)."""
    for doc in documents:
        if doc.relation in ("modifies", "not_established") and doc.instrument:
            result = apply(doc.instrument, Case(topic=topic, facts=facts))
            if isinstance(result, list) and result:
                return result
    return []


def _on_the_income(figures: list[Figure], incomes: tuple[str, ...]) -> list[Figure]:
    """An anti-abuse question about an income ("…the reduced rate on dividends?") gets the instrument's rules on
    that income (art. 8's 365 days, art. 10's third-State PE), not its limitation on benefits; a question that
    names no income gets them all."""
    answering: set[str] = set()
    for treaty in {f.treaty for f in figures}:
        for income in incomes:
            found = rules.figures(treaty, income)
            if isinstance(found, list):
                answering |= {f.id for f in found}
    return [f for f in figures if f.id in answering] or figures


_TERMINATION = re.compile(r"\b(?:denunci|terminat)")    # folded: denunciar, denúncia, terminate, termination


def _termination_asked(figures: list[Figure], query: Query) -> list[Figure]:
    """A question on how a treaty ends ("denunciar a convenção") gets the termination article's figures, a
    question on when it applies the others."""
    ending = bool(_TERMINATION.search(fold(query.text)))
    return [f for f in figures if f.ends == ending] or figures


_STEM = 5     # letters a word and its inflections share ("jurisdição", "jurisdições")
_TELLING = 2  # telling words a question must share with a figure to choose it


def _stems(text: str) -> set[str]:
    return {t.norm[:_STEM] for t in tokenize(text) if t.is_word and len(t.norm) >= _STEM}


def _asked_about(figures: list[Figure], text: str, language: str) -> list[Figure]:
    """The figures whose own description shares the most words with the question, counting only the words that
    tell the figures apart ("terceiras jurisdições" is art. 10's, "pessoa qualificada" the limitation on
    benefits'); all of them when the question's words favour none (one shared word is chance: "convenio"). A
    figure that says whether the topic's rules apply at all (MLI 18: both States opted for arbitration) is kept
    beside the one asked, and with it the topic's first figure when the question asks none in particular ("can
    the case go to arbitration?": the two-year trigger, not every time limit of Part VI)."""
    kept = [f for f in figures if f.precondition]
    figures = [f for f in figures if not f.precondition]
    if len(figures) < 2:
        return kept + figures
    stems = [_stems(f.text_in(language)) for f in figures]
    telling = [s - set.intersection(*stems) for s in stems]
    asked = _stems(text)
    scores = [len(s & asked) for s in telling]
    best = max(scores)
    if best >= _TELLING and scores.count(best) < len(scores):
        return kept + [f for f, n in zip(figures, scores) if n == best]
    return kept + figures[:1] if kept else figures        # the topic's first figure after its precondition


def _worded(figures: list[Figure], text: str, language: str) -> list[Figure]:
    """The figures whose own description shares at least _TELLING words with the question."""
    asked = _stems(text)
    return [f for f in figures if len(_stems(f.text_in(language)) & asked) >= _TELLING]


SITE_TOPICS = ("permanent_establishment", "business_profits")


def _site(run: RuleRun, query: Query, treaty: str, topic: str, facts: Facts) -> Facts:
    """A site duration the question states decides whether there is a PE, and so who may tax the profits
    (art. 7): longer than the treaty's figure, the source State may tax what is attributable to it. What the
    enterprise does there decides it too: a branch or an office is a PE; a storage-only warehouse or an
    independent agent is not (a fact stated the other way wins). A named site that lasts longer than the figure
    is a PE whatever else the question denies ("no branch there", "we have no PE": art. 5 makes the site one)."""
    if topic not in SITE_TOPICS:
        return facts
    stay = facts.employment
    months = in_months(stay.stay_months, stay.stay_days)
    activity = None if facts.pe_activity is None else pe_activity_rule(treaty, facts.pe_activity)
    # a named site's length decides before what is done there ("to install a cold-storage line … 4 months on site"),
    # unless the question itself asks about a place ("¿La oficina de São Paulo es un establecimiento permanente?")
    place_asked = activity is not None and bool(Hits(tokenize(query.asked))("pe_place"))
    if activity is not None and facts.attributable_to_pe in (None, activity.permanent_establishment) and \
            not (query.site_named and months is not None and not place_asked):
        run.activity = activity
        return dataclasses.replace(facts, attributable_to_pe=activity.permanent_establishment)
    if months is None and query.site_named and facts.attributable_to_pe is None and activity is None:
        _missing(run, ["stay_months"])     # "la fecha de fin de obra es incierta": its length decides
        return facts
    test = None if months is None else construction_site(treaty, months)
    low = None if stay.stay_low_days is None else in_months(None, stay.stay_low_days)
    if test is not None and low is not None and \
            construction_site(treaty, low).permanent_establishment != test.permanent_establishment:
        _missing(run, ["stay_months"])     # "entre 5 y 9 meses": the site's length decides whether it is a PE
        return dataclasses.replace(facts, attributable_to_pe=None) if query.site_named else facts
    overrides = test is not None and query.site_named and test.permanent_establishment and \
        (activity is None or activity.permanent_establishment or not place_asked)
    if test is None or (facts.attributable_to_pe is not None and not overrides):
        return facts
    run.site = test
    return dataclasses.replace(facts, attributable_to_pe=test.permanent_establishment)


def _rights_topic(data_topics: set[str], query: Query, topic: str, facts: Facts, length_open: bool) -> str | None:
    """The income whose taxing rights the card shows: the topic, or for a relief question the income named;
    for a question on a permanent establishment that names business profits, says whether the income is
    attributable to it or leaves open a site's length (not stated, or across the treaty's figure: `length_open`),
    the profits (art. 7)."""
    if topic in data_topics:
        return topic
    if topic in RELIEF_TOPICS:
        return next((t for t in query.topics if t in data_topics), None)
    if topic == "permanent_establishment" and "business_profits" in data_topics and \
            ("business_profits" in query.topics or facts.attributable_to_pe is not None or length_open):
        return "business_profits"
    return None


@dataclass(frozen=True)
class ShortStay:
    """The short-stay test as the question decides it: the facts given to the rules, the conditions shown
    on the decided case, and the exception assumed not to apply."""
    facts: Facts
    shown: list[Condition]
    assumed: list[Condition]


def _short_stay_test(run: RuleRun, query: Query, treaty: str, facts: Facts, income: str) -> ShortStay:
    """employment_183_met from the employment test, or, without dates, from what the question states: a number
    of days against the treaty's limit, the employer's residence, who bears the pay. All three met: the short
    stay holds; one fails: it does not (the failed ones are shown on the card); else the stated ones are
    kept in run.stated for the card to show beside the alternatives. Days and a foreign employer stated and no
    branch or PE named anywhere: the pay is assumed not borne by one, and the card says it assumed so."""
    if facts.employment_183_met is not None:
        return ShortStay(facts, [], [])
    if run.employment is not None and run.employment.taxable_in_work_state is not None:
        return ShortStay(dataclasses.replace(facts, employment_183_met=not run.employment.taxable_in_work_state),
                         [], [])
    stay = facts.employment
    days = stay.stated_days
    one_year = stay.fiscal_year is not None or stay.stay_in_one_year
    day_test = None if days is None else stated_days(treaty, days, one_year=one_year)
    if day_test is not None and stay.stay_low_days is not None and \
            stated_days(treaty, stay.stay_low_days, one_year=one_year).status != day_test.status:
        # "pode ser quatro meses como pode chegar aos oito": the range straddles the limit, so the days decide
        day_test = None
        if income == "employment":
            _missing(run, ["stay_days"])
    others = [describe(code, {}, "unknown" if ok is None else "met" if ok else "not_met") for code, ok in (
        ("employer_not_resident_in_work_state", None if stay.employer_resident_in_work_state is None
         else not stay.employer_resident_in_work_state),
        ("not_borne_by_pe_in_work_state", None if stay.borne_by_pe is None else not stay.borne_by_pe))]
    tests = ([day_test] if day_test is not None else []) + others
    failed = [c for c in tests if c.status == "not_met"]
    if failed:
        return ShortStay(dataclasses.replace(facts, employment_183_met=False), failed, [])
    if day_test is not None and all(c.status == "met" for c in tests):
        return ShortStay(dataclasses.replace(facts, employment_183_met=True), tests, [])
    employer = others[0]
    if day_test is not None and day_test.status == "met" and employer.status == "met" and \
            stay.borne_by_pe is None and not query.pe_named:
        return ShortStay(dataclasses.replace(facts, employment_183_met=True), [day_test, employer],
                         [describe("borne_by_pe_in_work_state", {}, "assumed_not_met")])
    if income == "employment":
        run.stated = [c for c in tests if c.status == "met"]
        if day_test is not None:        # the days are stated: ask for the condition still open, by name
            _missing(run, [name for name, value in (
                ("employer_resident_in_work_state", stay.employer_resident_in_work_state),
                ("borne_by_pe", stay.borne_by_pe)) if value is None])
    return ShortStay(facts, [], [])


def _with_management_state(result: TaxingRightsResult, facts: Facts) -> TaxingRightsResult:
    """Ships and aircraft: the State of effective management the question names ("uma companhia aérea com
    direção efetiva em Lisboa") fills that role's State, so the card says which State it is."""
    place = facts.residence.effective_management_in if facts.residence is not None else None
    if place not in (result.residence_state, result.source_state):
        return result
    cases = [_management_in(case, place, result) for case in result.cases]
    return dataclasses.replace(result, cases=cases)


def _management_in(case: RightsCase, place: str, result: TaxingRightsResult) -> RightsCase:
    """The management State's right given to its State; when that State is the residence, the two rights are
    one: only the residence taxes ("uma companhia aérea com direção em Lisboa", the pilot living in Lisbon)."""
    if not any(r.role == "effective_management" and r.state is None for r in case.rights):
        return case
    if place == result.residence_state:
        return dataclasses.replace(case, relief=[], rights=[
            StateRight(role="residence", state=place, right="exclusive"),
            StateRight(role="source", state=result.source_state, right="none")])
    return dataclasses.replace(case, rights=[dataclasses.replace(r, state=place)
                                             if r.role == "effective_management" and r.state is None else r
                                             for r in case.rights])


def _with_origin(facts: Facts, query: Query, residence: str) -> Facts:
    """Where the income arises (PT-BR 22(3)) is the question's source State when it names one."""
    if facts.arises_in_other_state is not None or query.source_state is None:
        return facts
    return dataclasses.replace(facts, arises_in_other_state=query.source_state != residence)


def _with_short_stay(result: TaxingRightsResult, stay: ShortStay) -> TaxingRightsResult:
    """The short-stay conditions the question decides, shown on the employment case they decide, with the
    exception assumed not to apply."""
    if not (stay.shown or stay.assumed) or result.outcome != "decided" or result.cases[0].income != "employment":
        return result
    case = result.cases[0]
    if any(c.code in ("employment_ship_aircraft", "employment_director") and c.status == "met"
           for c in case.conditions):
        return result           # crew or a director: the 183-day test is not the rule that decided
    return dataclasses.replace(result, cases=[dataclasses.replace(case, conditions=stay.shown + case.conditions)],
                               assumptions=result.assumptions + stay.assumed)


def _rights(run: RuleRun, query: Query, treaty: str, topic: str, facts: Facts, parties: tuple[str, ...]) -> None:
    """Who may tax the income and how the residence State relieves it, for every income question."""
    if len(parties) != 2:
        return
    income = _rights_topic(rules.rights_incomes(treaty), query, topic, facts, "stay_months" in run.missing_facts)
    residences = [query.residence_state] if query.residence_state in parties else \
        [p for p in parties if p != query.source_state] if query.source_state in parties else list(parties)
    if income in HOST_INCOMES and query.host_state in parties:
        residences = [p for p in parties if p != query.host_state]
    elif income in HOST_INCOMES and len(residences) == 1 and query.residence_state in parties:
        # A student or visiting teacher lives in the host State; the treaty's "resident" is the home State.
        residences = [p for p in parties if p != query.residence_state]
    if income is None:
        if topic in RELIEF_TOPICS and len(residences) == 1:
            found = rules.relief_methods(treaty, residences[0])
            run.relief = [] if isinstance(found, NotCovered) else found
        return
    stay = _short_stay_test(run, query, treaty, facts, income)
    for residence in residences:
        result = rules.taxing_rights(treaty, income, residence, _with_origin(stay.facts, query, residence))
        if isinstance(result, NotCovered):
            if not run.has_result and run.not_covered is None:
                run.not_covered = result
            continue
        run.rights.append(_with_management_state(_with_short_stay(result, stay), facts))
        _missing(run, result.missing_facts)
    if run.rights:
        run.not_covered = None          # the figures may be silent; who may tax is answered
        run.figures = _deciding_figures(run.figures, run.rights)


def _deciding_figures(figures: list[Figure], results: list[TaxingRightsResult]) -> list[Figure]:
    """Once the facts decide the case, the topic's figures that belong to a paragraph the case or its relief
    cites: a social-security pension answer does not show the US$ 3,000 limit of the private pensions, a
    grant answer not the 4-year employment period. While alternatives remain, every figure may decide."""
    if any(r.outcome != "decided" for r in results):
        return figures
    cited = {(c.doc, c.article, c.paragraph) for r in results for case in r.cases
             for c in case.citations + [x for relief in case.relief for x in relief.citations]}
    return [f for f in figures if any((c.doc, c.article, c.paragraph) in cited for c in f.citations)]
