"""`python -m eval.bench`: ingest time, deterministic answer latency and local-LLM latency, against targets.

(a) a cold full ingest into a temporary index directory, then the same ingest again with nothing
changed (both as subprocesses, as a user runs them); (b) per-stage latency of the deterministic answer
with the models warm; (c) with the local model server: time to the card, to the first streamed token
and to the full answer, prompt tokens (all / actually read, the rest coming from the server's prompt
cache) and tokens/s, with 1 session and with N sessions asking at the same time.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Sequence

from eval import report
from eval.score import STAGES, percentile

QUESTIONS_FILE = Path(__file__).with_name("bench_questions.txt")
# How the local model server was chosen (measured once; kept in the bench section of RESULTS.md).
RUNTIME_NOTES = Path(__file__).with_name("llm_runtime.md")
RESULTS_DIR = Path(__file__).with_name("results")
REPO_ROOT = Path(__file__).resolve().parent.parent
# Targets from the issues (seconds or milliseconds as named).
TARGET_FULL_INGEST_S = 180
TARGET_NOCHANGE_INGEST_S = 5
TARGET_DETERMINISTIC_P50_MS = 300
TARGET_LLM_P50_S = 15
TARGET_FIRST_TOKEN_S = 6
CONCURRENT_SESSIONS = 4


@dataclass(frozen=True)
class IngestRun:
    seconds: float
    returncode: int
    summary: str          # the ingest's own "[ingest] …" line, or its error


def read_questions(path: Path = QUESTIONS_FILE) -> list[str]:
    if not path.is_file():
        raise SystemExit(f"erro: ficheiro de perguntas em falta: {path}")
    questions = [line.strip() for line in path.read_text(encoding="utf-8").splitlines()
                 if line.strip() and not line.lstrip().startswith("#")]
    if not questions:
        raise SystemExit(f"erro: {path} não tem perguntas")
    return questions


def run_ingest(index_dir: Path, *flags: str) -> IngestRun:
    env = {**os.environ, "TREATY_INDEX_DIR": str(index_dir), "HF_HUB_OFFLINE": "1"}
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "ingest", "--quiet", *flags], cwd=REPO_ROOT, env=env,
                          capture_output=True, text=True)
    seconds = time.perf_counter() - started
    lines = [line for line in proc.stdout.splitlines() if line.startswith("[ingest]")]
    summary = lines[-1] if lines and proc.returncode == 0 else (proc.stderr.strip().splitlines() or ["?"])[-1]
    return IngestRun(seconds, proc.returncode, summary)


def bench_ingest() -> dict[str, IngestRun]:
    """Cold (every chunk embedded, the embedding cache bypassed), a new index from the cache, and
    the same ingest again with nothing changed."""
    runs: dict[str, IngestRun] = {}
    for name, flags in (("cold", ("--no-cache",)), ("cached", ())):
        tmp = Path(tempfile.mkdtemp(prefix="treaty-bench-index-"))
        try:
            runs[name] = run_ingest(tmp, *flags)
            if name == "cached" and runs[name].returncode == 0:
                runs["nochange"] = run_ingest(tmp)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return runs


def stage_latency(timings: Sequence[dict[str, float]]) -> dict[str, dict[str, float | None]]:
    out = {}
    for stage in (*STAGES, "first_token", "card"):
        values = [t[stage] for t in timings if stage in t]
        if values:
            out[stage] = {"p50": percentile(values, 50), "p95": percentile(values, 95), "n": len(values)}
    return out


def timed_stream(assistant, question: str, cards: list | None = None) -> dict[str, float]:
    """The answer's own stage timings plus, measured outside, time to the card and to the first token.
    The card answers go to `cards` when given (to size the prompts afterwards)."""
    started = time.perf_counter()
    extra: dict[str, float] = {}
    final = None
    for event in assistant.stream(question):
        now = (time.perf_counter() - started) * 1000
        if event.kind == "card":
            extra.setdefault("card", now)
            if cards is not None:
                cards.append(event.answer)
        elif event.kind == "token":
            extra.setdefault("first_token", now)
        else:
            final = event.answer
    return {**(final.timings_ms if final else {}), **extra}


def _post_json(url: str, body: dict) -> dict:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())


def server_metrics(url: str) -> dict[str, float]:
    """llama.cpp's Prometheus counters (tokens read/generated and the seconds spent on each)."""
    with urllib.request.urlopen(f"{url}/metrics", timeout=30) as r:
        text = r.read().decode()
    out = {}
    for line in text.splitlines():
        if line.startswith("llamacpp:") and " " in line:
            name, _, value = line.partition(" ")
            out[name.removeprefix("llamacpp:")] = float(value)
    return out


