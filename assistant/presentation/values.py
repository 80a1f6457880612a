"""Typed values on the card and the one formatter per language that turns them into words.

A card line is a catalogue key with params; a param is a typed value (a rate, a number with its unit, a
State, a nested phrase, a condition with its status), never a pre-rendered string, so each view (markdown,
plain reply, prompt facts, app) renders the same data its own way and nothing is parsed back.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Callable, Literal, Mapping, Union

import rules
from i18n import has, t
from rules.labels import state_name, topic_label, unit_label
from rules.results import condition_key

_PROTOCOL = re.compile(r"^Protocolo\s+(\d+)$")      # the rules data name protocol points "Protocolo 5"
_ROMAN = re.compile(r"^[IVXLC]+$")                    # the items of an order: "I", "XI"

Status = Literal["met", "not_met", "unknown", "assumed_not_met"]
StateForm = Literal["name", "the", "in", "of", "from"]


@dataclass(frozen=True)
class Rate:
    """A percentage (0 for an exemption)."""
    value: float


@dataclass(frozen=True)
class Num:
    """A number, with the unit code of rules.units (days, months, years, …) when it has one."""
    value: float
    unit: str | None = None


@dataclass(frozen=True)
class StateName:
    """A State by its code, in the form its place in the sentence needs: "the" as a subject ("o Brasil"),
    "in" ("no Brasil", "en España"), "of" ("do Brasil", "of Brazil"), "from" ("from Brazil")."""
    code: str
    form: StateForm = "name"


@dataclass(frozen=True)
class Treaty:
    """A treaty by its id ("PT-BR"), said as its parties ("Portugal–Brasil")."""
    code: str


@dataclass(frozen=True)
class Topic:
    code: str
    capitalised: bool = False


@dataclass(frozen=True)
class Day:
    value: date


@dataclass(frozen=True)
class Phrase:
    """A catalogue key and its params (each a Value)."""
    key: str
    params: Mapping[str, "Value"] = field(default_factory=dict)


@dataclass(frozen=True)
class Check:
    """A condition and whether the stated facts meet it: the views show the status their own way."""
    phrase: Phrase
    status: Status


@dataclass(frozen=True)
class Join:
    """Values joined by language-neutral punctuation ("; ", " — ", " · ")."""
    items: tuple["Value", ...]
    sep: str = "; "


@dataclass(frozen=True)
class Paren:
    value: "Value"


@dataclass(frozen=True)
class Emph:
    """What the card stresses (a rate, who may tax); markdown makes it bold, plain text leaves it as is."""
    value: "Value"


@dataclass(frozen=True)
class Stated:
    """A number the question states, shown against a threshold ("18 meses < 2 anos"): the user's own figure,
    so it grounds nothing an explanation says."""
    value: "Value"


Value = Union[str, int, Rate, Num, StateName, Treaty, Topic, Day, Phrase, Check, Join, Paren, Emph, Stated]


def phrase_of(message: rules.Message) -> Phrase:
    """A rules Message (key + plain or Message params) as a Phrase."""
    return Phrase(message.key, {k: phrase_of(v) if isinstance(v, rules.Message) else v
                                for k, v in message.params.items()})


def condition(c: rules.Condition) -> Phrase:
    return Phrase(condition_key(c.code, c.params), dict(c.params))


def check(c: rules.Condition) -> Check:
    return Check(condition(c), c.status if c.status in ("met", "not_met", "assumed_not_met") else "unknown")


@dataclass(frozen=True)
class Formatter:
    """Numbers, rates, States, dates and treaties in one language: 12,5% (pt/es), 12.5% (en)."""
    language: str

    def number(self, value: float) -> str:
        text = f"{value:g}"
        return text if self.language == "en" else text.replace(".", ",")

    def rate(self, value: float) -> str:
        return f"{self.number(value)}%"

    def quantity(self, value: float, unit: str | None) -> str:
        return f"{self.number(value)} {unit_label(unit, value, self.language)}" if unit else self.number(value)

    def state(self, code: str, form: StateForm = "name") -> str:
        key = f"presentation.state.{form}.{code.upper()}"
        if form != "name" and has(key):
            return t(self.language, key)
        name = state_name(code, self.language)
        default = f"presentation.state_default.{form}"
        return t(self.language, default, state=name) if has(default) else name

    def treaty(self, code: str) -> str:
        parties = rules.known_treaties().get(code)
        if parties:
            return "–".join(self.state(p) for p in parties)
        return t(self.language, f"presentation.treaty.{code}") if has(f"presentation.treaty.{code}") else code

    def topic(self, code: str, capitalised: bool = False) -> str:
        label = topic_label(code, self.language)
        return label[:1].upper() + label[1:] if capitalised else label

    def day(self, value: date) -> str:
        return value.isoformat()

    def text(self, key: str, **params: Any) -> str:
        return t(self.language, key, **params)

    def article(self, treaty: str, article: str | None, paragraph: str | None, subparagraph: str | None,
                doc_kind: str = "convention") -> str:
        """An article named in full: "artigo 18.º, n.º 2, da Convenção Portugal–Brasil", "artículo 18,
        apartado 2, del Convenio Brasil–España", "Article 18(2) of the Portugal–Brazil Convention"."""
        return self.in_document(self.unit(article, paragraph, subparagraph), doc_kind, treaty,
                                numbered(article) and bool(paragraph))

    def unit(self, article: str | None, paragraph: str | None, subparagraph: str | None) -> str:
        """The article, paragraph and sub-paragraph (a protocol point, an order's item) in words."""
        article = article or ""
        protocol = _PROTOCOL.match(article)
        if protocol:
            return self.text("presentation.cite.protocol", point=protocol.group(1))
        if _ROMAN.match(article):
            return self.text("presentation.cite.item", article=article)
        if numbered(article):
            key = "article_paragraph_sub" if paragraph and subparagraph else \
                "article_paragraph" if paragraph else "article"
            return self.text(f"presentation.cite.{key}", article=article, paragraph=paragraph, sub=subparagraph)
        return self.text("presentation.cite.other", article=article)

    def in_document(self, units: str, doc_kind: str, treaty: str, ends_in_paragraph: bool) -> str:
        """Units of one document, then the document: "…, n.º 2, da Convenção Portugal–Brasil"."""
        kind = doc_kind if has(f"presentation.cite.in_doc.{doc_kind}") else "convention"
        group = "in_doc_paragraph" if ends_in_paragraph else "in_doc"
        return self.text(f"presentation.cite.{group}.{kind}", unit=units, treaty=self.treaty(treaty))


