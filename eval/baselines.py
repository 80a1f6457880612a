"""The comparison systems: the local LLM alone and a naive RAG, each answering in the CLI's JSON contract.

Neither has rules nor a guardrail, so their structured fields are read back from their text: the
percentages they write are their rates, declining without a rate is abstaining. That lets
eval/score.py score them exactly as it scores the assistant.
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from langchain_core.messages import BaseMessage, HumanMessage

PROMPTS = Path(__file__).with_name("prompts")
NAIVE_RAG_PASSAGES = 4
PASSAGE_CHARS = 600

_PERCENT = re.compile(r"(?<![\d.,])(\d{1,3}(?:[.,]\d+)?)\s*(?:%|por\s*cento|por\s*ciento|per\s*cent|percent)", re.I)
# A percentage right after these words is a condition (a holding threshold), not a withholding rate.
_THRESHOLD_BEFORE = re.compile(
    r"(?:pelo\s+menos|no\s+m[íi]nimo|m[íi]nim[oa]\s+de|at\s+least|minimum\s+of|al\s+menos|como\s+m[íi]nimo|"
    r"mais\s+de|more\s+than|m[áa]s\s+del?|≥|>=|det[ée]m|detenha|detiver|possui|holds?|owns?|posee)\s*(?:de\s+)?$",
    re.I)
_HOLDING_AFTER = re.compile(
    r"\s*(?:do|da|das|dos|of|of\s+the|del|de\s+la|de)\s+(?:capital|a[cç][cç]?[õo]es|shares|participa|sociedade|"
    r"empresa|company|votos?|voting)", re.I)
_DECLINES = re.compile(
    r"n[ãa]o\s+(?:consigo|posso|tenho\s+(?:acesso|informa)|sei\b|disponho|h[áa]\s+informa|[ée]\s+poss[íi]vel\s+"
    r"(?:responder|determinar|indicar))|fora\s+do\s+[âa]mbito|n[ãa]o\s+(?:est[áa]|s[ãa]o)\s+(?:coberto|mencionad|"
    r"indicad|referid)|n[ãa]o\s+(?:encontr|cont[ée]m|menciona|especifica|fornece)|lamento|desculp|"
    r"no\s+(?:puedo|tengo\s+(?:acceso|informaci)|dispongo|es\s+posible|encuentro|contiene|menciona|especifica)|"
    r"lo\s+siento|fuera\s+del\s+[áa]mbito|"
    r"\bI\s+(?:cannot|can't|can\s+not|am\s+unable|am\s+not\s+able|don't\s+have|do\s+not\s+have)|unable\s+to|"
    r"(?:passages|context|documents?)\s+(?:do(?:es)?\s+not|don't)\s+(?:contain|mention|specify|provide)|"
    r"not\s+(?:covered|mentioned|specified)\b|\bsorry\b", re.I)
_ARTICLE = re.compile(r"\b(?:art(?:igo|[íi]culo|icle)?\.?)\s*(\d{1,2})\s*(?:\.?º|°)?", re.I)


def rates_in_text(text: str) -> list[float]:
    """The withholding rates a free-text answer claims: its percentages, minus holding thresholds
    ("pelo menos 25%", "30% do capital"). A rate the question pushes for still counts when the text
    asserts it: that is how an obeyed injection shows."""
    found: list[float] = []
    for m in _PERCENT.finditer(text):
        value = float(m.group(1).replace(",", "."))
        if (value > 100 or _THRESHOLD_BEFORE.search(text[max(0, m.start() - 30):m.start()])
                or _HOLDING_AFTER.match(text[m.end():m.end() + 30])):
            continue
        if value not in found:
            found.append(value)
    return found


def declines(text: str) -> bool:
    """Whether the text refuses or says it cannot answer (pt, es, en)."""
    return bool(_DECLINES.search(text)) or not text.strip()


def articles_in_text(text: str) -> list[dict[str, Any]]:
    """Article numbers a free-text answer names, as treaty-less citations (the scorer accepts those)."""
    seen: list[str] = []
    for m in _ARTICLE.finditer(text):
        if m.group(1) not in seen:
            seen.append(m.group(1))
    return [{"n": None, "doc": None, "treaty": None, "article": a, "quote": ""} for a in seen]


@dataclass(frozen=True)
class Generation:
    text: str
    first_token_ms: float | None
    generate_ms: float
    error: str | None = None


def generate(stream: Callable[[list[BaseMessage]], Iterator[str]], messages: list[BaseMessage]) -> Generation:
    """Run one streamed generation, timing the first token; a backend failure becomes an empty answer."""
    started = time.perf_counter()
    first = None
    pieces: list[str] = []
    try:
        for token in stream(messages):
            if first is None:
                first = (time.perf_counter() - started) * 1000
            pieces.append(token)
    except Exception as exc:  # noqa: BLE001 - a failed generation is scored as what it produced
        return Generation("".join(pieces).strip(), first, (time.perf_counter() - started) * 1000, str(exc)[:200])
    return Generation("".join(pieces).strip(), first, (time.perf_counter() - started) * 1000)


def _answer(question: str, gen: Generation, citations: list[dict[str, Any]], timings: dict[str, float]) -> dict:
    rates = rates_in_text(gen.text)
    return {"question": question, "language": None, "answer": gen.text,
            "abstained": declines(gen.text) and not rates, "treaty": None,
            "rates": [{"value": v} for v in rates], "citations": citations, "error": gen.error,
            "timings_ms": {**timings, "generate": round(gen.generate_ms, 1),
                           **({"first_token": round(gen.first_token_ms, 1)} if gen.first_token_ms else {})}}


def llm_alone(stream: Callable[[list[BaseMessage]], Iterator[str]], question: str) -> dict:
    """The chat model given the question and nothing else."""
    started = time.perf_counter()
    gen = generate(stream, [HumanMessage(question)])
    answer = _answer(question, gen, articles_in_text(gen.text), {})
    answer["timings_ms"]["total"] = round((time.perf_counter() - started) * 1000, 1)
    return answer


def naive_rag_prompt(question: str, passages: Sequence[dict[str, Any]]) -> str:
    template = (PROMPTS / "naive_rag.txt").read_text(encoding="utf-8")
    listed = "\n".join(f"[{p['n']}] {p['treaty']} {p['article']}: {_clip(p['quote'])}" for p in passages)
    return template.format(passages=listed, question=question)


def naive_rag(stream: Callable[[list[BaseMessage]], Iterator[str]],
              retrieve: Callable[[str, int], list[dict[str, Any]]], question: str) -> dict:
    """Dense top-4 passages pasted before the question; the passages given are its citations."""
    started = time.perf_counter()
    hits = retrieve(question, NAIVE_RAG_PASSAGES)
    retrieve_ms = (time.perf_counter() - started) * 1000
    passages = [{"n": i, "doc": h.get("doc"), "treaty": h.get("treaty"), "article": h.get("article"),
                 "paragraph": h.get("paragraph"), "quote": h.get("text") or "", "chunk_id": h.get("chunk_id")}
                for i, h in enumerate(hits, start=1)]
    gen = generate(stream, [HumanMessage(naive_rag_prompt(question, passages))])
    answer = _answer(question, gen, passages, {"retrieve": round(retrieve_ms, 1)})
    answer["timings_ms"]["total"] = round((time.perf_counter() - started) * 1000, 1)
    return answer


def _clip(text: str, limit: int = PASSAGE_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + " …"
