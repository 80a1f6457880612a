"""eval/RESULTS.md: one file, two sections (evaluation and benchmarks) that are rewritten independently.

Each section sits between HTML comment markers, so rewriting one leaves the other byte for byte.
"""
from __future__ import annotations

import os
import platform
import re
from pathlib import Path
from typing import Mapping, Sequence

from eval.score import TABLE_ROWS, markdown_table

RESULTS_MD = Path(__file__).with_name("RESULTS.md")
TITLE = ("# Resultados da avaliação e benchmarks\n\n"
         "Gerado por `python -m eval.run` (secção de avaliação) e `python -m eval.bench` (benchmarks); "
         "cada comando reescreve só a sua secção. Não editar à mão.\n")
# ocr, tests: written by hand, kept by the others
SECTION_ORDER = ("eval", "tickets", "llm", "bench", "speculative", "ocr", "tests")


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


_SECTION = re.compile(r"<!-- section:([a-z_]+) -->\n?(.*?)\n?<!-- /section:\1 -->", re.S)


def read_sections(text: str) -> dict[str, str]:
    """Every section of the file, in file order, hand-written ones (the ticket bank's) included."""
    return {m.group(1): m.group(2).strip("\n") for m in _SECTION.finditer(text)}


def write_section(name: str, body: str, path: Path = RESULTS_MD) -> None:
    """Replace one section's body; every other section, known to this writer or not, is kept as it was."""
    if name not in SECTION_ORDER:
        raise ValueError(f"secção desconhecida: {name!r} ({', '.join(SECTION_ORDER)})")
    sections = read_sections(path.read_text(encoding="utf-8")) if path.is_file() else {}
    if name not in sections:          # a new section goes where SECTION_ORDER puts it among the known ones
        later = [k for k in SECTION_ORDER[SECTION_ORDER.index(name) + 1:] if k in sections]
        keys = list(sections)
        at = keys.index(later[0]) if later else len(keys)
        sections = dict([*((k, sections[k]) for k in keys[:at]), (name, ""), *((k, sections[k]) for k in keys[at:])])
    sections[name] = body.strip("\n")
    parts = [TITLE]
    for key, text in sections.items():
        start, end = _markers(key)
        parts.append(f"{start}\n{text}\n{end}\n")
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


OURS = "ours (llm none)"
SPLIT_ROWS = ("n", "accuracy", "accuracy_all", "citation_recall", "paragraph_recall", "abstention_precision",
              "abstention_recall", "number_faithfulness", "hostile_resisted")


def _split_columns(result: Mapping) -> list[tuple[str, Mapping]]:
    """(column title, summary) for the deterministic assistant: each split, then the whole set, with a
    "before" column next to each "after" one when the result names an earlier run."""
    now = result["systems"].get(OURS) or {}
    then = (result.get("before") or {}).get("system") or {}
    names = list((now.get("by_split") or {}))
    columns: list[tuple[str, Mapping]] = []
    for name in [*names, None]:
        after = now if name is None else now["by_split"][name]
        label = name or "todas"
        if then:
            before = then if name is None else (then.get("by_split") or {}).get(name)
            columns.append((f"{label} antes", before or {}))
            columns.append((f"{label} depois", after))
        else:
            columns.append((label, after))
    return columns


def split_table(result: Mapping) -> str:
    """Metrics of the deterministic assistant per split: one column each (before/after when known)."""
    columns = _split_columns(result)
    if not columns:
        return ""
    labels = dict(TABLE_ROWS)
    lines = ["| Métrica | " + " | ".join(t for t, _ in columns) + " |", "|---|" + "---|" * len(columns)]
    for key in SPLIT_ROWS:
        if key == "n":
            lines.append("| Itens | " + " | ".join(str(c.get("n", "—")) for _, c in columns) + " |")
        else:
            lines.append(f"| {labels[key]} | " + " | ".join(_fmt_share(c.get(key)) for _, c in columns) + " |")
    return "\n".join(lines) + "\n"


def _split_breakdown(result: Mapping, keys: Sequence[str], title: str) -> list[str]:
    """One breakdown (language, category) of the deterministic assistant, per split, before/after."""
    columns = _split_columns(result)
    groups = sorted({g for _, c in columns for k in keys for g in (c.get(k) or {})})
    if not groups:
        return []

    def cell(summary: Mapping, group: str) -> str:
        for k in keys:
            if group in (summary.get(k) or {}):
                return _fmt_share(summary[k][group])
        return "—"
    lines = [f"| {title} | " + " | ".join(t for t, _ in columns) + " |", "|---|" + "---|" * len(columns)]
    lines += [f"| {g} | " + " | ".join(cell(c, g) for _, c in columns) + " |" for g in groups]
    return lines


