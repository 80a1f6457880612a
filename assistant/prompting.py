"""The prompt of the reply's plain-language paragraph (the model turns the card into words the taxpayer
reads): a fixed prefix the model server keeps in its prompt cache, then a small
variable part (the card as compact facts, a few passages clipped around the words that matter).

Everything that changes between questions comes after the fixed system prompt, so the server reads
only the variable part for each question (llama.cpp reuses the KV cache of the common prefix)."""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from assistant.answer import Answer, CitationRef
from assistant.lexicon.text import fold
from assistant.presentation.prompt import prompt_facts

PROMPTS = Path(__file__).with_name("prompts")
LANGUAGE_NAMES = {"pt": "European Portuguese", "es": "Spanish", "en": "English"}
PASSAGE_CHARS = 200          # each passage's share of the variable part; ~60 tokens
PASSAGES = 3                 # the rule passages come first; the server reads ~60 prompt tokens/s on 2 cores
QUESTION_CHARS = 300         # a ticket can run to 2000 characters; its asking sentences are enough
CARD_CHARS = 800             # the card's first facts (the answer itself); the user sees the whole card
_WORD = re.compile(r"\w{4,}")
_SENTENCE = re.compile(r"[^.!?]*[.!?]+|[^.!?]+$")


@lru_cache(maxsize=None)
def prompt(name: str) -> str:
    return (PROMPTS / f"{name}.txt").read_text(encoding="utf-8")


def build_messages(answer: Answer) -> list[BaseMessage]:
    """[fixed system prompt, question + facts + passages + the answer's language]."""
    shown = answer.citations[:PASSAGES]
    terms = _terms(answer.question)
    passages = "\n".join(f"[{c.n}] {c.label()}: {passage_text(c, terms)}" for c in shown)
    return [SystemMessage(prompt("system")),
            HumanMessage(prompt("user").format(
                question=asking_part(answer.question),
                result=prompt_facts(answer.card_data, {c.n for c in shown}, CARD_CHARS) if answer.card_data else "",
                passages=passages,
                valid_refs=" ".join(f"[{c.n}]" for c in shown) or "-",
                language_name=LANGUAGE_NAMES.get(answer.language, LANGUAGE_NAMES["pt"])))]


def asking_part(question: str, limit: int = QUESTION_CHARS) -> str:
    """A long ticket's asking sentences (those with "?"), else its start, up to `limit` characters: the card
    already holds the facts, and every prompt token costs ~1/60 s on 2 cores (far more on a busy machine)."""
    text = " ".join(question.split())
    if len(text) <= limit:
        return text
    asking = [s.strip() for s in _SENTENCE.findall(text) if "?" in s]
    picked = " ".join(asking) if asking else text
    return picked if len(picked) <= limit else picked[:limit].rsplit(" ", 1)[0] + " …"



def passage_text(c: CitationRef, terms: set[str], limit: int = PASSAGE_CHARS) -> str:
    """A rule's exact quote (from its start), or a retrieved passage clipped around the question's words."""
    return clip_around(c.quote, set(), limit) if c.source == "rule" else clip_around(c.passage, terms, limit)


def clip_around(text: str, terms: set[str], limit: int = PASSAGE_CHARS) -> str:
    """The `limit`-character window holding most of `terms`, cut at word boundaries."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    hits = [m.start() for m in _WORD.finditer(text) if fold(m.group()) in terms]
    start = max(((h, sum(1 for o in hits if h <= o < h + limit)) for h in hits),
                key=lambda pair: pair[1], default=(0, 0))[0]
    start = max(0, min(start - limit // 5, len(text) - limit))
    if start:
        start = text.find(" ", start) + 1
    window = text[start:start + limit]
    if start + limit < len(text):
        window = window.rsplit(" ", 1)[0]
    return ("… " if start else "") + window + (" …" if start + limit < len(text) else "")


def _terms(question: str) -> set[str]:
    return {fold(w) for w in _WORD.findall(question)}

