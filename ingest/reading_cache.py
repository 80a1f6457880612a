"""The OCR documents' clean readings, kept on disk under cache_dir: computing them takes seconds per document
(every app start, every ingest), and they depend only on the source text, the units' spans and the reading
code, which together make the key. A damaged or missing file is recomputed."""
from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable, Sequence
from pathlib import Path

from assistant.lexicon import text as lexicon_text
from ingest import ocr_reading
from ingest.ocr_reading import Correction, Piece, Reading
from ingest.units import Unit

log = logging.getLogger(__name__)
_CODE = (Path(ocr_reading.__file__), Path(lexicon_text.__file__))    # the reading code and its word folding
FORMAT = 1


def _key(source: str, units: Sequence[Unit], languages: tuple[str, ...]) -> str:
    h = hashlib.sha256()
    h.update(f"{FORMAT}|{','.join(languages)}|".encode())
    for path in _CODE:
        h.update(path.read_bytes())
    h.update(source.encode("utf-8"))
    for u in units:
        h.update(f"|{u.uid}:{u.language}:{u.spans}".encode())
    return h.hexdigest()[:32]


def _to_json(r: Reading) -> dict:
    return {"text": r.text,
            "pieces": [[p.clean_start, p.clean_end, p.raw_start, p.raw_end] for p in r.pieces],
            "corrections": [[c.raw, c.clean, c.rule, c.start, c.end] for c in r.corrections]}


def _from_json(d: dict) -> Reading:
    return Reading(d["text"], tuple(Piece(*p) for p in d["pieces"]),
                   tuple(Correction(*c) for c in d["corrections"]))


def cached_readings(source: str, units: Sequence[Unit], languages: tuple[str, ...], cache_dir: Path | None,
                    compute: Callable[[Unit], Reading]) -> list[Reading]:
    """One reading per unit, from the cache when the key matches, else computed and stored."""
    if cache_dir is None:
        return [compute(u) for u in units]
    path = cache_dir / "ocr_readings" / f"{_key(source, units, languages)}.json"
    try:
        stored = json.loads(path.read_text(encoding="utf-8"))
        if len(stored) == len(units):
            return [_from_json(d) for d in stored]
    except FileNotFoundError:
        pass
    except (OSError, ValueError, KeyError, TypeError) as exc:
        log.warning("cache de leituras OCR ilegível (%s): recalculada", exc)
    readings = [compute(u) for u in units]
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{id(readings)}.tmp")
        tmp.write_text(json.dumps([_to_json(r) for r in readings], ensure_ascii=False), encoding="utf-8")
        tmp.replace(path)       # atomic: a concurrent reader sees the old file or the whole new one
    except OSError as exc:
        log.warning("cache de leituras OCR não gravada (%s)", exc)
    return readings
