"""(baseline, current sources) → Plan. Pure: no git, no files, no model.

Rules R3–R11, R35–R36: what is added, updated, withdrawn, deferred or waiting, and what the next
manifest records, each with its reason.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

from wikigen.model.config import Config
from wikigen.model.errors import Problem
from wikigen.model.hashing import fingerprint
from wikigen.model.snapshot import (
    ManifestEntry,
    Pending,
    Snapshot,
    private_globs,
    private_globs_of,
    recorded_sources_dir,
)
from wikigen.model.sources import Source, SourceSet, matches_private


@dataclass(frozen=True, slots=True)
class Plan:
    baseline_version: int
    baseline_tree: str
    sources_tree: str
    added: tuple[str, ...]
    updated: tuple[str, ...]
    withdrawn: tuple[str, ...]
    deferred: tuple[str, ...]  # held back by an auto_archive switch (R4)
    pending: tuple[str, ...]  # task versions waiting for a checkpoint (R35–R36)
    unchanged: int
    invalid: tuple[Problem, ...]
    bookkeeping: tuple[tuple[str, str], ...]  # (source id, what the manifest records anew)
    reasons: Mapping[str, str]
    sources: Mapping[str, Source]  # the versions to compile now, by id
    manifest: Mapping[str, ManifestEntry]  # the manifest once this plan is published
    fingerprint: str
    blobs_read: int
    backfill: bool = False  # R10: a legacy snapshot gains a manifest, no model call
    # R39: the `private` setting, or the sources folder, differs from the one the snapshot records
    settings_changed: bool = False
    # The waiting sources as the root record's waiting.json lists them (reason, version, path), when
    # the plan was made from the root record alone
    # (:func:`wikigen.compiler.plan_edges.unchanged_plan`); else None
    waiting: Mapping[str, Mapping[str, str]] | None = None

    @property
    def changed(self) -> tuple[str, ...]:
        return tuple(sorted(self.added + self.updated))

    @property
    def needs_compile(self) -> bool:
        return bool(self.added or self.updated or self.withdrawn)

    @property
    def needs_bookkeeping(self) -> bool:
        return not self.needs_compile and bool(self.bookkeeping)


def _task_json(source: Source) -> dict[str, Any] | None:
    if source.task is None:
        return None
    task = source.task
    return {
        "checkpointKey": task.checkpoint_key,
        "status": task.status,
        "attempt": task.attempt,
        "task": task.task,
        "step": task.step,
        "run": task.run,
        "parent": task.parent,
    }


def _task_view(source: Source) -> Mapping[str, Any] | None:
    data = _task_json(source)
    return MappingProxyType(data) if data is not None else None


def compiled_entry(source: Source) -> ManifestEntry:
    """The manifest entry of a source whose current version is compiled."""
    return ManifestEntry(
        id=source.id,
        path=source.path,
        version=source.version,
        content_hash=source.content_hash,
        blob=source.blob,
        category=source.category,
        title=source.title,
        verification=source.verification,
        private=source.private,
        task=_task_view(source),
        volatile=MappingProxyType(source.volatile),
    )


def _waiting_entry(old: ManifestEntry | None, source: Source, reason: str, checkpoint: bool) -> ManifestEntry:
    """The old compiled version stays; the new one is recorded as ``pending``."""
    pending = Pending(
        version=source.version,
        content_hash=source.content_hash,
        blob=source.blob,
        path=source.path,
        title=source.title,
        reason=reason,
        checkpoint=checkpoint,
    )
    if old is None or old.version is None:
        return ManifestEntry(
            id=source.id,
            path=source.path,
            version=None,
            content_hash=None,
            blob=None,
            category=source.category,
            title=source.title,
            verification=source.verification,
            private=source.private,
            task=_task_view(source),
            volatile=MappingProxyType(source.volatile),
            pending=pending,
        )
    return replace(
        old,
        verification=source.verification,
        private=source.private,
        volatile=MappingProxyType(source.volatile),
        pending=pending,
        compiled_path=old.compiled_path or old.path,
        path=source.path,
    )


def _legacy_versions(legacy: Mapping[str, Any]) -> dict[str, str]:
    """R10: the (source, version) pairs that a legacy snapshot's citations name."""
    found: dict[str, str] = {}
    objects = legacy.get("objects") or {}
    items: Iterable[Any] = objects.values() if isinstance(objects, dict) else objects
    stack = list(items)
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if isinstance(item.get("source"), str) and isinstance(item.get("version"), str):
                found.setdefault(item["source"], item["version"])
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def make_plan(
    baseline: Snapshot,
    current: SourceSet,
    config: Config,
    *,
    include_deferred: bool = False,
) -> Plan:
    """Compare the current sources with the baseline manifest."""
    old = dict(baseline.manifest)
    reasons: dict[str, str] = {}
    added: list[str] = []
    updated: list[str] = []
    deferred: list[str] = []
    pending: list[str] = []
    bookkeeping: list[tuple[str, str]] = []
    to_compile: dict[str, Source] = {}
    manifest: dict[str, ManifestEntry] = {}
    valid_pairs: list[tuple[str, str]] = []
    first_run = not baseline.exists
    legacy_cited = _legacy_versions(baseline.legacy) if baseline.legacy is not None else None

    parsed = sorted(current.parsed.values(), key=lambda s: s.id)
    # R35: the latest attempt of each (task, step, run) among the current sources.
    latest: dict[tuple[str | None, str | None, str | None], int] = {}
    for source in parsed:
        if source.task is not None:
            latest[source.task.lineage] = max(latest.get(source.task.lineage, 0), source.task.attempt)
    for seen in current.known.values():
        if seen.task is not None:
            lineage = (seen.task.get("task"), seen.task.get("step"), seen.task.get("run"))
            latest[lineage] = max(latest.get(lineage, 0), int(seen.task.get("attempt") or 1))

    def compile_now(source: Source, entry: ManifestEntry | None, why: str) -> None:
        to_compile[source.id] = source
        manifest[source.id] = compiled_entry(source)
        if entry is None or entry.version is None:
            added.append(source.id)
        else:
            updated.append(source.id)
        reasons[source.id] = why

    def hold(source: Source, entry: ManifestEntry | None, reason: str, checkpoint: bool, why: str) -> None:
        manifest[source.id] = _waiting_entry(entry, source, reason, checkpoint)
        (deferred if reason == "deferred" else pending).append(source.id)
        reasons[source.id] = why

    compiling_tasks: set[str] = set()
    subtasks: list[tuple[Source, ManifestEntry | None]] = []
    withdrawn_rejected: list[str] = []

    withdrawn_private: list[str] = []
    for source in parsed:
        entry = old.get(source.id)
        if source.private:
            # R39: a private source is never compiled; one that was compiled is withdrawn (R29).
            withdrawn_private.append(source.id)
            continue
        if source.verification == "rejected":
            # R6: a rejected source is not a valid A; it counts as withdrawn.
            withdrawn_rejected.append(source.id)
            continue
        valid_pairs.append((source.id, source.version))
        compiled_version = entry.version if entry is not None else None
        if legacy_cited is not None and baseline.legacy is not None:
            compiled_version = legacy_cited.get(source.id)
        if compiled_version == source.version:
            if legacy_cited is not None:
                manifest[source.id] = compiled_entry(source)
                bookkeeping.append((source.id, "legacy backfill: version proven by the legacy snapshot"))
                continue
            assert entry is not None
            fresh = replace(compiled_entry(source), compiled_path=entry.compiled_path)
            if entry.pending is not None:
                # Back to the compiled version: what waited is no longer wanted.
                bookkeeping.append((source.id, "pending version dropped: back to the compiled version"))
            elif fresh != entry:
                changes = [
                    f
                    for f in ("path", "verification", "volatile", "task", "blob", "private")
                    if getattr(fresh, f) != getattr(entry, f)
                ]
                bookkeeping.append((source.id, "recorded: " + ", ".join(changes)))
            manifest[source.id] = fresh
            continue
        if entry is not None and entry.pending is not None and entry.pending.version == source.version:
            # The same waiting version seen again (e.g. a volatile field changed): still waiting.
            waiting = _waiting_entry(entry, source, entry.pending.reason, entry.pending.checkpoint)
            if not (include_deferred and entry.pending.reason in ("deferred", "baseline")):
                manifest[source.id] = waiting
                (deferred if entry.pending.reason == "deferred" else pending).append(source.id)
                reasons[source.id] = f"still {entry.pending.reason}"
                if waiting != entry:
                    bookkeeping.append((source.id, "recorded: waiting version's metadata"))
                continue

        # A new version. R4: a switched-off category defers it; knowledge is always explicit.
        if not config.archives(source.category) and not include_deferred:
            hold(source, entry, "deferred", False, f"auto_archive is off for {source.category}")
            continue
        task = source.task
        if task is not None:
            if first_run and not include_deferred:
                # R36: the first run records task sources as the baseline without compiling them.
                hold(
                    source,
                    entry,
                    "baseline",
                    task.at_checkpoint_status,
                    "first run: recorded as the task baseline",
                )
                continue
            if task.parent is not None:
                subtasks.append((source, entry))
                continue
            if not task.at_checkpoint_status:
                hold(source, entry, "waiting", False, f"task status {task.status!r} is not a checkpoint")
                continue
            if task.attempt < latest.get(task.lineage, task.attempt):
                hold(source, entry, "waiting", False, f"attempt {task.attempt} is not the latest attempt")
                continue
            if (
                entry is not None
                and entry.task is not None
                and entry.task.get("checkpointKey") == task.checkpoint_key
                and entry.version is not None
            ):
                # R35: checkpoints are deduplicated by their key, never by updated_at or a counter.
                hold(source, entry, "duplicate-checkpoint", True, "same checkpoint as the compiled version")
                continue
            if task.task is not None:
                compiling_tasks.add(task.task)
        compile_now(source, entry, "new source" if entry is None or entry.version is None else "new version")

    # R36: delegated subtasks are batched with their parent task's checkpoint.
    for source, held in subtasks:
        if source.task is not None and source.task.parent in compiling_tasks:
            compile_now(source, held, f"subtask batched with its parent {source.task.parent}'s checkpoint")
        else:
            hold(source, held, "subtask", False, "subtask: waits for its parent task's checkpoint")

    # Unchanged blobs: the manifest already knows them (R7: never read).
    unchanged = 0
    for known in sorted(current.known.values(), key=lambda e: e.id):
        if known.private or matches_private(known.path, known.id, config.private):
            withdrawn_private.append(known.id)  # R39: private now, by its recorded flag or a glob
            continue
        ready = current.pending_read.get(known.id)
        if known.pending is not None and ready is not None and ready.verification != "rejected":
            reason = known.pending.reason
            parent = ready.task.parent if ready.task else None
            if (include_deferred and reason in ("deferred", "baseline")) or (
                reason == "subtask" and parent in compiling_tasks
            ):
                valid_pairs.append((ready.id, ready.version))
                compile_now(ready, known, f"{reason} version compiled on request")
                continue
        manifest[known.id] = known
        latest_version = known.pending.version if known.pending else known.version
        if latest_version is not None:
            valid_pairs.append((known.id, latest_version))
        if known.pending is not None:
            (deferred if known.pending.reason == "deferred" else pending).append(known.id)
            reasons.setdefault(known.id, known.pending.reason)
        else:
            unchanged += 1

    present = set(manifest)
    withdrawn = sorted(sid for sid, e in old.items() if sid not in present and e.version is not None)
    for sid in withdrawn:
        reasons[sid] = (
            "rejected (verification: rejected)"
            if sid in withdrawn_rejected
            else "private: never compiled or published"
            if sid in withdrawn_private
            else "removed from the sources"
        )
    for sid, e in old.items():
        if sid not in present and e.version is None:
            bookkeeping.append((sid, "a waiting source that never compiled was removed"))
    settings_changed = False
    if private_globs(baseline) != private_globs_of(config):
        bookkeeping.append(("(settings)", "private settings recorded"))
        settings_changed = True
    if baseline.exists and recorded_sources_dir(baseline) != config.sources_dir:
        bookkeeping.append(("(settings)", "sources folder recorded"))
        settings_changed = True
    if legacy_cited is not None:
        for sid in sorted(legacy_cited):
            if sid not in present and sid not in withdrawn:
                reasons.setdefault(sid, "cited by the legacy snapshot, no longer present")

    return Plan(
        baseline_version=baseline.version,
        baseline_tree=baseline.sources_tree,
        sources_tree=current.tree,
        added=tuple(sorted(added)),
        updated=tuple(sorted(updated)),
        withdrawn=tuple(withdrawn),
        deferred=tuple(sorted(deferred)),
        pending=tuple(sorted(pending)),
        unchanged=unchanged,
        invalid=current.problems,
        bookkeeping=tuple(sorted(bookkeeping)),
        reasons=MappingProxyType(reasons),
        sources=MappingProxyType(to_compile),
        manifest=MappingProxyType(manifest),
        fingerprint=fingerprint(valid_pairs),
        blobs_read=current.blobs_read,
        backfill=legacy_cited is not None and not added and not updated and not withdrawn,
        settings_changed=settings_changed,
    )
