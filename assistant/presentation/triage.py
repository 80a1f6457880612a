"""The card for the agent at a glance, in the UI language (which may differ from the ticket's): the treaty,
who may tax, the caps, the facts still missing. Read from the card's typed lines, never from its text."""
from __future__ import annotations

from dataclasses import dataclass

from assistant.presentation.card import Card, missing_questions
from assistant.presentation.values import Formatter, Markup, Phrase, render, walk

RIGHT_PREFIX = "assistant.rights.right."
# The panel names each State without its role: "só o Brasil pode tributar".
_BRIEF = Markup(keys={"assistant.rights.state_with_role": "presentation.brief.state",
                      "assistant.rights.state_residence": "presentation.brief.state"})


@dataclass(frozen=True)
class Triage:
    treaty: str
    who_taxes: tuple[str, ...]         # one entry per case: "só o Brasil pode tributar; Portugal não pode tributar"
    caps: tuple[str, ...]              # the rates the card states, lowest first
    missing: tuple[str, ...]           # what to ask the customer

    def rows(self, language: str) -> list[tuple[str, str]]:
        fmt = Formatter(language)
        rows = [(fmt.text("presentation.triage.treaty"), self.treaty or "—"),
                (fmt.text("presentation.triage.who_taxes"), " | ".join(self.who_taxes) or "—")]
        if self.caps:
            rows.append((fmt.text("presentation.triage.cap"), " / ".join(self.caps)))
        rows.append((fmt.text("presentation.triage.missing"), "; ".join(self.missing) or "—"))
        return rows


def _who_taxes(card: Card, fmt: Formatter) -> list[str]:
    found: list[str] = []
    for line in card.lines():
        rights = [v for v in walk(line.text) if isinstance(v, Phrase) and v.key.startswith(RIGHT_PREFIX)]
        text = "; ".join(render(v, fmt, _BRIEF) for v in rights)
        if text and text not in found:
            found.append(text)
    return found


def triage(card: Card, language: str) -> Triage:
    """The card's answer in `language` (the agent's), from the same data the card was drawn from."""
    fmt = Formatter(language)
    return Triage(treaty=" · ".join(fmt.treaty(t) for t in card.treaties),
                  who_taxes=tuple(_who_taxes(card, fmt)),
                  caps=tuple(fmt.rate(v) for v in sorted({r.value for r in card.rates()})),
                  missing=tuple(render(q, fmt) for q in missing_questions(card.missing_facts)))
