"""`python -m eval.server_compare URL [URL ...]`: the same streamed chat requests to OpenAI-compatible servers.

How the local model server was chosen (issue 11), on figures rather than claims: every server gets the
prompts the assistant itself sends for the bench questions (built once by the deterministic pipeline),
first one at a time, then N at the same moment, and the time to the first streamed token and to the
last is measured from outside. Any server works: the xllamacpp one the assistant starts
(`python -m assistant.llm_server status` prints its URL), `python -m llama_cpp.server`, vLLM, Ollama.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
import urllib.request
from dataclasses import dataclass
from typing import Sequence

from eval.bench import read_questions
from eval.score import percentile

ROLES = {"system": "system", "human": "user", "ai": "assistant"}


@dataclass
class Timing:
    first_token_s: float | None
    total_s: float
    chunks: int                        # streamed pieces with text (~ tokens)
    server: dict | None = None         # llama.cpp's `timings` of the last chunk (tokens/s, draft tokens accepted)


def chat_prompts(count: int) -> list[list[dict[str, str]]]:
    """The chat messages the assistant sends for `count` bench questions (deterministic card, clipped passages)."""
    from assistant.llm import LlmInfo
    from assistant.pipeline import Assistant
    from assistant.prompting import build_messages
    from config import load_settings

    settings = load_settings()
    loaded = Assistant.from_settings(settings, llm="none", dense=True)
    deterministic = Assistant(settings, loaded.catalog, loaded.search, None, LlmInfo("none", ""))
    questions = read_questions()
    step = max(1, len(questions) // count)
    out = []
    for q in questions[::step][:count]:
        answer = deterministic.ask(q)
        if not answer.abstained:
            out.append([{"role": ROLES.get(m.type, m.type), "content": m.content} for m in build_messages(answer)])
    return out


def stream_once(url: str, model: str, messages: list[dict[str, str]], max_tokens: int) -> Timing:
    body = {"model": model, "messages": messages, "stream": True, "max_tokens": max_tokens, "temperature": 0.1}
    req = urllib.request.Request(f"{url.rstrip('/')}/chat/completions", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    started = time.perf_counter()
    first, chunks, server = None, 0, None
    with urllib.request.urlopen(req, timeout=600) as resp:
        for raw in resp:
            line = raw.decode("utf-8", "replace").strip()
            if not line.startswith("data:") or line == "data: [DONE]":
                continue
            data = json.loads(line[5:])
            server = data.get("timings") or server
            choices = data.get("choices") or [{}]
            if (choices[0].get("delta") or {}).get("content"):
                chunks += 1
                if first is None:
                    first = time.perf_counter() - started
    return Timing(first, time.perf_counter() - started, chunks, server)


def concurrent(url: str, model: str, prompts: Sequence[list[dict[str, str]]], max_tokens: int) -> list[Timing]:
    out: list[Timing | None] = [None] * len(prompts)
    barrier = threading.Barrier(len(prompts))

    def run(i: int) -> None:
        barrier.wait()
        out[i] = stream_once(url, model, prompts[i], max_tokens)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(prompts))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return [t for t in out if t is not None]


def row(label: str, sessions: int, timings: Sequence[Timing]) -> str:
    firsts = [t.first_token_s for t in timings if t.first_token_s is not None]
    totals = [t.total_s for t in timings]
    gen = [t.chunks / (t.total_s - t.first_token_s) for t in timings
           if t.first_token_s is not None and t.total_s > t.first_token_s]
    return (f"| {label} | {sessions} | {percentile(firsts, 50):.1f} / {percentile(firsts, 95):.1f} s | "
            f"{percentile(totals, 50):.1f} / {percentile(totals, 95):.1f} s | {percentile(gen, 50):.1f} | "
            f"{len(firsts)} de {len(timings)} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m eval.server_compare", description=__doc__.splitlines()[0])
    parser.add_argument("urls", nargs="+", help="base URL of each server, e.g. http://127.0.0.1:8090/v1")
    parser.add_argument("--labels", nargs="*", default=[], help="a name per URL for the table")
    parser.add_argument("--model", default="local", help="model name sent in the request")
    parser.add_argument("--questions", type=int, default=8)
    parser.add_argument("--sessions", type=int, default=4)
    parser.add_argument("--max-tokens", type=int, default=96)
    args = parser.parse_args(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    prompts = chat_prompts(args.questions + args.sessions)
    single, together = prompts[:args.questions], prompts[args.questions:args.questions + args.sessions]
    lines = ["| Servidor | Pedidos em simultâneo | 1.º token p50 / p95 | Resposta completa p50 / p95 | "
             "Geração (pedaços/s) p50 | Com texto / pedidos |", "|---|---|---|---|---|---|"]
    for i, url in enumerate(args.urls):
        label = args.labels[i] if i < len(args.labels) else url
        stream_once(url, args.model, single[0], 8)          # load and cache the fixed system prompt
        ones = [stream_once(url, args.model, p, args.max_tokens) for p in single]
        lines.append(row(label, 1, ones))
        lines.append(row(label, len(together), concurrent(url, args.model, together, args.max_tokens)))
        print(lines[-2], lines[-1], sep="\n", flush=True)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
