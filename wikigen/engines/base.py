"""The engine contract (R19): ``run(stage, request, deadline, cancel) -> Delta``, once per stage.

A request and a delta are plain JSON (schemas in ``wikigen/schemas/``). The pipeline calls
``analyze``, then ``recheck`` with analyze's delta added to the same request; both share one
deadline (a ``time.monotonic()`` value) and one cancellation event.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Protocol

from wikigen.config import Config
from wikigen.errors import ConfigError

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


def canonical_bytes(value: Any) -> bytes:
    """The UTF-8 bytes an engine receives: compact JSON with sorted keys."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def load_schema(name: str) -> dict[str, Any]:
    text = resources.files("wikigen").joinpath(f"schemas/{name}.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def empty_delta() -> dict[str, Any]:
    return {"articles": [], "concepts": [], "relations": [], "topics": []}


def make_engine(config: Config) -> Engine:
    """The engine named by the settings (flag, environment, wikigen.yml, default ``offline``)."""
    name = config.engine.name
    if name == "offline":
        from wikigen.engines.offline import OfflineEngine

        engine: Engine = OfflineEngine()
        return engine
    if name == "http":
        from wikigen.engines.http import HttpEngine

        remote: Engine = HttpEngine(config.engine)
        return remote
    raise ConfigError(f"unknown engine {name!r}; use offline or http")
