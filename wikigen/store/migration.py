"""The move of a schema-1 snapshot (one ``snapshot.json`` holding the manifest and the object index,
flat object folders, every relation in ``content/wiki/relations.jsonl``) to the sharded layout
(:mod:`wikigen.model.shards`).

R9: a storage-layout move is a bookkeeping commit with no engine call in which every object's content
stays byte-identical; only its place changes. So the manifest, the versions and the trace stay as they
are, each article, concept and topic file moves as the same blob into its prefix folder, each relation
line moves unchanged into its shard, the communities record (``communities.json``) moves into its
shards with every concept's community unchanged, and the index records every object's new file. Files
the index does not own (R38) stay where they are.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from wikigen.compiler.community_record import WHOLE_RECORD_PATH, moved_record
from wikigen.model.objects import LEGACY_RELATIONS_PATH, dump_relations, object_path, parse_relations
from wikigen.model.snapshot import LAYOUT, Snapshot, recorded_sources_dir
from wikigen.store.git import GitStore
from wikigen.store.publish import Published, StartedFrom, commit_message, publish


def needs_move(snapshot: Snapshot) -> bool:
    """A schema-1 snapshot with a manifest (a legacy one gains its manifest, and the layout, in R10's
    backfill; no snapshot at all is written in the new layout from the start)."""
    return snapshot.exists and snapshot.legacy is None and not snapshot.sharded


def moved(
    snapshot: Snapshot, relations: bytes | None
) -> tuple[Snapshot, dict[str, bytes | None], dict[str, str]]:
    """The same snapshot in the sharded layout, the relation files to write, and the object files to
    move (new path → old path). Pure."""
    lines = parse_relations(relations)
    shards: dict[str, dict[str, str]] = {}
    moves: dict[str, str] = {}
    index: dict[str, dict[str, Any]] = {}
    for oid, entry in snapshot.objects.items():
        index[oid] = dict(entry)
        path = object_path(oid)
        index[oid]["file"] = path
        if entry.get("kind") == "relation":
            if oid in lines:
                shards.setdefault(path, {})[oid] = lines.pop(oid)
        elif entry.get("file") and entry["file"] != path:
            moves[path] = str(entry["file"])
    files: dict[str, bytes | None] = {path: dump_relations(found) for path, found in sorted(shards.items())}
    if relations is not None:
        # Lines no index entry owns (R38 does not reach inside the compiler's own file) go with it.
        files[LEGACY_RELATIONS_PATH] = None
    return replace(snapshot, objects=index, stored=None), files, moves


def move_to_shards(
    store: GitStore, head: str | None, baseline: Snapshot, refuse_dirty: Callable[[], None]
) -> Published | None:
    """One compiler commit, no engine call, snapshot version kept: the baseline in the sharded layout
    (a dirty work tree refused first). None when the baseline needs no move."""
    if not needs_move(baseline):
        return None
    refuse_dirty()
    tree = store.commit_tree(head)
    snapshot, relation_files, moves = moved(baseline, store.read_file(tree, LEGACY_RELATIONS_PATH))
    files: dict[str, bytes | str | None] = dict(relation_files)
    files.update(moved_record(store.read_file(tree, WHOLE_RECORD_PATH)))
    for new, old in sorted(moves.items()):
        blob = store.blob_in(tree, old)
        if blob is not None:
            files[old] = None
            files[new] = blob  # the very same blob: its bytes cannot change (R9)
    folder = recorded_sources_dir(baseline)
    started = StartedFrom(head, baseline.version, store.subtree(tree, folder), folder)
    message = commit_message(
        f"wikigen: move the snapshot to the sharded storage layout (snapshot {baseline.version} kept, "
        "no engine call)",
        {"Wikigen-Snapshot": baseline.version, "Wikigen-Layout": LAYOUT, "Wikigen-Engine-Calls": 0},
    )
    return publish(store, started, files, snapshot, message)
