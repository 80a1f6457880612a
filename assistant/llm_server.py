"""The local model as a shared server: llama.cpp's own OpenAI-compatible server (the prebuilt `xllamacpp` wheel).

One server per model and settings serves every process of the user (app sessions, CLI, eval), so its
prompt cache is shared and nothing compiles. xllamacpp has no stop method, so the server lives in a
process of its own: `python -m assistant.llm_server serve` (internal). `ensure_server` reuses a live one
(found through a state file) or starts one owned by the caller and stopped when the caller exits; the
server also exits by itself when the process that started it is gone, so none outlives its owner.
`python -m assistant.llm_server run -- CMD …` (used by `make run`) runs CMD next to a server.
"""
from __future__ import annotations

import argparse
import atexit
import fcntl
import hashlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Iterator

from assistant.machine import threads_for_load
from config import Settings, load_settings

START_TIMEOUT_S = 600       # loading takes 2-4 s on a quiet machine; over 3 min was seen with load 17 on 2 cores
WATCH_INTERVAL_S = 1.0
HEALTH_PATIENCE_S = 10.0
SYSTEM_PROMPT = Path(__file__).with_name("prompts") / "system.txt"   # the fixed prefix every request shares
SPECULATIVE = ("none", "ngram", "draft")
DRAFT_FILE = "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf"             # `make models-draft`
DRAFT_TOKENS = 8


class ServerUnavailable(Exception):
    """The local model server could not be found or started."""


@dataclass(frozen=True)
class ServerInfo:
    pid: int
    url: str                 # base URL, without /v1
    model: str               # the GGUF file name, also the name requests use
    owner_pid: int

    @property
    def api_url(self) -> str:
        return f"{self.url}/v1"


def run_dir(settings: Settings) -> Path:
    return settings.cache_dir / "run"


def _key(settings: Settings, model: Path) -> str:
    """Servers are shared only between callers that want the same model with the same settings."""
    spec = f"{model.resolve()}|{settings.llm_context}|{settings.llm_parallel}|{settings.llm_threads}"
    if settings.llm_speculative != "none":
        spec += f"|{settings.llm_speculative}|{draft_model(settings) if settings.llm_speculative == 'draft' else ''}"
    return hashlib.sha256(spec.encode()).hexdigest()[:12]


def state_file(settings: Settings, model: Path) -> Path:
    return run_dir(settings) / f"llm-server-{_key(settings, model)}.json"


def _alive(pid: int) -> bool:
    """Running, not a zombie (a server this process started and that died stays one until reaped)."""
    with _owned_lock:
        proc = _owned.get(pid)
    if proc is not None and proc.poll() is not None:
        _forget(proc)
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True


def healthy(url: str, timeout_s: float = 2.0) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/health", timeout=timeout_s) as r:
            return r.status == 200
    except (OSError, urllib.error.URLError, ValueError):
        return False


def running_server(settings: Settings, model: Path) -> ServerInfo | None:
    """The live server for this model and settings, if any (a stale state file is removed).

    A server whose process lives but does not answer its health check (cores busy) is not replaced:
    a second copy of the model would only make it slower."""
    path = state_file(settings, model)
    try:
        info = ServerInfo(**json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError):
        return None
    if not _alive(info.pid):
        path.unlink(missing_ok=True)
        return None
    if healthy(info.url) or healthy(info.url, timeout_s=HEALTH_PATIENCE_S):
        return info
    raise ServerUnavailable(f"o servidor do modelo (pid {info.pid}) não responde")


