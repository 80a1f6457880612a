"""The `openai` backend against a fake OpenAI-compatible server on 127.0.0.1 that streams (server-sent events,
as vLLM, Ollama and hosted APIs do): the client sends the prompt, the key and the model name, the reply
streams sentence by sentence through the claim check, and a server error leaves the deterministic answer."""
from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Iterator

import pytest
from langchain_core.messages import HumanMessage

from assistant.llm import make_chat_model, stream_tokens
from config import load_settings

DIVIDENDS_COMPANY = ("A minha sociedade portuguesa detém diretamente 30% de uma empresa brasileira há 3 anos. "
                     "Quanto retém o Brasil sobre os dividendos?")


class FakeOpenAI(BaseHTTPRequestHandler):
    reply = ""
    status = 200
    requests: list[dict] = []

    def log_message(self, *args) -> None:   # keep the test output quiet
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).requests.append({"path": self.path, "auth": self.headers.get("Authorization"), "body": body})
        if self.status != 200:
            self.send_response(self.status)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(b'{"error": {"message": "overloaded"}}')
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        for piece in self.reply.split(" "):
            chunk = {"id": "c1", "object": "chat.completion.chunk", "created": 0, "model": body["model"],
                     "choices": [{"index": 0, "delta": {"content": piece + " "}, "finish_reason": None}]}
            self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
            self.wfile.flush()
        done = {"id": "c1", "object": "chat.completion.chunk", "created": 0, "model": body["model"],
                "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
        self.wfile.write(f"data: {json.dumps(done)}\n\ndata: [DONE]\n\n".encode())


@pytest.fixture
def fake_server() -> Iterator[type[FakeOpenAI]]:
    handler = type("Handler", (FakeOpenAI,), {"requests": [], "reply": "", "status": 200})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    handler.url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    yield handler
    server.shutdown()
    server.server_close()


def _settings(url: str):
    return load_settings().replace(openai_base_url=url, openai_model="served-model", openai_api_key="sk-test",
                                   llm_timeout_s=20.0)


def test_the_client_streams_from_an_openai_compatible_server(fake_server):
    fake_server.reply = "Olá mundo."
    model, info = make_chat_model(_settings(fake_server.url), "openai")
    tokens = list(stream_tokens(model, [HumanMessage("oi")], 20.0))
    assert len(tokens) > 1 and "".join(tokens).strip() == "Olá mundo."
    request = fake_server.requests[0]
    assert request["path"] == "/v1/chat/completions" and request["auth"] == "Bearer sk-test"
    assert request["body"]["stream"] is True and request["body"]["model"] == "served-model" == info.model


def test_the_pipeline_with_the_openai_backend_checks_each_sentence(make_assistant, fake_server):
    fake_server.reply = ("Com os factos dados, o Brasil pode tributar os dividendos no máximo a 10% [1]. "
                         "Portugal não pode tributar os dividendos.")
    model, _ = make_chat_model(_settings(fake_server.url), "openai")
    answer = make_assistant(model).ask(DIVIDENDS_COMPANY)
    assert answer.explanation == "Com os factos dados, o Brasil pode tributar os dividendos no máximo a 10% [1]."
    assert answer.guardrail.sentences_dropped == 1 and answer.guardrail.contradicted_claims == 1
    system = fake_server.requests[0]["body"]["messages"][0]
    assert system["role"] == "system" and "plain-language paragraph" in system["content"]


def test_a_server_error_leaves_the_deterministic_answer(make_assistant, fake_server):
    fake_server.status = 503
    model, _ = make_chat_model(_settings(fake_server.url), "openai")
    answer = make_assistant(model).ask(DIVIDENDS_COMPANY)
    assert [r.value for r in answer.rates] == [10.0] and not answer.explanation
    assert answer.guardrail.action == "fallback" and answer.notices
