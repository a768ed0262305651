"""The plan of a change read from its diff alone (R7): what `make_plan` decides for the whole
manifest, decided for the entries the change touches, so that one edit reads a few manifest shards
instead of all of them, however many sources there are.

Every rule stays in :func:`wikigen.compiler.plan.make_plan`: it runs on a *small* baseline — the manifest
entries at the diff's old paths — and the changed sources only. Its decisions are then the whole
plan's wherever nothing outside the change takes part in them: no changed source is a task (R35–R36
look across a task's sources), none is rejected, no id of a changed source is held by an unchanged
one (a duplicate the whole plan reports), the sources parse, and --include-deferred is not given.
Elsewhere :func:`plan_from_diff` answers None and the whole plan is made. Versions waiting elsewhere
(R4, R36) stay waiting, as the baseline's waiting.json lists them. What is composed: the manifest
(an :class:`~wikigen.model.shards.Overlay` of the baseline's), the waiting lists, the count of unchanged
sources and the fingerprint, whose pairs come from the manifest mirror
(:class:`~wikigen.store.manifest_cache.ManifestMirror`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from wikigen.compiler.plan import Plan, make_plan
from wikigen.model.config import Config
from wikigen.model.hashing import fingerprint
from wikigen.model.ids import name_keys
from wikigen.model.shards import Overlay
from wikigen.model.snapshot import ManifestEntry, Snapshot
from wikigen.model.sources import is_source_path
from wikigen.store.git import GitStore
from wikigen.store.manifest_cache import ManifestMirror
from wikigen.store.snapshot import read_waiting
from wikigen.store.sourceset import read_sources


def plan_from_diff(
    store: GitStore,
    baseline: Snapshot,
    tree: str,
    config: Config,
    links: Sequence[tuple[str, str]],
    parsed_cache: dict[Any, Any] | None = None,
) -> Plan | None:
    """The plan of ``tree`` against ``baseline`` from the diff of their sources trees, or None where
    only the whole plan can say (see the module's docstring)."""
    stored = baseline.stored
    if stored is None or not baseline.exists or baseline.legacy is not None or links:
        return None
    waiting = read_waiting(store, baseline)
    if waiting is None:
        return None
    mirror = ManifestMirror(store, stored.manifest_tree)
    try:
        if mirror.path is None:
            return None  # no cache on disk (a read-only clone): building one each time costs more
        touched: dict[str, ManifestEntry] = {}
        folder = config.sources_dir
        for change in store.diff(baseline.sources_tree, tree, folder):
            if change.old_path is not None and is_source_path(change.old_path, folder):
                ids = mirror.ids_at(change.old_path)
                if len(ids) > 1:
                    return None
                for sid in ids:
                    touched[sid] = baseline.manifest[sid]
        small = replace(baseline, manifest=MappingProxyType(touched))
        current = read_sources(store, small, tree, config, parsed_cache=parsed_cache, links=links)
        if current.problems or current.known or current.pending_read:
            return None
        sources = list(current.parsed.values())
        if any(s.task is not None or s.verification == "rejected" for s in sources):
            return None
        if any(s.id not in touched and s.id in baseline.manifest for s in sources):
            return None  # an unchanged source holds this id: the whole plan reports the duplicate
        if any(mirror.ids_named(name_keys(s.id)) - touched.keys() - {s.id} for s in sources):
            return None  # R40: one name with an unchanged source's id; the whole plan names both
        plan = make_plan(small, current, config)
        manifest = _overlay(baseline.manifest, touched, plan.manifest)
        changed = set(touched) | {s.id for s in sources}
        # the fingerprint of the valid sources' pairs: the mirror's text with the change spliced in,
        # else the pairs themselves
        versions: dict[str, str | None] = {**dict.fromkeys(changed), **{s.id: s.version for s in sources}}
        found = mirror.fingerprint(versions, versioned=True)
        if found is None:
            pairs = [(sid, v) for sid, v in mirror.latest() if v and sid not in changed]
            found = fingerprint([*pairs, *((s.id, s.version) for s in sources)])
        # The versions still waiting elsewhere stay waiting, as waiting.json lists them (no task
        # among the changed sources, so none of them is compiled or dropped by this change).
        still = {sid: w["reason"] for sid, w in waiting.items() if sid not in changed}
        deferred = [sid for sid, reason in still.items() if reason == "deferred"]
        held = [sid for sid, reason in still.items() if reason != "deferred"]
        return replace(
            plan,
            manifest=manifest,
            deferred=tuple(sorted([*plan.deferred, *deferred])),
            pending=tuple(sorted([*plan.pending, *held])),
            reasons=MappingProxyType({**still, **plan.reasons}),
            unchanged=plan.unchanged + mirror.count() - len(touched) - len(still),
            fingerprint=found,
        )
    finally:
        mirror.close()


def manifest_fingerprint(store: GitStore, baseline: Snapshot, manifest: Mapping[str, ManifestEntry]) -> str:
    """A snapshot's fingerprint: of the (id, latest version or "") pair of every entry of
    ``manifest``; for an overlay of the baseline's stored manifest, the mirror's kept text with the
    overlay's changes spliced in, or its rows with them (:func:`manifest_pairs`)."""
    stored = baseline.stored
    if isinstance(manifest, Overlay) and stored is not None and manifest.base is stored.manifest:
        mirror = ManifestMirror(store, stored.manifest_tree)
        try:
            changes: dict[str, str | None] = dict.fromkeys(manifest.removed)
            changes.update((sid, _latest(e)) for sid, e in manifest.changes.items())
            found = mirror.fingerprint(changes)
        finally:
            mirror.close()
        if found is not None:
            return found
    return fingerprint(manifest_pairs(store, baseline, manifest))


def manifest_pairs(
    store: GitStore, baseline: Snapshot, manifest: Mapping[str, ManifestEntry]
) -> list[tuple[str, str]]:
    """(id, latest version or "") of every entry of ``manifest``, what a snapshot's fingerprint hashes:
    for an overlay of the baseline's stored manifest, the mirror's rows with the overlay's changes."""
    stored = baseline.stored
    if isinstance(manifest, Overlay) and stored is not None and manifest.base is stored.manifest:
        mirror = ManifestMirror(store, stored.manifest_tree)
        try:
            touched = manifest.changes.keys() | manifest.removed
            pairs = [pair for pair in mirror.latest() if pair[0] not in touched]
        finally:
            mirror.close()
        pairs += [(sid, _latest(e)) for sid, e in manifest.changes.items()]
        return sorted(pairs)
    return [(sid, _latest(e)) for sid, e in manifest.items()]


def _latest(entry: ManifestEntry) -> str:
    return (entry.pending.version if entry.pending else entry.version) or ""


def _overlay(
    base: Mapping[str, ManifestEntry], touched: Mapping[str, ManifestEntry], decided: Mapping[str, ManifestEntry]
) -> Overlay[ManifestEntry]:
    manifest = Overlay(base)
    for sid in touched:
        if sid not in decided:
            del manifest[sid]
    for sid, entry in decided.items():
        if touched.get(sid) != entry:
            manifest[sid] = entry
    return manifest
