"""`python -m eval.llm_compare`: the assistant with and without the model on the same items, to decide
whether the model is on by default (issue 20).

Items come from named sources (`--source`, repeatable): `questions` (every eval/questions*.jsonl split) and
`tickets:train` (the ticket bank's train split). The sealed `tickets:test` source is for the coordinator
alone. A stratified, deterministic choice of `--n` items spreads them over split, topic and language.

Per item: accuracy without and with the model (the with-model answer must be right *and* its shown paragraph
must contradict no gold fact), the claims the product's check dropped, the claims the scorer finds
contradicted in the text shown to the user (judged against the gold labels, not the rules), sentences kept
and dropped, and the times to the first model token, the first shown sentence and the full answer.
Each item is appended to a JSONL file as soon as it is done, so an interrupted run resumes where it stopped.
"""
from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import os
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any, Callable, Sequence

from assistant.claims import TaxOutcome, contradicted, state_claims
from assistant.guardrail import exemption_claims, percentages_in, stated_facts_percentages
from eval import report
from eval.gold import GoldItem, load_eval_set
from eval.score import parse_answer, percentile, score_item
from eval.tickets import Ticket
from eval.tickets import load as load_tickets

RESULTS_DIR = Path(__file__).with_name("results")
SOURCES = ("questions", "tickets:train", "tickets:test")


@dataclass(frozen=True)
class Item:
    """One question or ticket, whatever its source, with its gold record."""
    id: str
    split: str
    topic: str
    language: str
    text: str
    gold: GoldItem | Ticket


def load_items(source: str) -> list[Item]:
    if source == "questions":
        return [Item(i.id, i.split, i.category, i.language, i.question, i) for i in load_eval_set()]
    if source.startswith("tickets:") and source.split(":", 1)[1] in ("train", "test"):
        split = source.split(":", 1)[1]
        return [Item(t.id, f"tickets-{split}", t.parts[0].topic, t.language, t.text, t) for t in load_tickets(split)]
    raise ValueError(f"fonte desconhecida: {source!r} (use {', '.join(SOURCES)})")


def _order(item_id: str) -> str:
    return hashlib.sha256(item_id.encode()).hexdigest()


def stratified(items: Sequence[Item], n: int) -> list[Item]:
    """n items: the splits take turns; within a split, its (topic, language) strata take turns, largest
    first; within a stratum, a fixed pseudo-random order (a hash of the id)."""
    by_split: dict[str, dict[tuple[str, str], list[Item]]] = defaultdict(lambda: defaultdict(list))
    for item in sorted(items, key=lambda i: _order(i.id)):
        by_split[item.split][(item.topic, item.language)].append(item)
    queues: dict[str, list[Item]] = {}
    for split, strata in by_split.items():
        keys = sorted(strata, key=lambda k: (-len(strata[k]), k))
        queue: list[Item] = []
        while any(strata[k] for k in keys):
            queue += [strata[k].pop(0) for k in keys if strata[k]]
        queues[split] = queue
    chosen: list[Item] = []
    while len(chosen) < n and any(queues.values()):
        for split in sorted(queues):
            if queues[split] and len(chosen) < n:
                chosen.append(queues[split].pop(0))
    return chosen


# --------------------------------------------------------------------------- the scorer's own claim check

def _gold_outcome(ticket: Ticket) -> TaxOutcome | None:
    """Who may tax according to the ticket's labels (first part), or None when the labels do not say."""
    expected = ticket.parts[0].expected
    source, residence = ticket.source_state, ticket.residence_state
    if not source or not residence:
        return None
    both = frozenset({source, residence})
    if expected.outcome == "source_only":
        return TaxOutcome(frozenset({source}), frozenset({residence}), frozenset({source}))
    if expected.outcome in ("residence_only", "exempt"):
        return TaxOutcome(frozenset({residence}), frozenset({source}), frozenset({residence}))
    if expected.outcome in ("both", "capped"):
        return TaxOutcome(both)
    return None


def _gold_rates(gold: GoldItem | Ticket) -> set[float] | None:
    """Rates the gold allows the text to state, or None when the gold names none."""
    if isinstance(gold, GoldItem):
        return set(gold.rates) | set(gold.rates_allowed) if gold.rates else None
    expected = gold.parts[0].expected
    if expected.outcome != "capped":
        return None
    return {float(r) for r in ([expected.rate] if expected.rate is not None else []) + list(expected.rates)}


