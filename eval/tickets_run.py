"""`python -m eval.tickets_run --split train|test|incoming`: the deterministic assistant (no LLM) on every ticket
of a split of the ticket bank, scored per part by eval/tickets_score.py, with tables per language, per topic and
per topic method. `incoming` is a fresh batch before it is split: its first read, by the reader as installed.

The test split is sealed: only the coordinator runs it (`--split test`), never while tuning.
What the assistant gave is turned into a TicketReading here (the RuleRun -> outcome vocabulary mapping,
outcome_of); the scoring itself is pure and lives in eval/tickets_score.py.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import time
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

from tqdm import tqdm

from assistant.understand.direction_model import DirectionModel
from assistant.understand.direction_model import bank_examples as direction_examples
from assistant.understand.parts import read_parts
from assistant.understand.stated import stated_facts
from assistant.understand.topic_model import TopicModel, bank_examples, eval_examples, exemplar_examples
from eval.gold import load_eval_set
from eval.tickets import Ticket, load
from eval.tickets_score import (
    OUT_OF_SCOPE,
    Article,
    PartReading,
    PredictedOutcome,
    TicketReading,
    markdown,
    report,
    score_ticket,
    topic_accuracy,
)

if TYPE_CHECKING:
    from ingest.embedding_cache import QueryVectors

METHODS = ("lexicon", "nearest", "trained", "combined")
FOLDS = 5
RETRIEVAL_K = 5


# --------------------------------------------------------------------------- rule results -> outcome

def _rights_outcome(result: Any) -> PredictedOutcome:
    """One decided taxing-rights case in the bank's words: who may tax, or the source cap."""
    case = result.cases[0]
    rights = {r.role: r for r in case.rights}
    residence, source = rights.get("residence"), rights.get("source")
    if "effective_management" in rights:               # ships, aircraft: the State of effective management
        if rights["effective_management"].right == "exclusive":
            return PredictedOutcome("residence_only")  # whichever it is
        return PredictedOutcome("both")                # it may tax, and so may the residence State
    if source is not None and source.right == "capped":
        return PredictedOutcome("capped", rates=_cap_rates(source.cap))
    if source is not None and residence is not None and {source.right, residence.right} <= {"none", "exempt"}:
        return PredictedOutcome("exempt")              # PT-BR 20: "é isenta de impostos em ambos os Estados"
    if source is None or source.right in ("none", "exempt"):
        return PredictedOutcome("residence_only", state=result.residence_state)
    if source.right == "exclusive" or (residence is not None and residence.right in ("none", "exempt")):
        return PredictedOutcome("source_only", state=result.source_state)
    return PredictedOutcome("both")


def _cap_rates(cap: Any) -> tuple[float, ...]:
    if cap is None:
        return ()
    if cap.outcome == "cap" and cap.rate is not None:
        return (float(cap.rate),)
    if cap.outcome == "exempt":
        return (0.0,)
    return tuple(sorted({float(a.rate) for a in cap.alternatives if a.rate is not None}))


_EXEMPTIONS = ("exemption", "exemption_progression")


def outcome_of(run: Any, abstained: bool = False, topic: str | None = None) -> PredictedOutcome:
    """A RuleRun in the ticket outcome vocabulary (eval.tickets.Outcome): the tie-breaker's State, who may
    tax (taxing rights, else the 183-day test), the withholding cap, or figures; with the facts the rules
    say are missing. A relief question ("¿por exención o por deducción?") answered by an exemption alone is
    `exempt` in the residence State that exempts, whatever cap the source keeps."""
    if abstained or run is None:
        return PredictedOutcome("abstain")
    missing = tuple(run.missing_facts)
    if topic == "double_taxation_relief":
        reliefs = [*run.relief, *(r for rights in run.rights for case in rights.cases for r in case.relief)]
        if reliefs and all(r.method in _EXEMPTIONS for r in reliefs):
            return PredictedOutcome("exempt", state=reliefs[0].state, missing=missing)
    if run.tiebreaker is not None:
        result = run.tiebreaker.result
        if result is None:
            return PredictedOutcome("depends", missing=missing)
        return PredictedOutcome("resident_of", state="undetermined" if result == "mutual_agreement" else result)
    decided = [r for r in run.rights if r.outcome == "decided"]
    if run.rights:
        outcomes = {_rights_outcome(r) for r in decided}
        if len(decided) == len(run.rights) and len(outcomes) == 1:
            return dataclasses.replace(outcomes.pop(), missing=missing)
        return PredictedOutcome("depends", missing=missing)
    if run.employment is not None:
        taxable = run.employment.taxable_in_work_state
        if taxable is None:
            return PredictedOutcome("depends", missing=missing)
        return PredictedOutcome("both" if taxable else "residence_only")
    if run.withholding:
        rates = sorted({r for w in run.withholding for r in _cap_rates(w)})
        if all(w.outcome == "exempt" for w in run.withholding):
            return PredictedOutcome("exempt", missing=missing)
        if rates:
            return PredictedOutcome("capped", rates=tuple(rates), missing=missing)
        return PredictedOutcome("both", missing=missing)
    if run.figures or run.documents:
        return PredictedOutcome("figure", missing=missing)
    if run.relief:
        return PredictedOutcome("both", missing=missing)
    return PredictedOutcome("depends" if missing else "abstain", missing=missing)


