"""A slow OpenAI-compatible chat server for the browser tests: streams one word every `delay_s` seconds,
so a test can show that nothing on the page waits for the model. Test-only."""
from __future__ import annotations

import json
import threading
import time
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Iterator

# Two sentences, the second of three words: the app releases a sentence once the next one has begun
# (assistant.llm.SentenceBuffer), so the first one is on screen with the streaming cursor for two word delays
# while the second is written. (With a one-word second sentence the cursor lasted milliseconds, between
# that word and the end of the stream, and a busy browser could miss it: CI run at 054ff2b.)
WORDS = ("Em resumo, ", "consulte ", "o cartão acima. ", "Veja ", "as fontes ", "citadas. ")


def _handler(delay_s: float):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args) -> None:  # quiet
            pass

        def do_GET(self) -> None:
            body = json.dumps({"data": [{"id": "slow-fake", "object": "model"}]}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            try:
                for word in WORDS:
                    time.sleep(delay_s)
                    chunk = {"id": "x", "object": "chat.completion.chunk", "created": 0, "model": "slow-fake",
                             "choices": [{"index": 0, "delta": {"content": word}, "finish_reason": None}]}
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                    self.wfile.flush()
                self.wfile.write(b"data: [DONE]\n\n")
                self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                pass
    return Handler


@contextmanager
def slow_openai_server(delay_s: float = 3.0) -> Iterator[str]:
    """Yields the server's base URL (…/v1)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(delay_s))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()
