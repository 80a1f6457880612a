"""Vectors already computed, kept outside the repo by content hash, so a fresh checkout (or CI)
rebuilds its index without re-embedding unchanged text. Keyed by Chunk.content_hash, which
includes the model reference: another model never reuses these vectors."""
from __future__ import annotations

import sqlite3
from array import array
from pathlib import Path


class EmbeddingCache:
    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(path)
        self._db.execute("CREATE TABLE IF NOT EXISTS vectors (hash TEXT PRIMARY KEY, vector BLOB NOT NULL)")

    def get_many(self, hashes: list[str]) -> dict[str, list[float]]:
        found: dict[str, list[float]] = {}
        for i in range(0, len(hashes), 500):
            batch = hashes[i:i + 500]
            rows = self._db.execute(f"SELECT hash, vector FROM vectors WHERE hash IN ({','.join('?' * len(batch))})",
                                    batch)
            for key, blob in rows:
                found[key] = array("f", blob).tolist()
        return found

    def put_many(self, items: dict[str, list[float]]) -> None:
        with self._db:
            self._db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?)",
                                 [(k, array("f", v).tobytes()) for k, v in items.items()])

    def close(self) -> None:
        self._db.close()