# --------------------------------------------------------------------------- an Answer -> a TicketReading

def _articles(items: Sequence[Any]) -> tuple[Article, ...]:
    return tuple((c.treaty, c.article) for c in items if c.article)


def read_topics(query: Any) -> list[str | None]:
    """The parts a Query reads without the trained reader: the main question (out of scope when the reader
    says so) and one out-of-scope part per side note."""
    main = OUT_OF_SCOPE if (query.out_of_scope or query.pair_not_covered or query.evasion) else query.topic
    return [main, *(OUT_OF_SCOPE for _ in query.side_notes)]


def _parts_of(answer: Any) -> tuple[PartReading, ...]:
    """The answer's parts (its close second readings left out: the reading is the first topic); an answer
    the reader did not split, or that abstained as a whole, is one part."""
    query = answer.query
    by_n = {c.n: c for c in answer.citations}
    asked = [p for p in answer.parts if not p.alternative]
    if answer.abstained and asked:       # refused as a whole, question by question (each out of scope)
        return tuple(PartReading(topic=p.topic, outcome=PredictedOutcome("abstain"), text=answer.card if k == 0 else "",
                                 confidence=p.confidence) for k, p in enumerate(asked))
    if answer.abstained or not asked:
        return tuple(PartReading(topic=t, outcome=outcome_of(answer.rule_results, answer.abstained or k > 0),
                                 text=answer.card if k == 0 else "",
                                 cited=_articles(answer.citations) if k == 0 else ())
                     for k, t in enumerate(read_topics(query)))
    return tuple(PartReading(topic=p.topic, outcome=outcome_of(p.rule_results, p.out_of_scope is not None, p.topic),
                             text=answer.card, cited=_articles([by_n[n] for n in p.citations if n in by_n]),
                             confidence=p.confidence) for p in asked)


def reading_of(answer: Any, retrieved: Sequence[Any] = ()) -> TicketReading:
    """What the assistant read and answered for one ticket, from its Answer (and its retrieval hits)."""
    query = answer.query
    if query is None:   # rejected input: nothing was read
        return TicketReading(None, None, None, {}, (PartReading(None, PredictedOutcome("abstain")),),
                             latency_ms=answer.timings_ms.get("total"))
    chosen = query.readings[0] if query.treaty is None and query.readings else None
    return TicketReading(
        treaty=query.treaty or (chosen.treaty if chosen else None),
        residence_state=query.residence_state or (chosen.residence_state if chosen else None),
        source_state=query.source_state or (chosen.source_state if chosen else None),
        facts=stated_facts(query, [p.topic for p in answer.parts if p.topic != OUT_OF_SCOPE]),
        parts=_parts_of(answer),
        retrieved=tuple((h.chunk.treaty, h.chunk.article) for h in retrieved if h.chunk.article),
        latency_ms=answer.timings_ms.get("total"))


# --------------------------------------------------------------------------- topic methods

TopicMethod = Callable[[Ticket], list[str | None]]
Readers = Callable[[Ticket], tuple[TopicModel, DirectionModel]]


def fold_readers(tickets: Sequence[Ticket], vectors: QueryVectors | None, folds: int = FOLDS) -> Readers:
    """Cross-validation on the train split: each ticket is read by models (topic, direction) fitted without
    its page's fold (grouped by source page); the topic model also learns from the eval items and the
    example bank."""
    from sklearn.model_selection import GroupKFold

    base = eval_examples(load_eval_set()) + exemplar_examples()
    by_id: dict[str, tuple[TopicModel, DirectionModel]] = {}
    pages = [t.page for t in tickets]
    for train, held in GroupKFold(min(folds, len(set(pages)))).split(tickets, groups=pages):
        fitted = [tickets[i] for i in train]
        models = (TopicModel.fit(bank_examples(fitted) + base, vectors),
                  DirectionModel.fit(direction_examples(fitted)))
        by_id.update({tickets[i].id: models for i in held})
    return lambda ticket: by_id[ticket.id]


