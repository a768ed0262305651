"""The route a compile would take, told without building an engine (for `plan`, never the key)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from wikigen.model.config import Config

OFFLINE_MODEL = "all-MiniLM-L6-v2-int8"


def route_of(config: Config) -> dict[str, Any]:
    """The route a compile would take, without building the engine: for `plan` (never the key)."""
    settings = config.engine
    if settings.name == "offline":
        return {"engine": "offline", "host": None, "models": {"analyze": OFFLINE_MODEL, "recheck": OFFLINE_MODEL}}
    host = host_of(settings.base_url)  # never the userinfo, where a key may sit
    return {"engine": settings.name, "host": host, "models": dict(settings.models)}


def host_of(base_url: str | None) -> str | None:
    """The base URL's host and port, never its user name or password; None when unset."""
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
