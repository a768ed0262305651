"""The move of a schema-1 snapshot (one ``snapshot.json`` holding the manifest and the object index,
every relation in ``content/wiki/relations.jsonl``) to the sharded layout of issue 14.

R9: a storage-layout move is a bookkeeping commit with no engine call in which every object's content
stays byte-identical; only its place changes. So the manifest, the versions and the trace stay as they
are, each relation line moves unchanged into its shard, and the index records the relations' new file.
Article, concept and topic files do not move.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from wikigen.gitstore import GitStore
from wikigen.objects import LEGACY_RELATIONS_PATH, dump_relations, object_path, parse_relations
from wikigen.publish import Published, StartedFrom, commit_message, publish
from wikigen.snapshot import LAYOUT, Snapshot
from wikigen.sources import SOURCES_DIR


def needs_move(snapshot: Snapshot) -> bool:
    """A schema-1 snapshot with a manifest (a legacy one gains its manifest, and the layout, in R10's
    backfill; no snapshot at all is written in the new layout from the start)."""
    return snapshot.exists and snapshot.legacy is None and not snapshot.sharded


def moved(snapshot: Snapshot, relations: bytes | None) -> tuple[Snapshot, dict[str, bytes | None]]:
    """The same snapshot in the sharded layout, and the relation files to write. Pure."""
    lines = parse_relations(relations)
    shards: dict[str, dict[str, str]] = {}
    index: dict[str, dict[str, Any]] = {}
    for oid, entry in snapshot.objects.items():
        index[oid] = dict(entry)
        if entry.get("kind") == "relation":
            path = object_path(oid)
            index[oid]["file"] = path
            if oid in lines:
                shards.setdefault(path, {})[oid] = lines.pop(oid)
    files: dict[str, bytes | None] = {path: dump_relations(found) for path, found in sorted(shards.items())}
    if relations is not None:
        # Lines no index entry owns (R38 does not reach inside the compiler's own file) go with it.
        files[LEGACY_RELATIONS_PATH] = None
    return replace(snapshot, objects=index, stored=None), files


def move_to_shards(store: GitStore, head: str | None, baseline: Snapshot) -> Published | None:
    """One compiler commit, no engine call, snapshot version kept: the baseline in the sharded layout.
    None when the baseline needs no move."""
    if not needs_move(baseline):
        return None
    tree = store.commit_tree(head)
    snapshot, files = moved(baseline, store.read_file(tree, LEGACY_RELATIONS_PATH))
    started = StartedFrom(head, baseline.version, store.subtree(tree, SOURCES_DIR))
    message = commit_message(
        f"wikigen: move the snapshot to the sharded storage layout (snapshot {baseline.version} kept, "
        "no engine call)",
        {"Wikigen-Snapshot": baseline.version, "Wikigen-Layout": LAYOUT, "Wikigen-Engine-Calls": 0},
    )
    return publish(store, started, files, snapshot, message)
