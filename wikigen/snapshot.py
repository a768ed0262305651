"""The committed snapshot manifest (``content/.wikigen/snapshot.json``): load, dump, schema.

Keys follow the seed's camelCase (``sourceManifest``, ``sourcesTree``, ``compilationTrace``).
Serialization is deterministic (sorted keys, one key per line, trailing newline) so diffs stay small.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from wikigen.errors import SnapshotError
from wikigen.gitstore import EMPTY_TREE

SNAPSHOT_PATH = "content/.wikigen/snapshot.json"
SCHEMA = 1
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

    @property
    def by_path(self) -> dict[str, ManifestEntry]:
        """Manifest entries by the path their latest known blob lives at."""
        result = {}
        for entry in self.manifest.values():
            result[entry.pending.path if entry.pending else entry.path] = entry
        return result

    def with_changes(self, **changes: Any) -> Snapshot:
        return replace(self, **changes)


def load_snapshot(data: bytes | None) -> Snapshot:
    """Parse a committed snapshot.json; None (no file yet) is the empty baseline, version 0."""
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
    if "sourceManifest" not in raw:
        # R9/R10: an older schema loads as it is; only a manifest is ever added to it.
        return Snapshot(
            version=int(raw.get("version", 0) or 0),
            rules=str(raw.get("rules", "legacy")),
            fingerprint=str(raw.get("fingerprint", "")),
            legacy=MappingProxyType(raw),
            exists=True,
            extra=MappingProxyType(raw),
        )
    schema = int(raw.get("schema", 1))
    if schema > SCHEMA:
        raise SnapshotError(
            f"{SNAPSHOT_PATH}: schema {schema} is newer than this wikigen understands ({SCHEMA}); upgrade wikigen"
        )
    manifest = {k: ManifestEntry.from_json(v) for k, v in raw["sourceManifest"].items()}
    return Snapshot(
        version=int(raw.get("version", 0)),
        rules=str(raw.get("rules", RULES)),
        sources_tree=str(raw.get("sourcesTree") or EMPTY_TREE),
        fingerprint=str(raw.get("fingerprint", "")),
        manifest=MappingProxyType(manifest),
        objects=MappingProxyType(dict(raw.get("objectIndex") or {})),
        trace=MappingProxyType(dict(raw.get("compilationTrace") or {})),
        schema=schema,
        exists=True,
        extra=MappingProxyType({k: v for k, v in raw.items() if k not in OWN_KEYS}),
    )


def dump_snapshot(snapshot: Snapshot) -> bytes:
    """Deterministic bytes: sorted keys, one key per line, trailing newline."""
    # R9/R10: keys an older schema wrote are kept as they are, never migrated.
    data: dict[str, Any] = dict(snapshot.extra)
    data |= {
        "schema": SCHEMA,
        "version": snapshot.version,
        "rules": snapshot.rules,
        "sourcesTree": snapshot.sources_tree,
        "fingerprint": snapshot.fingerprint,
        "sourceManifest": {k: snapshot.manifest[k].as_json() for k in sorted(snapshot.manifest)},
        "objectIndex": {k: snapshot.objects[k] for k in sorted(snapshot.objects)},
        "compilationTrace": dict(snapshot.trace),
    }
    text = json.dumps(data, sort_keys=True, indent=1, ensure_ascii=False, default=_plain)
    return (text + "\n").encode("utf-8")


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, (tuple, set, frozenset)):
        return list(value)
    raise TypeError(f"cannot serialize {type(value).__name__} in a snapshot")
