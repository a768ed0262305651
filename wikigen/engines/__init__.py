"""Engines turn a request into a delta: `offline` (embedded) or `http` (OpenAI-compatible)."""

from __future__ import annotations

from wikigen.engines.base import Delta, Engine, Usage, make_engine

__all__ = ["Delta", "Engine", "Usage", "make_engine"]
