"""Search over the committed snapshot (E6): the index under .git/ and the ranking."""

from __future__ import annotations

from wikigen.search.index import Index, SyncReport
from wikigen.search.ranking import DEFAULT_K, Searcher
from wikigen.search.snapshots import At, resolve_snapshot

__all__ = ["DEFAULT_K", "At", "Index", "Searcher", "SyncReport", "resolve_snapshot"]
