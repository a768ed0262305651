"""Plan + object index → the revoked set (R12). Pure.

An updated or withdrawn source revokes, whole, every object that cites it; then every object that
depends on a revoked object (concepts on articles, relations on their endpoints, topics on their
members). Revocation follows these edges only, and never strips a citation to keep old text.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


def reverse_dependencies(index: Mapping[str, Mapping[str, Any]]) -> dict[str, set[str]]:
    """object or source id → the objects that depend on it (computed from the index, no file read)."""
    reverse: dict[str, set[str]] = {}
    for object_id, entry in index.items():
        for source_id in entry.get("sources", {}):
            reverse.setdefault(f"source:{source_id}", set()).add(object_id)
        for dep in entry.get("deps", []):
            reverse.setdefault(dep, set()).add(object_id)
    return reverse


def revoke(index: Mapping[str, Mapping[str, Any]], touched_sources: Iterable[str]) -> dict[str, str]:
    """Revoked object id → why, for sources that were updated or withdrawn."""
    reverse = reverse_dependencies(index)
    revoked: dict[str, str] = {}
    frontier: list[str] = []
    for source_id in sorted(set(touched_sources)):
        for object_id in sorted(reverse.get(f"source:{source_id}", ())):
            if object_id not in revoked:
                revoked[object_id] = f"cites {source_id}"
                frontier.append(object_id)
    while frontier:
        current = frontier.pop()
        for dependent in sorted(reverse.get(current, ())):
            if dependent not in revoked:
                revoked[dependent] = f"depends on {current}"
                frontier.append(dependent)
    return revoked