def scorer_contradictions(gold: GoldItem | Ticket, text: str, language: str) -> list[str]:
    """Claims of a shown text that the gold labels contradict: a rate outside the gold rates (or forbidden),
    an exemption where the gold has a positive cap, a State said to tax / not to tax / to tax alone against
    the labelled outcome. Judged against the gold, not against the rules the product checks with."""
    if not text.strip():
        return []
    found: list[str] = []
    rates = {float(r) for r in percentages_in(text)} - {float(r) for r in stated_facts_percentages(text)}
    allowed = _gold_rates(gold)
    forbidden = set(gold.forbidden_rates) if isinstance(gold, GoldItem) else set()
    found += [f"rate {r:g}" for r in sorted(rates) if r in forbidden or (allowed is not None and r not in allowed)]
    if allowed is not None and 0.0 not in allowed and exemption_claims(text):
        found.append("exemption")
    if isinstance(gold, Ticket):
        outcome = _gold_outcome(gold)
        if outcome is not None:
            roles = {"source": gold.source_state, "residence": gold.residence_state}
            states = tuple(sorted(outcome.may_tax | outcome.may_not_tax))
            found += [f"{c.state}:{c.claim}" for c in state_claims(text, language, states, roles)
                      if contradicted(c, outcome)]
    return found


# --------------------------------------------------------------------------- accuracy

def _ticket_correct(ticket: Ticket, answer: Any, text: str) -> bool:
    from eval.tickets_run import reading_of
    from eval.tickets_score import score_ticket

    reading = reading_of(answer)
    if reading.parts and text:
        reading = dataclasses.replace(reading, parts=(dataclasses.replace(reading.parts[0], text=text),
                                                      *reading.parts[1:]))
    return all(p.answer_correct for p in score_ticket(ticket, reading).parts)


def correct(item: Item, answer: Any, with_text: str = "") -> bool:
    """The item's accuracy as its own scorer defines it (eval/score.py, eval/tickets_score.py)."""
    if isinstance(item.gold, GoldItem):
        return score_item(item.gold, parse_answer(answer.to_dict())).accuracy.correct
    return _ticket_correct(item.gold, answer, with_text)


# --------------------------------------------------------------------------- one item

AskFn = Callable[[str], tuple[Any, dict[str, float]]]


def timed_ask(assistant: Any) -> AskFn:
    """Ask and time: first model token, first shown sentence, full answer (ms)."""
    def ask(text: str) -> tuple[Any, dict[str, float]]:
        started = time.perf_counter()
        final, times = None, {}
        for event in assistant.stream(text):
            if event.kind == "token" and "first_shown" not in times:
                times["first_shown"] = (time.perf_counter() - started) * 1000
            if event.kind == "final":
                final = event.answer
        times["total"] = (time.perf_counter() - started) * 1000
        if final is not None and "first_token" in final.timings_ms:
            times["first_token"] = final.timings_ms["first_token"] + final.timings_ms.get("rules", 0) \
                + final.timings_ms.get("understand", 0) + final.timings_ms.get("retrieve", 0)
        return final, times
    return ask


def run_item(item: Item, without: AskFn, with_model: AskFn) -> dict[str, Any]:
    plain, _ = without(item.text)
    answer, times = with_model(item.text)
    guard = answer.guardrail
    shown = answer.explanation
    return {
        "id": item.id, "split": item.split, "topic": item.topic, "language": item.language,
        "correct_without": correct(item, plain, ""), "correct_with": correct(item, answer, f"{answer.card}\n{shown}"),
        "abstained": answer.abstained, "guardrail": guard.action,
        "sentences_kept": guard.sentences_kept, "sentences_dropped": guard.sentences_dropped,
        "check_contradicted": guard.contradicted_claims, "dropped": guard.dropped,
        "scorer_contradicted": scorer_contradictions(item.gold, shown, item.language),
        "card_contradicted": scorer_contradictions(item.gold, plain.reply, item.language),
        "shown": shown, "notes": guard.notes, "times_ms": {k: round(v, 1) for k, v in times.items()},
    }


# --------------------------------------------------------------------------- summary and report

