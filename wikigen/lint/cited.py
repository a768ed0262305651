"""Which sources an object cites, read from its structured data."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from wikigen.model.objects import object_citations


def cited_sources(obj: Mapping[str, Any]) -> list[str]:
    """The source ids of an object's citations (a relation's evidence), in its order, each once."""
    seen: dict[str, None] = {}
    for citation in object_citations(obj):
        if isinstance(citation, Mapping) and citation.get("source"):
            seen.setdefault(str(citation["source"]), None)
    return list(seen)


def first_source(obj: Mapping[str, Any], citation_ids: Iterable[object]) -> str | None:
    """The source of the first of ``citation_ids`` the object holds (a definition's, an issue's),
    else of the object's first citation, else its first listed source."""
    by_id = {
        str(c.get("citation_id")): str(c.get("source")) for c in object_citations(obj) if isinstance(c, Mapping)
    }
    for citation_id in citation_ids:
        if str(citation_id) in by_id:
            return by_id[str(citation_id)]
    sources = cited_sources(obj) or [str(s) for s in obj.get("sources") or []]
    return sources[0] if sources else None


def defining_source(concept: Mapping[str, Any]) -> str | None:
    """The source of a concept's definition, else of its first citation."""
    definition = concept.get("definition")
    return first_source(concept, definition.get("citations") or [] if isinstance(definition, Mapping) else [])
