"""The engine contract (R19): ``run(stage, request, deadline, cancel) -> Delta``, once per stage.

A request and a delta are plain JSON (schemas in ``wikigen/schemas/``). The pipeline calls
``analyze``, then ``recheck`` with what it checks (``wikigen.compiler.context.recheck_request``): the same
sources, fragments, anchors and relations (not to return again) as analyze, and what analyze
found, never analyze's whole request again; both share one deadline (a ``time.monotonic()``
value) and one cancellation event.

This module is the contract only: it sits below the compiler and knows no engine. The engines
implement it; the factory that picks one is ``wikigen.engines.make_engine``.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from wikigen.model.hashing import canonical_bytes

STAGES = ("analyze", "recheck")


@dataclass(frozen=True, slots=True)
class Usage:
    """Token counts as the service reported them; a count it did not report is None, never 0 (R32)."""

    input: int | None = None  # non-cached input tokens
    cached_input: int | None = None
    output: int | None = None
    reasoning: int | None = None

    def as_json(self) -> dict[str, int | None]:
        return {
            "input": self.input,
            "cached_input": self.cached_input,
            "output": self.output,
            "reasoning": self.reasoning,
        }


@dataclass(frozen=True, slots=True)
class Delta:
    """What one engine call returned: new or replacing objects only, plus its accounting."""

    data: Mapping[str, Any]
    route: str  # the route actually taken, e.g. "offline/all-MiniLM-L6-v2-int8" or "http/host/model"
    usage: Usage = field(default_factory=Usage)
    model: str | None = None  # the model the service reported
    calls: tuple[Mapping[str, Any], ...] = ()  # per HTTP attempt: status, latency, ... (R32)

    def to_bytes(self) -> bytes:
        return canonical_bytes(self.data)


class Engine(Protocol):
    """One method does the work; ``name`` and ``route`` describe it for plans and traces."""

    name: str
    # True when requests leave this machine: private sources may never reach such an engine.
    remote: bool

    def route(self, stage: str) -> str: ...

    def run(
        self, stage: str, request: Mapping[str, Any], deadline: float, cancel: threading.Event
    ) -> Delta: ...


def empty_delta() -> dict[str, Any]:
    return {"articles": [], "concepts": [], "relations": [], "topics": []}
