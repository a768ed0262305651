"""The snapshot as a value: its manifest entries, its pending versions, where it is stored, and the
constants of its layout (schema, paths, shard levels, rules version). Pure: loading and storing it
is :mod:`wikigen.store.snapshot`'s."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from wikigen.model.config import DEFAULT_SOURCES_DIR
from wikigen.model.shards import Levels

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"  # git's empty tree, the baseline of a first compile

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


SOURCES_DIR_KEY = "sourcesDir"  # the root record's sources folder, when it is not content/sources


def recorded_sources_dir(snapshot: Snapshot) -> str:
    """The sources folder ``snapshot`` was compiled from (``paths.sources`` then; its paths and
    ``sourcesTree`` are of that folder)."""
    return str(snapshot.extra.get(SOURCES_DIR_KEY) or DEFAULT_SOURCES_DIR)


def with_settings(extra: Mapping[str, Any], config: Any) -> Mapping[str, Any]:
    """The root record's extra keys recording the settings a snapshot depends on: the `private`
    globs (R39) and the sources folder (no key for the default), so that a change of either reads
    every source again."""
    kept = {k: v for k, v in with_private_globs(extra, private_globs_of(config)).items() if k != SOURCES_DIR_KEY}
    folder = config.sources_dir
    return MappingProxyType({**kept, SOURCES_DIR_KEY: folder} if folder != DEFAULT_SOURCES_DIR else kept)
