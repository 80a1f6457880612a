"""The reply an agent can send: plain sentences in the ticket's language (no markdown, no status marks),
the articles named in full, the missing facts asked as a question, a closing and a disclaimer; the quoted
text only on request. Plain text and escaped HTML, both from the same paragraphs."""
from __future__ import annotations

import html
import re
from dataclasses import dataclass

from assistant.presentation.card import Card, Line, Section, missing_questions
from assistant.presentation.values import PLAIN, Formatter, Join, Markup, numbered, render

REPLY_CHARS = 1200               # a one-part ticket's reply fits in this (tests/assistant/test_presentation_reply.py);
EXTRA_PART_CHARS = 600           # each further question the ticket asks (and the card answers apart) adds this
# What the answer keeps when the reply must be shorter, most important first: the answer itself, then how
# the residence State relieves, the facts it rests on, what was assumed, the notes.
# The shortest reply names each State without its role ("Brasil", not "Brasil (o Estado que paga)").
BRIEF = Markup(keys={"assistant.rights.state_with_role": "presentation.brief.state",
                     "assistant.rights.state_residence": "presentation.brief.state"})
TIERS: tuple[frozenset[str], ...] = (
    frozenset({"heading", "intro", "outcome", "passage", "error"}),
    frozenset({"relief"}),
    frozenset({"figure"}),
    frozenset({"detail"}),
    frozenset({"assumption"}),
    frozenset({"note", "notes"}),
)
RELIEF_TOPICS = frozenset({"double_taxation_relief", "tax_sparing"})


@dataclass(frozen=True)
class Reply:
    language: str
    paragraphs: tuple[str, ...]

    @property
    def text(self) -> str:
        return "\n\n".join(self.paragraphs)

    @property
    def html(self) -> str:
        return "".join(f"<p>{html.escape(p)}</p>" for p in self.paragraphs)


_MARKER = re.compile(r"\s*\[\d+\]")     # a passage marker of the app's sources: nothing to the customer


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return ""
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", ":", "?", "!")) else f"{text}."


def _paragraphs(lines: tuple[Line, ...], fmt: Formatter, kinds: frozenset[str], style: Markup = PLAIN) -> list[str]:
    """A paragraph per top-level line (a heading takes the line after it); the items under it follow as its
    sentences, or after its colon joined by semicolons."""
    groups: list[list[str]] = []
    after_heading = False
    for line in lines:
        if line.kind not in kinds:
            continue
        text = render(line.text, fmt, style).strip()
        if not text:
            continue
        if line.kind == "heading":
            groups.append([f"{text}:"])
        elif (line.level == 0 and not after_heading) or not groups:
            groups.append([text])
        elif line.level == 0:
            groups[-1][-1] += f" {text}"
        else:
            groups[-1].append(text)
        after_heading = line.kind == "heading"
    paragraphs = []
    for head, *items in groups:
        if items and head.endswith(":"):
            paragraphs.append(_sentence(f"{head} {'; '.join(x.rstrip('.') for x in items)}"))
        else:
            paragraphs.append(" ".join(_sentence(x) for x in (head, *items)))
    return [p for p in paragraphs if not p.endswith(":")]   # an introduction whose items were left out


def _first_block(lines: tuple[Line, ...]) -> tuple[Line, ...]:
    """The lines up to the second heading: the first thing the section answers."""
    headings = [i for i, line in enumerate(lines) if line.kind == "heading"]
    return lines[:headings[1]] if len(headings) > 1 else lines


def _tier(line: Line) -> str:
    """The tier a line is kept in: a method's figure (the quoted 95% under "dividend deduction") goes with the
    figures, after the methods themselves."""
    return "figure" if line.kind == "relief" and line.level >= 2 else line.kind


def _asks_relief(card: Card) -> bool:
    return any(t in RELIEF_TOPICS for s in card.sections for t in s.topics)


def _selected(card: Card, kinds: frozenset[str], first_only: bool) -> list[tuple[Section, tuple[Line, ...]]]:
    """Each answered section's lines of these kinds: its first block only, when `first_only` (with how the
    double taxation is removed, when the ticket asks it)."""
    relief = _asks_relief(card)
    out = []
    for s in card.sections:
        first = _first_block(s.lines) if first_only else s.lines
        lines = [x for x in s.lines if (x in first or (relief and x.kind == "relief")) and _tier(x) in kinds]
        out.append((s, tuple(lines)))
    return out


