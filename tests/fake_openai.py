"""An OpenAI-compatible chat-completions server on 127.0.0.1 for the HTTP engine's tests.

It answers ``POST /v1/chat/completions`` from a queue of scripted replies (status, headers, body, an
optional delay, or a callable), and once the queue is empty from an *answer function*
``(stage, request) -> delta`` run on the request read back from the prompt's data blocks — e.g. the
offline engine, or ``tests.engines.extract``. Every request is recorded (path, headers, JSON body,
its size on the wire).

With a :class:`PrefixCache` the server models the prompt caching of OpenAI-compatible servers (OpenAI's
prompt caching, vLLM's automatic prefix caching, llama.cpp's prompt cache): the longest prefix a
prompt shares with any earlier one is cached, and its usage reports that, counting one token per
UTF-8 byte, as ``prompt_tokens_details.cached_tokens``.
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
    wire: int = 0  # the request body's bytes
    prompt: int = 0  # with a PrefixCache: the prompt's bytes, and how many of them were cached
    cached: int = 0

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


def prompt_text(body: Mapping[str, Any]) -> bytes:
    """The text a server would tokenize: each message's role and content, in order."""
    messages = body.get("messages") or []
    return "".join(f"<|{m.get('role')}|>\n{m.get('content')}\n" for m in messages if isinstance(m, dict)).encode()


class PrefixCache:
    """The longest prefix a prompt shares with any earlier prompt counts as cached."""

    def __init__(self) -> None:
        self.prompts: list[bytes] = []

    def prime(self, body: Mapping[str, Any]) -> None:
        """Remember a prompt as if the server had already answered it (a warm server)."""
        self.prompts.append(prompt_text(body))

    def measure(self, body: Mapping[str, Any]) -> tuple[int, int]:
        """(prompt bytes, cached bytes) of one request, which is then remembered."""
        text = prompt_text(body)
        cached = max((_shared(text, earlier) for earlier in self.prompts), default=0)
        self.prompts.append(text)
        return len(text), cached


def _shared(a: bytes, b: bytes) -> int:
    n = min(len(a), len(b))
    if a[:n] == b[:n]:
        return n
    low, high = 0, n  # a[:low] == b[:low], a[:high] != b[:high]
    while high - low > 1:
        mid = (low + high) // 2
        if a[:mid] == b[:mid]:
            low = mid
        else:
            high = mid
    return low


def offline_answer(stage: str, request: Mapping[str, Any]) -> Mapping[str, Any]:
    """Answer as the embedded offline engine would (imported late: it loads an ONNX model)."""
    from wikigen.engines.offline.engine import OfflineEngine

    return OfflineEngine().run(stage, request, time.monotonic() + 120, threading.Event()).data


class FakeOpenAI:
    def __init__(
        self,
        answer: AnswerFn | None = None,
        *,
        usage: Mapping[str, Any] | None = None,
        cache: PrefixCache | None = None,
    ) -> None:
        self.answer = answer
        self.usage = usage
        self.cache = cache
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
                captured = Captured(self.path, {k.lower(): v for k, v in self.headers.items()}, body, len(raw))
                with fake.lock:
                    if fake.cache is not None and self.path == PATH:
                        captured.prompt, captured.cached = fake.cache.measure(body)
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
        usage = self.usage
        if self.cache is not None:
            usage = {
                "prompt_tokens": captured.prompt,
                "completion_tokens": len(json.dumps(delta, ensure_ascii=False).encode()),
                "prompt_tokens_details": {"cached_tokens": captured.cached},
            }
        return Reply(200, completion(delta, usage=usage))

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
