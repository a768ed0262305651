"""The schema-1 storage layout, kept as test data only: one ``snapshot.json`` with the
whole manifest and object index, every relation in ``content/wiki/relations.jsonl`` and the whole
communities record in ``content/.wikigen/communities.json`` — the writers wikigen used before the
sharded layout, so that tests can build a repo as an older wikigen left
it and watch it move (R9, R10)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from wikigen.compiler.communities import ALGORITHM, SEED
from wikigen.compiler.community_record import WHOLE_RECORD_PATH
from wikigen.model.shards import plain
from wikigen.model.snapshot import SNAPSHOT_PATH, Snapshot

RELATIONS_PATH = "content/wiki/relations.jsonl"
FOLDERS = {"article": "articles", "concept": "concepts", "topic": "topics"}


def flat_path(object_id: str) -> str:
    """Where schema 1 kept an article, concept or topic: one flat folder per kind."""
    kind, slug = object_id.split("/", 1)
    return f"content/wiki/{FOLDERS[kind]}/{slug}.md"


def dump_single(snapshot: Snapshot) -> bytes:
    """The schema-1 writer, as it was: sorted keys, one key per line, trailing newline."""
    data: dict[str, Any] = dict(snapshot.extra)
    data |= {
        "schema": 1,
        "version": snapshot.version,
        "rules": snapshot.rules,
        "sourcesTree": snapshot.sources_tree,
        "fingerprint": snapshot.fingerprint,
        "sourceManifest": {k: snapshot.manifest[k].as_json() for k in sorted(snapshot.manifest)},
        "objectIndex": {k: snapshot.objects[k] for k in sorted(snapshot.objects)},
        "compilationTrace": dict(snapshot.trace),
    }
    text = json.dumps(data, sort_keys=True, indent=1, ensure_ascii=False, default=plain)
    return (text + "\n").encode("utf-8")


def dump_whole_communities(assignment: Mapping[str, str]) -> bytes:
    """The whole communities record as it was written before it was sharded: each community's name
    and its members, one member per line."""
    groups: dict[str, list[str]] = {}
    for node, name in assignment.items():
        groups.setdefault(name, []).append(node)
    doc = {
        "schema": 1,
        "algorithm": ALGORITHM,
        "seed": SEED,
        "communities": {name: sorted(found) for name, found in sorted(groups.items())},
    }
    return (json.dumps(doc, ensure_ascii=False, indent=1, sort_keys=True) + "\n").encode("utf-8")


__all__ = ["RELATIONS_PATH", "SNAPSHOT_PATH", "WHOLE_RECORD_PATH", "dump_single", "dump_whole_communities", "flat_path"]
