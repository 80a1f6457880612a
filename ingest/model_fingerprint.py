"""What identifies an embedding model in cache keys and chunk hashes: its content, not where it lies.

A local folder is named by a sha256 over its files (relative path + content hash), so the same model
under another cache directory or HOME reuses every vector. File hashes are memoised by path, size and
mtime, so only the first call after a model changes reads the weights. A hub id stands for itself.
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

CHUNK = 1 << 20


def _file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while block := fh.read(CHUNK):
            digest.update(block)
    return digest.hexdigest()


def _read_memo(memo_path: Path) -> dict[str, dict]:
    try:
        data = json.loads(memo_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _write_memo(memo_path: Path, memo: dict[str, dict]) -> None:
    try:
        memo_path.parent.mkdir(parents=True, exist_ok=True)
        tmp = memo_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(memo, sort_keys=True), encoding="utf-8")
        os.replace(tmp, memo_path)
    except OSError:
        pass  # a memo that cannot be written only costs a re-hash next time


def is_local(ref: str) -> bool:
    return Path(ref).is_absolute() or ref.startswith(".")


def model_fingerprint(ref: str, memo_path: Path) -> str:
    """'sha256:<hex>' for a local model folder (hidden files ignored); the ref itself for a hub id."""
    if not is_local(ref):
        return ref
    folder = Path(ref)
    files = sorted(p for p in folder.rglob("*")
                   if p.is_file() and not any(part.startswith(".") for part in p.relative_to(folder).parts))
    memo = _read_memo(memo_path)
    changed = False
    digest = hashlib.sha256()
    for path in files:
        stat = path.stat()
        key = str(path.resolve())
        seen = memo.get(key)
        same = isinstance(seen, dict) and seen.get("size") == stat.st_size and seen.get("mtime_ns") == stat.st_mtime_ns
        if not same:
            seen = {"size": stat.st_size, "mtime_ns": stat.st_mtime_ns, "sha256": _file_sha256(path)}
            memo[key] = seen
            changed = True
        digest.update(f"{path.relative_to(folder).as_posix()}\0{seen['sha256']}\n".encode())
    if changed:
        _write_memo(memo_path, memo)
    return "sha256:" + digest.hexdigest()
