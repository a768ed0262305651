"""An OpenAI-compatible chat-completions server on 127.0.0.1 for the HTTP engine's tests.

It answers ``POST /v1/chat/completions`` from a queue of scripted replies (status, headers, body, an
optional delay, or a callable), and once the queue is empty from an *answer function*
``(stage, request) -> delta`` run on the request read back from the prompt's data blocks — e.g. the
offline engine, or ``tests.engines.extract``. Every request is recorded (path, headers, JSON body).
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from wikigen.engines.http import prompts

PATH = "/v1/chat/completions"
MODEL = "fake-model-2025"

AnswerFn = Callable[[str, Mapping[str, Any]], Mapping[str, Any]]


@dataclass
class Captured:
    """One request the server received."""

    path: str
    headers: dict[str, str]  # names lower-cased
    body: dict[str, Any]

    @property
    def system(self) -> str:
        return str(self.body["messages"][0]["content"])

    @property
    def user(self) -> str:
        return str(self.body["messages"][1]["content"])

    @property
    def request(self) -> dict[str, Any]:
        """The wikigen request, read back from the data blocks."""
        return prompts.request_from_messages(self.body["messages"])

    @property
    def stage(self) -> str:
        return str(self.request["stage"])


@dataclass
class Reply:
    status: int = 200
    body: Any = None  # a dict/list is sent as JSON, str/bytes as they are
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0  # seconds to wait before answering (cut short when the server stops)


Script = Reply | Callable[[Captured], Reply]


def completion(
    content: str | Mapping[str, Any],
    *,
    model: str = MODEL,
    finish_reason: str = "stop",
    usage: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A chat-completion body whose message content is ``content`` (a dict is JSON-encoded)."""
    text = content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)
    body: dict[str, Any] = {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 1_700_000_000,
        "model": model,
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": finish_reason}
        ],
    }
    if usage is not None:
        body["usage"] = dict(usage)
    return body


def offline_answer(stage: str, request: Mapping[str, Any]) -> Mapping[str, Any]:
    """Answer as the embedded offline engine would (imported late: it loads an ONNX model)."""
    from wikigen.engines.offline.engine import OfflineEngine

    return OfflineEngine().run(stage, request, time.monotonic() + 120, threading.Event()).data


class FakeOpenAI:
    def __init__(self, answer: AnswerFn | None = None, *, usage: Mapping[str, Any] | None = None) -> None:
        self.answer = answer
        self.usage = usage
        self.replies: deque[Script] = deque()
        self.requests: list[Captured] = []
        self.stopping = threading.Event()
        self.lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw)
                except json.JSONDecodeError:
                    body = {"_raw": raw.decode("utf-8", "replace")}
                captured = Captured(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                with fake.lock:
                    fake.requests.append(captured)
                    script = fake.replies.popleft() if fake.replies else None
                if self.path != PATH:
                    reply = Reply(404, {"error": {"message": f"no route {self.path}"}})
                elif script is None:
                    reply = fake.default_reply(captured)
                else:
                    reply = script(captured) if callable(script) else script
                if reply.delay and fake.stopping.wait(reply.delay):
                    self.close_connection = True
                    return  # the test is over: hang up without an answer
                data = reply.body
                if isinstance(data, (dict, list)):
                    data = json.dumps(data, ensure_ascii=False)
                payload = data.encode("utf-8") if isinstance(data, str) else bytes(data or b"")
                try:
                    self.send_response(reply.status)
                    self.send_header("Content-Type", reply.headers.get("Content-Type", "application/json"))
                    for name, value in reply.headers.items():
                        if name.lower() != "content-type":
                            self.send_header(name, value)
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except OSError:
                    pass  # the client gave up (deadline, cancellation)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, name="fake-openai", daemon=True
        )

    @property
    def url(self) -> str:
        """The base URL, as engine.base_url takes it."""
        return f"http://127.0.0.1:{self.server.server_port}/v1"

    def push(self, *replies: Script) -> None:
        """Queue replies, answered in order before the answer function takes over."""
        with self.lock:
            self.replies.extend(replies)

    def default_reply(self, captured: Captured) -> Reply:
        if self.answer is None:
            return Reply(500, {"error": {"message": "the fake has no scripted reply left"}})
        request = captured.request
        delta = self.answer(request["stage"], request)
        return Reply(200, completion(delta, usage=self.usage))

    def start(self) -> FakeOpenAI:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(5)

    def __enter__(self) -> FakeOpenAI:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAI]:
    """A started fake server without an answer function; set ``.answer`` or ``push`` replies."""
    with FakeOpenAI() as server:
        yield server
