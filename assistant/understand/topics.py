"""What the question is about: treaty topics from the lexicon, and what it mentions that the treaties
do not cover. An out-of-scope subject vetoes the answer only when it is the main question; beside a
treaty question it becomes a side note."""
from __future__ import annotations

from dataclasses import dataclass

from assistant.lexicon import cues, topics
from assistant.lexicon.text import Match, Token, tokenize
from rules.facts import INCOME_TYPES

_ENDS = {".", ";", "?", "!"}


@dataclass(frozen=True)
class TopicReading:
    topics: tuple[str, ...]            # most relevant first
    out_of_scope: str | None           # the main question is outside the treaties
    side_notes: tuple[str, ...]        # out-of-scope subjects mentioned beside a treaty question


def _sentences(tokens: list[Token]) -> list[tuple[int, int, bool]]:
    """(start, end, is_question) token spans."""
    out, start = [], 0
    for i, t in enumerate(tokens):
        if t.norm in _ENDS:
            if i > start:
                out.append((start, i, t.norm == "?"))
            start = i + 1
    if start < len(tokens):
        out.append((start, len(tokens), False))
    return out


def _focus(tokens: list[Token]) -> tuple[int, int]:
    """The sentence carrying the question: the last one ending in "?", else the last one."""
    spans = _sentences(tokens)
    if not spans:
        return 0, 0
    asked = [s for s in spans if s[2]]
    start, end, _ = (asked or spans)[-1]
    return start, end


_DENIED_WITHIN = 2     # tokens from a negation to the topic word it denies ("não sou freelancer", "sin salario")
_SAID_WITH_A_NEGATION = {"double_taxation_relief"}   # "sem pagar duas vezes", "to avoid being taxed twice"


def topic_matches(tokens: list[Token], language: str) -> list[Match[str]]:
    """The lexicon's topic words in the tokens, but not the words that are no topic in this language
    ("funcionário" is any employee in Portuguese, a civil servant in Spanish), nor those a negation just before
    denies ("contrato de trabalho, não sou freelancer", "no tenemos establecimiento permanente"; Portuguese "no"
    is "in the"). Relief words keep theirs: "para não pagar duas vezes" asks for the relief."""
    ignored = topics().not_in_language.get(language, frozenset())
    negation = cues().negation - ({"no"} if language == "pt" else set())
    return [m for m in topics().index.find(tokens, {i for i, t in enumerate(tokens) if t.norm in ignored})
            if m.value in _SAID_WITH_A_NEGATION
            or not any(t.norm in negation for t in tokens[max(0, m.start - _DENIED_WITHIN):m.start])]


def lexicon_topics(tokens: list[Token], language: str) -> tuple[str, ...]:
    lex = topics()
    matches = topic_matches(tokens, language)
    found: list[str] = []
    for m in matches:
        if m.value not in found:
            found.append(m.value)
    ordered: list[str] = list(dict.fromkeys(m.value for m in lex.first.find(tokens)))
    for slot in lex.priority:
        if slot == "INCOME":
            ordered += [t for t in found if t in ("dividends", "interest", "royalties") and t not in ordered]
        elif slot in found and slot not in ordered:
            ordered.append(slot)
    return _side_job_last(tuple(ordered), matches, _focus(tokens))


def _side_job_last(ordered: tuple[str, ...], matches: list, focus: tuple[int, int]) -> tuple[str, ...]:
    """"Trabalho em Aveiro mas tenho um apartamento arrendado em Recife. O aluguel paga imposto onde?":
    the job is context when only the other income is named in the sentence that asks."""
    start, end = focus
    asked = {m.value for m in matches if start <= m.start < end}
    if "employment" not in ordered or "employment" in asked or not asked - {"residence"}:
        return ordered
    return tuple(t for t in ordered if t != "employment") + ("employment",)


def read_topics(tokens: list[Token], found: tuple[str, ...]) -> TopicReading:
    """Split out-of-scope mentions into the main question (a veto) or side notes (answered anyway)."""
    oos = topics().out_of_scope.find(tokens)
    if not oos:
        return TopicReading(found, None, ())
    codes = tuple(dict.fromkeys(m.value for m in oos))
    if not found:
        return TopicReading(found, codes[0], ())
    start, end = _focus(tokens)
    in_focus = [m.value for m in oos if start <= m.start < end]
    treaty_words = any(start <= m.start < end for m in cues().treaty_question.find(tokens)) or \
        any(start <= m.start < end and m.value in _treaty_subjects() for m in topics().index.find(tokens))
    if in_focus and not treaty_words:
        return TopicReading(found, in_focus[0], ())
    return TopicReading(found, None, codes)


def _treaty_subjects() -> set[str]:
    """Topics that only a treaty question asks about: the question-type topics ranked before the income
    types (crédito de imposto, mais-valias, procedimento amigável, ...); an income named beside a VAT
    question ("IVA sobre royalties") does not make it a treaty question."""
    priority = topics().priority
    return set(priority[:priority.index("INCOME")])


def is_employment(found: tuple[str, ...]) -> bool:
    """Employment is the subject, not a word beside an income type ("a empresa onde trabalho paga juros")."""
    return "employment" in found and not set(found) & set(INCOME_TYPES)


def named_provisions(text: str) -> tuple[str, ...]:
    """The provisions a question's words name by name ("the principal purpose test": "MLI:7(1)"), as keys of
    the rules data."""
    return tuple(dict.fromkeys(m.value for m in cues().provisions.find(tokenize(text))))


def asks_counting(text: str) -> bool:
    """The question asks how a stay is counted (calendar year or any 12 months): the rule's window."""
    return any("counting_asked" in m.value for m in cues().facts.find(tokenize(text)))


def asks_period(text: str) -> bool:
    """The question asks over what period a test is checked ("how many days before the sale…?")."""
    return any("period_asked" in m.value for m in cues().facts.find(tokenize(text)))
