"""kill -9 at 20 random points of the real `ingest` and `ingest --rebuild` code paths (a tiny fake embedder,
in forked children of tests/ingest/fault_driver.py): each kill leaves the old index, the new one, or one that
a reader reports as incomplete — never a silently mixed or unreadable one — and the next plain ingest
(`make index`) always brings it to the new corpus."""
from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys

import pytest
import yaml

from config import REPO_ROOT
from ingest.index import build_chunks
from tests.ingest.conftest import model_folder

KILLS_PER_PATH = 10
SEED = int(os.environ.get("TREATY_FAULT_SEED", random.randrange(10**6)))


class Driver:
    def __init__(self, env: dict[str, str]):
        self.proc = subprocess.Popen([sys.executable, "-m", "tests.ingest.fault_driver"], cwd=REPO_ROOT, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, **command) -> dict:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(json.dumps(command) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self) -> None:
        self.proc.communicate(timeout=30)


def _edit_corpus(corpus) -> None:
    """A corpus edit that changes, keeps and removes chunks (same ids for most of them)."""
    for path in corpus.glob("00*.txt"):
        text = path.read_text(encoding="utf-8").replace("imposto", "tributo")
        if path.name.startswith("004_"):
            text = text[: text.index("XII - ")] + "PEDRO SAMPAIO MALAN\n"
        path.write_text(text, encoding="utf-8")
    catalog = corpus / "catalog.yaml"
    data = yaml.safe_load(catalog.read_text(encoding="utf-8"))
    next(d for d in data["documents"] if d["id"] == "br-portaria-pt-br")["articles"] = 11
    catalog.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")


@pytest.fixture
def driver(small_corpus, tmp_path):
    env = {**os.environ, "TREATY_CORPUS_DIR": str(small_corpus), "TREATY_CHROMA_MODE": "embedded",
           "TREATY_CACHE_DIR": str(tmp_path / "cache"),
           "TREATY_EMBEDDING_MODEL": model_folder(tmp_path / "cache" / "models" / "emb")}
    d = Driver(env)
    yield d
    d.close()


def test_kill_at_random_points_leaves_old_new_or_reported_and_recovers(driver, small_corpus, tmp_path):
    old = [c.text_hash for c in build_chunks(small_corpus)]
    pristine = tmp_path / "pristine"
    assert driver.ask(run=["--quiet"], index_dir=str(pristine), kill_at=0, delay_ms=0)["exit"] == 0
    assert driver.ask(check=str(pristine)) == {"state": "consistent", "texts": old}
    _edit_corpus(small_corpus)
    new = [c.text_hash for c in build_chunks(small_corpus)]
    assert len(set(new) - set(old)) > 4 and len(new) < len(old)

    rng = random.Random(SEED)
    outcomes: list[str] = []
    for path, args in (("plain", ["--quiet", "--no-cache"]), ("rebuild", ["--quiet", "--rebuild", "--no-cache"])):
        probe = tmp_path / f"count-{path}"
        shutil.copytree(pristine, probe)
        steps = driver.ask(run=args, index_dir=str(probe), kill_at=0, delay_ms=0)["steps"]
        assert steps > 20
        for i in range(KILLS_PER_PATH):
            kill_at, delay = rng.randint(1, steps), rng.choice([0.0, rng.uniform(0, 15)])
            where = f"{path} kill at step {kill_at}/{steps} + {delay:.1f} ms (TREATY_FAULT_SEED={SEED})"
            target = tmp_path / f"{path}-{i}"
            shutil.copytree(pristine, target)
            assert driver.ask(run=args, index_dir=str(target), kill_at=kill_at, delay_ms=delay) == {"signal": 9}, where
            seen = driver.ask(check=str(target))
            assert seen["state"] in ("consistent", "incomplete"), f"{where}: {seen}"
            if seen["state"] == "consistent":
                assert seen["texts"] in (old, new), f"{where}: a mixed index passed the check"
                outcomes.append("old" if seen["texts"] == old else "new")
            else:
                assert seen["message"].startswith("índice incompleto — corra `make index`"), where
                outcomes.append("reported")
            recovered = driver.ask(run=["--quiet"], index_dir=str(target), kill_at=0, delay_ms=0, check_after=True)
            assert recovered["exit"] == 0, where
            assert recovered["seen"] == {"state": "consistent", "texts": new}, where
    assert len(outcomes) == 2 * KILLS_PER_PATH
    print(f"seed {SEED}: " + ", ".join(f"{k} {outcomes.count(k)}" for k in ("old", "new", "reported")))
