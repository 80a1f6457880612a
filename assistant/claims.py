"""The claim check: every sentence the model writes is checked against the card's data, and a sentence that
fails is dropped (not the whole text).

A sentence fails when it
- says a State taxes, does not tax, or taxes alone, and the rule outcome says otherwise (or says nothing
  about who taxes);
- claims an exemption ("isento", "sem retenção", "no withholding") that no rule result gives;
- writes a rate, threshold, date or number (in digits or in words) that is neither on the card nor in a
  cited passage, cites a passage [n] that was not given, or names an article that is neither cited nor
  written in a cited passage.

The card's data reach the check through `Grounds`, built from the rule results (RuleRun) and the
citations; nothing here knows a treaty: the States are the parties of the catalogue's treaties, named as
the message catalogue names them in pt/es/en.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable, Literal, Sequence

import rules
from assistant.apply_rules import RuleRun
from assistant.guardrail import verify
from assistant.lexicon.text import fold
from rules.labels import LANGUAGES, state_name

Claim = Literal["taxes", "not", "alone"]


# --------------------------------------------------------------------------- what the rules say

@dataclass(frozen=True)
class TaxOutcome:
    """Who may tax, from the rule results: a State may be in both sets when the outcome still depends on a
    fact (alternatives); `known` is False when no result says who taxes (figures, tie-breaker)."""
    may_tax: frozenset[str] = frozenset()
    may_not_tax: frozenset[str] = frozenset()
    alone: frozenset[str] = frozenset()
    sources: frozenset[str] = frozenset()
    residences: frozenset[str] = frozenset()

    @property
    def known(self) -> bool:
        return bool(self.may_tax or self.may_not_tax)


def tax_outcome(run: RuleRun | None) -> TaxOutcome:
    """Taxing rights where the rules give them; else the withholding caps (the source State taxes within
    the cap or not at all, the residence State keeps its right)."""
    may, may_not, alone, sources, residences = set(), set(), set(), set(), set()
    if run is None:
        return TaxOutcome()
    for result in run.rights:
        sources.add(result.source_state)
        residences.add(result.residence_state)
        for case in result.cases:
            for right in case.rights:
                state = right.state or {"residence": result.residence_state,
                                        "source": result.source_state}.get(right.role)
                if state is None:
                    continue
                kind = right.right
                if kind in ("none", "exempt"):
                    may_not.add(state)
                else:
                    may.add(state)
                    if kind == "exclusive":
                        alone.add(state)
    covered = {(r.source_state, r.residence_state) for r in run.rights}
    for result in run.withholding:
        if (result.source_state, result.residence_state) in covered:
            continue
        sources.add(result.source_state)
        residences.add(result.residence_state)
        may.add(result.residence_state)
        outcomes = [result.outcome] if result.outcome != "alternatives" else [a.outcome for a in result.alternatives]
        for outcome in outcomes:
            (may_not if outcome == "exempt" else may).add(result.source_state)
    return TaxOutcome(frozenset(may), frozenset(may_not), frozenset(alone), frozenset(sources),
                      frozenset(residences))


@dataclass(frozen=True)
class Grounds:
    """Everything a sentence may rest on: the card's outcome, whether an exemption is given, the texts that
    ground numbers (card, cited passages, their labels), the passage numbers, the question (it grounds the
    facts it states), and the States the check recognises."""
    outcome: TaxOutcome
    exemption: bool
    texts: tuple[str, ...]
    refs: frozenset[int]
    question: str = ""
    language: str = "pt"
    states: tuple[str, ...] = field(default_factory=lambda: known_states())

    @property
    def articles(self) -> frozenset[str]:
        return frozenset(a for text in self.texts for a in articles_in(text))


def known_states() -> tuple[str, ...]:
    """The parties of every treaty in the catalogue."""
    return tuple(sorted({s for parties in rules.known_treaties().values() for s in parties}))


# --------------------------------------------------------------------------- reading claims

_ARTICLE = re.compile(r"\b(?:artigos?|articulos?|articles?|arts?)\.?\s*(\d+)", re.IGNORECASE)


def articles_in(text: str) -> list[str]:
    """Article numbers a text names ("artigo 18", "art. 10.º", "artículo 23", "Article 7")."""
    return [m.group(1).lstrip("0") or "0" for m in _ARTICLE.finditer(fold(text))]


@dataclass(frozen=True)
class StateClaim:
    state: str
    claim: Claim


_ROLE = {
    "source": r"(?:o |el |the )?(?:estado|pais|state|country) (?:da |de la |de |of )?"
              r"(?:fonte|fuente|origem|origen|source)|(?:the )?source (?:state|country)",
    "residence": r"(?:o |el |the )?(?:estado|pais|state|country) (?:da |de la |de |of )?(?:residencia|residence)"
                 r"|(?:the )?residence (?:state|country)",
}
_BOTH = (r"ambos os (?:estados|paises)|os dois (?:estados|paises)|ambos (?:los )?(?:estados|paises)"
         r"|los dos (?:estados|paises)|both (?:states|countries|of them)")
_TAX_ACTIVE = (r"tribut(?:a|am|ar|ara|arao|e|em|an|aran)\b|grav(?:a|an|ar|ara|aran)\b"
               r"|tax(?:es|ing)?\b(?!\s+(?:rate|authorit|return|office|treaty|credit|year|resid|law|purpose|paid|due))"
               r"|levy\b|levies\b|cobra(?:r|m|n)?\s+(?:o\s+|el\s+)?impost\w*|cobra(?:r|m|n)?\s+impuest\w*")
_TAX_PASSIVE = (r"(?:gravar|tributar)se\b|se\s+(?:grava|tributa)n?\b|tributad[oa]s?\b|tributave(?:l|is)\b"
                r"|gravad[oa]s?\b|gravables?\b|taxed\b|taxable\b|taxad[oa]s?\b")
_EXEMPT = r"isent[oa]s?\b|exent[oa]s?\b|exempt(?:ed)?\b"
_LOCATIVE = r"(?:em|no|na|nos|nas|en|in|pelo|pela|por|by)\s+(?:o\s+|a\s+|el\s+|la\s+|the\s+)?"
_ONLY = re.compile(r"\b(?:so|somente|apenas|exclusivamente|unicamente|solo|solamente|only|exclusively|solely"
                   r"|exclusiv[oa])\b")
_NEGATION = {"pt": r"\b(?:nao|nem|nunca|jamais)\b",
             "es": r"\b(?:no|ni|nunca|jamas)\b",
             "en": r"\b(?:not|never|no|cannot)\b|n't\b"}
# "não podem ser tributados no Brasil acima de 15%": a cap, not a denial.
_ABOVE = re.compile(r"\b(?:acima|superior|mais de|alem|exced\w*|encima|mas de|more than|above|exceed\w*|beyond"
                    r"|at a rate|a uma taxa|a una tasa|over)\b")
# "só pode tributar até 15%": the "only" limits the amount, not who taxes.
_AMOUNT = re.compile(r"%|\d|\b(?:ate|hasta|up to|at most|no maximo|como maximo|maximo|limit\w*|por cento"
                     r"|por ciento|percent)\b")
_CITATION = re.compile(r"\[\d+\]")
_CLAUSE = re.compile(r"[;:]|,\s*(?:mas|pero|but|enquanto|mientras|while|whereas|e|y|and)\s|"
                     r"\s(?:mas|pero|but|enquanto|mientras|while|whereas|porque|because|pois|since|ya que|"
                     r"uma vez que|dado que|given that)\s")
# A State named as where someone lives or where money comes from is not the one said to tax.
_NOT_SUBJECT = re.compile(r"(?:\b(?:residentes?|reside|resident|residing|mora|morando|vive|viviendo|lives|living|"
                          r"from|do|da|dos|das|del|of|desde|de)\s+(?:em\s+|en\s+|in\s+|no\s+|na\s+)?"
                          r"(?:o\s+|a\s+|el\s+|la\s+|the\s+)?)$")


def _state_names(states: Sequence[str]) -> list[tuple[str, str]]:
    """(folded name, code) in every language, longest first."""
    names = {(fold(state_name(code, lang)), code) for code in states for lang in LANGUAGES}
    return sorted(names, key=lambda pair: -len(pair[0]))


Mention = tuple[int, int, tuple[str, ...]]     # start, end, the States named there


def _mentions(clause: str, names: list[tuple[str, str]], roles: dict[str, str | None]) -> list[Mention]:
    """(start, end, States) for every State named in the clause: by name, by role, or "both"."""
    found: list[Mention] = []
    taken: list[tuple[int, int]] = []

    def add(start: int, end: int, states: tuple[str, ...]) -> None:
        if states and not any(s < end and start < e for s, e in taken):
            found.append((start, end, states))
            taken.append((start, end))

    both = tuple(dict.fromkeys(s for s in (roles.get("source"), roles.get("residence")) if s))
    for m in re.finditer(_BOTH, clause):
        add(m.start(), m.end(), both if len(both) == 2 else ())
    for role, pattern in _ROLE.items():
        for m in re.finditer(pattern, clause):
            add(m.start(), m.end(), (roles[role],) if roles.get(role) else ())
    for name, code in names:
        for m in re.finditer(r"\b" + re.escape(name) + r"\b", clause):
            add(m.start(), m.end(), (code,))
    return sorted(found)


def state_claims(sentence: str, language: str, states: Sequence[str],
                 roles: dict[str, str | None] | None = None) -> list[StateClaim]:
    """The States a sentence says tax, do not tax, or tax alone.

    Per clause: a passive verb ("é tributada no Brasil", "is taxed only in Japan") or an exemption word
    claims about the State after it; an active verb ("Portugal não pode tributar") about the State named
    before it; a negation before the verb turns the claim around, "só/solo/only" makes it exclusive."""
    text = _CITATION.sub(lambda m: " " * len(m.group()), fold(sentence))
    names = _state_names(states)
    roles = roles or {}
    negation = re.compile("|".join(_NEGATION[lang] for lang in ([language] if language in _NEGATION else _NEGATION)))
    claims: list[StateClaim] = []
    start = 0
    bounds = [m for m in _CLAUSE.finditer(text)] + [None]
    for cut in bounds:
        end = cut.start() if cut else len(text)
        clause = text[start:end]
        start = cut.end() if cut else end
        mentions = _mentions(clause, names, roles)
        if not mentions:
            continue
        for verb in re.finditer(f"(?P<passive>{_TAX_PASSIVE})|(?P<exempt>{_EXEMPT})|(?P<active>{_TAX_ACTIVE})", clause):
            located = None
            if verb.group("passive") or verb.group("exempt"):
                for s, e, st in mentions:
                    between = clause[verb.end():s]
                    if s >= verb.end() and len(between) <= 40 and re.search(_LOCATIVE + r"$", between) \
                            and not re.search(r"[,.]", between):
                        located = (s, e, st)
                        break
            if located is None and not verb.group("exempt"):
                before = [(s, e, st) for s, e, st in mentions if e <= verb.start()
                          and not _NOT_SUBJECT.search(clause[max(0, s - 30):s])]
                located = before[-1] if before else None
            if located is None:
                continue
            span = clause[min(located[0], verb.start()):max(located[1], verb.end())]
            lead = clause[:min(located[0], verb.start())]
            negated = bool(negation.search(span) or negation.search(lead[-25:]))
            exclusive = bool(_ONLY.search(span) or _ONLY.search(lead[-25:])) and \
                not _AMOUNT.search(clause[verb.end():verb.end() + 40])
            if verb.group("exempt"):
                negated = not negated
            elif negated and _ABOVE.search(clause, max(verb.end(), located[1])):
                negated = False
            if negated and exclusive:
                continue          # "não só …": says nothing certain
            claim: Claim = "not" if negated else "alone" if exclusive else "taxes"
            claims += [StateClaim(state, claim) for state in located[2]]
        for s, e, st in mentions:   # "…, não em Portugal" / "no en Portugal" / "not in Portugal"
            if re.search("(?:" + negation.pattern + r")\s+" + _LOCATIVE + "$", clause[max(0, s - 30):s]):
                claims += [StateClaim(state, "not") for state in st]
    return list(dict.fromkeys(claims))


# --------------------------------------------------------------------------- the check

@dataclass(frozen=True)
class SentenceVerdict:
    sentence: str
    problems: tuple[str, ...] = ()
    contradictions: tuple[StateClaim, ...] = ()    # State claims the outcome contradicts

    @property
    def ok(self) -> bool:
        return not self.problems


def _roles(outcome: TaxOutcome) -> dict[str, str | None]:
    one = lambda states: next(iter(states)) if len(states) == 1 else None  # noqa: E731
    return {"source": one(outcome.sources), "residence": one(outcome.residences)}


def contradicted(claim: StateClaim, outcome: TaxOutcome) -> bool:
    """A claim the outcome does not support: it names a State the outcome says the opposite of, or the
    outcome says nothing about who taxes."""
    if claim.claim == "taxes":
        return claim.state not in outcome.may_tax
    if claim.claim == "not":
        return claim.state not in outcome.may_not_tax
    return claim.state not in outcome.alone


# The prompt's own scaffolding written back ("Passagens (cite apenas [1] [2]): [1] PT-JP art. 17: Pensão | …",
# "RESULT:"): a passage label opened by its marker and closed by a colon, the "cite only" header in any of the
# three languages, or a section name of the prompt. Shown to a customer it is noise, whatever it says.
_ECHO = re.compile(r"\[\d+\]\s+[^.:\[\]\n]{2,40}:(?!\d)|\(\s*cit[ea]\b|\b(?:QUESTION|RESULT|PASSAGES)\s*:")


def check_sentence(sentence: str, grounds: Grounds) -> SentenceVerdict:
    problems: list[str] = []
    if _ECHO.search(sentence):
        problems.append("prompt echo")
    verdict = verify(sentence, list(grounds.texts), set(grounds.refs), grounds.question, grounds.exemption)
    if verdict.ungrounded:
        problems.append("numbers " + ", ".join(verdict.ungrounded))
    if verdict.invalid_refs:
        problems.append("references " + ", ".join(f"[{n}]" for n in verdict.invalid_refs))
    if verdict.unsupported_claims:
        problems.append("exemption " + ", ".join(verdict.unsupported_claims))
    allowed = grounds.articles
    wrong_articles = [a for a in articles_in(sentence) if a not in allowed]
    if wrong_articles:
        problems.append("articles " + ", ".join(dict.fromkeys(wrong_articles)))
    claims = state_claims(sentence, grounds.language, grounds.states, _roles(grounds.outcome))
    bad = tuple(c for c in claims if contradicted(c, grounds.outcome))
    if bad:
        problems.append("who taxes " + ", ".join(f"{c.state}:{c.claim}" for c in bad))
    return SentenceVerdict(sentence, tuple(problems), bad)


def check_sentences(sentences: Iterable[str], grounds: Grounds) -> list[SentenceVerdict]:
    return [check_sentence(s, grounds) for s in sentences]
