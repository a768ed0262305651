"""The JSON an agent reads for one compiled object (E6): the same shape from the MCP tool `get`
and from the ``<page>.json`` files of the published site."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from wikigen.model.objects import label_of, object_citations

READABLE = ("article", "concept", "topic")  # kinds with a page; relations are read through `neighbors`
# The tools of `wikigen mcp`, as llms.txt names them: every one reads, file_answer also writes a new source.
MCP_TOOLS = ("search", "get", "neighbors", "excerpt", "verify", "file_answer")


def object_record(obj: Mapping[str, Any]) -> dict[str, Any]:
    """Every structured field of an article, concept or topic, its title and its citations."""
    return {**dict(obj), "title": label_of(obj), "citations": object_citations(obj)}


def cites_private(obj: Mapping[str, Any], private: Collection[str]) -> bool:
    """True when one of the object's citations points into a private source (the `private` setting)."""
    return any(c.get("source") in private for c in object_citations(obj))