@contextmanager
def _start_lock(settings: Settings) -> Iterator[None]:
    """Two processes asking at once must not start two servers."""
    run_dir(settings).mkdir(parents=True, exist_ok=True)
    with open(run_dir(settings) / "llm-server.lock", "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


_owned: dict[int, subprocess.Popen] = {}
_owned_lock = threading.Lock()


def ensure_server(settings: Settings, model: Path) -> ServerInfo:
    """A live server for `model`: the running one, or a new one owned by this process."""
    info = running_server(settings, model)
    if info:
        return info
    with _start_lock(settings):
        info = running_server(settings, model)
        if info:
            return info
        return _start(settings, model)


def _start(settings: Settings, model: Path) -> ServerInfo:
    if not model.is_file():
        raise ServerUnavailable(f"modelo GGUF não encontrado em {model}: corra `make models`")
    log = run_dir(settings) / f"llm-server-{_key(settings, model)}.log"
    state = state_file(settings, model)
    state.unlink(missing_ok=True)
    threads = settings.llm_threads or threads_for_load()
    extra = ["--speculative", settings.llm_speculative]
    if settings.llm_speculative == "draft":
        draft = draft_model(settings)
        if not draft.is_file():
            raise ServerUnavailable(f"modelo de rascunho não encontrado em {draft}: corra `make models-draft`")
        extra += ["--draft", str(draft)]
    with log.open("w") as out:
        print(f"[llm-server] {threads} thread(s)" + (" (escolhidas pela carga da máquina ao arrancar)"
                                                     if not settings.llm_threads else ""), file=out, flush=True)
        proc = subprocess.Popen([sys.executable, "-m", "assistant.llm_server", "serve", "--model", str(model),
                                 "--state", str(state), "--threads", str(threads),
                                 "--context", str(settings.llm_context), "--parallel", str(settings.llm_parallel),
                                 "--watch-pid", str(os.getpid()), "--warm", str(SYSTEM_PROMPT), *extra],
                                stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT)
    with _owned_lock:
        _owned[proc.pid] = proc
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            _forget(proc)
            tail = log.read_text(errors="replace").strip().splitlines()[-3:]
            raise ServerUnavailable(f"o servidor do modelo terminou ao arrancar: {' | '.join(tail)}")
        info = running_server(settings, model)
        if info and info.pid == proc.pid:
            return info
        time.sleep(0.2)
    stop(proc)
    raise ServerUnavailable(f"o servidor do modelo não arrancou em {START_TIMEOUT_S} s")


def _forget(proc: subprocess.Popen) -> None:
    with _owned_lock:
        _owned.pop(proc.pid, None)


def stop(proc: subprocess.Popen, timeout_s: float = 10.0) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    _forget(proc)


def stop_owned() -> None:
    """Stop every server this process started (atexit, and the `run` launcher's Ctrl-C)."""
    with _owned_lock:
        procs = list(_owned.values())
    for proc in procs:
        stop(proc)


atexit.register(stop_owned)


# ---------------------------------------------------------------------------- the server process

def serve(model: Path, state: Path, threads: int, context: int, parallel: int, watch_pid: int | None,
          warm: Path | None = None, speculative: str = "none", draft: Path | None = None) -> int:
    """Load the model, publish the state file, read the fixed system prompt into the prompt cache (so the first
    question does not pay for it: it queues behind the warm-up at worst), serve until signalled or until
    `watch_pid` is gone."""
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = str(model)
    params.model_alias = model.name
    params.n_ctx = context
    params.n_parallel = parallel
    params.cont_batching = True
    params.cache_prompt = True                 # keep the KV of the fixed prompt prefix between requests
    params.cpuparams.n_threads = threads
    params.cpuparams_batch.n_threads = threads
    params.hostnames = ["127.0.0.1"]           # loopback only
    params.port = 0                            # a free port, chosen by the server
    params.verbosity = 1
    params.endpoint_metrics = True             # token counts and seconds for `make bench`
    _speculation(params, speculative, draft, threads)
    stopping = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, lambda *_: stopping.set())
    server = xllamacpp.Server(params)
    info = ServerInfo(pid=os.getpid(), url=server.listening_address.rstrip("/"), model=model.name,
                      owner_pid=watch_pid or 0)
    tmp = state.with_suffix(".tmp")
    tmp.write_text(json.dumps(asdict(info)), encoding="utf-8")
    tmp.replace(state)
    print(f"[llm-server] {info.url} ({model.name})", flush=True)
    if warm is not None:   # after publishing, beside the watch loop: on a busy machine it takes a while
        threading.Thread(target=warm_prefix, args=(info, warm.read_text(encoding="utf-8")), daemon=True).start()
    try:
        while not stopping.wait(WATCH_INTERVAL_S):
            if watch_pid and not _alive(watch_pid):
                break
    finally:
        try:
            if json.loads(state.read_text(encoding="utf-8")).get("pid") == os.getpid():
                state.unlink()
        except (OSError, ValueError):
            pass
    os._exit(0)  # the server's native threads need no orderly shutdown