def _answer(card: Card, fmt: Formatter, chosen: list[tuple[Section, tuple[Line, ...]]], style: Markup
            ) -> list[str]:
    paragraphs = _paragraphs(((card.premise,) if card.premise else ()) + card.intro, fmt, TIERS[0], style)
    for section, lines in chosen:
        body = _paragraphs(lines, fmt, frozenset(x.kind for x in lines), style)
        if section.label is not None and body:
            body = [_sentence(f"{render(section.label, fmt)}:"), *body]
        for paragraph in body:
            if paragraph not in paragraphs:                          # a note two blocks share, said once
                paragraphs.append(paragraph)
    return paragraphs


def _cited(chosen: list[tuple[Section, tuple[Line, ...]]]) -> list[int]:
    return list(dict.fromkeys(n for _, lines in chosen for line in lines for n in line.refs))


def _basis(card: Card, fmt: Formatter, numbers: list[int]) -> str:
    """The cited articles in full, one document at a time ("artigo 10.º, n.º 2, alínea a); artigo 23.º, n.º 1,
    da Convenção Portugal–Brasil")."""
    by_doc: dict[tuple[str, str], list[tuple[str, bool]]] = {}
    for source in (card.source(n) for n in numbers):
        if source is not None:
            unit = fmt.unit(source.article, source.paragraph, source.subparagraph)
            units = by_doc.setdefault((source.doc_kind, source.treaty), [])
            entry = (unit, numbered(source.article) and bool(source.paragraph))
            if entry not in units:
                units.append(entry)
    names = [fmt.in_document("; ".join(u for u, _ in units), kind, treaty, units[-1][1])
             for (kind, treaty), units in by_doc.items()]
    return fmt.text("presentation.reply.basis", items="; ".join(names)) if names else ""


def reply(card: Card, quotes: bool = False, limit: int = REPLY_CHARS, paragraph: str = "") -> Reply:
    """The reply: the answer's lines tier by tier while the whole stays within `limit` characters, more for
    each further question the card answers apart (the first tier always), then the legal basis, the
    questions, the closing and the disclaimer. `paragraph` is the model's plain-language paragraph, already
    checked sentence by sentence against the card (assistant.claims): it opens the answer, without its
    passage markers; the card's own lines follow it."""
    fmt = Formatter(card.language)
    asked = missing_questions(card.missing_facts)
    names = " · ".join(fmt.treaty(t) for t in card.treaties)
    head = [fmt.text("presentation.reply.greeting")]
    if names:
        head.append(fmt.text("presentation.reply.intro", name=names))
    plain = " ".join(_MARKER.sub("", paragraph).split())
    if plain:
        head.append(plain)
    tail = [fmt.text("presentation.reply.questions", items=render(Join(asked), fmt))] if asked else []
    tail += [fmt.text("presentation.reply.closing"), fmt.text("presentation.reply.disclaimer")]
    best: list[str] = []
    cited: list[int] = []
    limit += EXTRA_PART_CHARS * max(0, len(card.sections) - 1)
    for kinds, first_only, style in _candidates(card):
        chosen = _selected(card, kinds, first_only)
        refs = _cited(chosen)
        body = _answer(card, fmt, chosen, style)
        if not body:
            continue
        body += [x for x in (_basis(card, fmt, refs),) if x]
        if best and len("\n\n".join(head + body + tail)) > limit:
            break
        best, cited = body, refs
    if quotes:
        best += _quotes(card, fmt, cited)
    return Reply(card.language, tuple(x for x in head + best + tail if x))


def _candidates(card: Card) -> list[tuple[frozenset[str], bool, Markup]]:
    """From the shortest reply to the fullest: the first block of each section (States without their role,
    then with it), then tier after tier. A ticket that asks how the double taxation is removed has it in
    the first tier."""
    first = TIERS[0] | (TIERS[1] if _asks_relief(card) else frozenset())
    kinds, out = first, [(first, True, BRIEF), (first, True, PLAIN)]
    for tier in TIERS:
        kinds = kinds | tier
        out.append((kinds, False, PLAIN))
    return out


def _quotes(card: Card, fmt: Formatter, numbers: list[int]) -> list[str]:
    found = [s for s in (card.source(n) for n in numbers) if s is not None and s.quote]
    if not found:
        return []
    return [fmt.text("presentation.reply.quotes"),
            *(f"{fmt.article(s.treaty, s.article, s.paragraph, s.subparagraph, s.doc_kind)}: “{s.quote}”"
              for s in found)]


def refusal(language: str, text: str) -> Reply:
    """The reply when the assistant does not answer: the reason, with the same greeting and closing."""
    fmt = Formatter(language)
    return Reply(language, (fmt.text("presentation.reply.greeting"), text, fmt.text("presentation.reply.closing"),
                            fmt.text("presentation.reply.disclaimer")))


def reply_text(card: Card) -> str:
    return reply(card).text
