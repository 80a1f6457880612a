"""The card for the agent at a glance, in the UI language (which may differ from the ticket's): the treaty,
who may tax, the caps, the facts still missing. Read from the card's typed lines, never from its text."""
from __future__ import annotations

from dataclasses import dataclass

from assistant.presentation.card import Card, Line, missing_questions
from assistant.presentation.values import Formatter, Markup, Phrase, StateName, render, walk

RIGHT_PREFIX = "assistant.rights.right."
# The panel names each State without its role: "só o Brasil pode tributar".
_BRIEF = Markup(keys={"assistant.rights.state_with_role": "presentation.brief.state",
                      "assistant.rights.state_residence": "presentation.brief.state"})


@dataclass(frozen=True)
class Triage:
    treaty: str
    who_taxes: tuple[str, ...]             # "Espanha (fonte) pode reter; …", "só o Brasil pode tributar; …"
    caps: tuple[tuple[float, ...], ...]    # per income and source State: the rates the card states, lowest first
    missing: tuple[str, ...]               # what to ask the customer, as the catalogue asks it


def _who(line: Line, fmt: Formatter) -> str:
    about = line.about
    if about is not None and about.kind == "withholding":
        return render(Phrase("presentation.triage.source_may_withhold",
                             {"source": StateName(about.source_state or ""),
                              "residence": StateName(about.residence_state or "")}), fmt)
    if about is not None and about.kind == "employment" and about.verdict:
        return fmt.text(f"presentation.triage.employment.{about.verdict}")
    rights = [v for v in walk(line.text) if isinstance(v, Phrase) and v.key.startswith(RIGHT_PREFIX)]
    return "; ".join(render(v, fmt, _BRIEF) for v in rights)


def triage(card: Card, language: str) -> Triage:
    """The card's answer in `language` (the agent's), from the same data the card was drawn from."""
    fmt = Formatter(language)
    who: list[str] = []
    for text in (_who(line, fmt) for line in card.lines()):
        if text and text not in who:
            who.append(text)
    caps: dict[tuple[str, str | None], list[float]] = {}
    for rate in card.rates():
        found = caps.setdefault((rate.income, rate.source_state), [])
        if rate.value not in found:
            found.append(rate.value)
    return Triage(treaty=" · ".join(fmt.treaty(t) for t in card.treaties), who_taxes=tuple(who),
                  caps=tuple(tuple(sorted(v)) for v in caps.values()),
                  missing=tuple(render(q, fmt) for q in missing_questions(card.missing_facts)))
