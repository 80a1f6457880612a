"""What the card lets generated text say: its rates, numbers and States as typed values, and its statements
in plain words (for the number check, which reads passages the same way). The user's premise is left out:
a rate the user asserted grounds nothing; nor does a number the user stated that the card sets against a
threshold (values.Stated)."""
from __future__ import annotations

from dataclasses import dataclass

from assistant.presentation.card import Card, Line
from assistant.presentation.values import Formatter, Markup, Rate, StateName, render, walk

_NO_STATED = Markup(stated=lambda text: "")      # the question's own numbers ground nothing


@dataclass(frozen=True)
class Grounding:
    rates: frozenset[float]            # percentages the card states (0 for an exemption)
    states: frozenset[str]             # State codes the card names
    statements: tuple[str, ...]        # each line in plain words, in the card's language


def _grounded_lines(card: Card) -> list[Line]:
    return [line for line in card.lines() if line is not card.premise]


def grounding(card: Card) -> Grounding:
    fmt = Formatter(card.language)
    lines = _grounded_lines(card)
    values = [v for line in lines for v in walk(line.text, into_stated=False)]
    rates = {r.value for line in lines for r in line.rates} | {v.value for v in values if isinstance(v, Rate)}
    title = fmt.text("assistant.treaty_title", name=" · ".join(fmt.treaty(t) for t in card.treaties))
    statements = (title, *(render(line.text, fmt, _NO_STATED) for line in lines))
    return Grounding(frozenset(rates), frozenset(v.code for v in values if isinstance(v, StateName)),
                     tuple(s for s in statements if s.strip()))


def grounding_texts(card: Card) -> list[str]:
    return list(grounding(card).statements)
