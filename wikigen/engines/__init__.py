"""Engines turn a request into a delta: `offline` (embedded) or `http` (OpenAI-compatible).

The contract they implement is ``base``; the factory that picks one lives here, beside them, and
imports the chosen engine only when it is asked for, so that loading the package loads no model
and no HTTP client.
"""

from __future__ import annotations

from wikigen.engines.contract import Delta, Engine, Usage
from wikigen.model.config import Config
from wikigen.model.errors import ConfigError

__all__ = ["Delta", "Engine", "Usage", "make_engine"]


def make_engine(config: Config) -> Engine:
    """The engine named by the settings (flag, environment, wikigen.yml, default ``offline``)."""
    name = config.engine.name
    if name == "offline":
        from wikigen.engines.offline.engine import OfflineEngine

        engine: Engine = OfflineEngine()
        return engine
    if name == "http":
        from wikigen.engines.http.client import HttpEngine

        remote: Engine = HttpEngine(config.engine)
        return remote
    raise ConfigError(f"unknown engine {name!r}; use offline or http")