def _speculation(params, kind: str, draft: Path | None, threads: int) -> None:
    """Speculative decoding: "ngram" drafts from the text already in the context (no second model; the
    paragraph repeats the card's words), "draft" runs a small model of the same tokenizer family ahead."""
    import xllamacpp

    types = xllamacpp.common_speculative_type
    spec = params.speculative
    if kind == "ngram":
        spec.types = [types.COMMON_SPECULATIVE_TYPE_NGRAM_SIMPLE]
    elif kind == "draft" and draft is not None:
        spec.types = [types.COMMON_SPECULATIVE_TYPE_DRAFT_SIMPLE]
        spec.draft.mparams.path = str(draft)
        spec.draft.cpuparams.n_threads = threads
        spec.draft.cpuparams_batch.n_threads = threads
        spec.draft.n_max = DRAFT_TOKENS


def warm_prefix(info: ServerInfo, system_prompt: str, timeout_s: float = 3600) -> None:
    """One request of one token with the fixed system prompt: the server keeps its KV in the prompt cache."""
    body = json.dumps({"model": info.model, "max_tokens": 1, "cache_prompt": True,
                       "messages": [{"role": "system", "content": system_prompt},
                                    {"role": "user", "content": "."}]}).encode()
    request = urllib.request.Request(f"{info.api_url}/chat/completions", data=body,
                                     headers={"Content-Type": "application/json"})
    started = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=timeout_s) as response:
            response.read()
        print(f"[llm-server] prompt de sistema em cache em {time.monotonic() - started:.1f} s", flush=True)
    except (OSError, urllib.error.URLError) as exc:   # the server still serves; the first question pays
        print(f"[llm-server] aviso: prompt de sistema não ficou em cache ({exc})", flush=True)


def draft_model(settings: Settings) -> Path:
    return Path(settings.llm_draft_model_path) if settings.llm_draft_model_path else \
        settings.models_dir / DRAFT_FILE


def run_with_server(settings: Settings, command: list[str]) -> int:
    """Run `command` next to the local model server (reused if one is running); Ctrl-C stops both."""
    from assistant.llm import local_model_path

    if settings.llm_backend == "local":
        try:
            info = ensure_server(settings, local_model_path(settings))
            print(f"[llm-server] modelo local em {info.url}", flush=True)
        except ServerUnavailable as exc:  # the app still answers with the deterministic card
            print(f"[llm-server] aviso: {exc}", file=sys.stderr, flush=True)
    child = subprocess.Popen(command)
    try:
        return child.wait()
    except KeyboardInterrupt:
        try:
            return child.wait(timeout=15)
        except subprocess.TimeoutExpired:
            child.kill()
            return child.wait()
    finally:
        stop_owned()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m assistant.llm_server")
    sub = parser.add_subparsers(dest="command", required=True)
    srv = sub.add_parser("serve", help="(interno) serve o modelo neste processo")
    srv.add_argument("--model", required=True)
    srv.add_argument("--state", required=True, help="ficheiro onde publicar o endereço")
    srv.add_argument("--threads", type=int, required=True)
    srv.add_argument("--context", type=int, required=True)
    srv.add_argument("--parallel", type=int, required=True)
    srv.add_argument("--watch-pid", type=int)
    srv.add_argument("--warm", help="prompt de sistema a pôr na cache ao arrancar")
    srv.add_argument("--speculative", choices=SPECULATIVE, default="none")
    srv.add_argument("--draft", help="GGUF do modelo de rascunho (--speculative draft)")
    run = sub.add_parser("run", help="corre um comando ao lado do servidor do modelo local")
    run.add_argument("cmd", nargs=argparse.REMAINDER)
    sub.add_parser("status", help="mostra o servidor em execução, se houver")
    args = parser.parse_args(argv)
    if args.command == "serve":
        return serve(Path(args.model), Path(args.state), args.threads, args.context, args.parallel, args.watch_pid,
                     Path(args.warm) if args.warm else None, args.speculative,
                     Path(args.draft) if args.draft else None)
    settings = load_settings()
    if args.command == "run":
        cmd = args.cmd[1:] if args.cmd[:1] == ["--"] else args.cmd
        if not cmd:
            parser.error("indique o comando a correr depois de --")
        return run_with_server(settings, cmd)
    from assistant.llm import local_model_path

    try:
        info = running_server(settings, local_model_path(settings))
    except ServerUnavailable as exc:
        print(f"aviso: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(asdict(info)) if info else "nenhum servidor do modelo local em execução")
    return 0 if info else 1


if __name__ == "__main__":
    sys.exit(main())