def topic_methods(assistant: Any, names: Sequence[str], readers: Readers) -> dict[str, TopicMethod]:
    """Each named topic method as ticket -> the topics of its parts. "combined" is the assistant's own
    reading (scored from the answers, not here)."""
    import rules
    from assistant.understand import understand

    out: dict[str, TopicMethod] = {}
    if "lexicon" in names:
        out["lexicon"] = lambda t: read_topics(understand(t.text, rules.known_treaties()))
    if "nearest" in names and assistant.classifier is not None and assistant.search.dense is not None:
        dense, classifier = assistant.search.dense, assistant.classifier
        out["nearest"] = lambda t: [classifier.nearest(dense.embed_query(t.text)).topic]
    if "trained" in names:
        out["trained"] = lambda t: [p.topic for p in read_parts(t.text, readers(t)[0])]
    return out


# --------------------------------------------------------------------------- the run

def run(tickets: Sequence[Ticket], assistant: Any, methods: Sequence[str], readers: Readers,
        progress: bool = True) -> tuple[list, dict[str, float | None], list[dict[str, Any]]]:
    """Ask every ticket (the assistant reading it with readers(ticket)), score it; the topic methods'
    accuracies; a record per ticket."""
    scores, records = [], []
    extra = topic_methods(assistant, methods, readers)
    read_by: dict[str, list[list[str | None]]] = {name: [] for name in extra}
    combined: list[list[str | None]] = []
    for ticket in tqdm(tickets, desc="tickets", leave=False, disable=not progress):
        assistant.reader, assistant.direction_reader = readers(ticket)
        answer = assistant.ask(ticket.text)
        hits = assistant.retrieve(ticket.text, RETRIEVAL_K, assistant.default_mode)
        reading = reading_of(answer, hits)
        score = score_ticket(ticket, reading, RETRIEVAL_K)
        scores.append(score)
        combined.append([p.topic for p in reading.parts])
        for name, method in extra.items():
            read_by[name].append(method(ticket))
        records.append({"id": ticket.id, "language": ticket.language, "page": ticket.page,
                        "parts": [asdict(p) for p in score.parts],
                        "read_parts": [{"topic": p.topic, "confidence": p.confidence, "outcome": asdict(p.outcome)}
                                       for p in reading.parts],
                        "treaty": reading.treaty, "residence_state": reading.residence_state,
                        "source_state": reading.source_state, "facts": asdict(score.facts),
                        "read_facts": dict(reading.facts)})
    accuracies = {name: topic_accuracy(tickets, read) for name, read in read_by.items()}
    if "combined" in methods:
        accuracies["combined"] = topic_accuracy(tickets, combined)
    return scores, accuracies, records


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m eval.tickets_run",
                                     description="O assistente determinístico no banco de tickets, por parte.")
    parser.add_argument("--split", choices=("train", "test", "incoming"), required=True,
                        help="incoming: a fresh batch not yet split, read as the product reads it (its first read)")
    parser.add_argument("--methods", default=",".join(METHODS),
                        help=f"métodos de tema a comparar, separados por vírgulas ({','.join(METHODS)})")
    parser.add_argument("--json", type=Path, metavar="SAÍDA", help="escreve o resumo e os registos em JSON")
    parser.add_argument("--limit", type=int, help="só os primeiros N tickets (para experimentar)")
    parser.add_argument("--every", type=int, default=1, metavar="N",
                        help="um ticket em cada N (de todos os lotes, para comparações rápidas)")
    args = parser.parse_args(argv)
    methods = [m.strip() for m in args.methods.split(",") if m.strip()]
    unknown = [m for m in methods if m not in METHODS]
    if unknown:
        parser.error(f"métodos desconhecidos: {', '.join(unknown)} (use {', '.join(METHODS)})")
    tickets = load(args.split)[::max(args.every, 1)]
    if args.limit is not None:
        tickets = tickets[:max(args.limit, 0)]
    if not tickets:
        print(f"nenhum ticket em eval/tickets/{args.split}/", file=sys.stderr)
        return 1
    print(f"{len(tickets)} tickets; métodos: {', '.join(methods)}"
          + ("; leitor treinado em validação cruzada por página" if args.split == "train" else ""), file=sys.stderr)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from assistant.pipeline import Assistant, reader_vectors
    from config import load_settings

    started = time.perf_counter()
    assistant = Assistant.from_settings(load_settings(), llm="none", dense=True)
    load_s = time.perf_counter() - started
    if args.split == "train":   # the reader never reads a page it was fitted on
        readers = fold_readers(load("train"), reader_vectors(assistant.search.dense, assistant.settings))
    else:
        models = (assistant.reader, assistant.direction_reader)
        readers = lambda ticket: models  # noqa: E731
    scores, accuracies, records = run(tickets, assistant, methods, readers)
    rep = report(args.split, scores, accuracies)
    print(markdown(rep))
    print(f"\n(assistente carregado em {load_s:.1f} s)")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"split": args.split, "summary": asdict(rep), "tickets": records},
                                        ensure_ascii=False, indent=1, default=str), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
