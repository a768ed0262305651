"""ScriptedEngine: a test double at the engine boundary (as httpx's MockTransport is for transports).

It answers each stage with a given delta, or derives one from the request with a function. It is
part of the package so that users can test their own pipelines and prompts the same way.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from wikigen.engines.contract import Delta, Usage, empty_delta
from wikigen.model.errors import EngineError

Answer = Mapping[str, Any] | Callable[[str, Mapping[str, Any]], Mapping[str, Any]]


class ScriptedEngine:
    name = "scripted"

    def __init__(
        self,
        answers: Answer | Sequence[Answer] | None = None,
        *,
        remote: bool = False,
        usage: Usage | None = None,
        derives_topics: bool = False,
    ) -> None:
        self.answers = answers
        self.remote = remote
        # True: the compiler derives the topics from the objects, as for the offline engine.
        self.derives_topics = derives_topics
        self.usage = usage or Usage()
        self.requests: list[tuple[str, Mapping[str, Any]]] = []

    @property
    def calls(self) -> int:
        return len(self.requests)

    def route(self, stage: str) -> str:
        return f"scripted/{stage}"

    def run(self, stage: str, request: Mapping[str, Any], deadline: float, cancel: threading.Event) -> Delta:
        if cancel.is_set() or time.monotonic() > deadline:
            raise EngineError(f"{stage}: cancelled or past the deadline before the call")
        self.requests.append((stage, request))
        answer: Any = self.answers
        if isinstance(answer, Sequence) and not isinstance(answer, (str, bytes)):
            answer = answer[len(self.requests) - 1] if len(self.requests) <= len(answer) else empty_delta()
        if answer is None:
            data: Mapping[str, Any] = empty_delta()
        elif callable(answer):
            data = answer(stage, request)
        else:
            data = answer
        return Delta(data=data, route=self.route(stage), usage=self.usage, model="scripted")


def echo_articles(stage: str, request: Mapping[str, Any]) -> Mapping[str, Any]:
    """A derived answer: one article per changed source citing its first non-empty line."""
    if stage != "analyze":
        return empty_delta()
    articles = []
    for source in request["sources"]:
        line = next((ln.strip() for ln in source["body"].splitlines() if ln.strip()), "")
        if not line:
            continue
        articles.append(
            {
                "title": source["title"],
                "sources": [source["id"]],
                "summary": [{"text": line, "quotes": [{"source": source["id"], "quote": line}]}],
            }
        )
    return {**empty_delta(), "articles": articles}