def numbered(article: str | None) -> bool:
    """An article with a number (its paragraphs are named); protocol points and order items are not."""
    return bool(article) and article[:1].isdigit()  # type: ignore[index]


@dataclass(frozen=True)
class Markup:
    """How a view writes emphasis and statuses; the words come from the Formatter."""
    emph: Callable[[str], str] = lambda text: text
    mark: Callable[[Status], str] = lambda status: ""
    keys: Mapping[str, str] = field(default_factory=dict)   # a view's shorter wording of some phrases
    ref: Callable[[int], str] = lambda n: f"[{n}]"           # a citation number (the app makes it a link)
    stated: Callable[[str], str] = lambda text: text        # the question's own numbers (grounding drops them)
    aside: Callable[[str], str] = lambda text: text         # a note or an assumption (the app sets it smaller)


PLAIN = Markup()


def render(value: Value, fmt: Formatter, markup: Markup = PLAIN) -> str:
    """The value in words, in the formatter's language, with the view's markup."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, (int, float)):
        return fmt.number(float(value))
    if isinstance(value, Rate):
        return fmt.rate(value.value)
    if isinstance(value, Num):
        return fmt.quantity(value.value, value.unit)
    if isinstance(value, StateName):
        return fmt.state(value.code, value.form)
    if isinstance(value, Treaty):
        return fmt.treaty(value.code)
    if isinstance(value, Topic):
        return fmt.topic(value.code, value.capitalised)
    if isinstance(value, Day):
        return fmt.day(value.value)
    if isinstance(value, Phrase):
        return fmt.text(markup.keys.get(value.key, value.key),
                        **{k: render(v, fmt, markup) for k, v in value.params.items()})
    if isinstance(value, Check):
        mark = markup.mark(value.status)
        text = render(value.phrase, fmt, markup)
        return f"{mark} {text}" if mark else text
    if isinstance(value, Join):
        return value.sep.join(x for x in (render(v, fmt, markup) for v in value.items) if x)
    if isinstance(value, Paren):
        return f"({render(value.value, fmt, markup)})"
    if isinstance(value, Emph):
        return markup.emph(render(value.value, fmt, markup))
    if isinstance(value, Stated):
        return markup.stated(render(value.value, fmt, markup))
    raise TypeError(f"not a card value: {value!r}")


def walk(value: Value, into_stated: bool = True):
    """Every value inside `value`, itself first (for views that collect rates, States, statuses); without the
    question's own numbers when into_stated is False (what the card grounds)."""
    if isinstance(value, Stated) and not into_stated:
        return
    yield value
    if isinstance(value, Phrase):
        for v in value.params.values():
            yield from walk(v, into_stated)
    elif isinstance(value, Check):
        yield from walk(value.phrase, into_stated)
    elif isinstance(value, Join):
        for v in value.items:
            yield from walk(v, into_stated)
    elif isinstance(value, (Paren, Emph, Stated)):
        yield from walk(value.value, into_stated)


def msg(language: str, key: str, default: str | None = None, **values: object) -> str:
    """An assistant message (i18n/assistant.yaml) in `language`; `default` when the key is unknown."""
    full = f"assistant.{key}"
    if not has(full):
        if default is None:
            raise KeyError(key)
        return default
    return t(language, full, **values)