def prompt_tokens(url: str, messages: list) -> int:
    """Tokens of the whole prompt as the server's chat template writes it."""
    roles = {"system": "system", "human": "user", "ai": "assistant"}
    chat = [{"role": roles.get(m.type, m.type), "content": m.content} for m in messages]
    text = _post_json(f"{url}/apply-template", {"messages": chat})["prompt"]
    return len(_post_json(f"{url}/tokenize", {"content": text})["tokens"])


def concurrent_round(assistant, questions: Sequence[str], cards: list) -> list[dict[str, float]]:
    """Every question asked at the same moment from its own thread, as browser sessions do."""
    results: list[dict[str, float]] = [{} for _ in questions]
    start = threading.Barrier(len(questions))

    def ask(i: int, q: str) -> None:
        start.wait()
        results[i] = timed_stream(assistant, q, cards)

    threads = [threading.Thread(target=ask, args=(i, q)) for i, q in enumerate(questions)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def bench_llm(assistant, questions: Sequence[str], url: str, sessions: int) -> dict:
    """Latency per session and the server's token counts, for rounds of `sessions` questions at once."""
    before = server_metrics(url)
    timings: list[dict[str, float]] = []
    cards: list = []
    for i in range(0, len(questions) - sessions + 1, sessions):
        round_ = list(questions[i:i + sessions])
        timings += concurrent_round(assistant, round_, cards) if sessions > 1 \
            else [timed_stream(assistant, round_[0], cards)]
        print(f"[bench] LLM, {sessions} sessão(ões): {len(timings)}/{len(questions)} "
              f"(última {timings[-1].get('total', 0) / 1000:.1f} s)", flush=True)
    after = server_metrics(url)
    delta = {k: after.get(k, 0.0) - before.get(k, 0.0) for k in after}
    n = len(timings)
    read, generated = delta.get("prompt_tokens_total", 0.0), delta.get("tokens_predicted_total", 0.0)
    sizes = prompt_sizes(assistant, cards, url)
    return {"sessions": sessions, "n": n, "latency": stage_latency(timings),
            "prompt_tokens": percentile(sizes, 50) if sizes else None,
            "prompt_tokens_read": read / n if n else None,
            "prompt_tokens_cached": delta.get("prompt_tokens_cached_total", 0.0) / n if n else None,
            "generated_tokens": generated / n if n else None,
            "prompt_tps": read / delta["prompt_seconds_total"] if delta.get("prompt_seconds_total") else None,
            "generation_tps": generated / delta["tokens_predicted_seconds_total"]
            if delta.get("tokens_predicted_seconds_total") else None}


def prompt_sizes(assistant, cards: Sequence, url: str) -> list[int]:
    """Whole-prompt tokens of each answer's first attempt (fixed prefix + the card's variable part)."""
    return [prompt_tokens(url, assistant._messages(card)) for card in cards]


def concurrency_table(runs: Sequence[dict]) -> str:
    lines = ["| Sessões em simultâneo | Cartão p50 | 1.º token p50 / p95 | Resposta completa p50 / p95 | "
             "Tokens do prompt (total p50 / lidos por pedido) | Leitura tok/s | Geração tok/s | n |",
             "|---|---|---|---|---|---|---|---|"]
    for r in runs:
        lat = r["latency"]
        ft, tot, card = lat.get("first_token", {}), lat.get("total", {}), lat.get("card", {})
        read = "—" if r["prompt_tokens_read"] is None else f"{r['prompt_tokens_read']:.0f}"
        whole = "—" if r["prompt_tokens"] is None else f"{r['prompt_tokens']:.0f}"
        lines.append(f"| {r['sessions']} | {_fmt_s(card.get('p50'))} | {_fmt_s(ft.get('p50'))} / "
                     f"{_fmt_s(ft.get('p95'))} | {_fmt_s(tot.get('p50'))} / {_fmt_s(tot.get('p95'))} | "
                     f"{whole} / {read} | {_fmt_tps(r['prompt_tps'])} | {_fmt_tps(r['generation_tps'])} | {r['n']} |")
    return "\n".join(lines) + "\n"


def _fmt_tps(value: float | None) -> str:
    return "—" if value is None else f"{value:.1f}"


def _fmt_s(ms: float | None) -> str:
    return "—" if ms is None else f"{ms / 1000:.1f} s"


def rows_for(result: dict) -> list[dict]:
    rows = []
    ingest = result.get("ingest") or {}
    labels = {"cold": ("Ingestão completa a frio (sem cache de embeddings)", TARGET_FULL_INGEST_S,
                       f"< {TARGET_FULL_INGEST_S // 60} min"),
              "cached": ("Índice novo a partir da cache de embeddings", None, None),
              "nochange": ("Ingestão sem alterações", TARGET_NOCHANGE_INGEST_S, f"< {TARGET_NOCHANGE_INGEST_S} s")}
    for name, (label, limit, target) in labels.items():
        run = ingest.get(name)
        if run:
            ok = run["returncode"] == 0 and (limit is None or run["seconds"] < limit)
            rows.append({"label": label, "value": f"{run['seconds']:.1f} s" if run["returncode"] == 0 else "falhou",
                         "target": target, "ok": ok if limit is not None or not ok else None})
    det = result.get("deterministic") or {}
    for stage in STAGES:
        if stage in det:
            target = stage == "total"
            rows.append({"label": f"Resposta determinística: {stage} p50 / p95",
                         "value": f"{det[stage]['p50']:.0f} / {det[stage]['p95']:.0f} ms",
                         "target": f"p50 < {TARGET_DETERMINISTIC_P50_MS} ms" if target else None,
                         "ok": det[stage]["p50"] < TARGET_DETERMINISTIC_P50_MS if target else None})
    llm = result.get("llm") or {}
    if "card" in llm:
        rows.append({"label": "Com LLM: cartão determinístico visível p50 / p95",
                     "value": f"{_fmt_s(llm['card']['p50'])} / {_fmt_s(llm['card']['p95'])}", "target": None,
                     "ok": None})
    if "first_token" in llm:
        rows.append({"label": "Com LLM: primeiro token p50 / p95",
                     "value": f"{_fmt_s(llm['first_token']['p50'])} / {_fmt_s(llm['first_token']['p95'])}",
                     "target": f"< {TARGET_FIRST_TOKEN_S} s",
                     "ok": llm["first_token"]["p50"] < TARGET_FIRST_TOKEN_S * 1000})
    if "total" in llm:
        rows.append({"label": "Com LLM: resposta completa p50 / p95",
                     "value": f"{_fmt_s(llm['total']['p50'])} / {_fmt_s(llm['total']['p95'])}",
                     "target": f"p50 < {TARGET_LLM_P50_S} s", "ok": llm["total"]["p50"] < TARGET_LLM_P50_S * 1000})
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m eval.bench", description="Mede tempos contra os objetivos.")
    parser.add_argument("--skip-ingest", action="store_true", help="não mede a ingestão")
    parser.add_argument("--no-llm", action="store_true", help="não mede o LLM local")
    parser.add_argument("--llm-questions", type=int, default=8, help="perguntas com o LLM (omissão 8)")
    parser.add_argument("--sessions", type=int, default=CONCURRENT_SESSIONS,
                        help=f"sessões em simultâneo (omissão {CONCURRENT_SESSIONS})")
    parser.add_argument("--repeat", type=int, default=2, help="passagens pelas perguntas sem LLM (omissão 2)")
    parser.add_argument("--no-report", action="store_true", help="não reescreve eval/RESULTS.md")
    args = parser.parse_args(argv)
    if args.llm_questions < 1 or args.repeat < 1 or args.sessions < 2:
        parser.error("--llm-questions e --repeat têm de ser pelo menos 1, --sessions pelo menos 2")
    if args.llm_questions < args.sessions:
        parser.error("--llm-questions tem de ser pelo menos --sessions")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    questions = read_questions()
    result: dict = {"date": date.today().isoformat(), "machine": report.machine_info(), "questions": len(questions),
                    "llm_questions": 0, "notes": []}

    if args.skip_ingest:  # keep the last measured ingest in the report, saying where it comes from
        previous = sorted(RESULTS_DIR.glob("bench-*.json"))
        earlier = json.loads(previous[-1].read_text(encoding="utf-8")) if previous else {}
        if earlier.get("ingest"):
            result["ingest"] = earlier["ingest"]
            result["notes"].append(f"Ingestão não medida nesta execução (`--skip-ingest`): valores de "
                                   f"`eval/results/{previous[-1].name}`.")
    else:
        print("[bench] ingestão a frio num índice temporário…", flush=True)
        runs = bench_ingest()
        result["ingest"] = {name: run.__dict__ for name, run in runs.items()}
        for name, run in runs.items():
            print(f"[bench]   {name}: {run.seconds:.1f} s ({run.summary})", flush=True)
        result["notes"].append("Ingestão (cada uma num índice temporário novo, como subprocesso `python -m ingest "
                               "--quiet`; os tempos incluem arrancar o Python): " + "; ".join(
                                   f"{name}: {run.summary}" for name, run in runs.items()) + ".")

    from assistant.llm import LlmInfo
    from assistant.pipeline import Assistant
    from config import load_settings

    settings = load_settings()
    if not settings.llm_threads:   # what the server would pick now: fixed here so the report can say it
        from assistant.machine import busy_cores, threads_for_load
        busy = busy_cores(0.5)
        settings = settings.replace(llm_threads=threads_for_load())
        result["notes"].append(f"LLM local com {settings.llm_threads} thread(s), escolhidas pela carga da máquina "
                               f"ao arrancar ({busy:.1f} núcleos ocupados por outros processos; `llm_threads = 0`).")
    print("[bench] a carregar o assistente…", flush=True)
    started = time.perf_counter()
    assistant = Assistant.from_settings(settings, llm="none" if args.no_llm else "local", dense=True)
    result["notes"].append(f"Carregar o assistente (embeddings{'' if args.no_llm else ' + LLM'}): "
                           f"{time.perf_counter() - started:.1f} s (uma vez por processo).")
    result["models"] = {"embedding": Path(settings.embedding_model_ref).name,
                        "llm": "—" if args.no_llm else settings.llm_model_file.name,
                        "llm_threads": settings.llm_threads, "llm_max_tokens": settings.llm_max_tokens}
    deterministic = Assistant(settings, assistant.catalog, assistant.search, None, LlmInfo("none", ""))
    deterministic.ask(questions[0])  # warm: first embedding call, lexicons, rule data
    timings = [timed_stream(deterministic, q) for _ in range(args.repeat) for q in questions]
    result["deterministic"] = stage_latency(timings)
    print(f"[bench] determinística: total p50 {result['deterministic']['total']['p50']:.0f} ms", flush=True)

    if not args.no_llm:
        if assistant.chat_model is None:
            result["notes"].append(f"LLM local indisponível: {assistant.llm_error}")
        else:
            from assistant.llm import local_model_path
            from assistant.llm_server import running_server

            server = running_server(settings, local_model_path(settings))
            step = max(1, len(questions) // args.llm_questions)
            chosen = questions[::step][:args.llm_questions]
            result["llm_questions"] = len(chosen)
            started = time.perf_counter()
            cold = timed_stream(assistant, questions[-1])  # the server warms the fixed prefix as it starts
            result["notes"].append(f"Primeira pergunta com o servidor acabado de arrancar (o prefixo fixo é lido para "
                                   f"a cache logo ao arrancar, em segundo plano): 1.º token "
                                   f"{_fmt_s(cold.get('first_token'))}, resposta completa "
                                   f"{_fmt_s(cold.get('total'))} ({time.perf_counter() - started:.0f} s).")
            # other questions for the concurrent rounds: a repeated prompt would come whole from the server's cache
            others = [q for q in questions if q not in chosen][::step][:args.llm_questions] or chosen
            runs = [bench_llm(assistant, chosen, server.url, 1),
                    bench_llm(assistant, others, server.url, args.sessions)]
            result["llm"] = runs[0]["latency"]
            result["llm_runs"] = runs
            load = os.getloadavg()
            result["notes"].append("Com LLM: o cartão determinístico aparece antes do primeiro token; o tempo total "
                                   "inclui a verificação e, se o guardrail rejeitar, uma segunda geração. Sessões em "
                                   "simultâneo: cada ronda faz as perguntas todas no mesmo instante, cada uma na "
                                   "sua thread (como sessões do browser); o servidor tem "
                                   f"{settings.llm_parallel} slot(s) e serve-as em fila. Carga da máquina no fim "
                                   f"(1/5/15 min): {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}.")
    result["notes"].append("Máquina de 2 núcleos partilhada com outros processos durante a medição: tempos com ruído.")
    result["rows"] = rows_for(result)
    table = report.bench_table(result["rows"])
    print(table)
    if result.get("llm_runs"):
        print(concurrency_table(result["llm_runs"]))
    RESULTS_DIR.mkdir(exist_ok=True)
    out = RESULTS_DIR / f"bench-{result['date']}.json"
    out.write_text(json.dumps(result, ensure_ascii=False, indent=1), encoding="utf-8")
    print(f"[bench] resultados em {out}")
    if not args.no_report:
        section = report.bench_section(result)
        if result.get("llm_runs"):
            section += "\n### LLM local: 1 sessão vs várias em simultâneo\n\n" + concurrency_table(result["llm_runs"])
        if RUNTIME_NOTES.is_file():
            section += "\n" + RUNTIME_NOTES.read_text(encoding="utf-8")
        report.write_section("bench", section)
        print(f"[bench] {report.RESULTS_MD} atualizado")
    return 0


if __name__ == "__main__":
    sys.exit(main())
