"""`python -m eval.spec_compare`: speculative decoding on or off, measured back to back on the same prompts.

One local server per mode (`none`, `ngram`: drafts from the text already in the context, no second model;
`draft`: Qwen2.5-Coder-0.5B runs ahead, `make models-draft`), all with the same threads (chosen once from the
machine's load, or `--threads`). Every prompt goes to every server in turn, the order rotating from prompt
to prompt, so a busy spell on a shared machine hits every mode alike. Reports absolute times and, per mode,
the median of the per-prompt ratios to `none`. Writes eval/results/spec-compare-<date>.json and the
`speculative` section of eval/RESULTS.md.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import asdict
from datetime import date
from pathlib import Path
from statistics import median

from eval import report
from eval.score import percentile
from eval.server_compare import Timing, chat_prompts, stream_once

RESULTS_DIR = Path(__file__).with_name("results")


def _gen_rate(t: Timing) -> float | None:
    """Generation tokens/s as the server measured it (falls back to streamed pieces after the first)."""
    if t.server and t.server.get("predicted_per_second"):
        return float(t.server["predicted_per_second"])
    if t.first_token_s is None or t.total_s <= t.first_token_s:
        return None
    return t.chunks / (t.total_s - t.first_token_s)


def summarise(runs: dict[str, list[Timing]]) -> dict[str, dict]:
    base = runs.get("none", [])
    out = {}
    for mode, timings in runs.items():
        rates = [_gen_rate(t) for t in timings]
        ratios = [r / b for r, b in zip(rates, (_gen_rate(t) for t in base)) if r and b]
        totals = [b.total_s / t.total_s for t, b in zip(timings, base) if t.total_s]
        drafted = sum((t.server or {}).get("draft_n", 0) for t in timings)
        accepted = sum((t.server or {}).get("draft_n_accepted", 0) for t in timings)
        out[mode] = {
            "n": len(timings),
            "first_token_p50": percentile([t.first_token_s for t in timings if t.first_token_s is not None], 50),
            "total_p50": percentile([t.total_s for t in timings], 50),
            "gen_tok_s_p50": percentile([r for r in rates if r], 50),
            "gen_speedup_median": median(ratios) if ratios else None,
            "total_speedup_median": median(totals) if totals else None,
            "draft_acceptance": accepted / drafted if drafted else None,
        }
    return out


def section(result: dict) -> str:
    lines = ["## Descodificação especulativa (`python -m eval.spec_compare`, issue 20)", "",
             f"- Data: {result['date']}; {result['prompts']} prompts do assistente (perguntas do bench), máx. "
             f"{result['max_tokens']} tokens, {result['threads']} thread(s) ({result['threads_note']}); "
             f"carga da máquina no início / fim: {result['load_start']:.1f} / {result['load_end']:.1f} "
             "(máquina partilhada e carregada: tempos com ruído; os modos alternam pedido a pedido).", "",
             "| Modo | 1.º token p50 | Resposta completa p50 | Geração tok/s p50 "
             "| Geração vs none (mediana por prompt) "
             "| Resposta completa vs none | Rascunho aceite |", "|---|---|---|---|---|---|---|"]

    def f(v, unit="", scale=1.0, fmt="{:.1f}"):
        return "—" if v is None else fmt.format(v * scale) + unit
    for mode, s in result["summary"].items():
        lines.append(f"| {mode} | {f(s['first_token_p50'], ' s')} | {f(s['total_p50'], ' s')} | "
                     f"{f(s['gen_tok_s_p50'])} | {f(s['gen_speedup_median'], '×', fmt='{:.2f}')} | "
                     f"{f(s['total_speedup_median'], '×', fmt='{:.2f}')} | "
                     f"{f(s['draft_acceptance'], '%', 100, '{:.0f}')} |")
    lines += ["", f"Mais rápido: **{result['fastest']}** (resposta completa, mediana por prompt)."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m eval.spec_compare", description=__doc__.splitlines()[0])
    parser.add_argument("--modes", default="none,ngram,draft")
    parser.add_argument("--prompts", type=int, default=6)
    parser.add_argument("--max-tokens", type=int, default=96)
    parser.add_argument("--threads", type=int, default=0, help="0 = da carga da máquina agora")
    parser.add_argument("--no-report", action="store_true")
    args = parser.parse_args(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from assistant.llm import local_model_path
    from assistant.llm_server import ensure_server, stop_owned
    from assistant.machine import threads_for_load
    from config import load_settings

    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    load_start = os.getloadavg()[0]
    threads = args.threads or threads_for_load()
    settings = load_settings().replace(llm_threads=threads)
    prompts = chat_prompts(args.prompts)
    servers = {}
    try:
        for mode in modes:
            mode_settings = settings.replace(llm_speculative=mode)
            servers[mode] = ensure_server(mode_settings, local_model_path(mode_settings))
            print(f"[spec] {mode}: {servers[mode].url}", flush=True)
        runs: dict[str, list[Timing]] = {m: [] for m in modes}
        for i, prompt in enumerate(prompts):
            order = modes[i % len(modes):] + modes[:i % len(modes)]
            for mode in order:
                info = servers[mode]
                timing = stream_once(info.api_url, info.model, prompt, args.max_tokens)
                runs[mode].append(timing)
                print(f"[spec] prompt {i + 1} {mode}: 1.º token {timing.first_token_s or 0:.1f} s, "
                      f"total {timing.total_s:.1f} s, {_gen_rate(timing) or 0:.1f} tok/s", flush=True)
    finally:
        stop_owned()
    summary = summarise(runs)
    fastest = max(summary, key=lambda m: summary[m]["total_speedup_median"] or 0)
    result = {"date": date.today().isoformat(), "prompts": len(prompts), "max_tokens": args.max_tokens,
              "threads": threads, "threads_note": "dadas" if args.threads else "escolhidas pela carga ao arrancar",
              "load_start": load_start, "load_end": os.getloadavg()[0], "summary": summary, "fastest": fastest,
              "runs": {m: [asdict(t) for t in ts] for m, ts in runs.items()}}
    RESULTS_DIR.mkdir(exist_ok=True)
    (RESULTS_DIR / f"spec-compare-{result['date']}.json").write_text(json.dumps(result, indent=1), encoding="utf-8")
    text = section(result)
    print(text)
    if not args.no_report:
        report.write_section("speculative", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
