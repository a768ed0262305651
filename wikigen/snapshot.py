"""The committed snapshot: its root record, its manifest and its object index — load, store, schema.

Schema 2 (issue 14, item 3) stores a snapshot so that a commit writes O(change) git objects:

- ``content/.wikigen/snapshot.json``, the small root record: schema, version, rules, sourcesTree,
  fingerprint, the last compile's compilationTrace, and ``layout`` — where the rest lives, how it is
  sharded, and the git tree id of each sharded folder as the compiler wrote it;
- ``content/.wikigen/manifest/ab/c.json``: the ``sourceManifest``, sharded by a hash of the source id
  (:mod:`wikigen.shards`);
- ``content/.wikigen/index/ab/cd.json``: the ``objectIndex``, sharded by a hash of the object id;
- (``layout.communities`` only names them) the communities record's shards, read from HEAD like the
  relations (:mod:`wikigen.communities`).

The manifest and the index are read from the tree ids the root records, never from whatever the
folders hold at HEAD: a merge that mixed two branches' shards (or a hand edit) cannot change what a
snapshot says, and `wikigen compile` restores the folders (:mod:`wikigen.drift`). They are loaded
lazily: a lookup reads one shard, an iteration all of them.

Schema 1 — the whole manifest and index in ``snapshot.json`` — and pre-manifest snapshots (R10) still
load as they are; the next compile moves a schema-1 snapshot to schema 2 in a bookkeeping commit
(R9: every object's bytes stay the same, only places change). Keys follow the seed's camelCase
(``sourceManifest``, ``sourcesTree``, ``compilationTrace``). Serialization is deterministic.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from wikigen import communities
from wikigen.errors import SnapshotError
from wikigen.gitstore import EMPTY_TREE, GitStore, TreeId
from wikigen.objects import RELATIONS_DIR, RELATIONS_LEVELS
from wikigen.shards import Levels, Overlay, ShardMap, changed_shards, plain

SNAPSHOT_PATH = "content/.wikigen/snapshot.json"
MANIFEST_DIR = "content/.wikigen/manifest"
INDEX_DIR = "content/.wikigen/index"
WAITING_PATH = "content/.wikigen/waiting.json"  # the sources with a pending version, for plan and status
SHARDED_DIRS = (MANIFEST_DIR, INDEX_DIR)
SCHEMA = 2
LAYOUT = "sharded/1"
# Fan-out: 4,096 manifest shards (~25 sources, a few KB each at 100,000 sources) and 65,536 index
# shards (an index entry is several times a manifest entry's size, and a source has several objects).
MANIFEST_LEVELS: Levels = (2, 1)
INDEX_LEVELS: Levels = (2, 2)
RULES = "wikigen-rules/1"
OWN_KEYS = frozenset(
    {
        "schema",
        "version",
        "rules",
        "sourcesTree",
        "fingerprint",
        "sourceManifest",
        "objectIndex",
        "compilationTrace",
        "layout",
        "summary",
    }
)


@dataclass(frozen=True, slots=True)
class Pending:
    """A newer version waiting: deferred by a switch (R4), or a task not at a checkpoint (R35)."""

    version: str
    content_hash: str
    blob: str
    path: str
    title: str
    reason: str  # "deferred" | "waiting" | "baseline" | "subtask" | "duplicate-checkpoint"
    checkpoint: bool = False  # a task version that is a checkpoint (compilable on request)

    def as_json(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "contentHash": self.content_hash,
            "blob": self.blob,
            "path": self.path,
            "title": self.title,
            "reason": self.reason,
            "checkpoint": self.checkpoint,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Pending:
        return cls(
            version=data["version"],
            content_hash=data["contentHash"],
            blob=data["blob"],
            path=data["path"],
            title=data.get("title", ""),
            reason=data.get("reason", "waiting"),
            checkpoint=bool(data.get("checkpoint", False)),
        )


@dataclass(frozen=True, slots=True)
class ManifestEntry:
    """What the snapshot knows of one source. ``version`` is the last compiled version (None: never)."""

    id: str
    path: str
    version: str | None
    content_hash: str | None
    blob: str | None
    category: str
    title: str
    verification: str
    private: bool = False
    task: Mapping[str, Any] | None = None  # checkpointKey, status, attempt, lineage, parent
    volatile: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    pending: Pending | None = None
    compiled_path: str | None = None  # the path the compiled version was read from

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "path": self.path,
            "version": self.version,
            "contentHash": self.content_hash,
            "blob": self.blob,
            "category": self.category,
            "title": self.title,
            "verification": self.verification,
        }
        if self.private:
            data["private"] = True
        if self.task is not None:
            data["task"] = dict(self.task)
        if self.volatile:
            data["volatile"] = dict(self.volatile)
        if self.pending is not None:
            data["pending"] = self.pending.as_json()
        if self.compiled_path is not None and self.compiled_path != self.path:
            data["compiledPath"] = self.compiled_path
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ManifestEntry:
        pending = data.get("pending")
        return cls(
            id=data["id"],
            path=data["path"],
            version=data.get("version"),
            content_hash=data.get("contentHash"),
            blob=data.get("blob"),
            category=data["category"],
            title=data.get("title", ""),
            verification=data.get("verification", "unverified"),
            private=bool(data.get("private", False)),
            task=MappingProxyType(dict(data["task"])) if data.get("task") is not None else None,
            volatile=MappingProxyType(dict(data.get("volatile") or {})),
            pending=Pending.from_json(pending) if pending else None,
            compiled_path=data.get("compiledPath"),
        )

    @property
    def compiled(self) -> bool:
        return self.version is not None


@dataclass(frozen=True, slots=True)
class Stored:
    """How a loaded snapshot is stored (schema 2): the sharded folders' tree ids as its root records
    them, and the manifest and index read from them — what a publish diffs against, so that only the
    shards whose records changed are written."""

    manifest_tree: str
    index_tree: str
    manifest: Mapping[str, ManifestEntry]
    objects: Mapping[str, Mapping[str, Any]]
    waiting_blob: str | None = None  # the blob of waiting.json the root records (None: no source waits)


@dataclass(frozen=True, slots=True)
class Snapshot:
    """One published knowledge version: the manifest plus the index of every B/C object."""

    version: int = 0
    rules: str = RULES
    sources_tree: str = EMPTY_TREE
    fingerprint: str = ""
    manifest: Mapping[str, ManifestEntry] = field(default_factory=lambda: MappingProxyType({}))
    objects: Mapping[str, Mapping[str, Any]] = field(default_factory=lambda: MappingProxyType({}))
    trace: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    schema: int = SCHEMA
    legacy: Mapping[str, Any] | None = None  # a pre-manifest snapshot.json, loaded as it is (R10)
    exists: bool = False  # a snapshot file was found at all
    extra: Mapping[str, Any] = field(
        default_factory=lambda: MappingProxyType({})
    )  # keys of older schemas, kept
    stored: Stored | None = field(default=None, compare=False)  # None: not in the sharded layout (yet)
    # The root record's counts (schema 2): what `plan` and `status` say of an unchanged tree without
    # reading a shard — sources, per category, objects, and the waiting sources (see ``summarize``).
    summary: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}), compare=False)

    @property
    def sharded(self) -> bool:
        """Stored in the sharded layout (schema 2); False for a schema-1 or legacy snapshot, or none."""
        return self.stored is not None

    @property
    def by_path(self) -> dict[str, ManifestEntry]:
        """Manifest entries by the path their latest known blob lives at."""
        result = {}
        for entry in self.manifest.values():
            result[entry.pending.path if entry.pending else entry.path] = entry
        return result

    def with_changes(self, **changes: Any) -> Snapshot:
        return replace(self, **changes)


PRIVATE_KEY = "privateGlobs"  # the root record's copy of the `private` setting it was compiled under


def private_globs(snapshot: Snapshot) -> tuple[str, ...]:
    """R39: the `private` globs in force when ``snapshot`` was compiled (none recorded: none)."""
    return tuple(str(g) for g in snapshot.extra.get(PRIVATE_KEY) or ())


def private_globs_of(config: Any) -> tuple[str, ...]:
    return tuple(sorted(set(config.private)))


def with_private_globs(extra: Mapping[str, Any], globs: tuple[str, ...]) -> Mapping[str, Any]:
    """The root record's extra keys recording ``globs`` (no key at all when there are none)."""
    kept = {k: v for k, v in extra.items() if k != PRIVATE_KEY}
    return MappingProxyType({**kept, PRIVATE_KEY: list(globs)} if globs else kept)


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
        # Issue 14: the stored list (waiting.json of the snapshot this one follows) with the overlay's changes.
        touched = manifest.changes.keys() | manifest.removed
        added = waiting_of(manifest.changes)
        if not added and recorded.keys().isdisjoint(touched):
            # nothing waiting came or went: the stored bytes as they are (encoding ~100,000 entries
            # with an indent is the pure-Python encoder: 0.2 s a compile)
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
            # Issue 14: the stored counts with the overlay's changes; its base read only where it changed.
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