def why_wrong(record: Mapping) -> str:
    """What went wrong with one answer, in a few words."""
    if record.get("error"):
        return f"erro: {record['error'][:80]}"
    if record.get("gold_abstain"):
        return "respondeu quando devia abster-se"
    if record.get("abstained"):
        return "absteve-se"
    parts = []
    if record.get("missing_rates"):
        parts.append("faltam as taxas " + ", ".join(f"{r:g}%" for r in record["missing_rates"]))
    if record.get("wrong_rates"):
        parts.append("taxas a mais " + ", ".join(f"{r:g}%" for r in record["wrong_rates"]))
    if record.get("forbidden_given"):
        parts.append("deu a taxa proibida " + ", ".join(f"{r:g}%" for r in record["forbidden_given"]))
    if record.get("missing_in_text"):
        parts.append("taxa fora do texto")
    if record.get("missing_facts"):
        parts.append("falta " + ", ".join(f"«{f}»" for f in record["missing_facts"]))
    return "; ".join(parts) or "errada"


def failures_section(result: Mapping, per_category: int = 2) -> list[str]:
    """The weakest categories of each split, with the questions that still fail and why."""
    records = {r["id"]: r for r in (result.get("items") or {}).get(OURS, [])}
    lines: list[str] = []
    for split, worst in (result.get("worst_by_split") or {}).items():
        if not worst:
            continue
        lines += ["", f"**{split}**", ""]
        for w in worst:
            lines.append(f"- {w['category']}: {w['wrong']}/{w['of']} erradas")
            for item_id in w["examples"][:per_category]:
                r = records.get(item_id, {})
                question = " ".join(str(r.get("question") or "").split())
                question = question if len(question) <= 110 else question[:107] + "…"
                lines.append(f"  - `{item_id}` «{question}» — {why_wrong(r)}")
    return lines


def eval_section(result: Mapping) -> str:
    systems: Mapping[str, Mapping] = result["systems"]
    sizes = result["sizes"]
    split_sizes = sizes.get("splits") or {}
    files = ", ".join(f"{name} {n} (`eval/questions{'' if name == 'core' else '_' + name}.jsonl`)"
                      for name, n in split_sizes.items())
    lines = ["## Avaliação (`python -m eval.run`)", ""]
    lines += _setup_lines(result)
    lines.append(f"- Conjunto: {sizes['set']} perguntas{' — ' + files if files else ''}; avaliadas sem LLM: "
                 f"{sizes['full']}; subconjunto com LLM: {sizes['llm']} (estratificado por categoria e língua, "
                 "determinístico).")
    label = f"-{result['label']}" if result.get("label") else ""
    lines.append(f"- Resultados por item: `eval/results/{result['date']}{label}.json`.")
    before = result.get("before")
    if before:
        lines.append(f"- «antes»: `{before['file']}` ({before['date']}), a mesma avaliação determinística "
                     "sobre o código de então; «depois»: esta corrida.")
    if split_sizes:
        lines += ["", f"### Por divisão — {OURS}", "", split_table(result).rstrip("\n")]
    lines += ["", "### Todas as métricas por sistema (conjunto inteiro)", ""]
    table = markdown_table(systems).rstrip("\n")
    lines.append("\n".join([table, *_extra_latency_rows(systems, "first_token", "Latência 1.º token")]))
    lines += ["", "### Exatidão por língua", "", *_breakdown(systems, "accuracy_by_language", "Língua")]
    if split_sizes:
        lines += ["", f"### Exatidão por língua e variante, por divisão — {OURS}", "",
                  *_split_breakdown(result, ("accuracy_by_variant", "accuracy_by_language"), "Língua")]
    lines += ["", "### Exatidão por categoria", "", *_breakdown(systems, "accuracy_by_category", "Categoria")]
    if split_sizes:
        lines += ["", f"### Exatidão por categoria, por divisão — {OURS}", "",
                  *_split_breakdown(result, ("accuracy_by_category",), "Categoria")]
    failures = failures_section(result)
    if failures:
        lines += ["", f"### Categorias mais fracas e o que ainda falha — {OURS}", *failures]
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
