"""`python -m eval.bench`: ingest time, deterministic answer latency and local-LLM latency, against targets.

(a) a cold full ingest into a temporary index directory, then the same ingest again with nothing
changed (both as subprocesses, as a user runs them); (b) per-stage latency of the deterministic answer
with the models warm; (c) local-LLM answer time and time to the first streamed token.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Sequence

from eval import report
from eval.score import STAGES, percentile

QUESTIONS_FILE = Path(__file__).with_name("bench_questions.txt")
RESULTS_DIR = Path(__file__).with_name("results")
REPO_ROOT = Path(__file__).resolve().parent.parent
# Targets from the issues (seconds or milliseconds as named).
TARGET_FULL_INGEST_S = 180
TARGET_NOCHANGE_INGEST_S = 5
TARGET_DETERMINISTIC_P50_MS = 300
TARGET_LLM_P50_S = 25
TARGET_FIRST_TOKEN_S = 10


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
    lines = [l for l in proc.stdout.splitlines() if l.startswith("[ingest]")]
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


def timed_stream(assistant, question: str) -> dict[str, float]:
    """The answer's own stage timings plus, measured outside, time to the card and to the first token."""
    started = time.perf_counter()
    extra: dict[str, float] = {}
    final = None
    for event in assistant.stream(question):
        now = (time.perf_counter() - started) * 1000
        if event.kind == "card":
            extra.setdefault("card", now)
        elif event.kind == "token":
            extra.setdefault("first_token", now)
        else:
            final = event.answer
    return {**(final.timings_ms if final else {}), **extra}


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
    parser.add_argument("--llm-questions", type=int, default=5, help="perguntas com o LLM (omissão 5)")
    parser.add_argument("--repeat", type=int, default=2, help="passagens pelas perguntas sem LLM (omissão 2)")
    parser.add_argument("--no-report", action="store_true", help="não reescreve eval/RESULTS.md")
    args = parser.parse_args(argv)
    if args.llm_questions < 1 or args.repeat < 1:
        parser.error("--llm-questions e --repeat têm de ser pelo menos 1")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    questions = read_questions()
    result: dict = {"date": date.today().isoformat(), "machine": report.machine_info(), "questions": len(questions),
                    "llm_questions": 0, "notes": []}

    if not args.skip_ingest:
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
            step = max(1, len(questions) // args.llm_questions)
            chosen = questions[::step][:args.llm_questions]
            result["llm_questions"] = len(chosen)
            llm_timings = []
            for i, q in enumerate(chosen, start=1):
                llm_timings.append(timed_stream(assistant, q))
                print(f"[bench] LLM {i}/{len(chosen)}: {llm_timings[-1].get('total', 0) / 1000:.1f} s", flush=True)
            result["llm"] = stage_latency(llm_timings)
            result["notes"].append("Com LLM: o cartão determinístico aparece antes do primeiro token; o tempo total "
                                   "inclui a verificação e, se o guardrail rejeitar, uma segunda geração.")
    result["notes"].append("Máquina de 2 núcleos partilhada com outros processos durante a medição: tempos com ruído.")
    result["rows"] = rows_for(result)
    table = report.bench_table(result["rows"])
    print(table)
    RESULTS_DIR.mkdir(exist_ok=True)
    out = RESULTS_DIR / f"bench-{result['date']}.json"
    out.write_text(json.dumps(result, ensure_ascii=False, indent=1), encoding="utf-8")
    print(f"[bench] resultados em {out}")
    if not args.no_report:
        report.write_section("bench", report.bench_section(result))
        print(f"[bench] {report.RESULTS_MD} atualizado")
    return 0


if __name__ == "__main__":
    sys.exit(main())
