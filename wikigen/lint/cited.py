"""Which sources an object cites, read from its structured data."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def cited_sources(obj: Mapping[str, Any]) -> list[str]:
    """The source ids of an object's citations, in its order, each once."""
    seen: dict[str, None] = {}
    for citation in obj.get("citations") or obj.get("evidence") or []:
        if isinstance(citation, Mapping) and citation.get("source"):
            seen.setdefault(str(citation["source"]), None)
    return list(seen)


def defining_source(concept: Mapping[str, Any]) -> str | None:
    """The source of a concept's definition (its first citation), else of its first citation."""
    definition = concept.get("definition") or {}
    wanted = list(definition.get("citations") or []) if isinstance(definition, Mapping) else []
    by_id = {
        str(c.get("citation_id")): str(c.get("source"))
        for c in concept.get("citations") or []
        if isinstance(c, Mapping)
    }
    for citation_id in wanted:
        if str(citation_id) in by_id:
            return by_id[str(citation_id)]
    sources = cited_sources(concept)
    return sources[0] if sources else None


def issue_source(obj: Mapping[str, Any], issue: Mapping[str, Any]) -> str | None:
    """The source an issue (a contradiction, an open question) cites first, else its object's first."""
    by_id = {
        str(c.get("citation_id")): str(c.get("source"))
        for c in obj.get("citations") or []
        if isinstance(c, Mapping)
    }
    for citation_id in issue.get("citations") or []:
        if str(citation_id) in by_id:
            return by_id[str(citation_id)]
    sources = cited_sources(obj) or [str(s) for s in obj.get("sources") or []]
    return sources[0] if sources else None
