"""CLI (a contract other tools depend on):
  python -m assistant ask "QUESTION" [--json] [--llm local|openai|none] [--quotes]
  python -m assistant ask --batch FILE --json [--llm …]
  python -m assistant retrieve "QUESTION" -k 5 --json [--retriever hybrid|bm25|dense]
  python -m assistant retrieve --batch FILE -k 5 --json [--retriever …]
  python -m assistant compare [--json] [--lang pt|es|en]

A batch never stops on a bad line: each line is decoded and checked on its own, and a line that
cannot be answered becomes an error line with its number. Exit code 1 when any line failed.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, BinaryIO, Callable, Iterator

from assistant.retrieve import RETRIEVERS, DenseUnavailable, Hit

if TYPE_CHECKING:
    from assistant.answer import Answer
    from assistant.pipeline import Assistant


MAX_LINE_BYTES = 16_384   # a question is at most 2,000 characters; JSON escapes may take 6 bytes each
MAX_DEPTH = 8             # {"id": …, "q": …} needs 1; deeper nesting only costs recursion
MAX_ID_CHARS = 200
K_RANGE = (1, 50)


@dataclass(frozen=True)
class BatchLine:
    number: int
    id: str | None = None
    question: str = ""
    error: str | None = None


class _Number(str):
    """A JSON number kept as the text it was written as: an id becomes that string, a q is refused."""


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} não é JSON")


def _too_deep(text: str, limit: int = MAX_DEPTH) -> bool:
    """True when brackets outside strings nest deeper than `limit` (json would recurse that deep)."""
    depth, in_string, escaped = 0, False, False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return True
        elif ch in "]}":
            depth -= 1
    return False


def _parse_line(number: int, line: str) -> dict[str, Any] | str:
    """The line's object, or the error text for it."""
    if _too_deep(line):
        return f"linha {number}: JSON aninhado a mais de {MAX_DEPTH} níveis"
    try:
        item = json.loads(line, parse_int=_Number, parse_float=_Number, parse_constant=_no_constant)
    except ValueError as exc:  # JSONDecodeError, NaN/Infinity
        detail = str(exc) if "não é JSON" in str(exc) else "JSON inválido"
        return f"linha {number}: {detail}"
    return item if isinstance(item, dict) else f"linha {number}: falta o campo 'q'"


