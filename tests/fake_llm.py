"""A real local HTTP server that speaks the OpenAI chat-completions protocol, for the LLM judge
and grader-worker tests (what it answers is set per test)."""

from __future__ import annotations

import json
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

BANK = Path(__file__).resolve().parents[1] / "bank"
ENTRY_ID = "what-is-autograd"

ANSWER = (
    "Autograd is PyTorch's automatic differentiation engine. "
    "It records every operation on tensors that require grad while the forward code runs. "
    "Calling backward() walks that graph from the loss back to the inputs using the chain rule. "
    "backward() overwrites whatever is in .grad with the new gradient."
)
QUOTE_RECORDS = "It records every operation on tensors that require grad while the forward code runs."
QUOTE_CHAIN = "Calling backward() walks that graph from the loss back to the inputs using the chain rule."
QUOTE_OVERWRITES = "backward() overwrites whatever is in .grad with the new gradient."


def reply_for(answer_quotes: bool = True, **overrides: Any) -> dict[str, Any]:
    """A valid judge reply for what-is-autograd and :data:`ANSWER`."""
    reply: dict[str, Any] = {
        "key_points": [
            {"id": "records-ops", "status": "hit", "quote": QUOTE_RECORDS, "why": "States that ops are recorded."},
            {"id": "reverse-mode-chain-rule", "status": "hit", "quote": QUOTE_CHAIN, "why": "Chain rule, backwards."},
            {"id": "requires-grad-propagates", "status": "missed", "quote": None, "why": "Not mentioned."},
            {
                "id": "leaf-grad-accumulates",
                "status": "contradicted",
                "quote": QUOTE_OVERWRITES,
                "why": "Says .grad is overwritten; it accumulates.",
            },
            {"id": "float-only", "status": "missed", "quote": None, "why": "Not mentioned."},
        ],
        "misconceptions": [{"index": 2, "quote": QUOTE_OVERWRITES}],
        "score": 48,
        "confidence": 0.8,
        "follow_up": "What happens to .grad if you call backward() twice without zeroing?",
        "follow_up_target": "leaf-grad-accumulates",
        "summary": "Knows the graph and the chain rule; wrong about .grad accumulation.",
    }
    reply.update(overrides)
    return reply


def completion(content: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 0,
        "model": "fake-model",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
    }


class FakeLLM:
    """A real HTTP server implementing ``POST /v1/chat/completions``.

    Set ``reply`` (an object sent as JSON content), or ``content`` (raw content string), or
    ``status`` (an HTTP error status), and ``delay`` (seconds before answering). ``requests``
    holds ``(headers, body)`` of every request received.
    """

    def __init__(self) -> None:
        self.reply: dict[str, Any] | None = reply_for()
        self.content: str | None = None
        self.status = 200
        self.delay = 0.0
        self.requests: list[tuple[dict[str, str], dict[str, Any]]] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                fake.requests.append(({k.lower(): v for k, v in self.headers.items()}, body))
                # decide the answer on arrival, send it after the delay
                if self.path != "/v1/chat/completions":
                    status, payload = 404, b'{"error": "not found"}'
                elif fake.status != 200:
                    status, payload = fake.status, b'{"error": {"message": "model exploded"}}'
                else:
                    content = fake.content if fake.content is not None else json.dumps(fake.reply)
                    status, payload = 200, json.dumps(completion(content)).encode()
                time.sleep(fake.delay)
                self._send(status, payload)

            def _send(self, status: int, payload: bytes) -> None:
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except OSError:  # the client gave up (timeout test)
                    pass

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.httpd.block_on_close = False
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    def __enter__(self) -> FakeLLM:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