def summarise(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    n = len(records)

    def share(key: str) -> float | None:
        return sum(1 for r in records if r[key]) / n if n else None

    def p(key: str, q: float) -> float | None:
        return percentile([r["times_ms"][key] for r in records if key in r["times_ms"]], q)
    actions = defaultdict(int)
    for r in records:
        actions[r["guardrail"]] += 1
    return {
        "n": n, "accuracy_without": share("correct_without"), "accuracy_with": share("correct_with"),
        "check_contradicted": sum(r["check_contradicted"] for r in records),
        "sentences_dropped": sum(r["sentences_dropped"] for r in records),
        "sentences_kept": sum(r["sentences_kept"] for r in records),
        "scorer_contradicted_shown": sum(len(r["scorer_contradicted"]) for r in records),
        "scorer_contradicted_model": sum(len(model_contradictions(r)) for r in records),
        "guardrail": dict(actions),
        "timeouts": sum(1 for r in records if any(n.startswith("tempo esgotado") for n in r["notes"])),
        "first_token_p50": p("first_token", 50), "first_token_p95": p("first_token", 95),
        "first_shown_p50": p("first_shown", 50), "total_p50": p("total", 50), "total_p95": p("total", 95),
    }


def model_contradictions(record: dict[str, Any]) -> list[str]:
    """The shown contradictions the deterministic reply does not already make: what the model added, as
    opposed to a wrong card it repeated. Reported beside the total; the condition counts the total."""
    card = set(record.get("card_contradicted", ()))
    return [c for c in record["scorer_contradicted"] if c not in card]


MIN_ITEMS = 120


def holds(summary: dict[str, Any]) -> bool:
    """Issue 20's condition for the model to be on by default: accuracy with it at least as high as without,
    and no contradicted claim shown, on a complete measurement of at least MIN_ITEMS items."""
    return summary["n"] >= MIN_ITEMS and summary["accuracy_with"] >= summary["accuracy_without"] \
        and summary["scorer_contradicted_shown"] == 0


def verdict(summary: dict[str, Any], planned: int) -> str:
    if summary["n"] < max(planned, MIN_ITEMS):
        return f"medição incompleta ({summary['n']} de {max(planned, MIN_ITEMS)} itens): não decide"
    return "cumpre" if holds(summary) else "não cumpre"


def _pct(v: float | None) -> str:
    return "—" if v is None else f"{100 * v:.1f}%"


def _s(v: float | None) -> str:
    return "—" if v is None else f"{v / 1000:.1f} s"


def section(result: dict[str, Any]) -> str:
    s = result["summary"]
    groups = result["by_split"]
    lines = ["## Com e sem o modelo (`python -m eval.llm_compare`, issue 20)", "",
             f"- Data: {result['date']}; fontes: {', '.join(result['sources'])}; {s['n']} itens "
             f"(estratificados por divisão, tema e língua; {result['planned']} planeados).",
             f"- Modelo: `{result['model']}`, {result['threads']}, especulação `{result['speculative']}`, "
             f"máx. {result['max_tokens']} tokens; máquina: {result['machine_note']}.",
             f"- Itens: `{result['records_file']}`.", "",
             "| | " + " | ".join(["todas", *groups]) + " |", "|---|" + "---|" * (len(groups) + 1)]
    rows = [("Itens", "n", str), ("Exatidão sem modelo", "accuracy_without", _pct),
            ("Exatidão com modelo", "accuracy_with", _pct),
            ("Afirmações contraditas retiradas pela verificação", "check_contradicted", str),
            ("Frases retiradas (todas as razões)", "sentences_dropped", str),
            ("Frases mostradas", "sentences_kept", str),
            ("Sem texto do modelo: tempo esgotado", "timeouts", str),
            ("Afirmações contraditas no texto mostrado (avaliador, contra o ouro)", "scorer_contradicted_shown", str),
            ("… das quais a resposta determinística não faz (acrescentadas pelo modelo)",
             "scorer_contradicted_model", str),
            ("1.º token p50 / p95", ("first_token_p50", "first_token_p95"), _s),
            ("1.ª frase mostrada p50", "first_shown_p50", _s),
            ("Resposta completa p50 / p95", ("total_p50", "total_p95"), _s)]
    for label, key, fmt in rows:
        cells = []
        for summary in [s, *groups.values()]:
            if isinstance(key, tuple):
                cells.append(" / ".join(fmt(summary[k]) for k in key))
            else:
                cells.append(fmt(summary[key]))
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    lines += ["", "Guardrail: " + ", ".join(f"{k} {v}" for k, v in sorted(s["guardrail"].items())) + ".",
              "", f"**Condição da issue 20 (exatidão com ≥ sem, 0 afirmações contraditas mostradas, ≥ {MIN_ITEMS} "
              f"itens): {verdict(s, result['planned'])}.**"]
    lines += [f"- {note}" for note in result.get("notes", [])]
    return "\n".join(lines)


# --------------------------------------------------------------------------- main

def done_records(path: Path) -> dict[str, dict[str, Any]]:
    if not path.is_file():
        return {}
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            record = json.loads(line)
            out[record["id"]] = record
    return out


def ask_all(settings: Any, chosen: Sequence[Item], done: dict[str, dict[str, Any]], records_file: Path) -> None:
    """Every chosen item not yet in the records file, appended one by one."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from assistant.llm import LlmInfo
    from assistant.pipeline import Assistant

    assistant = Assistant.from_settings(settings, llm="local", dense=True)
    if assistant.chat_model is None:
        raise SystemExit(f"erro: modelo local indisponível: {assistant.llm_error}")
    plain = Assistant(settings, assistant.catalog, assistant.search, None, LlmInfo("none", ""))
    without, with_model = timed_ask(plain), timed_ask(assistant)
    RESULTS_DIR.mkdir(exist_ok=True)
    with records_file.open("a", encoding="utf-8") as out:
        for k, item in enumerate(chosen, 1):
            if item.id in done:
                continue
            record = run_item(item, without, with_model)
            done[item.id] = record
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
            out.flush()
            print(f"[{k}/{len(chosen)}] {item.id} sem={record['correct_without']} com={record['correct_with']} "
                  f"{record['guardrail']} -{record['sentences_dropped']} "
                  f"{record['times_ms'].get('total', 0) / 1000:.0f}s",
                  flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m eval.llm_compare", description=__doc__.split("\n")[0])
    parser.add_argument("--source", action="append", default=[], metavar="FONTE",
                        help=f"de onde vêm os itens (pode repetir-se): {', '.join(SOURCES)}; "
                             "omissão: questions e tickets:train")
    parser.add_argument("--n", type=int, default=120, help="itens (omissão 120)")
    parser.add_argument("--label", default="", help="sufixo do ficheiro de resultados")
    parser.add_argument("--no-report", action="store_true", help="não reescreve eval/RESULTS.md")
    parser.add_argument("--note", action="append", default=[], help="nota para o relatório")
    parser.add_argument("--date", default=date.today().isoformat(), help="data do ficheiro de itens a retomar")
    parser.add_argument("--report-only", action="store_true",
                        help="só resume o ficheiro de itens já feito (não pergunta nada)")
    args = parser.parse_args(argv)
    sources = args.source or ["questions", "tickets:train"]
    try:
        items = [i for source in sources for i in load_items(source)]
    except ValueError as exc:
        parser.error(str(exc))
    chosen = stratified(items, args.n)
    stem = f"llm-compare-{args.date}{'-' + args.label if args.label else ''}"
    records_file = RESULTS_DIR / f"{stem}.jsonl"
    done = done_records(records_file)

    from config import load_settings

    settings = load_settings()
    if not args.report_only:
        ask_all(settings, chosen, done, records_file)
    records = [done[i.id] for i in chosen if i.id in done]
    by_split: dict[str, list] = defaultdict(list)
    for r in records:
        by_split[r["split"]].append(r)
    result = {"date": args.date, "sources": sources, "planned": len(chosen),
              "model": settings.llm_model_file.name, "max_tokens": settings.llm_max_tokens,
              "threads": f"{settings.llm_threads} threads" if settings.llm_threads else
              "threads escolhidas pela carga ao arrancar o servidor",
              "speculative": settings.llm_speculative, "records_file": f"eval/results/{records_file.name}",
              "machine_note": f"{report.machine_info()['cores']} núcleos, partilhada e carregada (load "
                              f"{os.getloadavg()[0]:.1f} no fim)",
              "summary": summarise(records), "by_split": {k: summarise(v) for k, v in sorted(by_split.items())},
              "notes": args.note}
    (RESULTS_DIR / f"{stem}.json").write_text(json.dumps(result, ensure_ascii=False, indent=1), encoding="utf-8")
    text = section(result)
    print(text)
    if not args.no_report:
        report.write_section("llm", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