def _batch_id(value: Any) -> str | None:
    """The id as text (a number as written); ValueError when it cannot be one."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValueError("o campo 'id' tem de ser texto ou número")
    if len(value) > MAX_ID_CHARS:
        raise ValueError(f"o campo 'id' tem {len(value)} caracteres (máximo {MAX_ID_CHARS})")
    return str(value)


def _raw_lines(fh: BinaryIO) -> Iterator[tuple[int, bytes | None]]:
    """(number, bytes) per line; None for a line longer than MAX_LINE_BYTES, which is skipped unread."""
    number = 0
    while raw := fh.readline(MAX_LINE_BYTES + 1):
        number += 1
        if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
            while (rest := fh.readline(1 << 16)) and not rest.endswith(b"\n"):
                pass
            yield number, None
        else:
            yield number, raw


def _hit_dict(rank: int, hit: Hit) -> dict[str, Any]:
    c = hit.chunk
    return {"rank": rank, "chunk_id": c.id, "doc": c.doc, "treaty": c.treaty, "article": c.article,
            "paragraph": c.paragraph or None, "language": c.language, "score": round(hit.score, 6),
            "text": c.text}


def read_batch(path: str) -> Iterator[BatchLine]:
    """One BatchLine per non-blank line; whatever is wrong with a line (bytes, size, JSON, fields) costs
    only that line."""
    try:
        fh = open(path, "rb")
    except OSError as exc:
        raise SystemExit(f"erro: não foi possível abrir {path}: {exc.strerror}")
    seen: dict[str, int] = {}
    with fh:
        for number, raw in _raw_lines(fh):
            if raw is None:
                yield BatchLine(number, error=f"linha {number}: linha demasiado longa (máximo {MAX_LINE_BYTES} bytes)")
                continue
            if number == 1:
                raw = raw.removeprefix(b"\xef\xbb\xbf")
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                yield BatchLine(number, error=f"linha {number}: não é UTF-8 válido (byte {exc.start + 1})")
                continue
            if not line.strip():
                continue
            item = _parse_line(number, line)
            if isinstance(item, str):
                yield BatchLine(number, error=item)
                continue
            try:
                item_id = _batch_id(item.get("id"))
            except ValueError as exc:
                yield BatchLine(number, error=f"linha {number}: {exc}")
                continue
            if "q" not in item:
                yield BatchLine(number, item_id, error=f"linha {number}: falta o campo 'q'")
                continue
            if not isinstance(item["q"], str) or isinstance(item["q"], _Number):
                yield BatchLine(number, item_id, error=f"linha {number}: o campo 'q' tem de ser texto")
                continue
            if item_id is not None:
                if item_id in seen:
                    yield BatchLine(number, item_id,
                                    error=f"linha {number}: id repetido (já usado na linha {seen[item_id]})")
                    continue
                seen[item_id] = number
            yield BatchLine(number, item_id, str(item["q"]))


def clean(value: Any) -> Any:
    """The value with every lone surrogate (undecodable input) replaced by U+FFFD and every non-finite float
    by null: output stays UTF-8 and strict JSON."""
    if isinstance(value, str):
        return value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    if isinstance(value, float) and not math.isfinite(value):
        return None  # NaN/Infinity are not JSON
    if isinstance(value, dict):
        return {clean(k): clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [clean(v) for v in value]
    return value


def _emit(obj: Any) -> None:
    sys.stdout.write(json.dumps(clean(obj), ensure_ascii=False, allow_nan=False) + "\n")
    sys.stdout.flush()


def _k(text: str) -> int:
    try:
        k = int(text)
    except ValueError:
        k = 0
    if not K_RANGE[0] <= k <= K_RANGE[1]:
        raise argparse.ArgumentTypeError(f"tem de ser um número inteiro de {K_RANGE[0]} a {K_RANGE[1]} "
                                         f"(recebido: {text!r})")
    return k


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m assistant")
    sub = parser.add_subparsers(dest="command", required=True)
    ask = sub.add_parser("ask", help="responde a uma pergunta")
    ask.add_argument("question", nargs="?")
    ask.add_argument("--batch", help="ficheiro JSON lines com {id, q}")
    ask.add_argument("--json", action="store_true")
    ask.add_argument("--llm", choices=["local", "openai", "none"])
    ask.add_argument("--quotes", action="store_true", help="a resposta para o cliente inclui o texto citado")
    ret = sub.add_parser("retrieve", help="mostra as passagens recuperadas")
    ret.add_argument("question", nargs="?")
    ret.add_argument("--batch")
    ret.add_argument("-k", type=_k, default=5, help=f"passagens a mostrar ({K_RANGE[0]} a {K_RANGE[1]})")
    ret.add_argument("--json", action="store_true")
    ret.add_argument("--retriever", choices=list(RETRIEVERS), default="hybrid")
    sub.add_parser("readers", help="treina (ou lê da cache) os leitores de tickets, com os vetores das perguntas "
                                   "de treino (a primeira vez numa máquina nova: ~2 min)")
    cmp = sub.add_parser("compare", help="compara as convenções: quem pode tributar cada rendimento")
    cmp.add_argument("--json", action="store_true")
    cmp.add_argument("--lang", choices=["pt", "es", "en"], default="pt")
    return parser


def main(argv: list[str] | None = None, assistant: "Assistant | None" = None) -> int:
    """`assistant` lets a caller (the tests) reuse one already loaded Assistant."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command == "compare":
        from assistant.compare import main as compare_main
        return compare_main(args.json, args.lang)
    if args.command == "readers":
        return _readers()
    if (args.question is None) == (args.batch is None):
        parser.error("indique uma pergunta ou --batch FICHEIRO (não ambos)")
    if assistant is None:
        assistant = _load(llm="none" if args.command == "retrieve" else args.llm,
                          dense=args.command == "ask" or args.retriever != "bm25")
        if assistant is None:
            return 2
    problem = assistant.search.dense_problem()
    if args.command == "retrieve":
        if problem and args.retriever != "bm25":
            print(f"erro: {problem}", file=sys.stderr)
            return 2
        return _retrieve(assistant, args)
    if problem:
        print(f"aviso: {problem}; a responder só com a pesquisa por palavras e as regras", file=sys.stderr)
    return _ask(assistant, args)


