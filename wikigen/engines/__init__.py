"""Engines turn a request into a delta: `offline` (embedded) or `http` (OpenAI-compatible).

The contract they implement is ``base``; the factory that picks one lives here, beside them, and
imports the chosen engine only when it is asked for, so that loading the package loads no model
and no HTTP client.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from wikigen.config import Config
from wikigen.engines.base import Delta, Engine, Usage
from wikigen.errors import ConfigError

__all__ = ["Delta", "Engine", "Usage", "host_of", "make_engine", "route_of"]
OFFLINE_MODEL = "all-MiniLM-L6-v2-int8"


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


def route_of(config: Config) -> dict[str, Any]:
    """The route a compile would take, without building the engine: for `plan` (never the key)."""
    settings = config.engine
    if settings.name == "offline":
        return {"engine": "offline", "host": None, "models": {"analyze": OFFLINE_MODEL, "recheck": OFFLINE_MODEL}}
    host = host_of(settings.base_url)  # issue 15.7: never the userinfo, where a key may sit
    return {"engine": settings.name, "host": host, "models": dict(settings.models)}


def host_of(base_url: str | None) -> str | None:
    """The base URL's host and port, never its user name or password (issue 15.7); None when unset."""
    if not base_url:
        return None
    try:
        parts = urlsplit(base_url)
        port = parts.port
    except ValueError:
        return "(invalid base_url)"
    if not parts.hostname:
        return "(invalid base_url)"
    return f"{parts.hostname}:{port}" if port else parts.hostname
