"""An object's entry in the snapshot's object index: its kind, file, label, the sources and versions it
cites, what it depends on, its citations in compact form, the hash of its bytes and its provenance, and
the fields its kind adds. Pure.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from wikigen.model.hashing import sha256_hex
from wikigen.model.objects import label_of, object_citations, object_path


def compact_citation(c: Mapping[str, Any]) -> list[Any]:
    """The index keeps every citation as (id, source, version, start, end, lines, quote hash)."""
    return [
        c["citation_id"],
        c["source"],
        c["version"],
        c["source_span"]["start"],
        c["source_span"]["end"],
        c["lines"]["start"],
        c["lines"]["end"],
        sha256_hex(c["quote"])[:16],
    ]


def index_entry(
    obj: Mapping[str, Any], data: bytes, deps: list[str], provenance: Mapping[str, Any]
) -> dict[str, Any]:
    citations = object_citations(obj)
    entry: dict[str, Any] = {
        "kind": obj["kind"],
        "file": object_path(obj["id"]),
        "label": label_of(obj),
        "sources": dict(sorted({c["source"]: c["version"] for c in citations}.items())),
        "deps": sorted(set(deps)),
        "citations": [
            compact_citation(c)
            for c in sorted(citations, key=lambda c: (c["source"], c["source_span"]["start"]))
        ],
        "sha": sha256_hex(data),
        "provenance": dict(provenance),
    }
    if obj["kind"] == "concept":
        entry["names"] = [obj["name"], *obj.get("aliases", [])]
        entry["aliases"] = list(obj.get("aliases", []))
        entry["type"] = obj["type"]
        entry["definition"] = obj["definition"]["text"][:280]
        entry["definitionCitations"] = list(obj["definition"].get("citations", []))
    elif obj["kind"] == "article":
        entry["names"] = [obj["title"]]
        entry["sourceIds"] = list(obj["sources"])
    elif obj["kind"] == "relation":
        entry.update({k: obj[k] for k in ("subject", "predicate", "object", "basis")})
    return entry
