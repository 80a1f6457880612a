"""eval/RESULTS.md: one file, two sections (evaluation and benchmarks) that are rewritten independently.

Each section sits between HTML comment markers, so rewriting one leaves the other byte for byte.
"""
from __future__ import annotations

import os
import platform
from pathlib import Path
from typing import Mapping, Sequence

from eval.score import markdown_table

RESULTS_MD = Path(__file__).with_name("RESULTS.md")
TITLE = ("# Resultados da avaliação e benchmarks\n\n"
         "Gerado por `python -m eval.run` (secção de avaliação) e `python -m eval.bench` (benchmarks); "
         "cada comando reescreve só a sua secção. Não editar à mão.\n")
SECTION_ORDER = ("eval", "bench")


def machine_info() -> dict[str, object]:
    """Cores and CPU model (from /proc/cpuinfo where there is one)."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.lower().startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cores": os.cpu_count(), "cpu": model, "python": platform.python_version()}


def _fmt_share(value: object) -> str:
    return "—" if value is None else f"{100 * float(value):.1f}%"


def _fmt_ms(value: object) -> str:
    return "—" if value is None else f"{float(value):.0f}"


def _markers(name: str) -> tuple[str, str]:
    return f"<!-- section:{name} -->", f"<!-- /section:{name} -->"


def read_sections(text: str) -> dict[str, str]:
    sections = {}
    for name in SECTION_ORDER:
        start, end = _markers(name)
        if start in text and end in text.split(start, 1)[1]:
            sections[name] = text.split(start, 1)[1].split(end, 1)[0].strip("\n")
    return sections


def write_section(name: str, body: str, path: Path = RESULTS_MD) -> None:
    """Replace one section's body; every other section is kept as it was."""
    if name not in SECTION_ORDER:
        raise ValueError(f"secção desconhecida: {name!r} ({', '.join(SECTION_ORDER)})")
    sections = read_sections(path.read_text(encoding="utf-8")) if path.is_file() else {}
    sections[name] = body.strip("\n")
    parts = [TITLE]
    for key in SECTION_ORDER:
        if key in sections:
            start, end = _markers(key)
            parts.append(f"{start}\n{sections[key]}\n{end}\n")
    tmp = path.with_suffix(".md.tmp")
    tmp.write_text("\n".join(parts), encoding="utf-8")
    os.replace(tmp, path)


def _setup_lines(result: Mapping) -> list[str]:
    m, models = result["machine"], result["models"]
    return [f"- Data: {result['date']}",
            f"- Máquina: {m['cores']} núcleos, {m['cpu']} (Python {m['python']}); partilhada com outro trabalho, "
            "por isso os tempos têm ruído.",
            f"- Modelos: embeddings `{models['embedding']}`, LLM `{models['llm']}` "
            f"({models.get('llm_threads', '?')} threads, máx. {models.get('llm_max_tokens', '?')} tokens)."]


def _extra_latency_rows(systems: Mapping[str, Mapping], stage: str, label: str) -> list[str]:
    rows = []
    for q in ("p50", "p95"):
        cells = [_fmt_ms((s.get("latency_ms") or {}).get(stage, {}).get(q)) for s in systems.values()]
        if any(c != "—" for c in cells):
            rows.append(f"| {label} {q} (ms) | " + " | ".join(cells) + " |")
    return rows


def _breakdown(systems: Mapping[str, Mapping], key: str, title: str) -> list[str]:
    answering = {n: s for n, s in systems.items() if s.get(key)}
    if not answering:
        return []
    groups = sorted({g for s in answering.values() for g in s[key]})
    lines = [f"| {title} | " + " | ".join(answering) + " |", "|---|" + "---|" * len(answering)]
    for g in groups:
        lines.append(f"| {g} | " + " | ".join(_fmt_share(s[key].get(g)) for s in answering.values()) + " |")
    return lines


def eval_section(result: Mapping) -> str:
    systems: Mapping[str, Mapping] = result["systems"]
    sizes = result["sizes"]
    lines = ["## Avaliação (`python -m eval.run`)", ""]
    lines += _setup_lines(result)
    lines.append(f"- Conjunto: {sizes['set']} perguntas (`eval/questions.jsonl`); avaliadas sem LLM: "
                 f"{sizes['full']}; subconjunto com LLM: {sizes['llm']} (estratificado por categoria e língua, "
                 "determinístico).")
    lines.append(f"- Resultados por item: `eval/results/{result['date']}.json`.")
    lines += ["", "### Todas as métricas por sistema", ""]
    table = markdown_table(systems).rstrip("\n")
    lines.append("\n".join([table, *_extra_latency_rows(systems, "first_token", "Latência 1.º token")]))
    lines += ["", "### Exatidão por língua", "", *_breakdown(systems, "accuracy_by_language", "Língua")]
    lines += ["", "### Exatidão por categoria", "", *_breakdown(systems, "accuracy_by_category", "Categoria")]
    lines += ["", "### Notas", ""]
    lines += [f"- {n}" for n in result.get("notes", [])]
    return "\n".join(lines) + "\n"


def bench_table(rows: Sequence[Mapping]) -> str:
    lines = ["| Medida | Valor | Objetivo | Cumpre |", "|---|---|---|---|"]
    for r in rows:
        ok = "—" if r.get("ok") is None else ("sim" if r["ok"] else "**não**")
        lines.append(f"| {r['label']} | {r['value']} | {r.get('target') or '—'} | {ok} |")
    return "\n".join(lines) + "\n"


def bench_section(result: Mapping) -> str:
    lines = ["## Benchmarks (`python -m eval.bench`)", ""]
    lines += _setup_lines(result)
    lines.append(f"- Perguntas: `eval/bench_questions.txt` ({result['questions']} perguntas pt/es/en; "
                 f"{result['llm_questions']} com o LLM local). Resultados: `eval/results/bench-{result['date']}.json`.")
    lines += ["", bench_table(result["rows"]).rstrip("\n"), "", "### Notas", ""]
    lines += [f"- {n}" for n in result.get("notes", [])]
    return "\n".join(lines) + "\n"
