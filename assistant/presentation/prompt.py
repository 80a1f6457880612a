"""The card as the prompt's facts: its first lines in plain words with their status marks, as a short list
the model can restate; no title, section labels, notes or assumptions, and only the [n] the prompt shows."""
from __future__ import annotations

from assistant.presentation.card import Card, Line
from assistant.presentation.markdown import STATUS_MARK
from assistant.presentation.markdown import refs as ref_marks
from assistant.presentation.values import Formatter, Markup, render

LEFT_OUT = frozenset({"note", "notes", "assumption"})
_PREFIX = {0: "", 1: "- ", 2: "  "}
_MARKS = Markup(mark=lambda status: STATUS_MARK.get(status, ""))


def _line(line: Line, fmt: Formatter, shown: set[int]) -> str:
    text = render(line.text, fmt, _MARKS)
    numbers = tuple(n for n in line.refs if n in shown)
    if line.kind == "passage":
        text = f"{ref_marks(numbers)} {text}"
    elif numbers:
        text = f"{text} {ref_marks(numbers)}"
    return f"{_PREFIX[line.level]}{text.strip()}" if text.strip() else ""


def prompt_facts(card: Card, shown: set[int], limit: int) -> str:
    """Whole lines, in card order, up to `limit` characters."""
    fmt = Formatter(card.language)
    kept: list[str] = []
    for line in card.lines():
        if line.kind in LEFT_OUT:
            continue
        text = _line(line, fmt, shown)
        if not text:
            continue
        if kept and sum(len(k) + 1 for k in kept) + len(text) > limit:
            break
        kept.append(text)
    return "\n".join(kept)