def _load(llm: str, dense: bool) -> "Assistant | None":
    """The Assistant from the settings, or None after saying why it cannot be built (no index, no model)."""
    from assistant.pipeline import Assistant
    from ingest.embeddings import EmbeddingModelMissing
    from ingest.index import IndexMissing

    try:
        return Assistant.from_settings(llm=llm, dense=dense)
    except (IndexMissing, EmbeddingModelMissing) as exc:
        print(f"erro: {exc}", file=sys.stderr)
        return None


def _readers() -> int:
    """Fit the readers once (the app's and the tests' first Assistant then loads them from the cache)."""
    import time

    started = time.perf_counter()
    assistant = _load(llm="none", dense=True)
    if assistant is None:
        return 2
    vectors = "com" if assistant.reader.embed is not None else "sem"
    print(f"[readers] leitores prontos em {time.perf_counter() - started:.1f} s ({vectors} vetores das perguntas)")
    return 0


def _retrieve(assistant: "Assistant", args: argparse.Namespace) -> int:
    if args.question is not None:
        try:
            hits = assistant.retrieve(args.question, args.k, args.retriever)
        except DenseUnavailable as exc:
            print(f"erro: {exc}", file=sys.stderr)
            return 2
        out = [_hit_dict(i, h) for i, h in enumerate(hits, start=1)]
        if args.json:
            _emit(out)
        else:
            for h in clean(out):
                print(f"{h['rank']:2}. {h['score']:.4f} {h['treaty']} art. {h['article']}"
                      f"{'(' + h['paragraph'] + ')' if h['paragraph'] else ''} [{h['language']}] {h['text'][:120]}")
        return 0

    def retrieved(question: str) -> tuple[dict[str, Any], bool]:
        hits = assistant.retrieve(question, args.k, args.retriever)
        return {"results": [_hit_dict(i, h) for i, h in enumerate(hits, start=1)]}, False

    return _batch(args.batch, retrieved)


def _asked(assistant: "Assistant", question: str, quotes: bool) -> "Answer":
    """The answer; with quotes, its reply carries the quoted text of the articles it cites."""
    answer = assistant.ask(question)
    if quotes and answer.card_data is not None:
        from assistant.presentation.reply import reply
        answer.reply = reply(answer.card_data, quotes=True).text
    return answer


def _ask(assistant: "Assistant", args: argparse.Namespace) -> int:
    if args.question is not None:
        answer = _asked(assistant, args.question, args.quotes)
        if args.json:
            _emit(answer.to_dict())
        else:
            print(clean(answer.answer))
        return 1 if answer.error else 0

    def answered(question: str) -> tuple[dict[str, Any], bool]:
        answer = _asked(assistant, question, args.quotes)
        return answer.to_dict(), answer.error is not None

    return _batch(args.batch, answered)


def _batch(path: str, run: Callable[[str], tuple[dict[str, Any], bool]]) -> int:
    """One output line per input line, in order; a line that fails (bad input, or an exception while
    answering it) is an error line with its number and never stops the rest. Exit 1 when any failed."""
    failed = False
    for line in read_batch(path):
        if line.error:
            _emit({"id": line.id, "line": line.number, "error": line.error})
            failed = True
            continue
        try:
            result, line_failed = run(line.question)
            _emit({"id": line.id, **result})  # serialised before anything is written
        except Exception as exc:  # noqa: BLE001 - one bad question must not stop the batch
            _emit({"id": line.id, "line": line.number, "error": f"linha {line.number}: {type(exc).__name__}: {exc}"})
            failed = True
            continue
        failed = failed or line_failed
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
