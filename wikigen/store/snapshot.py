"""The committed snapshot: its root record, its manifest and its object index — load, store, schema.

Schema 2 stores a snapshot so that a commit writes O(change) git objects:

- ``content/.wikigen/snapshot.json``, the small root record: schema, version, rules, sourcesTree,
  fingerprint, the last compile's compilationTrace, and ``layout`` — where the rest lives, how it is
  sharded, and the git tree id of each sharded folder as the compiler wrote it;
- ``content/.wikigen/manifest/ab/c.json``: the ``sourceManifest``, sharded by a hash of the source id
  (:mod:`wikigen.model.shards`);
- ``content/.wikigen/index/ab/cd.json``: the ``objectIndex``, sharded by a hash of the object id;
- (``layout.communities`` only names them) the communities record's shards, read from HEAD like the
  relations (:mod:`wikigen.compiler.communities`).

The manifest and the index are read from the tree ids the root records, never from whatever the
folders hold at HEAD: a merge that mixed two branches' shards (or a hand edit) cannot change what a
snapshot says, and `wikigen compile` restores the folders (:mod:`wikigen.store.drift`). They are loaded
lazily: a lookup reads one shard, an iteration all of them.

Schema 1 — the whole manifest and index in ``snapshot.json`` — and pre-manifest snapshots (R10) load
as they are; the next compile moves a schema-1 snapshot to schema 2 in a bookkeeping commit (R9: every
object's bytes stay the same, only places change). Keys follow the seed's camelCase
(``sourceManifest``, ``sourcesTree``, ``compilationTrace``). Serialization is deterministic.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from wikigen.compiler import communities
from wikigen.model.errors import SnapshotError
from wikigen.model.objects import RELATIONS_DIR, RELATIONS_LEVELS
from wikigen.model.shards import Levels, Overlay, ShardMap, changed_shards, plain
from wikigen.model.snapshot import (
    EMPTY_TREE,
    INDEX_DIR,
    INDEX_LEVELS,
    LAYOUT,
    MANIFEST_DIR,
    MANIFEST_LEVELS,
    OWN_KEYS,
    RULES,
    SCHEMA,
    SNAPSHOT_PATH,
    WAITING_PATH,
    ManifestEntry,
    Snapshot,
    Stored,
)
from wikigen.store.git import GitStore
from wikigen.store.object_writer import TreeId


def load_snapshot(data: bytes | None, store: GitStore | None = None) -> Snapshot:
    """Parse a committed snapshot.json; None (no file yet) is the empty baseline, version 0.

    A schema-2 root names the trees of its shards: ``store`` reads them (lazily); without a store
    only the root's own fields can be read, and the manifest and index are refused.
    """
    if data is None:
        return Snapshot()
    try:
        raw = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SnapshotError(
            f"{SNAPSHOT_PATH}: cannot be read ({exc}); only the compiler writes it — restore it with "
            f"`git checkout HEAD -- {SNAPSHOT_PATH}`"
        ) from None
    if not isinstance(raw, dict):
        raise SnapshotError(f"{SNAPSHOT_PATH}: expected a JSON object")
    schema = int(raw.get("schema", 1) or 1)
    if "sourceManifest" not in raw and "layout" not in raw:
        # R9/R10: an older schema loads as it is; only a manifest is ever added to it.
        return Snapshot(
            version=int(raw.get("version", 0) or 0),
            rules=str(raw.get("rules", "legacy")),
            fingerprint=str(raw.get("fingerprint", "")),
            legacy=MappingProxyType(raw),
            exists=True,
            extra=MappingProxyType(raw),
        )
    if schema > SCHEMA:
        raise SnapshotError(
            f"{SNAPSHOT_PATH}: schema {schema} is newer than this wikigen understands ({SCHEMA}); upgrade wikigen"
        )
    stored: Stored | None = None
    if "layout" in raw:
        stored = _stored(raw["layout"], store)
        manifest: Mapping[str, ManifestEntry] = stored.manifest
        objects: Mapping[str, Mapping[str, Any]] = stored.objects
    else:  # schema 1: everything in this one file
        manifest = MappingProxyType({k: ManifestEntry.from_json(v) for k, v in raw["sourceManifest"].items()})
        objects = MappingProxyType(dict(raw.get("objectIndex") or {}))
    return Snapshot(
        version=int(raw.get("version", 0)),
        rules=str(raw.get("rules", RULES)),
        sources_tree=str(raw.get("sourcesTree") or EMPTY_TREE),
        fingerprint=str(raw.get("fingerprint", "")),
        manifest=manifest,
        objects=objects,
        trace=MappingProxyType(dict(raw.get("compilationTrace") or {})),
        schema=schema,
        exists=True,
        extra=MappingProxyType({k: v for k, v in raw.items() if k not in OWN_KEYS}),
        stored=stored,
        summary=MappingProxyType(dict(raw.get("summary") or {})),
    )


def read_snapshot(store: GitStore, tree: str) -> Snapshot:
    """The snapshot committed in ``tree`` (a commit's root tree), any schema."""
    return load_snapshot(store.read_file(tree, SNAPSHOT_PATH), store)


def _stored(layout: Any, store: GitStore | None) -> Stored:
    if not isinstance(layout, dict) or layout.get("name") != LAYOUT:
        raise SnapshotError(f"{SNAPSHOT_PATH}: unknown storage layout {layout!r}; upgrade wikigen")
    if store is None:
        raise SnapshotError(f"{SNAPSHOT_PATH}: its manifest is sharded, so it can only be read from the repository")
    manifest_tree = str(layout["manifest"]["tree"])
    index_tree = str(layout["objectIndex"]["tree"])
    manifest: ShardMap[ManifestEntry] = _shard_map(
        store, manifest_tree, tuple(layout["manifest"]["levels"]), ManifestEntry.from_json
    )
    objects: ShardMap[Mapping[str, Any]] = _shard_map(
        store, index_tree, tuple(layout["objectIndex"]["levels"]), _record
    )
    waiting = layout.get("waiting") or {}
    return Stored(manifest_tree, index_tree, manifest, objects, waiting.get("blob"))


def _record(value: Any) -> Mapping[str, Any]:
    return value  # type: ignore[no-any-return]


def _shard_map(store: GitStore, tree: str, levels: Levels, decode: Any) -> ShardMap[Any]:
    if tree != EMPTY_TREE and not store.has_object(tree):
        raise SnapshotError(
            f"{SNAPSHOT_PATH}: the tree {tree} it records is not in the repository (a shallow or partial "
            "clone?); fetch the whole history (`git fetch --unshallow`) and run again"
        )

    def read(path: str) -> bytes | None:
        return store.read_generated(tree, path) if tree != EMPTY_TREE else None

    def read_all() -> list[tuple[str, bytes]]:
        return list(store.generated_files(tree)) if tree != EMPTY_TREE else []

    return ShardMap(read, read_all, levels, decode)


def snapshot_files(store: GitStore, snapshot: Snapshot, *, whole: bool = False) -> dict[str, bytes | TreeId | None]:
    """What a commit of ``snapshot`` writes in content/.wikigen/ (schema 2): the root record and the
    sharded folders, as tree ids built from the stored ones with only the changed shards rewritten.

    ``whole`` gives every shard as a file instead (and a folder's tree id is still recorded), for
    writing a snapshot into a repo by other means than publish (tests, benchmarks).
    """
    stored = snapshot.stored
    files: dict[str, bytes | TreeId | None] = {}
    trees: dict[str, str] = {}
    for folder, levels, new, old, base in (
        (MANIFEST_DIR, MANIFEST_LEVELS, snapshot.manifest, stored.manifest if stored else None,
         stored.manifest_tree if stored else EMPTY_TREE),
        (INDEX_DIR, INDEX_LEVELS, snapshot.objects, stored.objects if stored else None,
         stored.index_tree if stored else EMPTY_TREE),
    ):
        encode: Callable[[Any], Any] = _entry_json if folder == MANIFEST_DIR else dict
        if whole:
            shards = changed_shards(new, None, levels, encode)
            tree = store.build_tree(EMPTY_TREE, shards) if shards else EMPTY_TREE
            files.update({f"{folder}/{path}": data for path, data in shards.items()})
        else:
            shards = changed_shards(new, old, levels, encode)
            tree = store.build_tree(base, shards) if shards else base
            files[folder] = TreeId(tree) if tree != EMPTY_TREE else None
        trees[folder] = tree
    waiting_blob = stored.waiting_blob if stored else None
    if stored is None or snapshot.manifest is not stored.manifest or whole:
        data = _waiting_bytes(snapshot, store)
        blob = store.blob_id(data) if data is not None else None
        if blob != waiting_blob or whole:
            files[WAITING_PATH] = data
        waiting_blob = blob
    files[SNAPSHOT_PATH] = dump_root(snapshot, trees[MANIFEST_DIR], trees[INDEX_DIR], waiting_blob)
    return files


def waiting_of(manifest: Mapping[str, ManifestEntry]) -> dict[str, dict[str, str]]:
    """Every source with a pending version: its reason, version and path (what `status` lists)."""
    return {
        sid: {"reason": e.pending.reason, "version": e.pending.version, "path": e.pending.path}
        for sid, e in sorted(manifest.items())
        if e.pending is not None
    }


def _waiting_bytes(snapshot: Snapshot, store: GitStore) -> bytes | None:
    manifest = snapshot.manifest
    stored = snapshot.stored
    raw = store.read_generated_blob(stored.waiting_blob) if stored is not None and stored.waiting_blob else None
    recorded = _recorded_waiting(snapshot, raw)
    if isinstance(manifest, Overlay) and stored is not None and manifest.base is stored.manifest and recorded is not None:
        # The stored list (waiting.json of the snapshot this one follows) with the overlay's changes.
        touched = manifest.changes.keys() | manifest.removed
        added = waiting_of(manifest.changes)
        if not added and recorded.keys().isdisjoint(touched):
            # nothing waiting came or went: the stored bytes as they are (encoding every entry with
            # an indent takes the pure-Python encoder, at a cost that grows with the knowledge base)
            return raw
        waiting = {sid: w for sid, w in recorded.items() if sid not in touched}
        waiting |= added
        waiting = dict(sorted(waiting.items()))
    else:
        waiting = waiting_of(manifest)
    return (json.dumps(waiting, sort_keys=True, indent=1, ensure_ascii=False) + "\n").encode() if waiting else None


def read_waiting(store: GitStore, snapshot: Snapshot) -> dict[str, dict[str, str]] | None:
    """The waiting sources of a schema-2 snapshot from its waiting.json alone (no shard read); None for
    a snapshot that does not record it (schema 1, legacy)."""
    stored = snapshot.stored
    raw = store.read_generated_blob(stored.waiting_blob) if stored is not None and stored.waiting_blob else None
    return _recorded_waiting(snapshot, raw)


def _recorded_waiting(snapshot: Snapshot, raw: bytes | None) -> dict[str, dict[str, str]] | None:
    if snapshot.stored is None or "waiting" not in snapshot.summary:
        return None
    if raw is None:
        return {}
    loaded = json.loads(raw)
    return loaded if isinstance(loaded, dict) else {}


def _entry_json(entry: ManifestEntry) -> dict[str, Any]:
    return entry.as_json()


def dump_root(snapshot: Snapshot, manifest_tree: str, index_tree: str, waiting_blob: str | None) -> bytes:
    """The root record: small, whatever the number of sources (sorted keys, one key per line)."""
    # R9/R10: keys an older schema wrote are kept as they are, never migrated.
    data: dict[str, Any] = dict(snapshot.extra)
    data |= {
        "schema": SCHEMA,
        "version": snapshot.version,
        "rules": snapshot.rules,
        "sourcesTree": snapshot.sources_tree,
        "fingerprint": snapshot.fingerprint,
        "compilationTrace": dict(snapshot.trace),
        "summary": summarize(snapshot),
        "layout": {
            "name": LAYOUT,
            "shardKey": "sha1 of the id, hex digits cut into folder levels",
            "manifest": {"folder": MANIFEST_DIR, "levels": list(MANIFEST_LEVELS), "tree": manifest_tree},
            "objectIndex": {"folder": INDEX_DIR, "levels": list(INDEX_LEVELS), "tree": index_tree},
            "relations": {"folder": RELATIONS_DIR, "levels": list(RELATIONS_LEVELS)},
            "communities": communities.layout(),  # the record's header; its shards are read from HEAD
            "waiting": {"path": WAITING_PATH, "blob": waiting_blob},
        },
    }
    text = json.dumps(data, sort_keys=True, indent=1, ensure_ascii=False, default=plain)
    return (text + "\n").encode("utf-8")


def summarize(snapshot: Snapshot) -> dict[str, Any]:
    """The root record's counts: sources, sources per category, sources waiting (listed in
    waiting.json) and objects. Parts the snapshot shares with the stored one (an unchanged manifest
    or index) are taken from the stored summary, not counted again."""
    stored, old = snapshot.stored, snapshot.summary
    manifest = snapshot.manifest
    if stored is not None and manifest is stored.manifest and "sources" in old:
        sources = {k: old[k] for k in ("sources", "perCategory", "waiting")}
    else:
        per_category: dict[str, int] = {}
        waiting = 0
        if stored is not None and isinstance(manifest, Overlay) and manifest.base is stored.manifest and "sources" in old:
            # The stored counts with the overlay's changes; its base read only where it changed.
            per_category, waiting = dict(old["perCategory"]), int(old["waiting"])
            counted = [
                (entry, sign)
                for sid in manifest.changes.keys() | manifest.removed
                for entry, sign in ((manifest.base.get(sid), -1), (manifest.changes.get(sid), 1))
                if entry is not None
            ]
        else:
            counted = [(entry, 1) for entry in manifest.values()]
        for entry, sign in counted:
            per_category[entry.category] = per_category.get(entry.category, 0) + sign
            waiting += sign * (entry.pending is not None)
        sources = {
            "sources": sum(per_category.values()),
            "perCategory": {k: v for k, v in sorted(per_category.items()) if v},
            "waiting": waiting,
        }
    if stored is not None and snapshot.objects is stored.objects and "objects" in old:
        objects = int(old["objects"])
    elif (
        stored is not None and isinstance(snapshot.objects, Overlay) and snapshot.objects.base is stored.objects
        and "objects" in old
    ):  # an increment's index over the stored one: counted from what it changed
        objects = int(old["objects"]) + snapshot.objects.added() - len(snapshot.objects.removed)
    else:
        objects = len(snapshot.objects)
    return {**sources, "objects": objects}
