"""Plan + object index → the revoked set (R12). Pure.

An updated or withdrawn source revokes, whole, every object that cites it; then every object that
depends on a revoked object (concepts on articles, relations on their endpoints, topics on their
members). Revocation follows these edges only, and never strips a citation to keep old text.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from wikigen.compiler.lookup import IndexLookup, Lookup


def revoke(
    index: Mapping[str, Mapping[str, Any]], touched_sources: Iterable[str], lookup: Lookup | None = None
) -> dict[str, str]:
    """Revoked object id → why, for sources that were updated or withdrawn. ``lookup`` answers who
    depends on what (default: computed from the whole ``index``); the cost follows what is revoked."""
    lookup = lookup if lookup is not None else IndexLookup(index)
    revoked: dict[str, str] = {}
    frontier: list[str] = []
    for source_id in sorted(set(touched_sources)):
        for object_id in sorted(lookup.dependents(f"source:{source_id}")):
            if object_id not in revoked:
                revoked[object_id] = f"cites {source_id}"
                frontier.append(object_id)
    while frontier:
        current = frontier.pop()
        for dependent in sorted(lookup.dependents(current)):
            if dependent not in revoked:
                revoked[dependent] = f"depends on {current}"
                frontier.append(dependent)
    return revoked
