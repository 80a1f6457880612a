"""The card as markdown (the CLI's text and the app's card): stressed values in bold, each condition with
its status mark. The app passes its own marks (icons) instead of replacing symbols in the text."""
from __future__ import annotations

from dataclasses import replace
from typing import Callable, Mapping

from assistant.presentation.card import Card, Line, Section
from assistant.presentation.values import Formatter, Markup, Phrase, Status, render

STATUS_MARK: Mapping[Status, str] = {"met": "✔", "not_met": "✘", "unknown": "?", "assumed_not_met": "≈"}
_PREFIX = {0: "", 1: "- ", 2: "  "}
ASIDES = frozenset({"note", "notes", "assumption"})     # what the answer rests on, said after it


def markup(marks: Mapping[Status, str] = STATUS_MARK, ref: Callable[[int], str] | None = None,
           aside: Callable[[str], str] | None = None) -> Markup:
    style = Markup(emph=lambda text: f"**{text}**", mark=lambda status: marks.get(status, ""))
    style = replace(style, ref=ref) if ref is not None else style
    return replace(style, aside=aside) if aside is not None else style


def refs(numbers: tuple[int, ...], style: Markup | None = None) -> str:
    return " ".join(style.ref(n) if style is not None else f"[{n}]" for n in numbers)


def line_markdown(line: Line, fmt: Formatter, style: Markup) -> str:
    text = render(line.text, fmt, style)
    if line.kind == "note":
        text = f"_{text}_" if text else ""
    elif line.kind == "notes":
        text = f"_{fmt.text('assistant.notes')}:_ {text}"
    if line.kind == "passage":
        text = f"{refs(line.refs, style)} {text}"
    elif line.refs:
        text = f"{text} {refs(line.refs, style)}".strip()
    if (line.kind in ASIDES or (line.kind == "relief" and line.level == 2)) and text:   # a method's quoted figure
        text = style.aside(text)
    return f"{_PREFIX[line.level]}{text}".rstrip() if text.strip() else ""


def lines_markdown(lines: tuple[Line, ...] | list[Line], fmt: Formatter, style: Markup) -> str:
    """List items stay together; every other line is its own paragraph (markdown would merge them)."""
    out, previous_item = "", False
    for line in lines:
        text = line_markdown(line, fmt, style)
        if not text:
            continue
        item = line.level > 0
        out = f"{out}{chr(10) if item and previous_item else chr(10) * 2}{text}" if out else text
        previous_item = item
    return out


def section_markdown(section: Section, fmt: Formatter, style: Markup) -> str:
    body = lines_markdown(section.lines, fmt, style)
    if section.label is not None and body:
        return f"#### {render(section.label, fmt, style)}\n{body}"
    return body


def card_markdown(card: Card, marks: Mapping[Status, str] = STATUS_MARK,
                  ref: Callable[[int], str] | None = None, aside: Callable[[str], str] | None = None) -> str:
    """The whole card: title, premise, readings, one block per section; `ref` writes a citation number
    (the app's is a link to the source), `aside` a note or an assumption."""
    fmt, style = Formatter(card.language), markup(marks, ref, aside)
    names = " · ".join(fmt.treaty(t) for t in card.treaties)
    body = "\n\n".join(x for x in (section_markdown(s, fmt, style) for s in card.sections) if x)
    before = [line_markdown(x, fmt, style) for x in ((card.premise,) if card.premise else ()) + card.intro]
    after = [line_markdown(x, fmt, style) for x in card.outro]
    body = "\n\n".join(x for x in (*before, body, *after) if x)
    return f"### {fmt.text('assistant.treaty_title', name=names)}\n{body}"


def follow_up_markdown(card: Card) -> str:
    """The question for the missing facts, as plain words (the answer's markdown makes it bold)."""
    phrase: Phrase | None = card.follow_up()
    return render(phrase, Formatter(card.language)) if phrase else ""
