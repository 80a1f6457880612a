"""A fork server for the kill -9 fault test: `python -m tests.ingest.fault_driver` reads one JSON command per
line and answers one JSON line, each command run in a fresh forked child (imports are paid once; no Chroma
client exists before the fork).

- {"run": [ingest args], "index_dir": D, "kill_at": N, "delay_ms": M}: the real `python -m ingest` CLI on
  index D with a tiny fake embedder; the child SIGKILLs itself M ms after its N-th write step (0: never).
  A step is each entry into and exit from a real write of the ingest path: a Chroma upsert/update/delete/
  rename, a collection dropped, chunks.jsonl replaced, a batch embedded. The delay lets the kill land inside
  whatever real work follows, Chroma's own writes included. Answer: {"signal": 9} or {"exit": code, "steps": n},
  with "seen" (as for "check" below) when the command has "check_after": true.
- {"check": D}: what a reader of index D sees: {"state": "consistent", "texts": [text hash per chunk]} or
  {"state": "incomplete", "message": …} (IndexIncomplete), or {"state": "broken", "message": …} (anything else).
"""
from __future__ import annotations

import functools
import json
import os
import signal
import sys
import threading
import traceback

from chromadb.api.models.Collection import Collection

import config
import ingest.__main__ as cli
from ingest import index
from tests.fakes import HashEmbedder

_plan = {"kill_at": 0, "delay_s": 0.0, "steps": 0}


def _step() -> None:
    _plan["steps"] += 1
    if _plan["steps"] == _plan["kill_at"]:
        if _plan["delay_s"] == 0:
            os.kill(os.getpid(), signal.SIGKILL)
        threading.Timer(_plan["delay_s"], os.kill, (os.getpid(), signal.SIGKILL)).start()


def _counted(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        _step()
        try:
            return fn(*args, **kwargs)
        finally:
            _step()
    return wrapper


def _instrument() -> None:
    for name in ("upsert", "update", "delete", "modify"):
        setattr(Collection, name, _counted(getattr(Collection, name)))
    index.drop_collection = _counted(index.drop_collection)
    cli.write_chunks_file = _counted(cli.write_chunks_file)
    HashEmbedder.embed_documents = _counted(HashEmbedder.embed_documents)
    cli.load_embeddings = lambda settings: HashEmbedder()
    index.BATCH = 2


def _run(command: dict) -> dict:
    os.environ["TREATY_INDEX_DIR"] = command["index_dir"]
    config.load_settings.cache_clear()
    _plan.update(kill_at=command["kill_at"], delay_s=command["delay_ms"] / 1000)
    code = cli.main(command["run"])
    if command["kill_at"]:
        threading.Event().wait(_plan["delay_s"] + 0.05)  # a kill scheduled near the end still lands
    answer: dict = {"exit": code, "steps": _plan["steps"]}
    if command.get("check_after"):  # what a reader then sees, in the same child (one fork fewer)
        answer["seen"] = _check(command["index_dir"])
    return answer


def _check(index_dir: str) -> dict:
    from ingest.index import IndexIncomplete, check_index, read_chunks_file
    from ingest.store import chroma_client, existing_collection

    os.environ["TREATY_INDEX_DIR"] = index_dir
    config.load_settings.cache_clear()
    settings = config.load_settings()
    try:
        chunks = read_chunks_file(settings.index_dir)
        collection = existing_collection(chroma_client(settings), settings.collection)
        check_index(collection, chunks)
        stored = collection.get(ids=[c.id for c in chunks], include=["documents"])
        texts = dict(zip(stored["ids"], stored["documents"]))
        if any(texts.get(c.id) != c.text for c in chunks):
            return {"state": "broken", "message": "check_index passed over vectors of other text"}
        return {"state": "consistent", "texts": [c.text_hash for c in chunks]}
    except IndexIncomplete as exc:
        return {"state": "incomplete", "message": str(exc)}
    except Exception:  # noqa: BLE001 - the test reports whatever a reader would trip on
        return {"state": "broken", "message": traceback.format_exc(limit=3)}


def _child(command: dict, write_fd: int) -> None:
    try:
        answer = _check(command["check"]) if "check" in command else _run(command)
    except BaseException:  # noqa: BLE001 - reported to the test, never a hang
        answer = {"state": "broken", "message": traceback.format_exc(limit=5)}
    os.write(write_fd, json.dumps(answer).encode())
    os._exit(0)


def main() -> None:
    _instrument()
    sys.stdout.reconfigure(line_buffering=True)
    for line in sys.stdin:
        command = json.loads(line)
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read_fd)
            sys.stdout = sys.stderr = open(os.devnull, "w")  # the CLI's own output is not the protocol
            _child(command, write_fd)
        os.close(write_fd)
        with os.fdopen(read_fd, "rb") as fh:
            data = fh.read()
        _, status = os.waitpid(pid, 0)
        if os.WIFSIGNALED(status):
            print(json.dumps({"signal": os.WTERMSIG(status)}))
        else:
            print(data.decode() or json.dumps({"state": "broken", "message": f"child status {status}"}))


if __name__ == "__main__":
    main()
