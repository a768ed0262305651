"""Search over the committed snapshot (E6): the index under .git/ and the ranking."""

from __future__ import annotations

from wikigen.search.index import At, Index, SyncReport, resolve_snapshot
from wikigen.search.ranking import DEFAULT_K, Searcher

__all__ = ["DEFAULT_K", "At", "Index", "Searcher", "SyncReport", "resolve_snapshot"]
