"""The committed snapshot, read from git for the views (the I/O edge of the site).

Everything comes from HEAD — the snapshot manifest, the object files, the relation shards — and each
source's body from the manifest's blob of the *cited* version, its body hash checked against the
manifest (E5). The work tree is never read, nothing is written, no model is called (V5).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from wikigen.model.agent_record import cites_private
from wikigen.model.config import DEFAULT_SOURCES_DIR, Config
from wikigen.model.objects import parse_object, relation_lines
from wikigen.model.snapshot import ManifestEntry
from wikigen.model.sources import Source, is_source_path, parse_source
from wikigen.store.communities import read_record
from wikigen.store.git import GitStore
from wikigen.store.privacy import private_now
from wikigen.store.sourceset import read_recorded
from wikigen.store.workspace import Workspace

_EMPTY: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class SourceView:
    """One source as the site shows it: the version its citations point at, and where it stands."""

    id: str
    path: str  # the path of the shown version, for resolving its relative links
    title: str
    category: str
    verification: str
    status: str  # "compiled" | "pending" | "uncompiled" | "rejected"
    version: str | None  # the version shown: the compiled (cited) one, else the newest known
    blob: str | None
    body: str | None  # None when the blob is missing or does not hold that version
    verified_body: bool = False  # sha256(body) equals the manifest's contentHash
    compiled_version: str | None = None  # what citations point at; None: never compiled
    pending_version: str | None = None
    reason: str = ""  # why pending, or why the body could not be shown
    changed: bool = False  # HEAD holds a version the snapshot has not seen yet
    private: bool = False
    metadata: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)


@dataclass(frozen=True, slots=True)
class Knowledge:
    """One snapshot, ready to be projected into pages. ``objects`` holds articles, concepts, topics
    (their full structured data) and relations (one per line of their shard), by id."""

    version: int = 0
    exists: bool = False
    head: str | None = None
    stale: bool = False  # the sources folder at HEAD differs from the tree the snapshot was compiled from
    trace: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)
    sources: Mapping[str, SourceView] = field(default_factory=lambda: _EMPTY)
    objects: Mapping[str, Mapping[str, Any]] = field(default_factory=lambda: _EMPTY)
    provenance: Mapping[str, Mapping[str, Any]] = field(default_factory=lambda: _EMPTY)
    problems: tuple[str, ...] = ()
    communities: Mapping[str, str] | None = None  # the compiler's record (V3); None: not recorded
    sources_dir: str = DEFAULT_SOURCES_DIR  # the sources folder (paths.sources)

    def of_kind(self, kind: str) -> dict[str, Mapping[str, Any]]:
        return {oid: obj for oid, obj in self.objects.items() if obj.get("kind") == kind}


def load_knowledge(root: Path | str) -> Knowledge:
    """Read the snapshot committed at HEAD of the repo at ``root``; raises WikigenError on a bad repo."""
    ws = Workspace.open(root, history=False)  # the site shows HEAD; a missing version is a problem shown
    store, config, snapshot = ws.store, ws.config, ws.baseline
    tree = store.commit_tree(ws.head)
    folder = config.sources_dir
    sources_tree = store.subtree(tree, folder)
    head_blobs = {path: blob for path, blob in store.blobs(sources_tree, folder) if is_source_path(path, folder)}
    problems: list[str] = []
    sources: dict[str, SourceView] = {}
    covered: set[str] = set()

    for source_id, entry in sorted(snapshot.manifest.items()):
        view = _manifest_source(store, config, entry, head_blobs, problems)
        sources[source_id] = view
        covered.update(p for p in (entry.path, entry.compiled_path) if p)
        if entry.pending is not None:
            covered.add(entry.pending.path)

    # Sources committed since the snapshot (or with no snapshot at all) still get their pages.
    for path in sorted(set(head_blobs) - covered):
        blob = head_blobs[path]
        parsed = parse_source(path, store.read_blob(blob), blob, config)
        if not isinstance(parsed, Source):
            problems.extend(str(p) for p in parsed)
            continue
        if parsed.id in sources or parsed.private:
            continue  # R39: a private source gets no page
        sources[parsed.id] = _view(
            parsed,
            status="rejected" if parsed.verification == "rejected" else "uncompiled",
            verified=False,
            changed=True,
        )

    objects: dict[str, Mapping[str, Any]] = {}
    index = dict(sorted(snapshot.objects.items()))
    lines = relation_lines(lambda path: store.read_file(tree, path), index.items())
    for object_id, indexed in index.items():
        kind = indexed.get("kind")
        if kind == "relation":
            if object_id not in lines:
                problems.append(f"{object_id}: missing from {indexed.get('file')}")
                continue
            objects[object_id] = MappingProxyType({**json.loads(lines[object_id]), "kind": "relation"})
            continue
        data = store.read_file(tree, str(indexed.get("file", "")))
        if data is None:
            problems.append(f"{object_id}: its file {indexed.get('file')} is missing at HEAD")
            continue
        try:
            objects[object_id] = MappingProxyType(parse_object(data))
        except (ValueError, UnicodeDecodeError) as exc:
            problems.append(f"{indexed.get('file')}: cannot be read ({exc})")

    # R39: a source private at HEAD, and every object that cites it, is left out even before the
    # compile that withdraws them.
    hidden = private_now(
        store,
        config,
        ((sid, entry.path, entry.private) for sid, entry in snapshot.manifest.items()),
        snapshot.sources_tree if snapshot.exists and snapshot.legacy is None else None,
    )
    if hidden:
        sources = {sid: view for sid, view in sources.items() if sid not in hidden}
        objects = {oid: obj for oid, obj in objects.items() if not cites_private(obj, hidden)}
        objects = {
            oid: obj
            for oid, obj in objects.items()
            if obj.get("kind") != "relation" or (obj.get("subject") in objects and obj.get("object") in objects)
        }

    return Knowledge(
        version=snapshot.version,
        exists=snapshot.exists,
        head=ws.head,
        stale=snapshot.exists and snapshot.legacy is None and snapshot.sources_tree != sources_tree,
        trace=snapshot.trace,
        sources=MappingProxyType(sources),
        objects=MappingProxyType(objects),
        provenance=MappingProxyType(
            {oid: MappingProxyType(dict(e.get("provenance") or {})) for oid, e in snapshot.objects.items()}
        ),
        problems=tuple(problems),
        communities=_recorded_communities(store, tree),
        sources_dir=folder,
    )


def _recorded_communities(store: GitStore, tree: str) -> Mapping[str, str] | None:
    """The compiler's record (its shards, or a whole communities.json an older compile left); None
    when there is neither."""
    record = read_record(store, tree)
    return record.assignment if record.exists else None


def _manifest_source(
    store: GitStore,
    config: Config,
    entry: ManifestEntry,
    head_blobs: Mapping[str, str],
    problems: list[str],
) -> SourceView:
    """The cited (compiled) version of a manifest source; a waiting one shows its pending version."""
    pending = entry.pending
    known_blobs = {entry.blob, pending.blob if pending else None}
    changed = head_blobs.get(entry.path) not in known_blobs and entry.path in head_blobs
    if entry.version is not None:
        path, blob, expected = entry.compiled_path or entry.path, entry.blob, entry.content_hash
        status = "pending" if pending is not None else "compiled"
    elif pending is not None:
        path, blob, expected, status = pending.path, pending.blob, pending.content_hash, "pending"
    else:
        path, blob, expected, status = entry.path, head_blobs.get(entry.path), None, "uncompiled"
    body: str | None = None
    reason = pending.reason if pending is not None else ""
    verified = False
    metadata: Mapping[str, Any] = _EMPTY
    # E5: a raw view shows the cited version or nothing.
    parsed, why = read_recorded(store, config, path, blob, expected)
    if parsed is None:
        reason = why
        problems.append(f"{entry.id}: {reason}")
    else:
        body = parsed.body
        verified = expected is not None
        metadata = parsed.metadata
    return SourceView(
        id=entry.id,
        path=path,
        title=entry.title or (pending.title if pending else "") or entry.id,
        category=entry.category,
        verification=entry.verification,
        status=status,
        version=entry.version or (pending.version if pending else None),
        blob=blob,
        body=body,
        verified_body=verified,
        compiled_version=entry.version,
        pending_version=pending.version if pending else None,
        reason=reason,
        changed=changed,
        private=entry.private,
        metadata=metadata,
    )


def _view(source: Source, *, status: str, verified: bool, changed: bool) -> SourceView:
    return SourceView(
        id=source.id,
        path=source.path,
        title=source.title,
        category=source.category,
        verification=source.verification,
        status=status,
        version=source.version,
        blob=source.blob,
        body=source.body,
        verified_body=verified,
        changed=changed,
        private=source.private,
        metadata=source.metadata,
    )
